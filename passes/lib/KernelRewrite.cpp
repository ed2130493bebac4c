// atoll-mem, rewrite: applies the list the analysis collected (AccessCollection.cpp)
// and recomputes nothing: each access is confined as its entry says (groups of
// `base + C` accesses share one clamp; loop-invariant clamps are hoisted), dropped
// calls are erased, sync operands confined, and `unreachable` neutralised. The
// code for each confinement is in Confinement.cpp.
#include "KernelHardener.h"
#include "Statistics.h"
#include "atoll/passes/Diagnostics.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

/// How the report names a confinement.
static StringRef describe(const Confinement &How, ClampingMode Mode) {
  switch (How.Form) {
  case ConfineForm::Arena:
    return Mode == ClampingMode::MaskBased ? "into the arena (mask)" : "into the arena (modulo)";
  case ConfineForm::SharedWindow:
    return "into the shared window";
  case ConfineForm::SpaceTest:
    return "run-time space test: shared window or arena";
  case ConfineForm::Object:
    break;
  }
  switch (How.Space) {
  case StateSpace::Shared: return "into its shared object";
  case StateSpace::Local: return "into its stack object";
  case StateSpace::Constant: return "into its constant object";
  case StateSpace::Param: return "into its byval parameter";
  default: return "into its object";
  }
}

void KernelHardener::rewrite(AccessSite &Site, KernelConfiner &C) {
  Instruction &I = *Site.I;
  std::string Original = instructionText(&I); // reported as the tenant wrote it
  IRBuilder<> B(&I);
  Type *I64 = B.getInt64Ty();
  // cp.async ...{4,8,16}.s: the source size operand (bytes read, the rest of the
  // destination zero-filled) must not exceed the copy size; PTX leaves a larger
  // one undefined, so it is cut to the copy size.
  if (Site.CutSrcSize) {
    auto *II = cast<IntrinsicInst>(&I);
    Value *SrcSize = II->getArgOperand(2);
    uint64_t CpSize = Site.CutSrcSize;
    if (auto *CS = dyn_cast<ConstantInt>(SrcSize))
      SrcSize = ConstantInt::get(CS->getType(), std::min(CS->getValue().getLimitedValue(), CpSize));
    else
      SrcSize = B.CreateBinaryIntrinsic(Intrinsic::umin, freezeForClamp(B, SrcSize),
                                        ConstantInt::get(SrcSize->getType(), CpSize), nullptr,
                                        "atoll.src.size");
    II->setArgOperand(2, SrcSize);
  }
  // A memcpy/memset length is first cut to the smallest window involved (see
  // AccessSite::CutLength): the clamp limit (window - length) must not wrap.
  Value *Len = nullptr;
  if (Site.CutLength) {
    auto *MI = cast<MemIntrinsic>(&I);
    // Frozen (R2-F5): umin of undef may become any length.
    Len = freezeForClamp(B, B.CreateZExtOrTrunc(MI->getLength(), I64), "atoll.len.fr");
    for (const MemAccess &Op : Site.Ops) {
      Value *Window = nullptr;
      switch (Op.How.Form) {
      case ConfineForm::Arena:
        Window = C.arenaWindow();
        break;
      case ConfineForm::SpaceTest: {
        // The window of the space the pointer is in at run time (the confinement
        // below takes the same branch): a global copy keeps its full length. One
        // frozen pointer for this test and the confinement's (R2-F5): two tests
        // of an undefined pointer could disagree, and a length cut to the arena
        // would then wrap the shared window's limit.
        Value *P = freezeForClamp(B, I.getOperand(Op.OpIdx), "atoll.ptr.fr");
        I.setOperand(Op.OpIdx, P);
        Window = B.CreateSelect(B.CreateIntrinsic(Intrinsic::nvvm_isspacep_shared, {P}),
                                C.sharedBytes(), C.arenaWindow(), "atoll.window");
        break;
      }
      case ConfineForm::SharedWindow:
        Window = C.sharedBytes();
        break;
      case ConfineForm::Object:
        Window = ConstantInt::get(I64, Op.How.ObjectBytes);
        break;
      }
      Len = B.CreateBinaryIntrinsic(Intrinsic::umin, Len, Window, nullptr, "atoll.len");
    }
    MI->setLength(B.CreateZExtOrTrunc(Len, MI->getLength()->getType()));
  }
  for (const MemAccess &Op : Site.Ops) {
    if (Op.ProvenSafe) {
      record(&I, Op.How.Space, Site.Kind, Outcome::ProvenSafe, "constant offset inside its object",
             Original);
      continue;
    }
    Value *Ptr = I.getOperand(Op.OpIdx);
    Value *Size = Len ? Len : static_cast<Value *>(Op.Size);
    Value *NewPtr = nullptr;
    if (Op.Group >= 0 && Groups[Op.Group].shared()) {
      AccessGroup &G = Groups[Op.Group];
      Value *&Clamped = GroupClamps[Op.Group];
      if (!Clamped) { // the group's first access in the block: clamp Base once
        IRBuilder<> HB(I.getContext());
        HB.SetInsertPoint(clampPoint(I, G.Base, C));
        Clamped = C.confine(HB, G.Base, G.How, ConstantInt::get(I64, G.MaxEnd), Align(G.Align));
        countClamp();
      }
      NewPtr = B.CreateConstGEP1_64(B.getInt8Ty(), Clamped, Op.GroupOffset, "atoll.grp.addr");
    }
    if (!NewPtr && isa<Constant>(Size)) {
      IRBuilder<> HB(I.getContext());
      HB.SetInsertPoint(clampPoint(I, Ptr, C));
      NewPtr = C.confine(HB, Ptr, Op.How, Size, Op.Alignment);
      countClamp();
    }
    if (!NewPtr) {
      NewPtr = C.confine(B, Ptr, Op.How, Size, Op.Alignment);
      countClamp();
    }
    I.setOperand(Op.OpIdx, NewPtr);
    record(&I, Op.How.Space, Site.Kind, Outcome::Confined, describe(Op.How, Opts.Mode), Original);
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

void KernelHardener::harden(Function &NewF, KernelConfiner &C) {
  Fn = &NewF; // the old function is gone
  DT = std::make_unique<DominatorTree>(NewF);
  LI = std::make_unique<LoopInfo>(*DT);
  C.setAnalyses(DT.get(), LI.get()); // kept up to date when a clamp splits a block
  GroupClamps.assign(Groups.size(), nullptr);
  for (AccessSite &Site : Sites)
    rewrite(Site, C);
  C.setAnalyses(nullptr, nullptr);
  LI.reset();
  DT.reset();
  for (Instruction *I : Drops)
    I->eraseFromParent();
  for (auto [CB, Ops] : SyncCalls)
    if (confineSyncOperands(*CB, Ops))
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
