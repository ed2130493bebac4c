// The atomic table (review R7-F2, R7-F6): the atomicrmw forms (address space x
// operation x type) that ptxas assembles for sm_90 into one instruction. Every
// other form becomes, in SASS, a compare-and-swap retry loop that ptxas makes
// after the last IR pass (invisible in IR and PTX): it has no preemption check,
// and under contention it runs ~N^2 attempts for N contenders. Deny by default:
// a form not in the table is expanded here, before the checks are inserted, into
// an IR loop around a native `cmpxchg` of the same word, which then takes a
// check like every loop; a form with no native compare-and-swap is refused.
//
// The table is measured (llc-22 -mcpu=sm_90, ptxas of CUDA 13, backward branches
// in the SASS of each form: docs/passes.md, "Preemption checks"). Native on sm_90:
//   global: i32 xchg/add/sub/and/or/xor/max/min/umax/umin/uinc_wrap/udec_wrap,
//           i64 xchg/add/sub/and/or/xor/max/min/umax/umin, float/double xchg/fadd;
//   shared: the same for i32, xchg only for i64/float/double;
//   both:   i8/i16 and/or/xor (NVPTX: one 32-bit and/or/xor on the word);
//           cmpxchg i32/i64.
// Generic pointers (address space 0): native only where native in both spaces
// (ptxas tests the space at run time and emits both forms).
// Not native (SASS loop or an IR loop of LLVM's AtomicExpand): shared fadd
// f32/f64, shared 64-bit arithmetic, fadd/fsub/fmax/fmin of half/bfloat (and
// <2 x ...>), fsub/fmax/fmin/fmaximum/fminimum of float/double, nand,
// usub_cond/usub_sat, 64-bit uinc/udec, sub-word cmpxchg and the sub-word
// operations other than and/or/xor.
#include "AtomicPolicy.h"

#include "atoll/passes/Diagnostics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/AtomicExpandUtils.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

STATISTIC(NumExpandedAtomics, "Atomics expanded into compare-and-swap loops (checked)");

namespace {

using Op = AtomicRMWInst::BinOp;

/// Spaces a row is native in.
enum Spaces : uint8_t { InGlobal = 1, InShared = 2, InBoth = 3 };

/// One native form: Op on a value of Bits bits, a scalar float type or not
/// (integers and pointers).
struct NativeRow {
  Op Operation;
  unsigned Bits;
  bool Float;
  uint8_t In;
};

// clang-format off
constexpr NativeRow NativeRMW[] = {
    // 32-bit integers: every atom operation PTX has, one instruction in both spaces.
    {Op::Xchg, 32, false, InBoth}, {Op::Add, 32, false, InBoth}, {Op::Sub, 32, false, InBoth},
    {Op::And, 32, false, InBoth},  {Op::Or, 32, false, InBoth},  {Op::Xor, 32, false, InBoth},
    {Op::Max, 32, false, InBoth},  {Op::Min, 32, false, InBoth}, {Op::UMax, 32, false, InBoth},
    {Op::UMin, 32, false, InBoth}, {Op::UIncWrap, 32, false, InBoth},
    {Op::UDecWrap, 32, false, InBoth},
    // 64-bit integers: exchange everywhere; the rest is a SASS loop in shared memory.
    {Op::Xchg, 64, false, InBoth}, {Op::Add, 64, false, InGlobal}, {Op::Sub, 64, false, InGlobal},
    {Op::And, 64, false, InGlobal}, {Op::Or, 64, false, InGlobal}, {Op::Xor, 64, false, InGlobal},
    {Op::Max, 64, false, InGlobal}, {Op::Min, 64, false, InGlobal},
    {Op::UMax, 64, false, InGlobal}, {Op::UMin, 64, false, InGlobal},
    // Sub-word and/or/xor: NVPTX makes them one 32-bit operation on the word.
    {Op::And, 8, false, InBoth},  {Op::Or, 8, false, InBoth},  {Op::Xor, 8, false, InBoth},
    {Op::And, 16, false, InBoth}, {Op::Or, 16, false, InBoth}, {Op::Xor, 16, false, InBoth},
    // float/double: exchange everywhere; add in global memory only (a SASS loop in
    // shared memory, and so for generic pointers).
    {Op::Xchg, 32, true, InBoth}, {Op::Xchg, 64, true, InBoth},
    {Op::FAdd, 32, true, InGlobal}, {Op::FAdd, 64, true, InGlobal},
};
// clang-format on

/// The spaces of an address space: generic needs both, other spaces have none.
uint8_t needed(unsigned AS) {
  switch (AS) {
  case ASGlobal: return InGlobal;
  case ASShared: return InShared;
  case ASGeneric: return InBoth;
  default: return 0;
  }
}

bool nativeRMW(Op Operation, Type *Ty, unsigned AS, const DataLayout &DL) {
  uint8_t Need = needed(AS);
  if (!Need)
    return false;
  bool Float = Ty->isFloatTy() || Ty->isDoubleTy();
  if (!Float && !Ty->isIntegerTy() && !Ty->isPointerTy())
    return false; // half, bfloat, vectors
  uint64_t Bits = DL.getTypeSizeInBits(Ty).getFixedValue();
  for (const NativeRow &R : NativeRMW)
    if (R.Operation == Operation && R.Bits == Bits && R.Float == Float && (R.In & Need) == Need)
      return true;
  return false;
}

/// cmpxchg: 32 and 64 bits in the global, shared and generic spaces.
bool nativeCmpXchgBits(uint64_t Bits, unsigned AS) {
  return (Bits == 32 || Bits == 64) && needed(AS);
}

/// The atomicrmw operation of an llvm.nvvm.atomic.*.gen.* intrinsic; nullopt for cas.
std::optional<Op> nvvmAtomicOp(Intrinsic::ID ID, bool &IsCas, bool &Block) {
  IsCas = false;
  Block = false;
  switch (ID) {
#define ATOLL_SCOPED(NAME, OP)                                                                    \
  case Intrinsic::nvvm_atomic_##NAME##_cta:                                                      \
    Block = true;                                                                                \
    return OP;                                                                                   \
  case Intrinsic::nvvm_atomic_##NAME##_sys:                                                      \
    return OP;
    ATOLL_SCOPED(add_gen_f, Op::FAdd)
    ATOLL_SCOPED(add_gen_i, Op::Add)
    ATOLL_SCOPED(and_gen_i, Op::And)
    ATOLL_SCOPED(or_gen_i, Op::Or)
    ATOLL_SCOPED(xor_gen_i, Op::Xor)
    ATOLL_SCOPED(max_gen_i, Op::Max)
    ATOLL_SCOPED(min_gen_i, Op::Min)
    ATOLL_SCOPED(inc_gen_i, Op::UIncWrap)
    ATOLL_SCOPED(dec_gen_i, Op::UDecWrap)
    ATOLL_SCOPED(exch_gen_i, Op::Xchg)
#undef ATOLL_SCOPED
  case Intrinsic::nvvm_atomic_cas_gen_i_cta:
    Block = true;
    [[fallthrough]];
  case Intrinsic::nvvm_atomic_cas_gen_i_sys:
    IsCas = true;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

const IntrinsicInst *asNvvmAtomic(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return nullptr;
  bool IsCas, Block;
  return nvvmAtomicOp(II->getIntrinsicID(), IsCas, Block) || IsCas ? II : nullptr;
}

/// LLVM's own callback (AtomicExpandPass), for the types cmpxchg takes: a float or
/// vector value goes through the integer of its width.
void createCmpXchg(IRBuilderBase &B, Value *Addr, Value *Loaded, Value *NewVal, Align A,
                   AtomicOrdering Order, SyncScope::ID SSID, Value *&Success, Value *&NewLoaded,
                   Instruction *MetadataSrc) {
  Type *OrigTy = NewVal->getType();
  bool Cast = !OrigTy->isIntegerTy() && !OrigTy->isPointerTy();
  if (Cast) {
    Type *IntTy = B.getIntNTy(OrigTy->getPrimitiveSizeInBits());
    NewVal = B.CreateBitCast(NewVal, IntTy);
    Loaded = B.CreateBitCast(Loaded, IntTy);
  }
  AtomicCmpXchgInst *Pair = B.CreateAtomicCmpXchg(
      Addr, Loaded, NewVal, A, Order, AtomicCmpXchgInst::getStrongestFailureOrdering(Order), SSID);
  if (auto *RMW = dyn_cast_or_null<AtomicRMWInst>(MetadataSrc))
    Pair->setVolatile(RMW->isVolatile());
  Success = B.CreateExtractValue(Pair, 1, "atoll.cas.success");
  NewLoaded = B.CreateExtractValue(Pair, 0, "atoll.cas.loaded");
  if (Cast)
    NewLoaded = B.CreateBitCast(NewLoaded, OrigTy);
}

/// The aligned 32-bit word holding a sub-word value at Ptr, and where the value is
/// in it. The confinement kept 4 bytes at Ptr inside a 4-aligned window (an i8/i16
/// atomic is confined as 4 bytes: AccessCollection.cpp), so the word is inside it:
/// the word NVPTX's own lowering of a sub-word atomic operates on.
struct SubWord {
  Value *Word, *Shift, *Inv;
  IntegerType *NTy;
};

SubWord subWord(IRBuilder<> &B, Value *Ptr, unsigned Bits, const DataLayout &DL) {
  Type *IdxTy = DL.getIndexType(Ptr->getType());
  Type *I32 = B.getInt32Ty();
  Value *Word = B.CreateIntrinsic(Intrinsic::ptrmask, {Ptr->getType(), IdxTy},
                                  {Ptr, ConstantInt::get(IdxTy, ~uint64_t(3))}, nullptr,
                                  "atoll.atomic.word");
  Value *Low = B.CreateTrunc(B.CreateAnd(B.CreatePtrToInt(Ptr, IdxTy), 3), I32);
  Value *Shift = B.CreateShl(Low, 3, "atoll.atomic.shift");
  Value *Mask = B.CreateShl(ConstantInt::get(I32, (uint64_t(1) << Bits) - 1), Shift);
  return {Word, Shift, B.CreateNot(Mask, "atoll.atomic.inv"), B.getIntNTy(Bits)};
}

/// Splits I's block at I: returns the new loop block, between the head (which now
/// branches to it) and the rest (from I on).
BasicBlock *loopBefore(Instruction *I, BasicBlock *&End) {
  BasicBlock *Head = I->getParent();
  End = Head->splitBasicBlock(I->getIterator(), "atoll.atomic.end");
  BasicBlock *Loop =
      BasicBlock::Create(I->getContext(), "atoll.atomic.loop", Head->getParent(), End);
  Head->getTerminator()->setSuccessor(0, Loop);
  return Loop;
}

/// atomicrmw of an 8- or 16-bit value: a loop of 32-bit compare-and-swap on the word.
void expandSubWordRMW(AtomicRMWInst *AI, const DataLayout &DL) {
  IRBuilder<> B(AI);
  Type *Ty = AI->getType();
  unsigned Bits = DL.getTypeSizeInBits(Ty).getFixedValue();
  SubWord W = subWord(B, AI->getPointerOperand(), Bits, DL);
  LoadInst *Init = B.CreateAlignedLoad(B.getInt32Ty(), W.Word, Align(4), "atoll.atomic.init");
  Init->setVolatile(AI->isVolatile());
  BasicBlock *Head = AI->getParent(), *End;
  BasicBlock *Loop = loopBefore(AI, End);
  B.SetInsertPoint(Loop);
  PHINode *Old = B.CreatePHI(B.getInt32Ty(), 2, "atoll.atomic.old");
  Old->addIncoming(Init, Head);
  Value *Cur = B.CreateTrunc(B.CreateLShr(Old, W.Shift), W.NTy);
  if (Ty != W.NTy)
    Cur = B.CreateBitCast(Cur, Ty);
  Value *New = buildAtomicRMWValue(AI->getOperation(), B, Cur, AI->getValOperand());
  if (Ty != W.NTy)
    New = B.CreateBitCast(New, W.NTy);
  Value *Placed = B.CreateShl(B.CreateZExt(New, B.getInt32Ty()), W.Shift);
  Value *Word = B.CreateOr(B.CreateAnd(Old, W.Inv), Placed);
  AtomicCmpXchgInst *CX = B.CreateAtomicCmpXchg(
      W.Word, Old, Word, Align(4), AI->getOrdering(),
      AtomicCmpXchgInst::getStrongestFailureOrdering(AI->getOrdering()), AI->getSyncScopeID());
  CX->setVolatile(AI->isVolatile());
  Old->addIncoming(B.CreateExtractValue(CX, 0, "atoll.cas.loaded"), Loop);
  B.CreateCondBr(B.CreateExtractValue(CX, 1, "atoll.cas.success"), End, Loop);
  Cur->takeName(AI);
  AI->replaceAllUsesWith(Cur);
  AI->eraseFromParent();
}

/// cmpxchg of an 8- or 16-bit value: a 32-bit compare-and-swap on the word, retried
/// while only the other bytes of the word changed (AtomicExpand's partword form).
void expandSubWordCmpXchg(AtomicCmpXchgInst *CI, const DataLayout &DL) {
  IRBuilder<> B(CI);
  Type *Ty = CI->getCompareOperand()->getType();
  Type *I32 = B.getInt32Ty();
  unsigned Bits = DL.getTypeSizeInBits(Ty).getFixedValue();
  SubWord W = subWord(B, CI->getPointerOperand(), Bits, DL);
  Value *Cmp = B.CreateShl(B.CreateZExt(CI->getCompareOperand(), I32), W.Shift);
  Value *NewV = B.CreateShl(B.CreateZExt(CI->getNewValOperand(), I32), W.Shift);
  LoadInst *Init = B.CreateAlignedLoad(I32, W.Word, Align(4), "atoll.atomic.init");
  Init->setVolatile(CI->isVolatile());
  Value *Rest0 = B.CreateAnd(Init, W.Inv);
  BasicBlock *Head = CI->getParent(), *End;
  BasicBlock *Loop = loopBefore(CI, End);
  BasicBlock *Fail =
      BasicBlock::Create(CI->getContext(), "atoll.atomic.fail", Head->getParent(), End);
  B.SetInsertPoint(Loop);
  PHINode *Rest = B.CreatePHI(I32, 2, "atoll.atomic.rest");
  Rest->addIncoming(Rest0, Head);
  AtomicCmpXchgInst *CX = B.CreateAtomicCmpXchg(
      W.Word, B.CreateOr(Rest, Cmp), B.CreateOr(Rest, NewV), Align(4), CI->getSuccessOrdering(),
      CI->getFailureOrdering(), CI->getSyncScopeID());
  CX->setVolatile(CI->isVolatile());
  Value *Seen = B.CreateExtractValue(CX, 0, "atoll.cas.loaded");
  Value *Ok = B.CreateExtractValue(CX, 1, "atoll.cas.success");
  B.CreateCondBr(Ok, End, Fail);
  B.SetInsertPoint(Fail);
  Value *Rest1 = B.CreateAnd(Seen, W.Inv);
  Rest->addIncoming(Rest1, Fail);
  B.CreateCondBr(B.CreateICmpNE(Rest1, Rest), Loop, End);
  B.SetInsertPoint(CI);
  Value *Old = B.CreateTrunc(B.CreateLShr(Seen, W.Shift), Ty);
  Value *Res = B.CreateInsertValue(PoisonValue::get(CI->getType()), Old, 0);
  Res = B.CreateInsertValue(Res, Ok, 1);
  Res->takeName(CI);
  CI->replaceAllUsesWith(Res);
  CI->eraseFromParent();
}

/// An llvm.nvvm.atomic.*.gen.* call as the atomicrmw/cmpxchg it stands for
/// (monotonic; _cta: syncscope "block", _sys: the system scope).
Instruction *toPlainAtomic(IntrinsicInst *II) {
  bool IsCas, Block;
  std::optional<Op> Operation = nvvmAtomicOp(II->getIntrinsicID(), IsCas, Block);
  IRBuilder<> B(II);
  SyncScope::ID SSID = SyncScope::System;
  if (Block)
    SSID = II->getContext().getOrInsertSyncScopeID("block");
  Value *Ptr = II->getArgOperand(0);
  Type *Ty = II->getType();
  Align A(II->getDataLayout().getTypeStoreSize(Ty).getFixedValue());
  Instruction *New;
  Value *Res;
  if (IsCas) {
    auto *CX = B.CreateAtomicCmpXchg(Ptr, II->getArgOperand(1), II->getArgOperand(2), A,
                                     AtomicOrdering::Monotonic, AtomicOrdering::Monotonic, SSID);
    New = CX;
    Res = B.CreateExtractValue(CX, 0);
  } else {
    New = B.CreateAtomicRMW(*Operation, Ptr, II->getArgOperand(1), A, AtomicOrdering::Monotonic,
                            SSID);
    Res = New;
  }
  Res->takeName(II);
  II->replaceAllUsesWith(Res);
  II->eraseFromParent();
  return New;
}

} // namespace

bool isNativeAtomic(const Instruction &I, const DataLayout &DL) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return nativeRMW(RMW->getOperation(), RMW->getValOperand()->getType(),
                     RMW->getPointerAddressSpace(), DL);
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return nativeCmpXchgBits(DL.getTypeSizeInBits(CX->getCompareOperand()->getType()),
                             CX->getPointerAddressSpace());
  if (const IntrinsicInst *II = asNvvmAtomic(I)) {
    bool IsCas, Block;
    std::optional<Op> Operation = nvvmAtomicOp(II->getIntrinsicID(), IsCas, Block);
    // Lowered as a generic `atom` whatever the pointer's type (atom.sys.add.f32
    // on a global pointer has ptxas's shared-memory loop too).
    unsigned AS = ASGeneric;
    if (IsCas)
      return nativeCmpXchgBits(DL.getTypeSizeInBits(II->getType()), AS);
    return nativeRMW(*Operation, II->getType(), AS, DL);
  }
  return true; // not an atomic
}

namespace {
/// Review R8-F5: atomics that NVPTX lowers to a call of a library function
/// (AtomicExpand's __atomic_* libcalls), which code generation then fails on with
/// only "PTX code generation failed": an atomic aligned below its size (the
/// hardware has no misaligned atomic) and an atomic load or store wider than 64
/// bits. Refused here, naming the instruction and the reason.
std::string libcallAtomicRefusal(const Instruction &I, const DataLayout &DL) {
  Type *Ty = nullptr;
  Align A;
  const char *What = "an atomic";
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ty = RMW->getValOperand()->getType();
    A = RMW->getAlign();
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ty = CX->getCompareOperand()->getType();
    A = CX->getAlign();
  } else if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isAtomic()) {
    Ty = LI->getType();
    A = LI->getAlign();
    What = "an atomic load";
  } else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isAtomic()) {
    Ty = SI->getValueOperand()->getType();
    A = SI->getAlign();
    What = "an atomic store";
  } else {
    return "";
  }
  TypeSize Size = DL.getTypeStoreSize(Ty);
  if (Size.isScalable())
    return (Twine(What) + " on a scalable type has no native form").str();
  uint64_t Bytes = Size.getFixedValue();
  if (A.value() < Bytes)
    return (Twine(What) + " of " + Twine(Bytes) + " bytes aligned to " + Twine(A.value()) +
            " (below its size) has no native form: the GPU has no misaligned atomic (align "
            "it to its size)")
        .str();
  if (!isa<AtomicRMWInst>(I) && !isa<AtomicCmpXchgInst>(I) && Bytes > 8)
    return (Twine(What) + " of a " + Twine(8 * Bytes) +
            "-bit value has no native form (supported: 8 to 64 bits)")
        .str();
  return "";
}
} // namespace

std::string atomicRefusal(const Instruction &I, const DataLayout &DL) {
  if (std::string Why = libcallAtomicRefusal(I, DL); !Why.empty())
    return Why;
  Type *Ty;
  unsigned AS;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ty = RMW->getValOperand()->getType();
    AS = RMW->getPointerAddressSpace();
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ty = CX->getCompareOperand()->getType();
    AS = CX->getPointerAddressSpace();
  } else if (const IntrinsicInst *II = asNvvmAtomic(I)) {
    Ty = II->getType();
    AS = II->getArgOperand(0)->getType()->getPointerAddressSpace();
  } else {
    return "";
  }
  if (isNativeAtomic(I, DL))
    return "";
  TypeSize Bits = DL.getTypeSizeInBits(Ty);
  if (!needed(AS))
    return ("an atomic in address space " + Twine(AS) +
            " has no native compare-and-swap (atomics must be on global, shared or generic "
            "pointers)")
        .str();
  if (Bits.isScalable() || (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64))
    return ("an atomic on a " + Twine(Bits.getKnownMinValue()) +
            "-bit value has no native form and no native compare-and-swap of its width to be "
            "expanded into a checked loop (supported: 8 to 64 bits)")
        .str();
  return "";
}

bool expandNonNativeAtomics(Function &F, const RefuseFn &Refuse) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<Instruction *, 8> Work;
  for (Instruction &I : instructions(F))
    if ((isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || asNvvmAtomic(I)) &&
        !isNativeAtomic(I, DL))
      Work.push_back(&I);
  for (Instruction *I : Work) {
    if (std::string Why = atomicRefusal(*I, DL); !Why.empty()) {
      Refuse(F, I, StateSpace::Unknown, AccessKind::AtomicRMW, Why); // analysis refused it first
      return false;
    }
    // The scoped intrinsics are lowered as generic `atom` whatever their pointer's
    // type: expanded as the atomicrmw/cmpxchg they stand for, with their scope
    // (NVPTX keeps a cmpxchg's scope: atom.cta.cas, atom.sys.cas).
    if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      I = toPlainAtomic(II);
    } else if (unsigned PtrIdx = isa<AtomicRMWInst>(I)
                                     ? AtomicRMWInst::getPointerOperandIndex()
                                     : AtomicCmpXchgInst::getPointerOperandIndex();
               auto *ASC = dyn_cast<AddrSpaceCastOperator>(I->getOperand(PtrIdx))) {
      // A generic pointer cast from the global or shared space (the confined
      // arena pointer of a generic access is one): the form may be native there;
      // the atomic then takes the cast's operand, the same address.
      Value *Old = I->getOperand(PtrIdx);
      if (needed(ASC->getSrcAddressSpace())) {
        I->setOperand(PtrIdx, ASC->getPointerOperand());
        if (isNativeAtomic(*I, DL)) {
          if (auto *Dead = dyn_cast<Instruction>(Old); Dead && Dead->use_empty())
            Dead->eraseFromParent();
          continue;
        }
        I->setOperand(PtrIdx, Old);
      }
    }
    ++NumExpandedAtomics;
    if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I)) {
      expandSubWordCmpXchg(CX, DL); // only sub-word cmpxchg is not native
      continue;
    }
    auto *RMW = cast<AtomicRMWInst>(I);
    if (DL.getTypeSizeInBits(RMW->getType()) < 32)
      expandSubWordRMW(RMW, DL);
    else
      expandAtomicRMWToCmpXchg(RMW, createCmpXchg);
  }
  return true;
}

} // namespace Atoll
