// The toolchain from bitcode/IR to PTX, without a GPU: typed parse errors, target
// and kernel checks, signatures, libdevice + NVVMReflect, PTX text, no traps, and
// concurrent use. Inputs are IR strings in this file, so the test needs no files.
#include "atoll/toolchain/Toolchain.h"
#include "ToolchainInternal.h"
#include "ptx/PtxValidator.h"

#include "atoll/abi.h"
#include "atoll/passes/StraightLine.h"
#include "atoll/passes/HardeningReport.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include "TestKernels.h"

#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <thread>
#include "ToolchainTestSupport.h"


using namespace toolchain_test;

namespace {


// --- parseModule --------------------------------------------------------------

TEST(ToolchainParse, AcceptsTextualIR) {
  LLVMContext Ctx;
  auto M = parse(VecAdd, Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  EXPECT_NE((*M)->getFunction("vadd"), nullptr);
}

TEST(ToolchainParse, AcceptsBitcode) {
  std::string BC = bitcodeOf(VecAdd);
  LLVMContext Ctx;
  auto M = parseModule(MemoryBufferRef(BC, "test.bc"), Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  EXPECT_NE((*M)->getFunction("vadd"), nullptr);
}

TEST(ToolchainParse, EmptyInputIsInvalid) {
  LLVMContext Ctx;
  auto F = failureOf(parse("", Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("empty input"), std::string::npos) << F->Message;
}

TEST(ToolchainParse, BinaryGarbageIsInvalid) {
  LLVMContext Ctx;
  std::string Garbage("\x7f" "ELF\x02\x01\x01\x00\x00\x00", 10);
  auto F = failureOf(parse(Garbage, Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("not LLVM bitcode or textual IR"), std::string::npos);
}

TEST(ToolchainParse, MalformedTextNamesLineAndColumn) {
  LLVMContext Ctx;
  auto F = failureOf(parse(withHeader("define ptx_kernel void @k( {\n"), Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("malformed IR at line 5, column 1"), std::string::npos) << F->Message;
  EXPECT_FALSE(F->Diagnostics.empty());
}

TEST(ToolchainParse, TruncatedBitcodeIsInvalid) {
  std::string BC = bitcodeOf(VecAdd);
  ASSERT_GT(BC.size(), 100u);
  LLVMContext Ctx;
  auto F = failureOf(parseModule(MemoryBufferRef(StringRef(BC).take_front(100), "t.bc"), Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("malformed bitcode"), std::string::npos) << F->Message;
}

TEST(ToolchainParse, VerifierFailureIsInvalid) {
  LLVMContext Ctx;
  auto F = failureOf(parse(withHeader(R"(
define ptx_kernel void @k() {
entry:
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret void
}
)"),
                           Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("not valid LLVM IR"), std::string::npos) << F->Message;
}

TEST(ToolchainParse, WrongTripleNamesIt) {
  LLVMContext Ctx;
  auto F = failureOf(parse(R"(
target triple = "x86_64-unknown-linux-gnu"
define void @k() { ret void }
)",
                           Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::WrongTarget);
  EXPECT_NE(F->Message.find("x86_64-unknown-linux-gnu"), std::string::npos) << F->Message;
}

TEST(ToolchainParse, Nvptx32IsWrongTarget) {
  LLVMContext Ctx;
  auto F = failureOf(parse(R"(
target triple = "nvptx-nvidia-cuda"
define ptx_kernel void @k() { ret void }
)",
                           Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::WrongTarget);
}

TEST(ToolchainParse, MissingTripleIsWrongTarget) {
  LLVMContext Ctx;
  auto F = failureOf(parse("define ptx_kernel void @k() { ret void }\n", Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::WrongTarget);
  EXPECT_NE(F->Message.find("no target triple"), std::string::npos) << F->Message;
}

TEST(ToolchainParse, NoKernelsIsInvalid) {
  LLVMContext Ctx;
  auto F = failureOf(parse(withHeader("define void @helper() { ret void }\n"), Ctx));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("no kernels"), std::string::npos) << F->Message;
}

TEST(ToolchainParse, NvvmAnnotationKernelIsAKernel) {
  LLVMContext Ctx;
  auto M = parse(withHeader(R"(
define void @annotated() { ret void }
!nvvm.annotations = !{!0}
!0 = !{ptr @annotated, !"kernel", i32 1}
)"),
                 Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  auto Sigs = kernelSignatures(**M);
  ASSERT_EQ(Sigs.size(), 1u);
  EXPECT_EQ(Sigs[0].name, "annotated");
}

// --- kernelSignatures ---------------------------------------------------------

TEST(ToolchainSignatures, KindsSizesAndSignedness) {
  LLVMContext Ctx;
  auto M = parse(withHeader(R"(
%struct.S = type { i32, double, [3 x i8] }
define void @not_a_kernel(ptr %p) { ret void }
define ptx_kernel void @k(ptr %p, ptr addrspace(1) %g, i32 signext %i, i8 zeroext %u,
                          float %f, double %d, half %h, i64 %l,
                          ptr byval(%struct.S) align 8 %s, i1 %flag) {
  ret void
}
)"),
                 Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  auto Sigs = kernelSignatures(**M);
  ASSERT_EQ(Sigs.size(), 1u);
  const KernelInfo &S = Sigs[0];
  EXPECT_EQ(S.name, "k");
  ASSERT_EQ(S.params.size(), 10u);
  using K = ParamKind;
  struct Want {
    K Kind;
    uint32_t Size, Align;
    const char *Type;
    bool Float, Signed;
  } W[] = {
      {K::Pointer, 8, 8, "ptr", false, false},
      {K::Pointer, 8, 8, "ptr addrspace(1)", false, false},
      {K::Scalar, 4, 4, "i32", false, true},
      {K::Scalar, 1, 1, "i8", false, false},
      {K::Scalar, 4, 4, "float", true, false},
      {K::Scalar, 8, 8, "double", true, false},
      {K::Scalar, 2, 2, "half", true, false},
      {K::Scalar, 8, 8, "i64", false, false},
      {K::ByVal, 24, 8, "%struct.S", false, false},
      {K::Scalar, 1, 1, "i1", false, false},
  };
  for (size_t I = 0; I < std::size(W); ++I) {
    SCOPED_TRACE("param " + std::to_string(I));
    const ParamInfo &P = S.params[I];
    EXPECT_EQ(P.kind, W[I].Kind);
    EXPECT_EQ(P.size, W[I].Size);
    EXPECT_EQ(P.align, W[I].Align);
    EXPECT_EQ(P.type, W[I].Type);
    EXPECT_EQ(P.isFloat, W[I].Float);
    EXPECT_EQ(P.isSigned, W[I].Signed);
  }
}

TEST(ToolchainSignatures, VectorParamsAreSizedLikeTheirPtxParam) {
  // <3 x float> is a 16-byte .param (its allocation size); recording its store size
  // (12) made the launch read 4 bytes past the caller's value.
  auto C = compileIR(withHeader(R"(
define ptx_kernel void @v(<3 x float> %v, <3 x i16> %s, ptr addrspace(1) %out) {
  %x = extractelement <3 x float> %v, i32 2
  store float %x, ptr addrspace(1) %out
  ret void
}
)"));
  ASSERT_TRUE(!!C) << toString(C.takeError());
  ASSERT_EQ(C->kernels.size(), 1u);
  const auto &P = C->kernels[0].params;
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P[0].size, 16u);
  EXPECT_EQ(P[0].type, "<3 x float>");
  EXPECT_EQ(P[1].size, 8u);
  EXPECT_NE(C->ptx.find("v_param_0[16]"), std::string::npos) << C->ptx;
  EXPECT_NE(C->ptx.find("v_param_1[8]"), std::string::npos) << C->ptx;
}

TEST(ToolchainSignatures, CompileReportsTenantVisibleParamsOnly) {
  auto C = compileIR(VecAdd);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  ASSERT_EQ(C->kernels.size(), 1u);
  EXPECT_EQ(C->kernels[0].name, "vadd");
  // The hidden arena parameters are appended by the pass, never part of the
  // signature the runtime validates tenant arguments against.
  EXPECT_EQ(C->kernels[0].params.size(), 4u);
}

/// The byte size of each `.param` of the PTX entry, by position: `.b8 x[N]` is N,
/// a scalar `.u16`/`.f32`/... its width, a pointer 8.
std::vector<uint64_t> ptxParamSizes(const std::string &PTX) {
  std::vector<uint64_t> Sizes;
  std::regex Decl(R"(\.param\s+(?:\.align\s+\d+\s+)?\.([a-z]+)(\d+)[^\n]*?\b\w+_param_(\d+)(?:\[(\d+)\])?)");
  for (std::sregex_iterator It(PTX.begin(), PTX.end(), Decl), End; It != End; ++It) {
    const std::smatch &Mt = *It;
    size_t Idx = std::stoul(Mt[3]);
    uint64_t Bytes = Mt[4].matched ? std::stoull(Mt[4]) : std::stoull(Mt[2]) / 8;
    if (Sizes.size() <= Idx)
      Sizes.resize(Idx + 1, 0);
    Sizes[Idx] = Bytes;
  }
  return Sizes;
}

// Found by review (F3): the runtime packs the bytes the signature records; the
// kernel reads the bytes its PTX .param declares. Every parameter type atoll-mem
// accepts must agree, or the driver reads past the caller's buffer.
TEST(ToolchainSignatures, SizeIsThePtxParamSize) {
  const char *Types[] = {
      "i1", "i8", "i16", "i32", "i64", "i128", "half", "bfloat", "float", "double",
      "<2 x i8>", "<3 x i8>", "<3 x i32>", "<3 x float>", "<3 x half>", "<3 x double>",
      "<2 x half>", "<2 x bfloat>", "<4 x i16>", "<5 x i16>", "<16 x i8>", "<4 x float>",
      "<1 x i64>", "<2 x double>", "{ i8, i64 }", "[3 x i16]", "{ i1, i8 }", "[2 x i1]",
      "{ <3 x i32>, i8 }", "<2 x ptr>", "<3 x ptr>", "[2 x <3 x i8>]", "{ half, <3 x i16> }",
      "ptr", "ptr addrspace(1)", "ptr byval({ i8, i64 }) align 8",
      "ptr byval([64 x { i8, i64 }]) align 8", "ptr byval(<3 x i32>) align 16",
      "i8 signext", "i16 zeroext"};
  std::string Params;
  for (size_t I = 0; I < std::size(Types); ++I)
    Params += (I ? ", " : "") + std::string(Types[I]) + " %a" + std::to_string(I);
  std::string IR = withHeader("define ptx_kernel void @k(" + Params + ") {\n  ret void\n}\n");
  for (bool Harden : {true, false}) {
    SCOPED_TRACE(Harden ? "hardened" : "native");
    CompileOptions Opts;
    Opts.Harden = Harden;
    auto C = compileIR(IR, Opts);
    ASSERT_TRUE(!!C) << toString(C.takeError());
    ASSERT_EQ(C->kernels.size(), 1u);
    const auto &Sig = C->kernels[0].params;
    ASSERT_EQ(Sig.size(), std::size(Types));
    std::vector<uint64_t> PtxSizes = ptxParamSizes(C->ptx);
    ASSERT_GE(PtxSizes.size(), Sig.size()) << C->ptx;
    for (size_t I = 0; I < Sig.size(); ++I)
      EXPECT_EQ(Sig[I].size, PtxSizes[I]) << "parameter " << I << ": " << Types[I];
  }
}

// Found by review (F3): without a layout, sizes were read with LLVM's default
// (i64 ABI align 4: {i8, i64} is 12 bytes, in PTX 16).
TEST(ToolchainParse, MissingDataLayoutGetsTheTargets) {
  LLVMContext Ctx;
  auto M = parse(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr byval([64 x {i8, i64}]) align 8 %s, {i8, i64} %d) {
  ret void
}
)",
                 Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  EXPECT_EQ((*M)->getDataLayoutStr(), std::string(Triple("nvptx64-nvidia-cuda").computeDataLayout()));
  auto Sigs = kernelSignatures(**M);
  ASSERT_EQ(Sigs.size(), 1u);
  EXPECT_EQ(Sigs[0].params[0].size, 1024u);
  EXPECT_EQ(Sigs[0].params[1].size, 16u);
}

TEST(ToolchainParse, OtherDataLayoutIsRefused) {
  for (const char *DL : {"e-i64:32-n16:32:64", "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64-A5",
                         "E-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"}) {
    SCOPED_TRACE(DL);
    std::string IR = "target datalayout = \"" + std::string(DL) +
                     "\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n" + atoll_test::VecAddKernel +
                     atoll_test::TidDeclaration;
    auto F = failureOf(compileIR(IR));
    ASSERT_TRUE(F.has_value());
    EXPECT_EQ(F->Kind, FailureKind::Refused);
    EXPECT_NE(F->Message.find("refused: the module's data layout '" + std::string(DL) +
                              "' is not the NVPTX target's"),
              std::string::npos)
        << F->Message;
  }
  // The exact target layout is accepted (the positive case of the rule).
  EXPECT_TRUE(!!compileIR(VecAdd));
}

// --- compile / emitPTX --------------------------------------------------------

TEST(ToolchainPTX, VectorAddGivesAnEntryForSm90) {
  auto C = compileIR(VecAdd);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  const std::string &PTX = C->ptx;
  EXPECT_NE(PTX.find(".target sm_90"), std::string::npos) << PTX;
  EXPECT_NE(PTX.find(".address_size 64"), std::string::npos);
  EXPECT_NE(PTX.find(".visible .entry vadd("), std::string::npos) << PTX;
  // The tenant's four parameters, then the hidden arena base, size and control block.
  EXPECT_NE(PTX.find(".param .u32 vadd_param_3"), std::string::npos) << PTX;
  EXPECT_NE(PTX.find(".param .u64 vadd_param_4"), std::string::npos) << PTX;
  EXPECT_NE(PTX.find(".param .u64 vadd_param_5"), std::string::npos) << PTX;
  EXPECT_NE(PTX.find(".param .u64 vadd_param_6"), std::string::npos) << PTX;
  EXPECT_EQ(PTX.find("vadd_param_7"), std::string::npos) << PTX;
  EXPECT_EQ(PTX.find("trap"), std::string::npos) << PTX;
  EXPECT_NE(PTX.find("st.global.b32"), std::string::npos) << PTX;
}

TEST(ToolchainPTX, GpuArchAndPtxVersionAreHonoured) {
  CompileOptions Opts;
  Opts.GpuArch = "sm_80";
  Opts.PtxVersion = "+ptx80";
  auto C = compileIR(VecAdd, Opts);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_NE(C->ptx.find(".target sm_80"), std::string::npos);
  EXPECT_NE(C->ptx.find(".version 8.0"), std::string::npos);
}

TEST(ToolchainPTX, UnknownGpuArchIsCompileError) {
  CompileOptions Opts;
  Opts.GpuArch = "sm_bogus";
  auto F = failureOf(compileIR(VecAdd, Opts));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_NE(F->Message.find("sm_bogus"), std::string::npos) << F->Message;
}

TEST(ToolchainPTX, UnknownPtxFeatureIsCompileError) {
  CompileOptions Opts;
  Opts.PtxVersion = "+ptx999";
  auto F = failureOf(compileIR(VecAdd, Opts));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_NE(F->Message.find("ptx999"), std::string::npos) << F->Message;
}

TEST(ToolchainPTX, InvalidOptLevelIsCompileError) {
  CompileOptions Opts;
  Opts.OptLevel = 7;
  auto F = failureOf(compileIR(VecAdd, Opts));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
}

TEST(ToolchainPTX, EveryOptLevelCompiles) {
  for (unsigned L = 0; L <= 3; ++L) {
    CompileOptions Opts;
    Opts.OptLevel = L;
    auto C = compileIR(VecAdd, Opts);
    ASSERT_TRUE(!!C) << "O" << L << ": " << toString(C.takeError());
    EXPECT_NE(C->ptx.find(".entry vadd"), std::string::npos);
  }
}

const std::string Unreachable = withHeader(R"(
declare void @abort_like() noreturn
define ptx_kernel void @k(ptr %p, i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %dead, label %maybe
dead:
  unreachable
maybe:
  %d = icmp eq i32 %x, 1
  br i1 %d, label %noret, label %ok
noret:
  call void @abort_like()
  unreachable
ok:
  store i32 %x, ptr %p
  ret void
}
)");

TEST(ToolchainPTX, UnreachableNeverBecomesTrap) {
  // 'trap' poisons the shared CUDA context; unreachable code must end in 'exit'.
  // emitPTX straight from the parsed module, so that no optimisation removes the
  // unreachable blocks before the backend sees them.
  LLVMContext Ctx;
  auto M = parse(Unreachable, Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  auto PTX = emitPTX(**M, {});
  ASSERT_TRUE(!!PTX) << toString(PTX.takeError());
  EXPECT_EQ(PTX->find("trap"), std::string::npos) << *PTX;
  EXPECT_NE(PTX->find("exit;"), std::string::npos) << *PTX;
}

TEST(ToolchainPTX, UnreachableAfterOptimisationHasNoTrap) {
  CompileOptions Opts;
  Opts.Harden = false; // the call to an external function is not what is tested
  auto C = compileIR(Unreachable, Opts);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_EQ(C->ptx.find("trap"), std::string::npos) << C->ptx;
}

// The preemption checks survive the whole toolchain (optimisation before the passes,
// codegen after): a loop gets the cancel poll and the fuel exit in the PTX, a
// loop-free kernel only the entry poll, and Preempt = false (benchmarks only)
// removes them.
const std::string RegisterSpin = withHeader(R"(
define ptx_kernel void @spin(ptr %p, i32 %seed) {
entry:
  br label %loop
loop:
  %v = phi i32 [ %seed, %entry ], [ %v1, %loop ]
  %v1 = mul i32 %v, 3
  %c = icmp ne i32 %v1, 0
  br i1 %c, label %loop, label %exit
exit:
  store i32 %v1, ptr %p
  ret void
}
)");

TEST(ToolchainPTX, PreemptionChecksReachThePtx) {
  auto C = compileIR(RegisterSpin);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_NE(C->ptx.find("ld.volatile.global.b32"), std::string::npos) << C->ptx;
  EXPECT_NE(C->ptx.find("atom.global.or.b32"), std::string::npos) << C->ptx;
  EXPECT_NE(C->ptx.find(".param .u64 spin_param_4"), std::string::npos) << C->ptx;

  CompileOptions Off;
  Off.Preempt = false;
  auto N = compileIR(RegisterSpin, Off);
  ASSERT_TRUE(!!N) << toString(N.takeError());
  EXPECT_EQ(N->ptx.find("ld.volatile.global"), std::string::npos) << N->ptx;
  EXPECT_EQ(N->ptx.find("atom.global.or"), std::string::npos) << N->ptx;
  EXPECT_NE(N->ptx.find(".param .u64 spin_param_4"), std::string::npos)
      << "the ABI is the same without the checks";

  // A loop-free kernel: no check at all (the entry poll is off by default: it made
  // streaming kernels up to 3.4x slower on the H200; the block cap bounds the drain).
  auto V = compileIR(VecAdd);
  ASSERT_TRUE(!!V) << toString(V.takeError());
  EXPECT_EQ(V->ptx.find("ld.volatile.global"), std::string::npos) << V->ptx;
  EXPECT_EQ(V->ptx.find("atom.global.or"), std::string::npos) << V->ptx;
}

TEST(ToolchainPTX, BackendFatalErrorIsCompileErrorNotExit) {
  // An sm_100 intrinsic on sm_90: instruction selection calls report_fatal_error,
  // which would end the whole service without crash recovery.
  const std::string Sm100Only = withHeader(R"(
define ptx_kernel void @k(ptr %p, float %a, float %b) {
  %r = call i16 @llvm.nvvm.ff.to.e2m3x2.rn.satfinite(float %a, float %b)
  store i16 %r, ptr %p
  ret void
}
declare i16 @llvm.nvvm.ff.to.e2m3x2.rn.satfinite(float, float)
)");
  for (int Round = 0; Round < 2; ++Round) {
    auto F = failureOf(compileIR(Sm100Only));
    ASSERT_TRUE(F);
    EXPECT_EQ(F->Kind, FailureKind::CompileError);
    EXPECT_NE(F->Message.find("Cannot select"), std::string::npos) << F->Message;
    // ... and the toolchain keeps working afterwards.
    auto C = compileIR(VecAdd);
    EXPECT_TRUE(!!C) << toString(C.takeError());
  }
}

// A fatal *usage* error of LLVM (report_fatal_error without crash diagnostics)
// calls exit(1), which no CrashRecoveryContext catches: NVPTX's "does not support
// syncscope" ended the whole process (found in session 9). The toolchain's handler
// leaves the step itself: a CompileError with LLVM's reason, and the toolchain keeps
// working. Unhardened here (atoll-mem refuses the scope first: lit sync-scopes.ll).
TEST(ToolchainPTX, BackendUsageErrorIsCompileErrorNotExit) {
  const std::string UnknownScope = withHeader(R"(
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %a = cmpxchg ptr addrspace(1) %p, i32 0, i32 1 syncscope("foo") monotonic monotonic, align 4
  ret void
}
)");
  CompileOptions Opts;
  Opts.Harden = false;
  for (int Round = 0; Round < 2; ++Round) {
    auto F = failureOf(compileIR(UnknownScope, Opts));
    ASSERT_TRUE(F);
    EXPECT_EQ(F->Kind, FailureKind::CompileError);
    EXPECT_NE(F->Message.find("failed inside LLVM: NVPTX backend does not support syncscope"),
              std::string::npos)
        << F->Message;
    auto C = compileIR(VecAdd);
    EXPECT_TRUE(!!C) << toString(C.takeError());
  }
}

TEST(ToolchainPTX, SameInputGivesSamePTX) {
  auto A = compileIR(VecAdd);
  auto B = compileIR(VecAdd);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->ptx, B->ptx);
}

TEST(ToolchainPTX, BitcodeAndTextGiveSamePTX) {
  std::string BC = bitcodeOf(VecAdd);
  auto A = compileIR(VecAdd);
  auto B = compile(MemoryBufferRef(BC, "vadd.bc"), {});
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->ptx, B->ptx);
}

TEST(ToolchainPTX, NativeBaselineSkipsHardening) {
  CompileOptions Opts;
  Opts.Harden = false;
  auto C = compileIR(VecAdd, Opts);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_NE(C->ptx.find("vadd_param_3"), std::string::npos);
  EXPECT_EQ(C->ptx.find("vadd_param_4"), std::string::npos) << C->ptx;
}

TEST(ToolchainPTX, ConcurrentCompilesAgree) {
  // The runtime compiles from many threads: one context per call, target init once.
  auto Reference = compileIR(VecAdd);
  ASSERT_TRUE(!!Reference) << toString(Reference.takeError());
  constexpr int N = 6;
  std::vector<std::string> Out(N);
  std::vector<std::thread> Threads;
  for (int I = 0; I < N; ++I)
    Threads.emplace_back([&, I] {
      auto C = compileIR(VecAdd);
      Out[I] = C ? C->ptx : "error: " + toString(C.takeError());
    });
  for (std::thread &T : Threads)
    T.join();
  for (const std::string &P : Out)
    EXPECT_EQ(P, Reference->ptx);
}

// --- libdevice and NVVMReflect ------------------------------------------------

const std::string SinKernel = withHeader(R"(
define ptx_kernel void @sin_kernel(ptr %out, float %x) {
  %s = call float @__nv_sinf(float %x)
  store float %s, ptr %out, align 4
  ret void
}
declare float @__nv_sinf(float)
)");

TEST(ToolchainLibdevice, SinfIsLinkedAndReflectFolded) {
  LLVMContext Ctx;
  auto M = parse(SinKernel, Ctx);
  ASSERT_TRUE(!!M) << toString(M.takeError());
  ASSERT_FALSE(errorToBool(prepareModule(**M, {})));
  const Module &Mod = **M;
  // Linked and inlined: no call to a __nv_ function is left.
  for (const Function &F : Mod.functions()) {
    if (F.getName().starts_with("__nv_")) {
      EXPECT_TRUE(F.use_empty()) << F.getName().str();
    }
    if (F.getName() == "__nvvm_reflect" || F.getName() == "llvm.nvvm.reflect") {
      EXPECT_TRUE(F.use_empty()) << F.getName().str();
    }
  }
  EXPECT_NE(Mod.getModuleFlag("nvvm-reflect-ftz"), nullptr);
  // Only the kernel stays external.
  for (const Function &F : Mod.functions()) {
    if (!F.isDeclaration() && F.getName() != "sin_kernel") {
      EXPECT_TRUE(F.hasLocalLinkage()) << F.getName().str();
    }
  }
}

TEST(ToolchainLibdevice, PTXHasNoLibdeviceCall) {
  auto C = compileIR(SinKernel);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_EQ(C->ptx.find("__nv_sinf"), std::string::npos) << C->ptx;
  EXPECT_EQ(C->ptx.find("__nvvm_reflect"), std::string::npos);
  EXPECT_EQ(C->ptx.find(".extern"), std::string::npos) << C->ptx;
  EXPECT_NE(C->ptx.find(".visible .entry sin_kernel("), std::string::npos);
}

TEST(ToolchainLibdevice, MissingLibdeviceIsCompileError) {
  CompileOptions Opts;
  Opts.LibdevicePath = "/nonexistent/libdevice.10.bc";
  auto F = failureOf(compileIR(SinKernel, Opts));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_NE(F->Message.find("/nonexistent/libdevice.10.bc"), std::string::npos) << F->Message;
}

TEST(ToolchainLibdevice, NotLinkedWithoutNvCalls) {
  // A module without __nv_ calls must not need libdevice at all.
  CompileOptions Opts;
  Opts.LibdevicePath = "/nonexistent/libdevice.10.bc";
  auto C = compileIR(VecAdd, Opts);
  EXPECT_TRUE(!!C) << toString(C.takeError());
}

TEST(ToolchainLibdevice, UnknownNvFunctionIsInvalidInput) {
  auto F = failureOf(compileIR(withHeader(R"(
define ptx_kernel void @k(ptr %out, float %x) {
  %s = call float @__nv_no_such_function(float %x)
  store float %s, ptr %out, align 4
  ret void
}
declare float @__nv_no_such_function(float)
)")));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::InvalidInput);
  EXPECT_NE(F->Message.find("__nv_no_such_function"), std::string::npos) << F->Message;
}

// --- hardening ----------------------------------------------------------------

const std::string AsmStores = withHeader(R"(
define ptx_kernel void @evil(ptr %p) !dbg !5 {
  call void asm sideeffect "st.global.u32 [$0], 1;", "l,~{memory}"(ptr %p), !dbg !8
  call void asm sideeffect "st.global.u32 [$0], 2;", "l,~{memory}"(ptr %p), !dbg !9
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "attack.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "evil", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 3, scope: !5)
!9 = !DILocation(line: 5, column: 3, scope: !5)
)");

TEST(ToolchainHarden, KernelGetsHiddenParamsAndModeAttribute) {
  for (auto [Mode, Name] : {std::pair{Atoll::ClampingMode::MaskBased, ATOLL_MODE_MASK},
                            std::pair{Atoll::ClampingMode::ModuloBased, ATOLL_MODE_MODULO}}) {
    LLVMContext Ctx;
    auto M = parse(VecAdd, Ctx);
    ASSERT_TRUE(!!M);
    CompileOptions Opts;
    Opts.Mode = Mode;
    ASSERT_FALSE(errorToBool(hardenModule(**M, Opts)));
    Function *K = (*M)->getFunction("vadd");
    ASSERT_NE(K, nullptr);
    ASSERT_EQ(K->arg_size(), 4 + ATOLL_HIDDEN_PARAM_COUNT);
    EXPECT_EQ(K->getArg(4 + ATOLL_HIDDEN_ARENA_BASE_INDEX)->getName(),
              ATOLL_HIDDEN_ARENA_BASE_NAME);
    EXPECT_EQ(K->getArg(4 + ATOLL_HIDDEN_ARENA_SIZE_INDEX)->getName(),
              ATOLL_HIDDEN_ARENA_SIZE_NAME);
    EXPECT_EQ(K->getFnAttribute(ATOLL_HARDENED_ATTR).getValueAsString(), Name);
  }
}

TEST(ToolchainHarden, RefusalIsTypedWithEveryDiagnostic) {
  Atoll::HardeningReport Report;
  CompileOptions Opts;
  Opts.Report = &Report;
  auto F = failureOf(compileIR(AsmStores, Opts));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::Refused);
  // One line per refusal, LLVM format, naming location, kernel and instruction.
  SmallVector<StringRef, 4> Lines;
  StringRef(F->Diagnostics).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(Lines.size(), 2u) << F->Diagnostics;
  EXPECT_TRUE(Lines[0].starts_with("error: attack.cu:4:3: atoll-mem: refused in 'evil': "))
      << Lines[0].str();
  EXPECT_NE(Lines[0].find("st.global.u32 [$0], 1;"), StringRef::npos) << Lines[0].str();
  EXPECT_TRUE(Lines[1].starts_with("error: attack.cu:5:3: ")) << Lines[1].str();
  // The message is one line: the first refusal and how many more.
  EXPECT_EQ(F->Message.find('\n'), std::string::npos);
  EXPECT_NE(F->Message.find("attack.cu:4:3"), std::string::npos) << F->Message;
  EXPECT_NE(F->Message.find("(and 1 more)"), std::string::npos) << F->Message;
  EXPECT_EQ(Report.count(Atoll::Outcome::Refused), 2u);
}

TEST(ToolchainHarden, RefusalRestoresTheCallersHandler) {
  LLVMContext Ctx;
  auto M = parse(AsmStores, Ctx);
  ASSERT_TRUE(!!M);
  const DiagnosticHandler *Before = Ctx.getDiagHandlerPtr();
  auto F = failureOf(hardenModule(**M, {}));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::Refused);
  EXPECT_EQ(Ctx.getDiagHandlerPtr(), Before);
}

TEST(ToolchainHarden, ReportIsFilledForAcceptedModules) {
  Atoll::HardeningReport Report;
  CompileOptions Opts;
  Opts.Report = &Report;
  auto C = compileIR(VecAdd, Opts);
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_FALSE(Report.hasRefusals());
  EXPECT_GE(Report.count(Atoll::Outcome::Confined), 1u);
}

// --- diagnostics --------------------------------------------------------------

TEST(ToolchainDiagnostics, CollectorRecordsErrorsAndRestoresHandler) {
  LLVMContext Ctx;
  const DiagnosticHandler *Before = Ctx.getDiagHandlerPtr();
  {
    Atoll::toolchain::detail::DiagnosticCollector Diags(Ctx);
    EXPECT_NE(Ctx.getDiagHandlerPtr(), Before);
    // Without the collector LLVMContext::diagnose would print and exit(1).
    Ctx.diagnose(DiagnosticInfoGeneric("first problem", DS_Error));
    Ctx.diagnose(DiagnosticInfoGeneric("only a warning", DS_Warning));
    Ctx.diagnose(DiagnosticInfoGeneric("second\nproblem", DS_Error));
    EXPECT_EQ(Diags.numErrors(), 2u);
    EXPECT_EQ(Diags.errors(), "error: first problem\nerror: second problem\n");
  }
  EXPECT_EQ(Ctx.getDiagHandlerPtr(), Before);
}

TEST(ToolchainDiagnostics, HardenRestoresTheCallersHandler) {
  LLVMContext Ctx;
  auto M = parse(VecAdd, Ctx);
  ASSERT_TRUE(!!M);
  const DiagnosticHandler *Before = Ctx.getDiagHandlerPtr();
  Atoll::HardeningReport Report;
  CompileOptions Opts;
  Opts.Report = &Report;
  EXPECT_FALSE(errorToBool(hardenModule(**M, Opts)));
  EXPECT_EQ(Ctx.getDiagHandlerPtr(), Before);
  EXPECT_FALSE(Report.hasRefusals());
}

TEST(ToolchainDiagnostics, ErrorMessageIsOneLine) {
  auto F = failureOf(compileIR("garbage that is not IR\n"));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Message.find('\n'), std::string::npos) << F->Message;
}

} // namespace
