// The ABI agreement between the hardening pass and the runtime (abi.h is the single
// source of truth): the pass appends ATOLL_HIDDEN_PARAM_COUNT i64 parameters (arena
// base, then size) after the tenant's own and marks the kernel "atoll-hardened"; the
// PTX entry carries them as 64-bit parameters; and the runtime's launch packing puts
// the arena base and size exactly there. Also: PTX of an unhardened module fails the
// runtime's check, so it can never be launched.
#include "ModuleValidation.h"
#include "Validation.h"
#include "atoll/toolchain/Toolchain.h"

#include "atoll/abi.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "TestKernels.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace Atoll;
namespace tc = Atoll::toolchain;

namespace {

const std::string Kernels = std::string(atoll_test::NvptxHeader) + atoll_test::VecAddKernel + R"(
%struct.P = type { i32, float, i64 }

define ptx_kernel void @mixed(ptr byval(%struct.P) align 8 %p, double %d, ptr %out) {
  %f = getelementptr inbounds %struct.P, ptr %p, i32 0, i32 1
  %v = load float, ptr %f, align 4
  %w = fpext float %v to double
  %s = fadd double %w, %d
  store double %s, ptr %out, align 8
  ret void
}

define ptx_kernel void @noparams() {
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
)";

std::string errorText(llvm::Error e) {
  std::string out;
  llvm::handleAllErrors(
      std::move(e),
      [&](const tc::ToolchainError &t) { out = t.message() + "\n" + t.diagnostics(); },
      [&](const llvm::ErrorInfoBase &i) { out = i.message(); });
  return out;
}

} // namespace

TEST(Abi, DescriptorIsTheHiddenParamsInOrder) {
  static_assert(ATOLL_ABI_VERSION == 2);
  static_assert(ATOLL_HIDDEN_PARAM_COUNT == 3);
  static_assert(ATOLL_HIDDEN_ARENA_BASE_INDEX == 0 && ATOLL_HIDDEN_ARENA_SIZE_INDEX == 1 &&
                ATOLL_HIDDEN_CONTROL_INDEX == 2);
  static_assert(offsetof(atoll_arena_descriptor, base) ==
                ATOLL_HIDDEN_ARENA_BASE_INDEX * ATOLL_HIDDEN_PARAM_BYTES);
  static_assert(offsetof(atoll_arena_descriptor, size) ==
                ATOLL_HIDDEN_ARENA_SIZE_INDEX * ATOLL_HIDDEN_PARAM_BYTES);
  static_assert(offsetof(atoll_arena_descriptor, control) ==
                ATOLL_HIDDEN_CONTROL_INDEX * ATOLL_HIDDEN_PARAM_BYTES);
  // The control block layout the pass emits its accesses against.
  static_assert(sizeof(atoll_control_block) == ATOLL_CONTROL_BLOCK_BYTES);
  static_assert(offsetof(atoll_control_block, cancel) == ATOLL_CONTROL_CANCEL_OFFSET);
  static_assert(offsetof(atoll_control_block, status) == ATOLL_CONTROL_STATUS_OFFSET);
  static_assert(offsetof(atoll_control_block, fuel) == ATOLL_CONTROL_FUEL_OFFSET);
  SUCCEED();
}

TEST(Abi, HardenedKernelsEndWithTheHiddenI64Params) {
  for (auto [mode, modeName] : {std::pair{ClampingMode::MaskBased, ATOLL_MODE_MASK},
                                std::pair{ClampingMode::ModuloBased, ATOLL_MODE_MODULO}}) {
    llvm::LLVMContext ctx;
    auto m = tc::parseModule(llvm::MemoryBufferRef(Kernels, "abi.ll"), ctx);
    ASSERT_TRUE(!!m) << errorText(m.takeError());
    auto sigs = tc::kernelSignatures(**m);
    tc::CompileOptions opts;
    opts.Mode = mode;
    ASSERT_FALSE(errorToBool(tc::prepareModule(**m, opts)));
    llvm::Error e = tc::hardenModule(**m, opts);
    ASSERT_FALSE(!!e) << errorText(std::move(e));
    for (const KernelInfo &sig : sigs) {
      llvm::Function *f = (*m)->getFunction(sig.name);
      ASSERT_NE(f, nullptr) << sig.name;
      const size_t n = sig.params.size();
      ASSERT_EQ(f->arg_size(), n + ATOLL_HIDDEN_PARAM_COUNT) << sig.name;
      for (unsigned i = 0; i < ATOLL_HIDDEN_PARAM_COUNT; ++i)
        EXPECT_TRUE(f->getArg(n + i)->getType()->isIntegerTy(64)) << sig.name << " hidden " << i;
      EXPECT_EQ(f->getArg(n + ATOLL_HIDDEN_ARENA_BASE_INDEX)->getName(),
                ATOLL_HIDDEN_ARENA_BASE_NAME);
      EXPECT_EQ(f->getArg(n + ATOLL_HIDDEN_ARENA_SIZE_INDEX)->getName(),
                ATOLL_HIDDEN_ARENA_SIZE_NAME);
      EXPECT_EQ(f->getArg(n + ATOLL_HIDDEN_CONTROL_INDEX)->getName(), ATOLL_HIDDEN_CONTROL_NAME);
      EXPECT_EQ(f->getFnAttribute(ATOLL_HARDENED_ATTR).getValueAsString(), modeName);
    }
  }
}

TEST(Abi, PtxEntriesCarryTheHiddenParamsAndPassTheRuntimeCheck) {
  auto compiled = tc::compile(llvm::MemoryBufferRef(Kernels, "abi.ll"), {});
  ASSERT_TRUE(!!compiled) << errorText(compiled.takeError());
  const auto &ks = compiled->kernels;
  ASSERT_EQ(ks.size(), 3u);
  for (const KernelInfo &k : ks) {
    auto params = detail::ptxEntryParams(compiled->ptx, k.name);
    ASSERT_TRUE(params) << k.name;
    ASSERT_EQ(params->size(), k.params.size() + ATOLL_HIDDEN_PARAM_COUNT) << k.name;
    for (size_t i = k.params.size(); i < params->size(); ++i)
      EXPECT_NE((*params)[i].find(".u64"), std::string::npos) << (*params)[i];
  }
  EXPECT_TRUE(detail::checkHardenedEntries(compiled->ptx, ks));
}

TEST(Abi, UnhardenedPtxFailsTheRuntimeCheck) {
  tc::CompileOptions opts;
  opts.Harden = false; // a native baseline: exactly what must never be launched
  auto compiled = tc::compile(llvm::MemoryBufferRef(Kernels, "abi.ll"), opts);
  ASSERT_TRUE(!!compiled) << errorText(compiled.takeError());
  Status s = detail::checkHardenedEntries(compiled->ptx, compiled->kernels);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::CompileError);
  EXPECT_NE(s.error().message().find("not hardened"), std::string::npos);
}

TEST(Abi, RuntimePackingMatchesTheHardenedSignature) {
  // The signature the runtime validates against comes from the toolchain; the packed
  // parameter list must have exactly the hardened function's arity, with the arena
  // base and size at the indices abi.h names.
  llvm::LLVMContext ctx;
  auto m = tc::parseModule(llvm::MemoryBufferRef(Kernels, "abi.ll"), ctx);
  ASSERT_TRUE(!!m);
  auto ks = tc::kernelSignatures(**m);
  ASSERT_FALSE(errorToBool(tc::hardenModule(**m, {})));

  constexpr uint64_t base = 0x7f0004000000ull, size = 64ull << 20;
  detail::BlockAllocator alloc(size);
  auto b = *alloc.allocate(4096);
  Buffer buf(1, b.id, b.offset, b.size);
  constexpr uint64_t control = 0x7f0100000020ull;
  detail::ArenaView view{1, base, size, &alloc, control};

  struct P {
    int32_t a;
    float f;
    int64_t c;
  } p{1, 2.0f, 3};
  const KernelInfo *vadd = &ks[0], *mixed = &ks[1], *none = &ks[2];
  ASSERT_EQ(vadd->name, "vadd");
  ASSERT_EQ(mixed->name, "mixed");
  ASSERT_EQ(none->name, "noparams");
  std::vector<std::pair<const KernelInfo *, std::vector<Arg>>> cases = {
      {vadd, {Arg::buffer(buf), Arg::buffer(buf), Arg::buffer(buf, 64), Arg::i32(16)}},
      {mixed, {Arg::bytes(p), Arg::f64(0.5), Arg::buffer(buf)}},
      {none, {}},
  };
  for (auto &[k, args] : cases) {
    detail::ParamPack pack;
    ASSERT_TRUE(detail::packArguments(*k, args, view, pack)) << k->name;
    llvm::Function *f = (*m)->getFunction(k->name);
    ASSERT_EQ(pack.count(), f->arg_size()) << k->name;
    const size_t n = k->params.size();
    for (unsigned i = 0; i < ATOLL_HIDDEN_PARAM_COUNT; ++i) {
      uint64_t v;
      std::memcpy(&v, pack.pointers()[n + i], 8);
      llvm::StringRef name = f->getArg(n + i)->getName();
      if (name == ATOLL_HIDDEN_ARENA_BASE_NAME)
        EXPECT_EQ(v, base) << k->name;
      else if (name == ATOLL_HIDDEN_ARENA_SIZE_NAME)
        EXPECT_EQ(v, size) << k->name;
      else if (name == ATOLL_HIDDEN_CONTROL_NAME)
        EXPECT_EQ(v, control) << k->name;
      else
        ADD_FAILURE() << k->name << ": unexpected hidden parameter '" << name.str() << "'";
    }
  }
}
