// atoll-mem: makes every value of a hardened kernel defined (DefinedValues.h).
#include "DefinedValues.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace Atoll {

namespace {

/// The integer type a sub-byte (or odd-width) integer lane is widened to, so
/// that lane I of the slot is at byte I * size (a <N x i1> in memory is packed).
Type *slotElementType(Type *Elt) {
  auto *IT = dyn_cast<IntegerType>(Elt);
  if (!IT)
    return Elt;
  unsigned W = std::max(8u, unsigned(PowerOf2Ceil(IT->getBitWidth())));
  return W == IT->getBitWidth() ? Elt : IntegerType::get(Elt->getContext(), W);
}

class VectorSlots {
public:
  explicit VectorSlots(Function &F) : F(F) {}

  void lower(Instruction &I, SmallVectorImpl<Instruction *> &Created) {
    auto *VT = cast<FixedVectorType>(I.getOperand(0)->getType());
    Value *Idx = isa<ExtractElementInst>(I) ? I.getOperand(1) : I.getOperand(2);
    auto *CI = dyn_cast<ConstantInt>(Idx);
    if (CI && CI->getValue().ult(VT->getNumElements()))
      return; // constant lane: a register operation, no stack temporary
    IRBuilder<> B(&I);
    Type *Elt = VT->getElementType(), *SlotElt = slotElementType(Elt);
    auto *SlotVT = FixedVectorType::get(SlotElt, VT->getNumElements());
    AllocaInst *Slot = slotFor(SlotVT);
    auto Widen = [&](Value *V, Type *To) {
      return V->getType() == To ? V : B.CreateZExt(V, To);
    };
    // Out of range gives poison in IR: any in-range lane is a valid result.
    Value *Lane = B.CreateZExtOrTrunc(Idx, B.getInt64Ty());
    Lane = B.CreateBinaryIntrinsic(Intrinsic::umin, Lane, B.getInt64(VT->getNumElements() - 1));
    Value *LanePtr = B.CreateInBoundsGEP(SlotElt, Slot, Lane);
    Created.push_back(B.CreateStore(Widen(I.getOperand(0), SlotVT), Slot));
    Value *Result;
    if (isa<ExtractElementInst>(I)) {
      Result = B.CreateLoad(SlotElt, LanePtr);
      Created.push_back(cast<Instruction>(Result));
      if (SlotElt != Elt)
        Result = B.CreateTrunc(Result, Elt);
    } else {
      Created.push_back(B.CreateStore(Widen(I.getOperand(1), SlotElt), LanePtr));
      Result = B.CreateLoad(SlotVT, Slot);
      Created.push_back(cast<Instruction>(Result));
      if (SlotVT != VT)
        Result = B.CreateTrunc(Result, VT);
    }
    Result->takeName(&I);
    I.replaceAllUsesWith(Result);
    I.eraseFromParent();
  }

private:
  /// One slot per vector type: each store/load pair is consecutive (one thread),
  /// so lowered instructions of the same type can share it.
  AllocaInst *slotFor(FixedVectorType *VT) {
    AllocaInst *&Slot = Slots[VT];
    if (!Slot) {
      IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
      Slot = B.CreateAlloca(VT, nullptr, "atoll.lane.slot");
    }
    return Slot;
  }

  Function &F;
  DenseMap<Type *, AllocaInst *> Slots;
};

/// C with every undef/poison element (at any depth) replaced by zero.
Constant *defined(Constant *C) {
  if (isa<UndefValue>(C)) // poison too
    return Constant::getNullValue(C->getType());
  if (isa<GlobalValue>(C) || isa<ConstantData>(C))
    return C;
  if (isa<ConstantAggregate>(C) || isa<ConstantExpr>(C)) {
    SmallVector<Constant *, 8> Ops;
    bool Changed = false;
    for (Use &U : C->operands()) {
      Ops.push_back(defined(cast<Constant>(U.get())));
      Changed |= Ops.back() != U.get();
    }
    if (!Changed)
      return C;
    if (auto *CE = dyn_cast<ConstantExpr>(C))
      return CE->getWithOperands(Ops);
    if (isa<VectorType>(C->getType()))
      return ConstantVector::get(Ops);
    if (auto *ST = dyn_cast<StructType>(C->getType()))
      return ConstantStruct::get(ST, Ops);
    return ConstantArray::get(cast<ArrayType>(C->getType()), Ops);
  }
  return C;
}

} // namespace

void lowerVariableVectorIndexing(Function &F, SmallVectorImpl<Instruction *> &Created) {
  SmallVector<Instruction *, 8> Work;
  for (Instruction &I : instructions(F))
    if ((isa<ExtractElementInst>(I) || isa<InsertElementInst>(I)) &&
        isa<FixedVectorType>(I.getOperand(0)->getType()))
      Work.push_back(&I);
  VectorSlots Slots(F);
  for (Instruction *I : Work)
    Slots.lower(*I, Created);
}

void defineUndefinedOperands(Function &F) {
  for (Instruction &I : instructions(F)) {
    for (Use &U : I.operands())
      if (auto *C = dyn_cast<Constant>(U.get()))
        if (Constant *D = defined(C); D != C)
          U.set(D);
    // An undefined mask lane is an undefined result lane: take lane 0 of the
    // second operand instead (zero when that operand was undefined), otherwise
    // lane 0 of the first; either is a defined value of this kernel.
    if (auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
      SmallVector<int, 16> Mask(SV->getShuffleMask());
      if (!is_contained(Mask, PoisonMaskElem))
        continue;
      unsigned N = cast<FixedVectorType>(SV->getOperand(0)->getType())->getNumElements();
      int Fill = isa<Constant>(SV->getOperand(1)) &&
                         cast<Constant>(SV->getOperand(1))->isNullValue()
                     ? int(N)
                     : 0;
      for (int &M : Mask)
        if (M == PoisonMaskElem)
          M = Fill;
      SV->setShuffleMask(Mask);
    }
  }
}

} // namespace Atoll
