// atoll-mem, collection: the list of accesses the rewrite applies (BoundsChecking's
// model). For each memory operand of each access: the operand, its size and
// alignment (from the instruction, or the intrinsic table's row), the traced
// origin, the confinement form, and whether a proof makes it unnecessary; then
// the groups of accesses that share one clamp. KernelAnalysis.cpp checks each
// access before it is kept; KernelRewrite.cpp consumes the list.
#include "KernelHardener.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

/// An alignment operand; Align(1) when it is not a power of two.
static Align validAlign(const Value *V) {
  uint64_t A = cast<ConstantInt>(V)->getValue().getLimitedValue();
  return isPowerOf2_64(A) ? Align(A) : Align(1);
}

static Align alignOfParam(const CallBase &CB, unsigned Idx, Align Default) {
  if (MaybeAlign A = CB.getParamAlign(Idx))
    return *A;
  return Default;
}

/// The memory operands of I (a load, store, atomic, or an intrinsic whose table
/// row is Confine) with their origins; false if I touches memory in a way the
/// table does not model.
bool KernelHardener::collect(Instruction &I, const IntrinsicPolicy *P, AccessSite &Site) const {
  // A scalable vector's size is only known at run time (and NVPTX has none):
  // such an access has no size to confine.
  if (I.getType()->isScalableTy() ||
      any_of(I.operands(), [](const Use &U) { return U->getType()->isScalableTy(); }))
    return false;
  LLVMContext &Ctx = Fn->getContext();
  auto Const = [&](uint64_t N) { return ConstantInt::get(Type::getInt64Ty(Ctx), N); };
  auto StoreSize = [&](Type *T) { return DL.getTypeStoreSize(T).getFixedValue(); };
  auto &Ops = Site.Ops;
  auto Add = [&](unsigned OpIdx, Value *Size, Align A, bool Writes) {
    MemAccess Op{OpIdx, Size, A, Writes, {}, {}};
    Op.Origin = tracePointerOrigin(I.getOperand(OpIdx));
    Ops.push_back(std::move(Op));
  };
  Site.I = &I;
  Site.Kind = kindOf(I);
  // NVPTX makes an i8/i16 atomic a 32-bit atomic on the aligned word holding it
  // (review F5): confined as 4 bytes at the same address (the byte keeps its
  // offset in the word), the word lies inside any 4-aligned window.
  auto AtomicSize = [&](Type *T) { return std::max<uint64_t>(StoreSize(T), 4); };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Add(LI->getPointerOperandIndex(), Const(StoreSize(LI->getType())), LI->getAlign(), false);
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Add(SI->getPointerOperandIndex(), Const(StoreSize(SI->getValueOperand()->getType())),
        SI->getAlign(), true);
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Site.Policy.Atomic = true;
    Add(RMW->getPointerOperandIndex(), Const(AtomicSize(RMW->getValOperand()->getType())),
        RMW->getAlign(), true);
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Site.Policy.Atomic = true;
    Add(CX->getPointerOperandIndex(), Const(AtomicSize(CX->getCompareOperand()->getType())),
        CX->getAlign(), true);
  } else {
    auto *II = dyn_cast<IntrinsicInst>(&I);
    if (!II || !P || P->Action != IntrinsicAction::Confine)
      return false;
    Site.Policy = *P;
    switch (P->Form) {
    case AccessForm::None:
      return false;
    case AccessForm::MemTransfer: {
      auto *MT = cast<MemTransferInst>(II);
      Add(0, MT->getLength(), MT->getDestAlign().valueOrOne(), true);
      Add(1, MT->getLength(), MT->getSourceAlign().valueOrOne(), false);
      break;
    }
    case AccessForm::MemSet: {
      auto *MS = cast<MemSetInst>(II);
      Add(0, MS->getLength(), MS->getDestAlign().valueOrOne(), true);
      break;
    }
    case AccessForm::MaskedLoad: {
      Align A = alignOfParam(*II, 0, Align(1));
      if (II->arg_size() == 4) // older form: (ptr, i32 align, mask, passthru)
        A = validAlign(II->getArgOperand(1));
      Add(0, Const(StoreSize(II->getType())), A, false);
      break;
    }
    case AccessForm::MaskedStore: {
      Align A = alignOfParam(*II, 1, Align(1));
      if (II->arg_size() == 4) // older form: (val, ptr, i32 align, mask)
        A = validAlign(II->getArgOperand(2));
      Add(1, Const(StoreSize(II->getArgOperand(0)->getType())), A, true);
      break;
    }
    case AccessForm::Ldu: {
      // ldu is one instruction whatever its alignment operand says: the hardware
      // needs the address aligned to the access size (ldu.global.v4.f32: 16).
      uint64_t S = StoreSize(II->getType());
      uint64_t Arg = cast<ConstantInt>(II->getArgOperand(1))->getValue().getLimitedValue();
      unsigned AS = II->getArgOperand(0)->getType()->getPointerAddressSpace();
      if (!isPowerOf2_64(S) || (AS != ASGeneric && AS != ASGlobal))
        return false;
      Add(0, Const(S), Align(isPowerOf2_64(Arg) ? std::max(S, Arg) : S), false);
      break;
    }
    case AccessForm::NvvmAtomic: {
      uint64_t S = StoreSize(II->getType());
      if (!isPowerOf2_64(S))
        return false;
      // Sub-word like atomicrmw/cmpxchg (review R8-F4): NVPTX, or the expansion in
      // AtomicPolicy.cpp, operates on the aligned word holding the i8/i16.
      Add(0, Const(AtomicSize(II->getType())), Align(S), true);
      break;
    }
    case AccessForm::CpAsync:
      // ...shared.global.{4,8,16}[.s](ptr addrspace(3) dst, ptr addrspace(1) src[, i32])
      Add(0, Const(P->Bytes), Align(P->Bytes), true);
      Add(1, Const(P->Bytes), Align(P->Bytes), false);
      if (II->arg_size() == 3 && II->getArgOperand(2)->getType()->isIntegerTy())
        Site.CutSrcSize = P->Bytes;
      break;
    case AccessForm::Matrix: {
      // A generic or shared pointer (NVPTX selects no other overload).
      unsigned AS = II->getArgOperand(0)->getType()->getPointerAddressSpace();
      if (AS != ASGeneric && AS != ASShared)
        return false;
      Add(0, Const(P->Bytes), Align(P->Bytes), P->Writes);
      break;
    }
    }
  }
  // The table's space rule: ldu.global reads the global space only (a shared or
  // local address there is an illegal-address fault), so its operand is confined
  // to the arena like any forged global address; ldmatrix/stmatrix address shared
  // memory only, so whatever else the pointer may be, it is confined to shared
  // memory and cannot name global or local memory.
  for (MemAccess &Op : Ops) {
    PointerOrigin &O = Op.Origin;
    if (Site.Policy.Space == SpaceRule::Global) {
      O.Space = StateSpace::Global;
      O.Object = nullptr;
    } else if (Site.Policy.Space == SpaceRule::Shared && O.Space != StateSpace::Shared) {
      O.Space = StateSpace::Shared;
      O.Object = nullptr;
    }
  }
  return true;
}

void KernelHardener::decide(AccessSite &Site) const {
  for (MemAccess &Op : Site.Ops)
    decide(Site, Op);
  // A memcpy/memset length is cut to the smallest window involved first: every
  // run-time length, and every constant one that might not fit a window (longer
  // than MaxAccessBytes, which every arena and shared window holds, or than a
  // static object), since the clamp limit (window - length) would wrap around.
  // Shorter constants stay constants: a constant-length copy is unrolled into a
  // few wide loads and stores, a run-time one becomes a byte loop.
  if (auto *MI = dyn_cast<MemIntrinsic>(Site.I)) {
    auto *CL = dyn_cast<ConstantInt>(MI->getLength());
    Site.CutLength = !CL || CL->getValue().getLimitedValue() > MaxAccessBytes;
    for (const MemAccess &Op : Site.Ops)
      if (Op.How.Form == ConfineForm::Object)
        Site.CutLength |= CL && CL->getValue().getLimitedValue() > Op.How.ObjectBytes;
  }
}

/// The confinement of a checked operand, and whether it needs none.
void KernelHardener::decide(const AccessSite &Site, MemAccess &Op) const {
  const PointerOrigin &O = Op.Origin;
  std::optional<uint64_t> Bytes = objectSize(O.Object, DL);
  Confinement &H = Op.How;
  H.Space = O.Space;
  switch (O.Space) {
  case StateSpace::Global:
    H.Form = ConfineForm::Arena;
    break;
  case StateSpace::Shared:
  case StateSpace::Local:
  case StateSpace::Constant:
  case StateSpace::Param:
    // (Local, constant and param accesses without a sized object are refused.)
    H.Form = Bytes ? ConfineForm::Object : ConfineForm::SharedWindow;
    break;
  case StateSpace::Generic:
  case StateSpace::Unknown:
    H.Form = ConfineForm::SpaceTest;
    break;
  }
  if (H.Form == ConfineForm::Object) {
    H.Object = O.Object;
    H.ObjectBytes = *Bytes;
  }
  Op.ProvenSafe = provenSafe(Site.I->getOperand(Op.OpIdx), Op);
}

bool KernelHardener::provenSafe(Value *Ptr, const MemAccess &Op) const {
  const PointerOrigin &O = Op.Origin;
  auto *CSize = dyn_cast<ConstantInt>(Op.Size);
  std::optional<uint64_t> Bytes = objectSize(O.Object, DL);
  if (!CSize || !Bytes || O.Space == StateSpace::Unknown || O.Space == StateSpace::Global)
    return false;
  // Ptr = Object + C with a constant C: safe when [C, C + S) lies in the object and
  // C keeps the alignment the instruction promises.
  unsigned IdxWidth = DL.getIndexTypeSizeInBits(Ptr->getType());
  APInt Offset(IdxWidth, 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  if (Base->stripPointerCasts() != O.Object)
    return false;
  if (Offset.isNegative())
    return false;
  uint64_t C = Offset.getZExtValue(), S = CSize->getValue().getLimitedValue();
  Align ObjAlign = O.Object->getPointerAlignment(DL);
  return C + S <= *Bytes && C % Op.Alignment.value() == 0 && ObjAlign >= Op.Alignment;
}


void KernelHardener::addCreatedAccesses(ArrayRef<Instruction *> Created) {
  for (Instruction *I : Created) {
    AccessSite Site;
    if (!collect(*I, nullptr, Site))
      continue; // the pass creates only plain loads and stores
    decide(Site);
    Sites.push_back(std::move(Site));
  }
}

void KernelHardener::plan() {
  // Program order: the order of the rewrite (and of the report).
  DenseMap<const Instruction *, unsigned> Position;
  for (Instruction &I : instructions(*Fn))
    Position[&I] = Position.size();
  llvm::stable_sort(Sites, [&](const AccessSite &A, const AccessSite &B) {
    return Position.lookup(A.I) < Position.lookup(B.I);
  });

  using GroupKey = std::tuple<Value *, Value *, BasicBlock *>;
  DenseMap<GroupKey, unsigned> GroupOf;
  for (AccessSite &Site : Sites) {
    if (isa<MemIntrinsic>(Site.I))
      continue;
    for (MemAccess &Op : Site.Ops) {
      auto *CSize = dyn_cast<ConstantInt>(Op.Size);
      // The arena counts as the object of global accesses: every arena holds
      // MaxGroupBytes, so the group's limit (size - max(C + S)) never wraps.
      uint64_t Bytes;
      if (Op.How.Form == ConfineForm::Arena)
        Bytes = MaxGroupBytes;
      else if (Op.How.Form == ConfineForm::Object)
        Bytes = Op.How.ObjectBytes;
      else
        continue;
      Value *Ptr = Site.I->getOperand(Op.OpIdx);
      if (!CSize || Op.ProvenSafe)
        continue;
      APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
      Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
      Value *Object = Op.How.Object;
      if (Base->getType() != Ptr->getType() || Off.isNegative() ||
          (Object && Base->stripPointerCasts() == Object))
        continue;
      uint64_t C = Off.getZExtValue(), A = Op.Alignment.value();
      uint64_t End = C + CSize->getZExtValue();
      if (C % A != 0 || End > Bytes)
        continue;
      auto [It, New] = GroupOf.try_emplace(GroupKey{Base, Object, Site.I->getParent()},
                                           unsigned(Groups.size()));
      if (New) {
        Groups.emplace_back();
        Groups.back().Base = Base;
        Groups.back().How = Op.How;
      }
      AccessGroup &G = Groups[It->second];
      G.Align = std::max(G.Align, A);
      G.MaxEnd = std::max(G.MaxEnd, End);
      ++G.Members;
      G.Offsets |= C != 0;
      Op.Group = It->second;
      Op.GroupOffset = C;
    }
  }
}

} // namespace Atoll
