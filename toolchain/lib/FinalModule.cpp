// "What is checked is what is emitted": after hardening and code generation the
// kernel signatures are read from the final module (not from the tenant's input,
// which -O2 may have changed), every function definition left must be a kernel
// hardened by atoll-mem with the hidden ABI parameters, and the emitted PTX is
// checked by the independent validator (ptx/PtxValidator.h) against that list.
#include "ToolchainInternal.h"

#include "atoll/abi.h"
#include "atoll/passes/Cycles.h"
#include "atoll/passes/StraightLine.h"
#include "ptx/PtxValidator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace Atoll::toolchain {

using namespace detail;

Expected<std::vector<KernelInfo>> finalKernelSignatures(const Module &M, bool Hardened) {
  std::vector<KernelInfo> All = kernelSignatures(M);
  if (!Hardened)
    return All;
  std::vector<KernelInfo> Out;
  for (const Function &F : M.functions()) {
    if (F.isDeclaration())
      continue;
    if (!isKernel(F))
      return makeError(FailureKind::CompileError,
                       "function '" + F.getName() +
                           "' is still defined after hardening: only hardened kernels may "
                           "reach the PTX");
    if (!F.hasFnAttribute(ATOLL_HARDENED_ATTR))
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "' was not hardened by atoll-mem");
    size_t N = F.arg_size();
    if (N < ATOLL_HIDDEN_PARAM_COUNT)
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "' lacks the hidden ABI parameters");
    for (size_t I = N - ATOLL_HIDDEN_PARAM_COUNT; I < N; ++I)
      if (Type *T = F.getArg(I)->getType();
          !T->isIntegerTy(64) && !(T->isPointerTy() && M.getDataLayout().getTypeSizeInBits(T) == 64))
        return makeError(FailureKind::CompileError,
                         "kernel '" + F.getName() + "': hidden parameter " +
                             Twine(I - (N - ATOLL_HIDDEN_PARAM_COUNT)) +
                             " is not 64-bit (i64 or a pointer)");
    auto It = find_if(All, [&](const KernelInfo &S) { return S.name == F.getName(); });
    KernelInfo S = std::move(*It);
    S.params.resize(N - ATOLL_HIDDEN_PARAM_COUNT);
    Out.push_back(std::move(S));
  }
  if (Out.empty())
    return makeError(FailureKind::InvalidInput,
                     "no kernels left after optimisation (a kernel that is not externally "
                     "visible is deleted)");
  return Out;
}

Error validateEmittedPTX(StringRef PTX, const Module &M,
                         const std::vector<KernelInfo> &Kernels) {
  ptx::Expectation Exp;
  Exp.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  for (const KernelInfo &S : Kernels)
    Exp.entries.push_back({S.name, uint32_t(S.params.size())});
  std::vector<ptx::ExpectedGlobal> Globals;
  for (const GlobalVariable &GV : M.globals()) {
    unsigned AS = GV.getAddressSpace();
    if (AS == 3)
      Globals.push_back({GV.getName().str(), ptx::Space::Shared});
    else if (AS == 4)
      Globals.push_back({GV.getName().str(), ptx::Space::Const});
  }
  Exp.globals = std::move(Globals);
  if (auto V = ptx::validate(std::string_view(PTX.data(), PTX.size()), Exp))
    return makeError(FailureKind::Refused, "refused by the PTX validator: " + V->describe(),
                     "error: " + V->describe() + "\n");
  return Error::success();
}

namespace {

/// A volatile load whose address is computed from the control parameter only
/// (casts and constant offsets of it): a read of the control block.
bool readsControl(const Instruction &I, const Argument *Control) {
  auto *LI = dyn_cast<LoadInst>(&I);
  return LI && LI->isVolatile() &&
         addressesControl(LI->getPointerOperand(), Control, /*ConstantOffsets=*/true);
}

} // namespace

Error checkCyclesPolled(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(ATOLL_HARDENED_ATTR) ||
        F.arg_size() < ATOLL_HIDDEN_PARAM_COUNT)
      continue;
    const Argument *Control =
        F.getArg(F.arg_size() - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_CONTROL_INDEX);
    const BasicBlock *Unpolled = nullptr;
    forEachCycle(F, [&](const CycleInfo::CycleT &C) {
      bool Polls = any_of(C.blocks(), [&](BasicBlock *BB) {
        return any_of(*BB, [&](Instruction &I) { return readsControl(I, Control); });
      });
      bool CanLeave = any_of(C.blocks(), [&](BasicBlock *BB) {
        auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
        return Br && Br->isConditional() &&
               any_of(successors(BB), [&](BasicBlock *S) { return !C.contains(S); });
      });
      // The pass's own bounded loops (zero-init, charged loops): marked on every block,
      // so on the header. By the header only: a checked outer loop around a charged
      // inner one contains marked blocks and must still poll.
      bool Bounded = C.getHeader()->getTerminator()->getMetadata(ATOLL_BOUNDED_LOOP_MD) != nullptr;
      if (!Bounded && (!Polls || !CanLeave))
        Unpolled = C.getHeader();
      return !Unpolled;
    });
    if (Unpolled)
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "': a cycle (header '" + Unpolled->getName() +
                           "') has no preemption check after code generation (a bug in "
                           "the AToLL passes)");
    // The straight-line budget (R3-F5): atoll-mem polls at least every
    // DefaultStraightBudget units; twice that leaves room for the backend's IR passes
    // moving an access across a poll, and still refuses a path the pass left unpolled.
    // From the entry: twice the entry budget, plus the zero-init that atoll-mem emits
    // after its own check (a frame of up to 256 bytes cleared before the first check,
    // R5-F2; local stores, not the dependent loads the entry budget is about).
    constexpr uint64_t MaxFreshAfterCodegen = 2 * DefaultEntryBudget + DefaultStraightBudget;
    const Instruction *Over = nullptr;
    uint64_t Longest = walkStraightRuns(
        F, [&](const Instruction &I) { return readsControl(I, Control) && feedsBranchOrVote(I); },
        [&](Instruction &I, uint64_t Run, uint64_t FreshRun) {
          if ((Run > 2 * DefaultStraightBudget || FreshRun > MaxFreshAfterCodegen) && !Over)
            Over = &I;
          return false;
        },
        [&](const Instruction &I) { return isEntryCheck(I, Control); },
      [&](const Instruction &I) { return isEntryReadOrCompare(I, Control); });
    if (Over || Longest > 2 * DefaultStraightBudget)
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "': a path without loops (block '" +
                           (Over ? Over->getParent() : &F.getEntryBlock())->getName() +
                           "') runs more than " +
                           Twine(2 * DefaultStraightBudget) + " units of work (" +
                           Twine(MaxFreshAfterCodegen) +
                           " from the kernel's entry) without a cancel poll after code "
                           "generation (a bug in the AToLL passes)");
  }
  return Error::success();
}

} // namespace Atoll::toolchain
