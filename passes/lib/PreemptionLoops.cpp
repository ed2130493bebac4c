// Charged loops: the preemption check of an innermost loop whose iteration count is
// known before it starts moves out of the loop. The count (at most the charge cap)
// is charged to the thread's poll counter once, in the preheader, and the body runs
// without a check. Loops whose count is known only at run time are versioned: a
// copy without checks runs when the count is at most the cap, the checked original
// otherwise (an attacker's 2^63 takes the checked loop). docs/passes.md "Charged
// loops" has the rules and the bound.
//
// The count must hold for the code the GPU runs, not for the UB-free program LLVM
// reasons about: the tenant controls nsw/nuw/inbounds and mustprogress. So before
// the count is computed, the loop's instructions and the loop-invariant values its
// exit conditions depend on lose their poison-generating flags, the kernel and loop
// lose mustprogress, and the count is what ScalarEvolution proves for wrapping
// arithmetic. A grid-stride loop (step and bound loop-invariant, signed or unsigned
// less-than) is matched here directly, with run-time guards for a positive step and
// no wrap. Each charged loop is checked to be one cycle without inner cycles
// (CycleInfo: an irreducible region inside a natural loop is not a loop to LoopInfo).
#include "Preemption.h"
#include "Statistics.h"

#include "atoll/abi.h"
#include "atoll/passes/StraightLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

#define DEBUG_TYPE "atoll-preempt"

using namespace llvm;
using namespace llvm::PatternMatch;

ATOLL_STATISTIC(NumChargedConstant, "Loops charged once with a constant count (no check inside)");
ATOLL_STATISTIC(NumTightCharges, "Of those, charged a smaller run-time count (cut to the constant)");
ATOLL_STATISTIC(NumVersioned, "Loops versioned: a copy without checks for counts up to the cap");
ATOLL_STATISTIC(NumGridStride, "Of those, grid-stride loops matched with run-time wrap guards");
ATOLL_STATISTIC(NumNoWrapFacts, "No-wrap flags given back to the copies' increments, guarded");

namespace Atoll {

namespace {

/// Slices larger than this are left checked (compile time, not safety).
constexpr unsigned MaxSlice = 512;

/// A charged loop runs at most this much work (StraightLine.h units: 16384 memory
/// accesses, or 2^20 other instructions) between the charge's poll and the next.
constexpr uint64_t ChargeWork = uint64_t(1) << 20;

bool hasBoundedMark(const BasicBlock &BB) {
  return BB.getTerminator() && BB.getTerminator()->getMetadata(ATOLL_BOUNDED_LOOP_MD);
}

void markBounded(ArrayRef<BasicBlock *> Blocks) {
  MDNode *Empty = MDNode::get(Blocks.front()->getContext(), {});
  for (BasicBlock *BB : Blocks)
    BB->getTerminator()->setMetadata(ATOLL_BOUNDED_LOOP_MD, Empty);
}

/// L is one cycle of the CFG whose inner cycles (if any) are all charged loops:
/// every iteration is a path through acyclic code and charged loops.
bool isSimpleCycle(const Loop &L, const CycleInfo &CI) {
  const CycleInfo::CycleT *C = CI.getCycle(L.getHeader());
  return C && C->getHeader() == L.getHeader() && C->isReducible() &&
         C->getNumBlocks() == L.getNumBlocks() &&
         all_of(C->children(), [](const auto *Child) { return isChargedCycle(*Child); });
}

/// Intrinsics the exit slice continues through: ScalarEvolution models them, and
/// their only poison facts are the immediates that sliceIntrinsic clears.
bool throughIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::umin: case Intrinsic::umax: case Intrinsic::smin: case Intrinsic::smax:
  case Intrinsic::uadd_sat: case Intrinsic::usub_sat: case Intrinsic::sadd_sat:
  case Intrinsic::ssub_sat: case Intrinsic::abs: case Intrinsic::ctlz: case Intrinsic::cttz:
    return true;
  default:
    return false;
  }
}

/// An operation whose result is poison (or UB) for some operands, a fact no flag
/// carries and ValueTracking assumes away: a shift by a run-time amount (poison from
/// the width on; PTX clamps it), a division or remainder by a run-time divisor (UB
/// at 0), a float-to-int conversion (poison out of range; PTX saturates). A count
/// computed through one is not trusted (the loop stays checked).
bool inherentPoison(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::Shl: case Instruction::LShr: case Instruction::AShr:
  case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem: case Instruction::SRem:
    return !isa<Constant>(I.getOperand(1));
  case Instruction::FPToUI: case Instruction::FPToSI:
    return true;
  default:
    return false;
  }
}

/// Drops every poison fact of what the loop's exit conditions are computed from:
/// the backward slice of the exiting branches' conditions through instructions (the
/// induction variables and their increments, the bounds) and the intrinsics
/// throughIntrinsic names, not through memory or other calls. Each loses its
/// poison-generating flags (nsw, nuw, exact, inbounds, samesign, disjoint, nneg, ...),
/// metadata and return attributes; llvm.abs/ctlz/cttz become their non-poison forms
/// (R4-F6: abs(INT_MIN, true) and ctlz(0, true) are poison, and the count trusted
/// "abs >= 0"). The rest of the loop keeps its flags (strength reduction needs
/// them). False when the slice is too large, reads undef/poison, or goes through
/// an operation with a poison fact that cannot be dropped (inherentPoison).
bool dropLoopFlags(Loop &L) {
  SmallVector<Instruction *, 32> Work;
  SmallPtrSet<Instruction *, 32> Seen;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *BB : Exiting)
    Work.push_back(BB->getTerminator());
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    if (Seen.size() > MaxSlice || inherentPoison(*I))
      return false;
    I->dropPoisonGeneratingAnnotations();
    if (auto *II = dyn_cast<IntrinsicInst>(I); II && throughIntrinsic(II->getIntrinsicID())) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::abs || ID == Intrinsic::ctlz || ID == Intrinsic::cttz)
        II->setArgOperand(1, ConstantInt::getFalse(II->getContext()));
    } else if (isa<LoadInst, CallBase, AllocaInst>(I)) {
      continue; // an opaque value: ScalarEvolution knows nothing of it
    }
    for (Value *Op : I->operands()) {
      // undef/poison may be folded to anything before the pass turns it into 0.
      if (isa<UndefValue>(Op))
        return false;
      if (auto *OI = dyn_cast<Instruction>(Op))
        Work.push_back(OI);
    }
  }
  // llvm.loop.mustprogress lets ScalarEvolution assume the loop ends: the loop's
  // metadata goes, except llvm.loop.unroll.disable (no fact; it becomes ptxas's
  // `.pragma "nounroll"`, as without the checks: clang's runtime-unroll remainder
  // loops carry it, and ptxas unrolling them changed the hot loop next to them).
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  for (BasicBlock *BB : Latches) {
    Instruction *T = BB->getTerminator();
    MDNode *Keep = nullptr;
    if (MDNode *ID = T->getMetadata(LLVMContext::MD_loop))
      for (const MDOperand &Op : drop_begin(ID->operands()))
        if (auto *N = dyn_cast<MDNode>(Op); N && N->getNumOperands() == 1)
          if (auto *S = dyn_cast<MDString>(N->getOperand(0));
              S && S->getString() == "llvm.loop.unroll.disable")
            Keep = N;
    T->setMetadata(LLVMContext::MD_loop, nullptr);
    if (Keep) {
      LLVMContext &Ctx = T->getContext();
      MDNode *ID = MDNode::getDistinct(Ctx, {nullptr, Keep}); // first operand: itself
      ID->replaceOperandWith(0, ID);
      T->setMetadata(LLVMContext::MD_loop, ID);
    }
  }
  return true;
}

/// A grid-stride loop: i = phi [A, preheader], [i + S, latch]; the latch, the only
/// exiting block, continues while (i + S) <s B (or <u), with S and B loop-invariant
/// and i 32 bits wide at most. Returns the run-time condition "the loop ends within
/// Cap iterations without wrapping", built before Before (in the preheader), and
/// the span and step its count is computed from.
struct GridStride {
  Value *Ok = nullptr, *Span = nullptr, *Step = nullptr; // i1, i64, i64
};
std::optional<GridStride> matchGridStride(Loop &L, uint64_t Cap, Instruction *Before) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || L.getExitingBlock() != Latch)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return std::nullopt;
  ICmpInst::Predicate P = Cmp->getPredicate(); // samesign is a flag: dropped below
  Value *X = Cmp->getOperand(0), *B = Cmp->getOperand(1);
  if (!L.isLoopInvariant(B)) {
    std::swap(X, B);
    P = ICmpInst::getSwappedPredicate(P);
  }
  if (Br->getSuccessor(0) != L.getHeader())
    P = ICmpInst::getInversePredicate(P);
  if ((P != ICmpInst::ICMP_SLT && P != ICmpInst::ICMP_ULT) || !L.isLoopInvariant(B))
    return std::nullopt;
  Value *I = nullptr, *S = nullptr;
  if (!match(X, m_Add(m_Value(I), m_Value(S))))
    return std::nullopt;
  auto *Phi = dyn_cast<PHINode>(I);
  if (!Phi || Phi->getParent() != L.getHeader() || !L.isLoopInvariant(S)) {
    std::swap(I, S);
    Phi = dyn_cast<PHINode>(I);
    if (!Phi || Phi->getParent() != L.getHeader() || !L.isLoopInvariant(S))
      return std::nullopt;
  }
  BasicBlock *PH = L.getLoopPreheader();
  if (!PH || Phi->getNumIncomingValues() != 2 || Phi->getIncomingValueForBlock(Latch) != X)
    return std::nullopt;
  auto *Ty = dyn_cast<IntegerType>(X->getType());
  if (!Ty || Ty->getBitWidth() > 32)
    return std::nullopt;
  // R4-F5: the guards below prove the copy's values exact in wrapping arithmetic,
  // in the predicate's signedness only: the tenant's nsw/nuw/samesign on the slice
  // (true only in the other signedness) would make them poison. Drop them.
  if (!dropLoopFlags(L))
    return std::nullopt;
  Value *A = Phi->getIncomingValueForBlock(PH);
  // In 64 bits nothing below overflows: |A|, |B|, |S| < 2^32 and Cap <= 2^20.
  IRBuilder<> Bd(Before);
  bool Signed = P == ICmpInst::ICMP_SLT;
  Type *W = Bd.getInt64Ty();
  auto Ext = [&](Value *V) {
    V = Bd.CreateFreeze(V);
    return Signed ? Bd.CreateSExt(V, W) : Bd.CreateZExt(V, W);
  };
  Value *WA = Ext(A), *WB = Ext(B), *WS = Ext(S);
  uint64_t Max = Signed ? APInt::getSignedMaxValue(Ty->getBitWidth()).getZExtValue()
                        : APInt::getMaxValue(Ty->getBitWidth()).getZExtValue();
  // The values tested are A+S, A+2S, ... up to the first >= B: all below
  // max(A, B) + S, which must not wrap (in 64 bits it cannot).
  Value *Top = Signed ? Bd.CreateBinaryIntrinsic(Intrinsic::smax, WA, WB)
                      : Bd.CreateBinaryIntrinsic(Intrinsic::umax, WA, WB);
  Value *NoWrap = Bd.CreateICmpSLE(Bd.CreateAdd(Top, WS), Bd.getInt64(Max));
  Value *Positive = Bd.CreateICmpSGT(WS, Bd.getInt64(0));
  // Span d = B - A (0 when the first test already exits); count = ceil(d / S) or 1.
  Value *Ahead = Signed ? Bd.CreateICmpSLT(WA, WB) : Bd.CreateICmpULT(WA, WB);
  Value *D = Bd.CreateSelect(Ahead, Bd.CreateSub(WB, WA), Bd.getInt64(0));
  Value *Short = Bd.CreateICmpULE(D, Bd.CreateMul(WS, Bd.getInt64(Cap)));
  return GridStride{Bd.CreateAnd(Bd.CreateAnd(Positive, NoWrap), Short, "atoll.gridstride.ok"), D,
                    WS};
}

/// The charge of the grid-stride loop, in its fast preheader: ceil(d / 2^k) with
/// 2^k the largest power of two <= S, i.e. the count ceil(d / S) when S is a power of
/// two and at most twice it otherwise, at least 1. No division (it would cost more
/// than the check it replaces in a loop of a few iterations); an over-charge only
/// brings the next poll closer.
Value *gridStrideCount(IRBuilder<> &Bd, const GridStride &G) {
  Value *D = G.Span, *WS = G.Step; // 0 <= D <= 2^C * S, 0 < S < 2^32
  Value *K = Bd.CreateSub(Bd.getInt64(63),
                          Bd.CreateBinaryIntrinsic(Intrinsic::ctlz, WS, Bd.getTrue()));
  Value *Q = Bd.CreateAdd(Bd.CreateLShr(Bd.CreateSub(D, Bd.getInt64(1)), K), Bd.getInt64(1));
  Value *Zero = Bd.CreateICmpEQ(D, Bd.getInt64(0));
  return Bd.CreateSelect(Zero, Bd.getInt32(1), Bd.CreateTrunc(Q, Bd.getInt32Ty()),
                         "atoll.charge");
}

/// A constant-bounded loop's count at run time, when it is known to be smaller: the
/// bound of `for (b = threadIdx.x; b < 256; b += blockDim.x)` is 256 (blockDim may
/// be 1), while with 256 threads each runs it once. Charging the bound made every
/// such loop poll (a charge above the 2^K counter), a fresh read each thread waits
/// for: two per thread in histogram (1.045x on the H200, session 8). The charge is
/// min(N, the count) from the grid-stride match (N when its guards fail), or from
/// ScalarEvolution's symbolic bound when it needs no division; either is at least
/// the iterations run, so the
/// bound between polls holds. Null when no tighter count is known. Emitted in the
/// preheader; the loop is not copied (N bounds it already).
Value *tighterCharge(Loop &L, ScalarEvolution &SE, uint64_t N, uint64_t Cap) {
  BasicBlock *PH = L.getLoopPreheader();
  Instruction *At = PH->getTerminator();
  Type *I32 = Type::getInt32Ty(PH->getContext());
  if (isa<SCEVConstant>(SE.getBackedgeTakenCount(&L)))
    return nullptr; // N is the exact count
  // The grid-stride count first: a ctlz and a shift, where ScalarEvolution's count
  // of the same loop divides by the step.
  if (auto G = matchGridStride(L, Cap, At)) {
    IRBuilder<> Bd(At);
    Value *Count = Bd.CreateBinaryIntrinsic(Intrinsic::umin, gridStrideCount(Bd, *G),
                                            Bd.getInt32(uint32_t(N)));
    return Bd.CreateSelect(G->Ok, Count, Bd.getInt32(uint32_t(N)), "atoll.charge.tight");
  }
  const SCEV *Sym = SE.getSymbolicMaxBackedgeTakenCount(&L);
  SCEVExpander Exp(SE, "atoll.tc");
  if (!isa<SCEVCouldNotCompute, SCEVConstant>(Sym) &&
      !SCEVExprContains(Sym, [](const SCEV *S) { return isa<SCEVUDivExpr>(S); }) &&
      Exp.isSafeToExpandAt(Sym, At)) {
    IRBuilder<> Bd(At);
    Value *T = Bd.CreateFreeze(Exp.expandCodeFor(Sym, Sym->getType(), At), "atoll.tc");
    // min in T's own width first: a wide count must not wrap into a small i32.
    T = Bd.CreateBinaryIntrinsic(Intrinsic::umin, T, ConstantInt::get(T->getType(), N - 1));
    return Bd.CreateAdd(Bd.CreateZExtOrTrunc(T, I32), Bd.getInt32(1), "atoll.charge");
  }
  return nullptr;
}

/// An induction variable whose no-wrap facts the copy gets back, proven at run
/// time: P = phi [S, preheader], [Inc, latch] with Inc = add P, C (C loop-invariant),
/// at most 32 bits wide, whose increment the tenant marked nsw or nuw. dropLoopFlags
/// takes those flags away (the count must not trust them); without them a 32-bit
/// index's sign extension is no affine recurrence to strength reduction, and the copy
/// recomputed `z * plane` with a 64-bit multiply per iteration where the build
/// without checks adds a stride: stencil3d 1.040x on the H200 (session 8). The
/// tenant's flag only says which fact to try; the guard decides.
struct NoWrapIV {
  PHINode *Phi;
  BinaryOperator *Inc;
  bool Signed, Unsigned; // nsw, nuw wanted
};

SmallVector<NoWrapIV, 2> collectNoWrapIVs(Loop &L) {
  SmallVector<NoWrapIV, 2> IVs;
  BasicBlock *PH = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  if (!PH || !Latch)
    return IVs;
  for (PHINode &Phi : L.getHeader()->phis()) {
    auto *Ty = dyn_cast<IntegerType>(Phi.getType());
    auto *Inc = dyn_cast<BinaryOperator>(Phi.getIncomingValueForBlock(Latch));
    if (!Ty || Ty->getBitWidth() > 32 || Phi.getNumIncomingValues() != 2 || !Inc ||
        Inc->getOpcode() != Instruction::Add || !L.contains(Inc))
      continue;
    Value *C = Inc->getOperand(0) == &Phi ? Inc->getOperand(1) : Inc->getOperand(0);
    if ((Inc->getOperand(0) != &Phi && Inc->getOperand(1) != &Phi) || C == &Phi ||
        !L.isLoopInvariant(C) || isa<UndefValue>(C) ||
        isa<UndefValue>(Phi.getIncomingValueForBlock(PH)))
      continue;
    if (Inc->hasNoSignedWrap() || Inc->hasNoUnsignedWrap())
      IVs.push_back({&Phi, Inc, Inc->hasNoSignedWrap(), Inc->hasNoUnsignedWrap()});
  }
  return IVs;
}

/// After dropLoopFlags: only the facts it took away need a guard (an increment off
/// the exit slice keeps the tenant's flags in both loops, as the rest of the body).
void keepDropped(SmallVectorImpl<NoWrapIV> &IVs) {
  for (NoWrapIV &IV : IVs) {
    IV.Signed &= !IV.Inc->hasNoSignedWrap();
    IV.Unsigned &= !IV.Inc->hasNoUnsignedWrap();
  }
  erase_if(IVs, [](const NoWrapIV &IV) { return !IV.Signed && !IV.Unsigned; });
}

/// True (at run time, in the preheader) when no increment of the IVs wraps in the
/// wanted signedness within Count (i64) increments: S + Count * C, exact in 64 bits
/// (|S|, |C| < 2^32 and a Count that passes the versioning's cap, <= 2^20: no
/// overflow), stays in the IV's range; the values between lie between S and it.
/// A larger Count makes the guard meaningless, but then the versioning condition it
/// is and-ed with is false.
Value *noWrapGuard(IRBuilder<> &Bd, ArrayRef<NoWrapIV> IVs, Value *Count, BasicBlock *PH) {
  Value *Ok = nullptr;
  auto All = [&](Value *Cond) { Ok = Ok ? Bd.CreateAnd(Ok, Cond) : Cond; };
  Type *W = Bd.getInt64Ty();
  // The grid-stride count is poison for a step of 0 (ctlz): the versioning
  // condition is false then, and must not become poison through this guard.
  Count = Bd.CreateFreeze(Count);
  for (const NoWrapIV &IV : IVs) {
    Value *S = Bd.CreateFreeze(IV.Phi->getIncomingValueForBlock(PH));
    Value *C = Bd.CreateFreeze(IV.Inc->getOperand(0) == IV.Phi ? IV.Inc->getOperand(1)
                                                               : IV.Inc->getOperand(0));
    const unsigned Bits = IV.Phi->getType()->getIntegerBitWidth();
    if (IV.Signed) {
      Value *SX = Bd.CreateSExt(S, W);
      Value *CX = Bd.CreateSExt(C, W);
      Value *End = Bd.CreateAdd(SX, Bd.CreateMul(Count, CX));
      All(Bd.CreateICmpSGE(End, Bd.getInt64(APInt::getSignedMinValue(Bits).getSExtValue())));
      All(Bd.CreateICmpSLE(End, Bd.getInt64(APInt::getSignedMaxValue(Bits).getSExtValue())));
    }
    if (IV.Unsigned) {
      Value *SX = Bd.CreateZExt(S, W);
      Value *CX = Bd.CreateZExt(C, W);
      Value *End = Bd.CreateAdd(SX, Bd.CreateMul(Count, CX));
      All(Bd.CreateICmpULE(End, Bd.getInt64(APInt::getMaxValue(Bits).getZExtValue())));
    }
  }
  return Ok;
}

/// Versions L: in its preheader PH, Ok selects a clone without checks (marked
/// bounded) whose preheader charges Amount(builder) iterations. The clone's
/// increments of IVs get the no-wrap flags that Ok proved (noWrapGuard).
void versionLoop(Loop &L, Value *Ok, LoopInfo &LI, DominatorTree &DT,
                 function_ref<Value *(IRBuilder<> &)> Amount, uint64_t MaxAmount,
                 uint64_t Work, ArrayRef<NoWrapIV> IVs, SmallVectorImpl<ChargeSite> &Charges) {
  BasicBlock *PH = L.getLoopPreheader();
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  BasicBlock *OrigPH =
      SplitBlock(PH, PH->getTerminator(), &DT, &LI, nullptr, L.getHeader()->getName() + ".ph");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> NewBlocks;
  Loop *Fast = cloneLoopWithPreheader(OrigPH, PH, &L, VMap, ".atoll.fast", &LI, &DT, NewBlocks);
  remapInstructionsInBlocks(NewBlocks, VMap);
  // The copy keeps the unrolling LLVM (the tenant's -O2) gave the loop: ptxas must not
  // unroll it again. ptxas decides per function, and the checked original after it
  // (a second loop with loads, on the same path to the exit) made it unroll the copy
  // 4x where it leaves the same loop of the unchecked build alone: pointer_chase
  // 1.13x on the H200 (its unrolled schedule moves payload loads away from the link
  // loads they share a node with). llvm.loop.unroll.disable -> `.pragma "nounroll"`.
  Fast->setLoopAlreadyUnrolled();
  for (const NoWrapIV &IV : IVs) {
    auto *Inc = cast<BinaryOperator>(VMap[IV.Inc]);
    if (IV.Signed) {
      Inc->setHasNoSignedWrap(true);
      ++NumNoWrapFacts;
    }
    if (IV.Unsigned) {
      Inc->setHasNoUnsignedWrap(true);
      ++NumNoWrapFacts;
    }
  }
  auto *FastPH = cast<BasicBlock>(VMap[OrigPH]);
  ReplaceInstWithInst(PH->getTerminator(), BranchInst::Create(FastPH, OrigPH, Ok));
  // LCSSA: every use outside the loop is a phi of a (dedicated) exit block.
  for (BasicBlock *E : Exits)
    for (PHINode &PN : E->phis())
      for (unsigned K = 0, N = PN.getNumIncomingValues(); K < N; ++K) {
        BasicBlock *In = PN.getIncomingBlock(K);
        if (!L.contains(In))
          continue;
        Value *V = PN.getIncomingValue(K);
        if (Value *NV = VMap.lookup(V))
          V = NV;
        PN.addIncoming(V, cast<BasicBlock>(VMap[In]));
      }
  SmallVector<BasicBlock *, 16> Body;
  for (BasicBlock *BB : NewBlocks)
    if (BB != FastPH)
      Body.push_back(BB);
  markBounded(Body);
  IRBuilder<> Bd(FastPH->getTerminator());
  Charges.push_back({FastPH, Amount(Bd), MaxAmount, Work});
}

/// A convergent call (barrier, warp primitive): a copy of the loop would let threads
/// that take different copies execute different instances of it, which LLVM does
/// not allow either (loop versioning and unswitching refuse such loops).
bool hasConvergentCall(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isConvergent())
        return true;
  return false;
}

bool loopWaits(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isVolatile())
        return true;
      if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isVolatile())
        return true;
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Fn = CB->getCalledFunction())
          if (Fn->getName().starts_with("llvm.nvvm.nanosleep"))
            return true;
    }
  return false;
}

} // namespace

bool isChargedCycle(const CycleInfo::CycleT &C) {
  return all_of(C.blocks(), [](BasicBlock *BB) { return hasBoundedMark(*BB); });
}

/// The work of one iteration of L at most (StraightLine.h units): every block's
/// weight once, and each inner loop's work times its charge (a constant charge, or
/// the cap for any other: the count of a charged loop is at most its charge).
static uint64_t iterationWork(const Loop &L, ArrayRef<ChargeSite> Charges, uint64_t Cap) {
  uint64_t W = 0;
  for (BasicBlock *BB : L.blocks()) {
    if (any_of(L.getSubLoops(), [&](const Loop *Sub) { return Sub->contains(BB); }))
      continue;
    for (Instruction &I : *BB)
      W += straightWeight(I);
  }
  for (const Loop *Sub : L.getSubLoops()) {
    uint64_t Times = Cap;
    for (const ChargeSite &CS : Charges)
      if (CS.Block == Sub->getLoopPreheader())
        Times = std::min(Times, CS.MaxAmount);
    W += Times * iterationWork(*Sub, Charges, Cap);
  }
  return std::max<uint64_t>(W, 1);
}

void chargeBoundedLoops(Function &F, unsigned CapShift, SmallVectorImpl<ChargeSite> &Charges) {
  if (CapShift == 0)
    return;
  const uint64_t MaxCap = uint64_t(1) << CapShift;
  // R4-F1/R5-F7: willreturn or mustprogress (-O2 infers willreturn again after
  // atoll-strip-facts) make ScalarEvolution assume every loop ends. Dropped here,
  // right before counting; if either is still there, nothing is charged.
  F.removeFnAttr(Attribute::MustProgress);
  F.removeFnAttr(Attribute::WillReturn);
  if (F.mustProgress() || F.willReturn())
    return;
  // R9-F1: an assumption is a fact the counts would believe (atoll-mem drops every
  // one first); should one still be here, nothing is charged (deny by default).
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::assume)
      return;
  TargetLibraryInfoImpl TLII(F.getParent()->getTargetTriple());
  TargetLibraryInfo TLI(TLII, &F);
  SmallPtrSet<BasicBlock *, 16> Seen; // headers looked at (originals and copies)
  // One loop per round, analyses rebuilt: each versioning changes the CFG.
  for (;;) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    // Inner loops first: a loop is looked at once all its inner loops have been.
    Loop *L = nullptr;
    for (Loop *Cand : LI.getLoopsInPreorder())
      if (!Seen.count(Cand->getHeader()) && all_of(Cand->getSubLoops(), [&](Loop *Sub) {
            return Seen.count(Sub->getHeader()) || hasBoundedMark(*Sub->getHeader());
          })) {
        L = Cand;
        Seen.insert(L->getHeader());
        break;
      }
    if (!L)
      return;
    // An outer loop qualifies only when every loop inside it is charged, and then
    // only with a constant count (no copy of a loop nest).
    const bool Outer = !L->isInnermost();
    if (Outer && !all_of(L->getSubLoops(), [](Loop *Sub) { return hasBoundedMark(*Sub->getHeader()); }))
      continue;
    if (hasBoundedMark(*L->getHeader()) || loopWaits(*L))
      continue;
    {
      CycleInfo CI;
      CI.compute(F);
      if (!isSimpleCycle(*L, CI))
        continue;
    }
    AssumptionCache AC(F);
    simplifyLoop(L, &DT, &LI, nullptr, &AC, nullptr, /*PreserveLCSSA=*/false);
    formLCSSA(*L, DT, &LI, nullptr);
    BasicBlock *PH = L->getLoopPreheader();
    if (!PH || !L->hasDedicatedExits() ||
        any_of(L->blocks(), [](BasicBlock *BB) { return !isa<BranchInst, SwitchInst>(BB->getTerminator()); }))
      continue;
    // R5-F1: the charge bounds iterations, the time between polls needs work: a loop
    // is charged for at most ChargeWork / (work of one iteration) iterations.
    const uint64_t Work = iterationWork(*L, Charges, MaxCap);
    const uint64_t Cap = std::min(MaxCap, ChargeWork / Work);
    if (Cap < 2)
      continue;
    // Screen with the tenant's flags (cheap), then drop them and ask again.
    bool Candidate;
    {
      ScalarEvolution SE(F, TLI, AC, DT, LI);
      Candidate = !isa<SCEVCouldNotCompute>(SE.getSymbolicMaxBackedgeTakenCount(L));
    }
    // Before any flag is dropped: which increments the tenant said do not wrap.
    SmallVector<NoWrapIV, 2> IVs = collectNoWrapIVs(*L);
    if (Candidate) {
      if (!dropLoopFlags(*L))
        continue;
      keepDropped(IVs);
      ScalarEvolution SE(F, TLI, AC, DT, LI);
      const SCEV *Max = SE.getConstantMaxBackedgeTakenCount(L);
      if (auto *C = dyn_cast<SCEVConstant>(Max); C && C->getAPInt().ult(Cap)) {
        ++NumChargedConstant;
        const uint64_t N = C->getAPInt().getZExtValue() + 1;
        Value *Amount = tighterCharge(*L, SE, N, Cap);
        if (Amount)
          ++NumTightCharges;
        else
          Amount = ConstantInt::get(Type::getInt32Ty(F.getContext()), N);
        markBounded(L->getBlocks());
        Charges.push_back({PH, Amount, N, Work});
        continue;
      }
      if (Outer || hasConvergentCall(*L))
        continue;
      const SCEV *Sym = SE.getSymbolicMaxBackedgeTakenCount(L);
      SCEVExpander Exp(SE, "atoll.tc");
      // A constant above the cap: the copy would never run.
      if (!isa<SCEVCouldNotCompute, SCEVConstant>(Sym) &&
          Exp.isSafeToExpandAt(Sym, PH->getTerminator())) {
        IRBuilder<> Bd(PH->getTerminator());
        Value *T = Bd.CreateFreeze(Exp.expandCodeFor(Sym, Sym->getType(), PH->getTerminator()),
                                   "atoll.tc");
        Value *Ok = Bd.CreateICmpULT(T, ConstantInt::get(T->getType(), Cap), "atoll.tc.ok");
        // At most T + 1 increments (one per iteration, the exiting one included).
        ArrayRef<NoWrapIV> Facts;
        if (!IVs.empty() && T->getType()->getIntegerBitWidth() <= 64) {
          Value *Incs = Bd.CreateAdd(Bd.CreateZExt(T, Bd.getInt64Ty()), Bd.getInt64(1));
          Ok = Bd.CreateAnd(Ok, noWrapGuard(Bd, IVs, Incs, PH), "atoll.tc.ok");
          Facts = IVs;
        }
        ++NumVersioned;
        versionLoop(*L, Ok, LI, DT, [&](IRBuilder<> &B) {
          return B.CreateAdd(B.CreateZExtOrTrunc(T, B.getInt32Ty()), B.getInt32(1), "atoll.charge");
        }, Cap, Work, Facts, Charges);
        continue;
      }
    }
    // Only loops ScalarEvolution cannot count at all (a count above the cap is final).
    if (Candidate || Outer || hasConvergentCall(*L))
      continue;
    if (auto G = matchGridStride(*L, Cap, PH->getTerminator())) {
      ++NumVersioned;
      ++NumGridStride;
      keepDropped(IVs);
      if (IVs.empty()) {
        versionLoop(*L, G->Ok, LI, DT, [&](IRBuilder<> &B) { return gridStrideCount(B, *G); },
                    Cap, Work, {}, Charges);
        continue;
      }
      // The count (at least the iterations, one increment each) bounds the guard, so
      // it is computed before the choice.
      IRBuilder<> Bd(PH->getTerminator());
      Value *Count = gridStrideCount(Bd, *G);
      Value *Ok = Bd.CreateAnd(
          G->Ok, noWrapGuard(Bd, IVs, Bd.CreateZExt(Count, Bd.getInt64Ty()), PH),
          "atoll.gridstride.ok");
      versionLoop(*L, Ok, LI, DT, [&](IRBuilder<> &) { return Count; }, Cap, Work, IVs, Charges);
    }
  }
}

} // namespace Atoll
