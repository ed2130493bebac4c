// Containment of local pointers whose object is ambiguous: a pointer that may
// point into either of two stack arrays (a phi or select of allocas) has no single
// object to clamp into. The allocas it may reach are merged into one frame object
// (an i8 array; each former alloca is a constant GEP into it), so that its object
// is the frame and the ordinary object clamp confines it there: the frame is this
// thread's own stack memory, so any address in it is harmless to other tenants.
#include "AtollMemInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace Atoll {

/// Adds to Objects every alloca Ptr may point into; false if some source is not
/// a fixed-size alloca (a forged or loaded local address: no frame covers it).
static bool collectAllocas(Value *Ptr, SmallPtrSetImpl<Value *> &Visited,
                           SmallSetVector<AllocaInst *, 8> &Objects) {
  if (!Visited.insert(Ptr).second)
    return true;
  if (auto *AI = dyn_cast<AllocaInst>(Ptr)) {
    const DataLayout &DL = AI->getDataLayout();
    if (!isa<ConstantInt>(AI->getArraySize()) || AI->getAllocatedType()->isScalableTy() ||
        !AI->getAllocationSize(DL))
      return false;
    Objects.insert(AI);
    return true;
  }
  if (auto *GEP = dyn_cast<GEPOperator>(Ptr))
    return collectAllocas(GEP->getPointerOperand(), Visited, Objects);
  if (auto *ASC = dyn_cast<AddrSpaceCastOperator>(Ptr))
    return collectAllocas(ASC->getPointerOperand(), Visited, Objects);
  if (auto *BC = dyn_cast<BitCastOperator>(Ptr))
    return collectAllocas(BC->getOperand(0), Visited, Objects);
  if (auto *Fr = dyn_cast<FreezeInst>(Ptr))
    return collectAllocas(Fr->getOperand(0), Visited, Objects);
  if (auto *Phi = dyn_cast<PHINode>(Ptr))
    return all_of(Phi->incoming_values(),
                  [&](Value *V) { return collectAllocas(V, Visited, Objects); });
  if (auto *Sel = dyn_cast<SelectInst>(Ptr))
    return collectAllocas(Sel->getTrueValue(), Visited, Objects) &&
           collectAllocas(Sel->getFalseValue(), Visited, Objects);
  if (auto *II = dyn_cast<IntrinsicInst>(Ptr); II && II->getIntrinsicID() == Intrinsic::ptrmask)
    return collectAllocas(II->getArgOperand(0), Visited, Objects);
  return false;
}

/// Largest frame: the per-thread local memory of sm_90 (512 KiB). Offsets into
/// objects are clamped in 32 bits, so no object may approach 4 GiB.
constexpr uint64_t MaxFrameBytes = 512 * 1024;

bool addToLocalFrame(Value *Ptr, SmallSetVector<AllocaInst *, 8> &FrameMembers) {
  SmallPtrSet<Value *, 16> Visited;
  SmallSetVector<AllocaInst *, 8> Objects;
  if (!collectAllocas(Ptr, Visited, Objects))
    return false;
  // Sum (with alignment padding, overestimated) without overflow.
  uint64_t Bytes = 0;
  SmallSetVector<AllocaInst *, 8> All = FrameMembers;
  All.insert(Objects.begin(), Objects.end());
  for (AllocaInst *AI : All) {
    uint64_t S = AI->getAllocationSize(AI->getDataLayout())->getFixedValue();
    if (S > MaxFrameBytes || Bytes + S + AI->getAlign().value() > MaxFrameBytes)
      return false; // too large: the pointer stays refused
    Bytes += S + AI->getAlign().value();
  }
  FrameMembers.insert(Objects.begin(), Objects.end());
  return true;
}

AllocaInst *mergeIntoFrame(Function &F, ArrayRef<AllocaInst *> Members) {
  if (Members.size() < 2)
    return nullptr;
  const DataLayout &DL = F.getParent()->getDataLayout();
  // Lay the members out at offsets aligned to each one's alignment.
  uint64_t Size = 0;
  Align FrameAlign(1);
  SmallVector<uint64_t, 8> Offsets;
  for (AllocaInst *AI : Members) {
    Align A = AI->getAlign();
    Size = alignTo(Size, A);
    Offsets.push_back(Size);
    Size += AI->getAllocationSize(DL)->getFixedValue();
    FrameAlign = std::max(FrameAlign, A);
  }
  Size = std::max<uint64_t>(alignTo(Size, FrameAlign), 1);
  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  auto *Frame = B.CreateAlloca(ArrayType::get(Type::getInt8Ty(Ctx), Size),
                               Members.front()->getAddressSpace(), nullptr, "atoll.frame");
  Frame->setAlignment(FrameAlign);
  for (auto [AI, Off] : zip(Members, Offsets)) {
    // Lifetime markers must name an alloca; they are dropped when hardening anyway.
    for (User *U : make_early_inc_range(AI->users()))
      if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
        II->eraseFromParent();
    // At the alloca's place: it dominates the alloca's uses (the frame, first in
    // the entry block, dominates it).
    IRBuilder<> AB(AI);
    Value *P = AB.CreateConstInBoundsGEP1_64(AB.getInt8Ty(), Frame, Off);
    P->takeName(AI);
    AI->replaceAllUsesWith(P);
    AI->eraseFromParent();
  }
  return Frame;
}

} // namespace Atoll
