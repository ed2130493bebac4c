// atoll-strip-facts: the tenant's IR may promise facts it does not keep (a value
// range, a non-null or aligned pointer, a defined value, an assumption). LLVM
// believes them: an optimisation after hardening could fold a clamp away with a
// promised range (umin(off, lim) with off "known" <= lim), or treat a broken
// promise as UB and delete what guards it. So every such fact is removed before
// anything else sees the module. docs/passes.md ("Tenant facts") lists each kind
// and why it is stripped or kept. The clamps are robust to what is kept: poison
// flags (nsw, inbounds, ...) only make a value poison, and the clamp freezes its
// input (Confinement.cpp), so a poison address still lands inside the window.
#include "atoll/passes/StripFacts.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "atoll-strip-facts"

using namespace llvm;

STATISTIC(NumAttrs, "Value/pointer attributes stripped from parameters, returns and calls");
STATISTIC(NumMetadata, "Value/pointer metadata stripped from instructions and globals");
STATISTIC(NumAssumes, "llvm.assume calls removed");

namespace Atoll {

namespace {

// Attributes that narrow a value or a pointer, or turn a broken promise into UB.
constexpr Attribute::AttrKind NarrowingAttrs[] = {
    Attribute::Range,          Attribute::NonNull, Attribute::Alignment,
    Attribute::Dereferenceable, Attribute::DereferenceableOrNull, Attribute::NoUndef,
    Attribute::NoFPClass,      Attribute::Returned,
};

// Metadata of the same kinds (on instructions; absolute_symbol on globals).
constexpr unsigned NarrowingMD[] = {
    LLVMContext::MD_range,           LLVMContext::MD_nonnull,
    LLVMContext::MD_align,           LLVMContext::MD_dereferenceable,
    LLVMContext::MD_dereferenceable_or_null, LLVMContext::MD_noundef,
    LLVMContext::MD_noalias_addrspace,
};

// The memory intrinsics' pointer alignment is kept: the clamp aligns the
// confined address down to it (the promise is enforced, not trusted), and it
// decides how wide the copy's accesses are.
bool keepsAlign(const CallBase *CB) { return CB && isa<AnyMemIntrinsic>(CB); }

AttributeList strip(LLVMContext &Ctx, AttributeList AL, unsigned NumArgs, bool KeepArgAlign) {
  auto StripAt = [&](unsigned Index, bool KeepAlign) {
    AttributeSet S = AL.getAttributes(Index);
    // The alignment of a byval (or byref, sret, ...) argument is its layout in
    // the parameter space, part of the ABI, and the copy is made that aligned:
    // a fact the compiler creates, not one it trusts.
    KeepAlign |= S.hasAttribute(Attribute::ByVal) || S.hasAttribute(Attribute::ByRef) ||
                 S.hasAttribute(Attribute::StructRet) || S.hasAttribute(Attribute::InAlloca) ||
                 S.hasAttribute(Attribute::Preallocated);
    AttributeMask Mask;
    bool Any = false;
    for (Attribute::AttrKind K : NarrowingAttrs)
      if (S.hasAttribute(K) && !(KeepAlign && K == Attribute::Alignment)) {
        Mask.addAttribute(K);
        Any = true;
        ++NumAttrs;
      }
    if (Any)
      AL = AL.removeAttributesAtIndex(Ctx, Index, Mask);
  };
  StripAt(AttributeList::ReturnIndex, false);
  for (unsigned I = 0; I != NumArgs; ++I)
    StripAt(AttributeList::FirstArgIndex + I, KeepArgAlign);
  return AL;
}

} // namespace

PreservedAnalyses StripFactsPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  bool Changed = false;
  for (GlobalObject &GO : M.global_objects())
    if (GO.hasMetadata(LLVMContext::MD_absolute_symbol)) {
      GO.setMetadata(LLVMContext::MD_absolute_symbol, nullptr);
      ++NumMetadata;
      Changed = true;
    }
  for (Function &F : M) {
    // Declarations too: a call site inherits its callee's promises. An
    // intrinsic's are LLVM's own (the bitcode reader restores them anyway):
    // whatever the tenant wrote there is replaced by them.
    if (Intrinsic::ID ID = F.getIntrinsicID(); ID != Intrinsic::not_intrinsic) {
      AttributeList Own = Intrinsic::getAttributes(Ctx, ID, F.getFunctionType());
      if (Own != F.getAttributes()) {
        F.setAttributes(Own);
        ++NumAttrs;
        Changed = true;
      }
    }
    // willreturn and mustprogress promise that every loop ends: LLVM then counts a
    // loop like `for (i = 0; i != n; i += 2)` as finite, and the preemption pass
    // would run it without a check though an odd n never ends it (found by
    // review, R4-F1). Termination is the one fact a cancel must never trust.
    if (!F.isIntrinsic())
      for (Attribute::AttrKind K : {Attribute::WillReturn, Attribute::MustProgress})
        if (F.hasFnAttribute(K)) {
          F.removeFnAttr(K);
          ++NumAttrs;
          Changed = true;
        }
    AttributeList AL = F.isIntrinsic() ? F.getAttributes()
                                       : strip(Ctx, F.getAttributes(), F.arg_size(), false);
    if (AL != F.getAttributes()) {
      F.setAttributes(AL);
      Changed = true;
    }
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::assume) {
        II->eraseFromParent(); // and its operand bundles (align, nonnull, dereferenceable...)
        ++NumAssumes;
        Changed = true;
        continue;
      }
      for (unsigned K : NarrowingMD)
        if (I.hasMetadata(K)) {
          I.setMetadata(K, nullptr);
          ++NumMetadata;
          Changed = true;
        }
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (!isa<IntrinsicInst>(CB))
          for (Attribute::AttrKind K : {Attribute::WillReturn, Attribute::MustProgress})
            if (CB->hasFnAttr(K)) {
              CB->removeFnAttr(K);
              ++NumAttrs;
              Changed = true;
            }
        AttributeList CAL = strip(Ctx, CB->getAttributes(), CB->arg_size(), keepsAlign(CB));
        if (CAL != CB->getAttributes()) {
          CB->setAttributes(CAL);
          Changed = true;
        }
      }
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace Atoll
