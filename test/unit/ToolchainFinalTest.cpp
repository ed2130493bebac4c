// The toolchain unit tests of what is checked is what is emitted (issue 13, classes 4
// and 5): the final module, the PTX validator on real hardened PTX, the checks after
// code generation. Split from ToolchainTest.cpp (over 1000 lines).
#include "atoll/toolchain/Toolchain.h"
#include "ToolchainInternal.h"
#include "ptx/PtxValidator.h"
#include "atoll/abi.h"
#include "atoll/passes/StraightLine.h"
#include "atoll/passes/HardeningReport.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "TestKernels.h"
#include <gtest/gtest.h>
#include <optional>
#include <regex>
#include <thread>
#include "ToolchainTestSupport.h"


using namespace toolchain_test;


// --- what is checked is what is emitted (issue 13, classes 4 and 5) -----------

namespace {

Atoll::ptx::Expectation expectationOf(const CompiledModule &C) {
  Atoll::ptx::Expectation E;
  E.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  for (const KernelInfo &S : C.kernels)
    E.entries.push_back({S.name, uint32_t(S.params.size())});
  return E;
}

// A kernel with static and dynamic shared memory, a barrier, a local array and a
// constant table: the forms the validator must accept in real hardened PTX.
const std::string SharedAndConst = withHeader(R"(
@tile = internal addrspace(3) global [64 x float] undef, align 4
@dyn = external addrspace(3) global [0 x float], align 16
@tab = internal addrspace(4) constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]
define ptx_kernel void @smem(ptr %out, i32 %j) {
entry:
  %loc = alloca [8 x float], align 4
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 63
  %i64 = zext i32 %i to i64
  %jj = and i32 %j, 3
  %j64 = zext i32 %jj to i64
  %pt = getelementptr [4 x float], ptr addrspace(4) @tab, i64 0, i64 %j64
  %c = load float, ptr addrspace(4) %pt
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %i64
  store float %c, ptr addrspace(3) %ps
  %pd = getelementptr float, ptr addrspace(3) @dyn, i64 %i64
  store float %c, ptr addrspace(3) %pd
  %pl = getelementptr [8 x float], ptr %loc, i64 0, i64 %j64
  store float %c, ptr %pl
  call void @llvm.nvvm.barrier0()
  %v = load float, ptr addrspace(3) %ps
  %w = load float, ptr %pl
  %s = fadd float %v, %w
  %po = getelementptr float, ptr %out, i64 %i64
  store float %s, ptr %po
  ret void
}
declare void @llvm.nvvm.barrier0()
)") + atoll_test::TidDeclaration;

} // namespace

TEST(ToolchainFinal, RealHardenedPtxPassesTheValidator) {
  for (const std::string *IR : {&VecAdd, &SharedAndConst}) {
    for (auto Mode : {Atoll::ClampingMode::MaskBased, Atoll::ClampingMode::ModuloBased}) {
      CompileOptions Opts;
      Opts.Mode = Mode;
      auto C = compileIR(*IR, Opts); // compile() already validates
      ASSERT_TRUE(!!C) << toString(C.takeError());
      EXPECT_FALSE(Atoll::ptx::validate(C->ptx, expectationOf(*C)).has_value());
      // The same PTX with another kernel list, or without the hidden parameters,
      // is refused: the check is not vacuous.
      auto Wrong = expectationOf(*C);
      Wrong.entries.push_back({"phantom", 0});
      EXPECT_TRUE(Atoll::ptx::validate(C->ptx, Wrong).has_value());
      auto NoHidden = expectationOf(*C);
      NoHidden.hiddenParams = 0;
      EXPECT_TRUE(Atoll::ptx::validate(C->ptx, NoHidden).has_value());
    }
  }
}

TEST(ToolchainFinal, SignaturesComeFromTheFinalModule) {
  LLVMContext Ctx;
  auto M = parse(VecAdd, Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  auto Before = kernelSignatures(**M);
  auto C = compileModule(**M, CompileOptions{});
  ASSERT_TRUE(!!C) << toString(C.takeError());
  ASSERT_EQ(C->kernels.size(), 1u);
  EXPECT_EQ(C->kernels[0].name, "vadd");
  ASSERT_EQ(C->kernels[0].params.size(), Before[0].params.size()); // hidden ones left out
  for (size_t I = 0; I < Before[0].params.size(); ++I)
    EXPECT_EQ(C->kernels[0].params[I].type, Before[0].params[I].type);
}

TEST(ToolchainFinal, UnhardenedOrExtraDefinitionsAreCompileErrors) {
  LLVMContext Ctx;
  auto M = parse(withHeader("define void @helper() { ret void }\n" +
                            std::string(atoll_test::VecAddKernel) + atoll_test::TidDeclaration),
                 Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  auto F = failureOf(finalKernelSignatures(**M, /*Hardened=*/true));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_EQ(F->Message, "function 'helper' is still defined after hardening: only hardened "
                        "kernels may reach the PTX");
  (*M)->getFunction("helper")->eraseFromParent();
  F = failureOf(finalKernelSignatures(**M, /*Hardened=*/true));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Message, "kernel 'vadd' was not hardened by atoll-mem");
}

TEST(ToolchainFinal, KernelsWithoutExternalLinkageAreRefused) {
  auto F = failureOf(compileIR(withHeader(R"(
define internal ptx_kernel void @gone(ptr %p) {
  store i32 1, ptr %p
  ret void
}
define ptx_kernel void @kept(ptr %p) {
  store i32 2, ptr %p
  ret void
}
)")));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::Refused);
  EXPECT_EQ(F->Message, "refused: kernel 'gone' does not have external linkage (optimisation "
                        "could delete or rename it)");
}

TEST(ToolchainFinal, WeakAndLinkonceKernelsAreKept) {
  auto C = compileIR(withHeader(R"(
define linkonce_odr ptx_kernel void @tmpl(ptr %p) {
  store i32 1, ptr %p
  ret void
}
define weak_odr ptx_kernel void @tmpl2(ptr %p) {
  store i32 2, ptr %p
  ret void
}
)"));
  ASSERT_TRUE(!!C) << toString(C.takeError());
  ASSERT_EQ(C->kernels.size(), 2u);
  EXPECT_EQ(C->kernels[0].name, "tmpl");
  EXPECT_EQ(C->kernels[1].name, "tmpl2");
  EXPECT_NE(C->ptx.find(".entry tmpl("), std::string::npos);
}

TEST(ToolchainFinal, ValidatorRefusalIsTypedAndNamesTheLine) {
  auto F = failureOf(compileIR(withHeader(R"(
define ptx_kernel void @k(ptr %p) "nvvm.cluster_dim"="2,1,1" {
  store i32 1, ptr %p
  ret void
}
)")));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::Refused);
  EXPECT_NE(F->Message.find("refused by the PTX validator: PTX line "), std::string::npos)
      << F->Message;
  EXPECT_NE(F->Message.find("directive '.explicitcluster' is not allowed on an entry"),
            std::string::npos)
      << F->Message;
}

// R8-F7: a dense switch (6 cases) is what NVPTX lowers to a jump table (brx.idx over
// a .branchtargets list), which the validator refuses: ordinary kernels with a switch
// could not load. The toolchain compiles every function with "no-jump-tables"="true",
// overriding the input's "false", so the kernel compiles in both modes, passes the
// validator, and its PTX has no indirect branch. The same module through the plain
// NVPTX backend has the jump table: the input is one that needs the fix.
const std::string DenseSwitch = withHeader(R"(
define ptx_kernel void @sw(ptr %out, i32 %k, i32 %x) #0 {
entry:
  switch i32 %k, label %def [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
  ]
c0:
  %a0 = add i32 %x, 7
  br label %done
c1:
  %a1 = mul i32 %x, %x
  br label %done
c2:
  %a2 = xor i32 %x, 1515870810
  br label %done
c3:
  %a3 = shl i32 %x, 3
  br label %done
c4:
  %a4 = udiv i32 %x, 9
  br label %done
c5:
  %a5 = sub i32 0, %x
  br label %done
def:
  br label %done
done:
  %r = phi i32 [ %a0, %c0 ], [ %a1, %c1 ], [ %a2, %c2 ], [ %a3, %c3 ], [ %a4, %c4 ], [ %a5, %c5 ], [ 5, %def ]
  store i32 %r, ptr %out
  ret void
}
attributes #0 = { "no-jump-tables"="false" }
)");

TEST(ToolchainFinal, DenseSwitchCompilesWithoutJumpTable) {
  // The plain backend (no toolchain) makes a jump table of this input.
  {
    LLVMContext Ctx;
    auto M = parse(DenseSwitch, Ctx);
    ASSERT_TRUE(!!M) << toString(M.takeError());
    auto TM = Atoll::toolchain::detail::createTargetMachine(CompileOptions{});
    ASSERT_TRUE(!!TM) << toString(TM.takeError());
    SmallString<0> Raw;
    raw_svector_ostream OS(Raw);
    legacy::PassManager PM;
    ASSERT_FALSE((*TM)->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile));
    PM.run(**M);
    std::string RawPTX(Raw.str());
    EXPECT_NE(RawPTX.find("brx.idx"), std::string::npos) << RawPTX;
  }
  // emitPTX alone (no optimisation, no passes): no jump table.
  {
    LLVMContext Ctx;
    auto M = parse(DenseSwitch, Ctx);
    ASSERT_TRUE(!!M) << toString(M.takeError());
    auto PTX = emitPTX(**M, {});
    ASSERT_TRUE(!!PTX) << toString(PTX.takeError());
    EXPECT_EQ(PTX->find("brx"), std::string::npos) << *PTX;
    EXPECT_EQ(PTX->find(".branchtargets"), std::string::npos) << *PTX;
    EXPECT_EQ((*M)->getFunction("sw")->getFnAttribute("no-jump-tables").getValueAsString().str(),
              "true");
  }
  // The whole toolchain, hardened, both modes: accepted by the validator.
  for (auto Mode : {Atoll::ClampingMode::MaskBased, Atoll::ClampingMode::ModuloBased}) {
    CompileOptions Opts;
    Opts.Mode = Mode;
    auto C = compileIR(DenseSwitch, Opts); // compile() validates
    ASSERT_TRUE(!!C) << toString(C.takeError());
    EXPECT_EQ(C->ptx.find("brx"), std::string::npos) << C->ptx;
    EXPECT_EQ(C->ptx.find(".branchtargets"), std::string::npos) << C->ptx;
    EXPECT_FALSE(Atoll::ptx::validate(C->ptx, expectationOf(*C)).has_value());
  }
}

// Every atomic form atoll-mem lets through, in every space, with every ordering and
// scope: atomicrmw (native forms, and forms expanded into compare-and-swap loops),
// cmpxchg, atomic loads and stores, fences, the scoped NVVM intrinsics. The
// toolchain's PTX passes the validator's atom/fence allow-lists in both modes and
// for the sm_100 spelling of fences (PTX ISA 8.6+: fence.acquire/.release), and
// holds the forms the allow-list names (the check is not vacuous). The same IR at
// the cluster scope is refused by the validator (the IR passes do not look at
// scopes), naming the line.
static std::string atomicForms(const std::string &Scopes) {
  std::string IR = "@sm = internal addrspace(3) global [64 x i64] zeroinitializer, align 16\n";
  const char *Orders[] = {"monotonic", "acquire", "release", "acq_rel", "seq_cst"};
  const std::pair<const char *, const char *> Spaces[] = {
      {"global", "ptr addrspace(1) %g"}, {"shared", "ptr addrspace(3) @sm"}, {"generic", "ptr %q"}};
  for (auto [Space, P] : Spaces) {
    for (const char *O : Orders) {
      IR += std::string("define ptx_kernel void @k_") + Space + "_" + O +
            "(ptr addrspace(1) %g, ptr %p, i1 %c) {\n"
            "  %q = select i1 %c, ptr %p, ptr addrspacecast (ptr addrspace(3) @sm to ptr)\n";
      int N = 0;
      auto Emit = [&](const std::string &I) {
        IR += "  %a" + std::to_string(N++) + " = " + I + "\n";
      };
      std::string Ord = O;
      std::string Fail = Ord == "seq_cst"                           ? "seq_cst"
                         : (Ord == "acquire" || Ord == "acq_rel") ? "acquire"
                                                                   : "monotonic";
      for (const std::string &Sc : {std::string(""), Scopes}) {
        auto RMW = [&](const char *Op, const char *Ty, const char *Val, const char *Align) {
          Emit(std::string("atomicrmw ") + Op + " " + P + ", " + Ty + " " + Val + Sc + " " + Ord +
               ", align " + Align);
        };
        // NVPTX prints no ordering or scope on an atomicrmw it keeps: the native
        // forms once; the expanded ones (nand, fmax, half) take both on the CAS.
        if (Sc.empty()) {
          for (const char *Op : {"xchg", "add", "sub", "or", "max", "umin", "udec_wrap"})
            RMW(Op, "i32", "1", "4");
          for (const char *Op : {"xchg", "add", "and", "min"})
            RMW(Op, "i64", "1", "8");
          for (const char *Op : {"or", "add"})
            RMW(Op, "i8", "1", "1");
          for (const char *Op : {"xchg", "fadd"}) {
            RMW(Op, "float", "1.0", "4");
            RMW(Op, "double", "1.0", "8");
          }
          RMW("fadd", "half", "0xH3C00", "2");
          RMW("fadd", "<2 x half>", "<half 0xH3C00, half 0xH3C00>", "4");
        }
        RMW("nand", "i32", "1", "4");
        RMW("fmax", "double", "1.0", "8");
        for (auto [T, A] : {std::pair{"i32", "4"}, {"i64", "8"}, {"i16", "2"}})
          Emit(std::string("cmpxchg ") + P + ", " + T + " 0, " + T + " 1" + Sc + " " + Ord + " " +
               Fail + ", align " + A);
        if (Ord != "release" && Ord != "acq_rel")
          Emit(std::string("load atomic i64, ") + P + Sc + " " + Ord + ", align 8");
        if (Ord != "acquire" && Ord != "acq_rel")
          IR += std::string("  store atomic i32 0, ") + P + Sc + " " + Ord + ", align 4\n";
        if (Ord != "monotonic")
          IR += "  fence" + Sc + " " + Ord + "\n";
      }
      IR += "  ret void\n}\n";
    }
  }
  // The scoped intrinsics (atomicAdd_block, atomicCAS_system) on a generic pointer.
  IR += "define ptx_kernel void @k_nvvm(ptr %p) {\n"
        "  %i1 = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %p, i32 1)\n"
        "  %i2 = call i64 @llvm.nvvm.atomic.exch.gen.i.sys.i64.p0(ptr %p, i64 1)\n"
        "  %i3 = call i64 @llvm.nvvm.atomic.cas.gen.i.sys.i64.p0(ptr %p, i64 0, i64 1)\n"
        "  %i4 = call i32 @llvm.nvvm.atomic.max.gen.i.cta.i32.p0(ptr %p, i32 1)\n"
        "  ret void\n}\n"
        "declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr, i32)\n"
        "declare i64 @llvm.nvvm.atomic.exch.gen.i.sys.i64.p0(ptr, i64)\n"
        "declare i64 @llvm.nvvm.atomic.cas.gen.i.sys.i64.p0(ptr, i64, i64)\n"
        "declare i32 @llvm.nvvm.atomic.max.gen.i.cta.i32.p0(ptr, i32)\n";
  return withHeader(IR);
}

TEST(ToolchainFinal, EveryAtomicFormPassesTheValidator) {
  const std::string IR = atomicForms(" syncscope(\"block\")");
  const std::string IRDevice = atomicForms(" syncscope(\"device\")");
  for (auto Mode : {Atoll::ClampingMode::MaskBased, Atoll::ClampingMode::ModuloBased}) {
    CompileOptions Opts;
    Opts.Mode = Mode;
    auto C = compileIR(IR, Opts); // compile() validates
    ASSERT_TRUE(!!C) << toString(C.takeError());
    EXPECT_FALSE(Atoll::ptx::validate(C->ptx, expectationOf(*C)).has_value());
    for (const char *Form :
         {"atom.global.add.u32", "atom.global.add.u64", "atom.global.add.f32",
          "atom.global.add.f64", "atom.global.and.b64", "atom.global.dec.u32", "atom.global.exch.b64",
          "atom.shared.add.u32", "atom.shared.exch.b64", "atom.shared.dec.u32", "atom.add.u32",
          "atom.exch.b64", "atom.relaxed.sys.global.cas.b32", "atom.acquire.cta.shared.cas.b64",
          "atom.release.cta.cas.b32", "atom.acq_rel.sys.cas.b64", "atom.cta.add.s32",
          "atom.sys.exch.b64", "atom.sys.cas.b64", "atom.cta.max.s32", "ld.acquire.cta.global.b64",
          "st.release.sys.shared.b32"})
      EXPECT_NE(C->ptx.find(std::string(Form) + " "), std::string::npos) << Form;
    for (const char *Form :
         {"fence.sc.cta;", "fence.sc.sys;", "fence.acq_rel.cta;", "fence.acq_rel.sys;"})
      EXPECT_NE(C->ptx.find(Form), std::string::npos) << Form;
    // Expanded, never emitted: shared/generic float adds and 64-bit arithmetic.
    for (const char *Form : {"atom.shared.add.f32", "atom.shared.add.u64", "atom.add.f32",
                             "atom.add.u64", "noftz", "\tred."})
      EXPECT_EQ(C->ptx.find(Form), std::string::npos) << Form;
  }
  // The device scope, with the PTX ISA 8.6 spelling of fences (sm_100).
  CompileOptions Sm100;
  Sm100.GpuArch = "sm_100";
  auto E = compileIR(IRDevice, Sm100);
  ASSERT_TRUE(!!E) << toString(E.takeError());
  EXPECT_NE(E->ptx.find("atom.acq_rel.gpu.shared.cas.b32 "), std::string::npos);
  EXPECT_NE(E->ptx.find("fence.sc.gpu;"), std::string::npos);
  EXPECT_NE(E->ptx.find("fence.acquire.gpu;"), std::string::npos);
  EXPECT_NE(E->ptx.find("fence.release.sys;"), std::string::npos);

  // The cluster scope: refused by atoll-mem, naming the instruction (the validator
  // refuses `.cluster` too: PtxValidator.RefusesClusterBulkTmaAndMbarrier).
  auto F = failureOf(compileIR(withHeader(R"(
define ptx_kernel void @k(ptr addrspace(1) %g) {
  %a = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 syncscope("cluster") acq_rel acquire, align 4
  ret void
}
)")));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::Refused);
  EXPECT_NE(F->Message.find("synchronisation scope syncscope(\"cluster\") is not supported "
                            "(kernels are never launched in clusters)"),
            std::string::npos)
      << F->Message;
}

// R10-F3 (found by review): a volatile atomic at system scope (what
// `__atomic_load_n(volatile unsigned *, __ATOMIC_RELAXED)` gives) is emitted by NVPTX
// as ld.mmio/st.mmio for PTX ISA 8.2 and later: sm_90 with RuntimeOptions::ptxVersion
// "+ptx83", sm_100 by default (8.6), sm_100 with 8.8. Hardened, no mmio form is left
// (atoll-mem drops `volatile` from atomics) and the PTX passes the validator, which
// refuses `.mmio` too (PtxValidator.RefusesLoadStoreQualifiersOutsideTheAllowList).
TEST(ToolchainFinal, VolatileAtomicsNeverBecomeMmio) {
  const std::string IR = withHeader(R"(
define ptx_kernel void @mmio(ptr addrspace(1) %p, ptr addrspace(1) %out) {
  %v = load atomic volatile i32, ptr addrspace(1) %p monotonic, align 4
  %p2 = addrspacecast ptr addrspace(1) %out to ptr
  %w = load atomic volatile i32, ptr %p2 monotonic, align 4
  %q = getelementptr i8, ptr addrspace(1) %p, i64 8
  %x = load atomic volatile i64, ptr addrspace(1) %q unordered, align 8
  %x32 = trunc i64 %x to i32
  %s = add i32 %v, %w
  %t = add i32 %s, %x32
  store atomic volatile i32 %t, ptr addrspace(1) %out monotonic, align 4
  ret void
}
)");
  struct Target {
    const char *Arch, *Ptx;
  };
  for (Target T : {Target{"sm_90", "+ptx83"}, Target{"sm_100", ""}, Target{"sm_100", "+ptx88"}}) {
    for (auto Mode : {Atoll::ClampingMode::MaskBased, Atoll::ClampingMode::ModuloBased}) {
      CompileOptions Opts;
      Opts.GpuArch = T.Arch;
      Opts.PtxVersion = T.Ptx;
      Opts.Mode = Mode;
      auto C = compileIR(IR, Opts); // compile() validates
      ASSERT_TRUE(!!C) << T.Arch << T.Ptx << ": " << toString(C.takeError());
      EXPECT_FALSE(Atoll::ptx::validate(C->ptx, expectationOf(*C)).has_value());
      EXPECT_EQ(C->ptx.find(".mmio"), std::string::npos) << T.Arch << T.Ptx << "\n" << C->ptx;
      // The accesses are still there, as relaxed system-scope atomics.
      EXPECT_NE(C->ptx.find("ld.relaxed.sys.global.b32 "), std::string::npos) << T.Arch << T.Ptx;
      EXPECT_NE(C->ptx.find("ld.relaxed.sys.global.b64 "), std::string::npos) << T.Arch << T.Ptx;
      EXPECT_NE(C->ptx.find("st.relaxed.sys.global.b32 "), std::string::npos) << T.Arch << T.Ptx;
    }
    // Negative control: the same IR without the passes gives the mmio forms, so the
    // test above can fail.
    CompileOptions Native;
    Native.GpuArch = T.Arch;
    Native.PtxVersion = T.Ptx;
    Native.Harden = false;
    auto N = compileIR(IR, Native);
    ASSERT_TRUE(!!N) << toString(N.takeError());
    EXPECT_NE(N->ptx.find("ld.mmio.relaxed.sys.global.b32 "), std::string::npos) << N->ptx;
    EXPECT_NE(N->ptx.find("st.mmio.relaxed.sys.global.b32 "), std::string::npos) << N->ptx;
  }
}

// R2-F2: the check after code generation. A hardened kernel whose cycle has no
// read of the cancel word (a pass bug) is a CompileError; the same cycle with a
// volatile load through the control parameter and an exit, or marked as the pass's
// own bounded loop, passes.
TEST(ToolchainFinal, EveryCycleMustPollAfterCodegen) {
  auto Kernel = [](const char *Body, const char *Extra = "") {
    return withHeader(std::string(R"(
define ptx_kernel void @k(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #0 {
entry:
  br label %loop
loop:
)") + Body + R"(
done:
  ret void
}
attributes #0 = { "atoll-hardened"="mask-based" }
)" + Extra);
  };
  LLVMContext Ctx;
  auto Bad = parse(Kernel("  store i32 1, ptr %p\n  br label %loop\n"), Ctx);
  ASSERT_TRUE(!!Bad) << toString(Bad.takeError());
  auto E = checkCyclesPolled(**Bad);
  auto F = failureOf(std::move(E));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_NE(F->Message.find("kernel 'k': a cycle (header 'loop') has no preemption check after "
                            "code generation"),
            std::string::npos)
      << F->Message;

  auto Good = parse(Kernel(R"(  %c = inttoptr i64 %__atoll_control to ptr addrspace(1)
  %w = load volatile i32, ptr addrspace(1) %c, align 4
  %s = icmp ne i32 %w, 0
  br i1 %s, label %done, label %loop
)"),
                    Ctx);
  ASSERT_TRUE(!!Good) << toString(Good.takeError());
  EXPECT_FALSE(failureOf(checkCyclesPolled(**Good)));

  // A volatile load of another address is not a poll.
  auto Other = parse(Kernel(R"(  %w = load volatile i32, ptr %p, align 4
  %s = icmp ne i32 %w, 0
  br i1 %s, label %done, label %loop
)"),
                     Ctx);
  ASSERT_TRUE(!!Other) << toString(Other.takeError());
  EXPECT_TRUE(failureOf(checkCyclesPolled(**Other)));

  auto Marked = parse(Kernel("  store i32 1, ptr %p\n  br label %loop, !atoll.bounded !0\n",
                             "!0 = !{}\n"),
                      Ctx);
  ASSERT_TRUE(!!Marked) << toString(Marked.takeError());
  EXPECT_FALSE(failureOf(checkCyclesPolled(**Marked)));

  // A marked (charged) inner loop does not excuse the outer cycle around it.
  auto Outer = parse(Kernel(R"(  br label %inner
inner:
  %c = load i1, ptr %p
  br i1 %c, label %inner, label %latch, !atoll.bounded !0
latch:
  br label %loop
)",
                            "!0 = !{}\n"),
                     Ctx);
  ASSERT_TRUE(!!Outer) << toString(Outer.takeError());
  auto FO = failureOf(checkCyclesPolled(**Outer));
  ASSERT_TRUE(FO);
  EXPECT_NE(FO->Message.find("a cycle (header 'loop') has no preemption check"), std::string::npos)
      << FO->Message;
}

// R3-F5 part 2: a loop-free path longer than twice the straight-line budget without
// a poll is refused after code generation; the same path with a poll in the middle
// passes.
TEST(ToolchainFinal, StraightLineBudgetAfterCodegen) {
  const uint64_t Loads = 2 * Atoll::DefaultStraightBudget / Atoll::StraightMemoryWeight + 8;
  auto Kernel = [&](bool PollHalfWay) {
    std::string Body;
    for (uint64_t I = 0; I < Loads; ++I) {
      if (PollHalfWay && I == Loads / 2)
        Body += "  %c = inttoptr i64 %__atoll_control to ptr addrspace(1)\n"
                "  %w = load volatile i32, ptr addrspace(1) %c, align 4\n"
                "  %s = icmp ne i32 %w, 0\n"
                "  br i1 %s, label %done, label %rest\nrest:\n";
      Body += "  %v" + std::to_string(I) + " = load volatile i32, ptr %p, align 4\n";
    }
    return withHeader(R"(
define ptx_kernel void @k(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #0 {
entry:
)" + Body + R"(  br label %done
done:
  ret void
}
attributes #0 = { "atoll-hardened"="mask-based" }
)");
  };
  LLVMContext Ctx;
  auto Bad = parse(Kernel(false), Ctx);
  ASSERT_TRUE(!!Bad) << toString(Bad.takeError());
  auto F = failureOf(checkCyclesPolled(**Bad));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_NE(F->Message.find("kernel 'k': a path without loops (block 'entry') runs more than " +
                            std::to_string(2 * Atoll::DefaultStraightBudget) + " units of work (" +
                            std::to_string(2 * Atoll::DefaultEntryBudget +
                                           Atoll::DefaultStraightBudget) +
                            " from the kernel's entry) without a cancel poll after code "
                            "generation"),
            std::string::npos)
      << F->Message;
  auto Good = parse(Kernel(true), Ctx);
  ASSERT_TRUE(!!Good) << toString(Good.takeError());
  EXPECT_FALSE(failureOf(checkCyclesPolled(**Good)));
}

// The entry budget after codegen (R6-F3, R7-F9): a branch on the entry read (a relaxed
// load at the top, weightless, as is its compare wherever CodeGenPrepare sinks it) ends
// the fresh run; without it the same chain is refused from the entry.
TEST(ToolchainFinal, EntryChecksEndTheFreshRunAfterCodegen) {
  const uint64_t Loads = (2 * Atoll::DefaultEntryBudget + Atoll::DefaultStraightBudget) /
                             Atoll::StraightMemoryWeight + 8;
  auto Kernel = [&](bool EntryCheck) {
    std::string Body = "  %c = inttoptr i64 %__atoll_control to ptr addrspace(1)\n"
                       "  %w = load atomic i32, ptr addrspace(1) %c monotonic, align 4\n";
    for (uint64_t I = 0; I < Loads; ++I) {
      if (EntryCheck && I == 8)
        Body += "  %s = icmp ne i32 %w, 0\n"
                "  br i1 %s, label %done, label %rest\nrest:\n";
      Body += "  %v" + std::to_string(I) + " = load volatile i32, ptr %p, align 4\n";
    }
    return withHeader(R"(
define ptx_kernel void @k(ptr %p, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #0 {
entry:
)" + Body + R"(  br label %done
done:
  ret void
}
attributes #0 = { "atoll-hardened"="mask-based" }
)");
  };
  LLVMContext Ctx;
  auto Bad = parse(Kernel(false), Ctx);
  ASSERT_TRUE(!!Bad) << toString(Bad.takeError());
  auto F = failureOf(checkCyclesPolled(**Bad));
  ASSERT_TRUE(F);
  EXPECT_NE(F->Message.find("from the kernel's entry) without a cancel poll"), std::string::npos)
      << F->Message;
  auto Good = parse(Kernel(true), Ctx);
  ASSERT_TRUE(!!Good) << toString(Good.takeError());
  EXPECT_FALSE(failureOf(checkCyclesPolled(**Good)));
}

// R9-R2-F2: the first-poll flag after code generation. A counted poll branches on
// its flag: fresh read when set, else the entry-read arm, which sets it. The check
// refuses a kernel in which some path can take an arm (a branch on the entry read
// not marked !atoll.entry.check, or the false edge of a branch marked
// !atoll.first.poll) after it took one; a flag it cannot prove set is refused too
// (deny by default). Variants of one hand-written final IR: the flag's web as
// atoll-mem and mem2reg leave it, as or/select/freeze, stuck at false, from a value
// the check cannot decide, the poll on another condition, the arm's own branch
// folded away, and a marked or unmarked entry check that every iteration takes.
TEST(ToolchainFinal, FirstPollFlagIsProvenSetAfterCodegen) {
  struct Shape {
    std::string Arm = "true";   // what the entry-read arm gives the flag
    std::string Join = "";      // instead of the join's phi (the flag after the poll)
    std::string Cond = "%polled"; // what the poll branches on
    std::string Body = "";      // at the top of the loop body
    std::string Mark = "";      // on the poll's branch (the pass marks it)
    std::string ArmBranch = "br i1 %s, label %done, label %join"; // the arm's leave
  };
  auto Kernel = [](const Shape &S) {
    std::string Join = S.Join.empty()
                           ? "  %p2 = phi i1 [ %polled, %fresh ], [ " + S.Arm + ", %entryread ]\n"
                           : S.Join;
    return withHeader(R"(
define ptx_kernel void @k(ptr %p, i32 %n, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) #0 {
entry:
  %ctrl = inttoptr i64 %__atoll_control to ptr addrspace(1)
  %start = load atomic i32, ptr addrspace(1) %ctrl monotonic, align 4
  br label %loop
loop:
  %polled = phi i1 [ false, %entry ], [ %polled.next, %latch ]
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
)" + S.Body + R"(  br label %body
body:
  store i32 %i, ptr %p
  %i1 = add i32 %i, 1
  %m = and i32 %i1, 63
  %due = icmp eq i32 %m, 0
  br i1 %due, label %poll, label %latch
poll:
  br i1 )" + S.Cond + R"(, label %fresh, label %entryread)" + S.Mark + R"(
fresh:
  %w = load volatile i32, ptr addrspace(1) %ctrl, align 4
  %c = icmp ne i32 %w, 0
  br i1 %c, label %done, label %join
entryread:
  %s = icmp ne i32 %start, 0
  )" + S.ArmBranch + R"(
join:
  %arm = phi i1 [ false, %fresh ], [ true, %entryread ]
)" + Join + R"(  br label %latch
latch:
  %polled.next = phi i1 [ %polled, %body ], [ %p2, %join ]
  %e = icmp slt i32 %i1, %n
  br i1 %e, label %loop, label %done
done:
  ret void
}
attributes #0 = { "atoll-hardened"="mask-based" }
!0 = !{}
)");
  };
  const std::string Refused = "kernel 'k': block 'poll' can take the entry read again after the "
                              "thread's first poll (its first-poll flag is not proven set) after "
                              "code generation (a bug in the AToLL passes)";
  auto Check = [&](const Shape &S) {
    LLVMContext Ctx;
    auto M = parse(Kernel(S), Ctx);
    EXPECT_TRUE(!!M) << toString(M.takeError());
    return M ? failureOf(checkCyclesPolled(**M)) : std::nullopt;
  };
  // As the pass leaves it: accepted.
  EXPECT_FALSE(Check({}));
  // The flag after the poll as `or` or `select` of the arm taken: accepted.
  EXPECT_FALSE(Check({.Join = "  %p2 = or i1 %polled, %arm\n"}));
  EXPECT_FALSE(Check({.Join = "  %p2 = select i1 %arm, i1 true, i1 %polled\n"}));
  EXPECT_FALSE(Check({.Cond = "%pf", .Body = "  %pf = freeze i1 %polled\n"}));
  // The arm leaves the flag false (the fault injection's shape), or sets it to a
  // value the check cannot decide (%n > 0): refused, naming the poll.
  for (const std::string Arm : {"false", "%big"}) {
    Shape S{.Arm = Arm};
    S.Body = "  %big = icmp sgt i32 %n, 0\n";
    auto F = Check(S);
    ASSERT_TRUE(F) << Arm;
    EXPECT_EQ(F->Kind, FailureKind::CompileError);
    EXPECT_NE(F->Message.find(Refused), std::string::npos) << F->Message;
  }
  // The poll branches on something other than the flag: refused.
  {
    Shape S{.Cond = "%big", .Body = "  %big = icmp sgt i32 %n, 0\n"};
    auto F = Check(S);
    ASSERT_TRUE(F);
    EXPECT_NE(F->Message.find(Refused), std::string::npos) << F->Message;
  }
  // The arm's branch on the entry read folded away (an entry check above it tested
  // the read): the marked flag branch's false edge is the arm's.
  const std::string Marked = ", !atoll.first.poll !0";
  EXPECT_FALSE(Check({.Mark = Marked, .ArmBranch = "br label %join"}));
  {
    Shape S{.Arm = "%big", .Body = "  %big = icmp sgt i32 %n, 0\n", .Mark = Marked,
            .ArmBranch = "br label %join"};
    auto F = Check(S);
    ASSERT_TRUE(F);
    EXPECT_NE(F->Message.find(Refused), std::string::npos) << F->Message;
  }
  // An entry check that every iteration takes: accepted when marked repeatable (the
  // charge check, the straight-line budget's), else it is an arm taken again.
  auto EntryCheck = [](const char *Mark) {
    return std::string("  %s0 = icmp ne i32 %start, 0\n  br i1 %s0, label %done, label %go") +
           Mark + "\ngo:\n";
  };
  EXPECT_FALSE(Check({.Body = EntryCheck(", !atoll.entry.check !0")}));
  {
    auto F = Check({.Body = EntryCheck("")});
    ASSERT_TRUE(F);
    EXPECT_NE(F->Message.find("kernel 'k': block 'poll' can take the entry read again"),
              std::string::npos)
        << F->Message;
  }
}
