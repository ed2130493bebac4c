// atoll-mem, rewrite: confines every access of an analysed kernel (groups of
// `base + C` accesses share one clamp; loop-invariant clamps are hoisted) and
// neutralises `unreachable`. The code for each confinement is in Confinement.cpp.
#include "KernelHardener.h"
#include "atoll/passes/Diagnostics.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace Atoll {

void KernelHardener::rewrite(Instruction &I, KernelConfiner &C) {
  SmallVector<MemOperand, 2> Ops;
  memOperands(I, Ops);
  AccessKind K = kindOf(I);
  std::string Original = instructionText(&I); // reported as the tenant wrote it
  IRBuilder<> B(&I);
  Type *I64 = B.getInt64Ty();
  // cp.async ...{4,8,16}.s: the source size operand (bytes read, the rest of the
  // destination zero-filled) must not exceed the copy size; PTX leaves a larger
  // one undefined, so it is cut to the copy size.
  if (auto *II = dyn_cast<IntrinsicInst>(&I);
      II && II->getCalledFunction()->getName().starts_with("llvm.nvvm.cp.async.") &&
      II->arg_size() == 3 && II->getArgOperand(2)->getType()->isIntegerTy() && !Ops.empty()) {
    Value *SrcSize = II->getArgOperand(2);
    uint64_t CpSize = cast<ConstantInt>(Ops[0].Size)->getZExtValue();
    if (auto *CS = dyn_cast<ConstantInt>(SrcSize))
      SrcSize = ConstantInt::get(CS->getType(), std::min(CS->getValue().getLimitedValue(), CpSize));
    else
      SrcSize = B.CreateBinaryIntrinsic(Intrinsic::umin, SrcSize,
                                        ConstantInt::get(SrcSize->getType(), CpSize), nullptr,
                                        "atoll.src.size");
    II->setArgOperand(2, SrcSize);
  }
  // A memcpy/memset length is first cut to the smallest window involved: every
  // run-time length, and every constant one that might not fit a window (longer
  // than MaxAccessBytes, which every arena and shared window holds, or than a
  // static object), since the clamp limit (window - length) would wrap around.
  // Shorter constants stay constants: a constant-length copy is unrolled into a
  // few wide loads and stores, a run-time one becomes a byte loop.
  Value *Len = nullptr;
  bool CutLength = false;
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    auto *CL = dyn_cast<ConstantInt>(MI->getLength());
    CutLength = !CL || CL->getValue().getLimitedValue() > MaxAccessBytes;
    for (const MemOperand &Op : Ops)
      if (std::optional<uint64_t> Bytes = objectSize(originOf(I, Op).Object, DL))
        CutLength |= CL && CL->getValue().getLimitedValue() > *Bytes;
  }
  if (auto *MI = dyn_cast<MemIntrinsic>(&I); MI && CutLength) {
    Len = B.CreateZExtOrTrunc(MI->getLength(), I64);
    for (const MemOperand &Op : Ops) {
      PointerOrigin O = originOf(I, Op);
      Value *Window = nullptr;
      if (O.Space == StateSpace::Global)
        Window = C.arenaWindow();
      else if (O.Space == StateSpace::Unknown)
        // The window of the space the pointer is in at run time (the confinement
        // below takes the same branch): a global copy keeps its full length.
        Window = B.CreateSelect(
            B.CreateIntrinsic(Intrinsic::nvvm_isspacep_shared, {I.getOperand(Op.OpIdx)}),
            C.sharedBytes(), C.arenaWindow(), "atoll.window");
      else if (O.Space == StateSpace::Shared && !objectSize(O.Object, DL))
        Window = C.sharedBytes();
      else if (std::optional<uint64_t> Bytes = objectSize(O.Object, DL))
        Window = ConstantInt::get(I64, *Bytes);
      if (Window)
        Len = B.CreateBinaryIntrinsic(Intrinsic::umin, Len, Window, nullptr, "atoll.len");
    }
    MI->setLength(B.CreateZExtOrTrunc(Len, MI->getLength()->getType()));
  }
  for (const MemOperand &Op : Ops) {
    Value *Ptr = I.getOperand(Op.OpIdx);
    PointerOrigin O = originOf(I, Op);
    if (provenSafe(Ptr, O, Op)) {
      record(&I, O.Space, K, Outcome::ProvenSafe, "constant offset inside its object", Original);
      continue;
    }
    Value *Size = Len ? Len : Op.Size;
    Value *NewPtr = nullptr;
    if (auto It = GroupOf.find({&I, Op.OpIdx}); It != GroupOf.end()) {
      auto &[Key, Offset] = It->second;
      AccessGroup &G = Groups[Key];
      if (G.Members > 1 && G.Offsets) {
        if (!G.Clamped) { // the group's first access in the block: clamp Base once
          IRBuilder<> HB(I.getContext());
          HB.SetInsertPoint(clampPoint(I, std::get<0>(Key), C));
          G.Clamped =
              O.Space == StateSpace::Global
                  ? C.confine(HB, std::get<0>(Key), O, ConstantInt::get(I64, G.MaxEnd),
                              Align(G.Align))
                  : C.confineToObject(HB, std::get<0>(Key), O.Object, *objectSize(O.Object, DL),
                                      ConstantInt::get(I64, G.MaxEnd), Align(G.Align));
        }
        NewPtr = B.CreateConstGEP1_64(B.getInt8Ty(), G.Clamped, Offset, "atoll.grp.addr");
      }
    }
    if (!NewPtr && isa<Constant>(Size)) {
      IRBuilder<> HB(I.getContext());
      HB.SetInsertPoint(clampPoint(I, Ptr, C));
      NewPtr = C.confine(HB, Ptr, O, Size, Op.Alignment);
    }
    if (!NewPtr)
      NewPtr = C.confine(B, Ptr, O, Size, Op.Alignment);
    I.setOperand(Op.OpIdx, NewPtr);
    StringRef How;
    switch (O.Space) {
    case StateSpace::Global:
      How = Opts.Mode == ClampingMode::MaskBased ? "into the arena (mask)"
                                                 : "into the arena (modulo)";
      break;
    case StateSpace::Shared:
      How = objectSize(O.Object, DL) ? "into its shared object" : "into the shared window";
      break;
    case StateSpace::Local: How = "into its stack object"; break;
    case StateSpace::Constant: How = "into its constant object"; break;
    case StateSpace::Param: How = "into its byval parameter"; break;
    default: How = "run-time space test: shared window or arena"; break;
    }
    record(&I, O.Space, K, Outcome::Confined, How, Original);
  }
}

BasicBlock::iterator KernelHardener::clampPoint(Instruction &Access, Value *Ptr,
                                                KernelConfiner &C) {
  Loop *L = LI ? LI->getLoopFor(Access.getParent()) : nullptr;
  if (!L)
    return Access.getIterator();
  auto *Def = dyn_cast<Instruction>(Ptr);
  if (Def && !isa<AllocaInst>(Def) && Def->getParent() != &Fn->getEntryBlock()) {
    if (L->contains(Def->getParent()))
      return Access.getIterator(); // varies per iteration
    if (isa<PHINode>(Def))
      return Def->getParent()->getFirstInsertionPt();
    return std::next(Def->getIterator());
  }
  // Arguments, constants, globals, allocas: with the other launch invariants.
  return C.entryBuilder().GetInsertPoint();
}

void KernelHardener::planGroups(ArrayRef<Instruction *> Work) {
  for (Instruction *I : Work) {
    if (isa<MemIntrinsic>(I))
      continue;
    SmallVector<MemOperand, 2> Ops;
    if (!memOperands(*I, Ops))
      continue;
    for (const MemOperand &Op : Ops) {
      auto *CSize = dyn_cast<ConstantInt>(Op.Size);
      PointerOrigin O = originOf(*I, Op);
      bool ObjectSpace = O.Space == StateSpace::Shared || O.Space == StateSpace::Local ||
                         O.Space == StateSpace::Constant || O.Space == StateSpace::Param;
      std::optional<uint64_t> Bytes = objectSize(O.Object, DL);
      // The arena counts as the object of global accesses: every arena holds
      // MaxGroupBytes, so the group's limit (size - max(C + S)) never wraps.
      if (O.Space == StateSpace::Global && !O.ModuleStorage)
        Bytes = MaxGroupBytes;
      else if (!ObjectSpace)
        continue;
      Value *Ptr = I->getOperand(Op.OpIdx);
      if (!CSize || !Bytes || provenSafe(Ptr, O, Op))
        continue;
      APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
      Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
      if (Base->getType() != Ptr->getType() || Off.isNegative() ||
          (O.Object && Base->stripPointerCasts() == O.Object))
        continue;
      uint64_t C = Off.getZExtValue(), A = Op.Alignment.value();
      uint64_t End = C + CSize->getZExtValue();
      if (C % A != 0 || End > *Bytes)
        continue;
      GroupKey Key{Base, O.Object, I->getParent()};
      AccessGroup &G = Groups[Key];
      G.Align = std::max(G.Align, A);
      G.MaxEnd = std::max(G.MaxEnd, End);
      ++G.Members;
      G.Offsets |= C != 0;
      GroupOf[{I, Op.OpIdx}] = {Key, C};
    }
  }
}

void KernelHardener::harden(Function &NewF, KernelConfiner &C) {
  Fn = &NewF; // the old function is gone
  SmallVector<Instruction *, 64> Work;
  SmallVector<Instruction *, 8> Drop;
  SmallVector<CallBase *, 8> Sync; // allowed intrinsics: barriers/warp masks confined
  SmallVector<UnreachableInst *, 4> Unreachables;
  for (Instruction &I : instructions(NewF)) {
    if (auto *U = dyn_cast<UnreachableInst>(&I)) {
      Unreachables.push_back(U);
      continue;
    }
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm())
        continue;
      IntrinsicPolicy P = classifyIntrinsic(*CB->getCalledFunction());
      if (P.Action == IntrinsicAction::Drop)
        Drop.push_back(CB);
      else if (P.Action == IntrinsicAction::Confine)
        Work.push_back(CB);
      else if (P.Action == IntrinsicAction::Allow)
        Sync.push_back(CB);
      continue;
    }
    if (isa<FenceInst>(I) || isa<AllocaInst>(I) || !I.mayReadOrWriteMemory())
      continue;
    Work.push_back(&I);
  }
  planGroups(Work);
  DT = std::make_unique<DominatorTree>(NewF);
  LI = std::make_unique<LoopInfo>(*DT);
  C.setAnalyses(DT.get(), LI.get()); // kept up to date when a clamp splits a block
  for (Instruction *I : Work)
    rewrite(*I, C);
  C.setAnalyses(nullptr, nullptr);
  LI.reset();
  DT.reset();
  for (Instruction *I : Drop)
    I->eraseFromParent();
  for (CallBase *CB : Sync)
    if (confineSyncOperands(*CB))
      record(CB, StateSpace::Unknown, AccessKind::Intrinsic, Outcome::Confined,
             "synchronisation operand confined (every barrier is barrier.sync 0; member mask "
             "matched among the active lanes)");
  // Last, so that no rewrite above sees the split blocks.
  SmallVector<CallBase *, 8> Collectives;
  for (Instruction &I : instructions(NewF))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isAlignedWarpCollective(*CB))
      Collectives.push_back(CB);
  for (CallBase *CB : Collectives) {
    guardAlignedWarpCollective(*CB);
    record(CB, StateSpace::Unknown, AccessKind::Intrinsic, Outcome::Confined,
           "warp-collective .aligned instruction runs only when the whole warp is there");
  }
  // `unreachable` would become a PTX trap: neutralise it as an early exit.
  for (UnreachableInst *U : Unreachables) {
    IRBuilder<> B(U);
    B.CreateRetVoid();
    U->eraseFromParent();
  }
}

} // namespace Atoll
