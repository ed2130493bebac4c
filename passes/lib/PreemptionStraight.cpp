// The straight-line budget (R3-F5 part 2): loop-free code has no cycle-closing edge,
// so the loop checks never poll in it, and a long chain of dependent loads (up to the
// inliner's limit) would run long after a cancel. walkStraightRuns measures, along
// every path of the CFG without its cycle-closing edges, the work since the last
// poll; atoll-mem puts a poll before the instruction at which it would exceed the
// budget (Preemption.cpp), and both atoll-mem and the toolchain's check after code
// generation refuse a kernel in which it does. docs/passes.md "Straight-line budget".
#include "atoll/passes/StraightLine.h"

#include "atoll/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace Atoll {

/// 32-bit registers a value of type T occupies (vectors and wide integers are
/// legalised into that many pieces); 0 for void and tokens.
static uint64_t registerLanes(Type *T) {
  if (T->isVoidTy() || T->isTokenTy() || T->isLabelTy() || T->isMetadataTy())
    return 0;
  if (auto *ST = dyn_cast<StructType>(T)) {
    uint64_t N = 0;
    for (Type *E : ST->elements())
      N += registerLanes(E);
    return N;
  }
  if (auto *AT = dyn_cast<ArrayType>(T))
    return AT->getNumElements() * registerLanes(AT->getElementType());
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements() * registerLanes(VT->getElementType());
  if (T->isPointerTy())
    return 2;
  uint64_t Bits = T->getPrimitiveSizeInBits().getKnownMinValue();
  return Bits ? (Bits + 31) / 32 : 1;
}

/// The widest value I reads or writes, in 32-bit registers (at least 1).
static uint64_t widestLanes(const Instruction &I) {
  uint64_t N = registerLanes(I.getType());
  for (const Value *Op : I.operands())
    if (!isa<BasicBlock, Function, MetadataAsValue>(Op))
      N = std::max(N, registerLanes(Op->getType()));
  return std::max<uint64_t>(N, 1);
}

/// Elements of I's widest vector operand or result (1 for scalars) and the bits of
/// each: the unit of a division's or a math call's cost.
static std::pair<uint64_t, uint64_t> widestElements(const Instruction &I) {
  std::pair<uint64_t, uint64_t> R{1, 32};
  auto See = [&](Type *T) {
    uint64_t N = 1;
    if (auto *VT = dyn_cast<FixedVectorType>(T)) {
      N = VT->getNumElements();
      T = VT->getElementType();
    }
    uint64_t Bits = T->isSized() ? T->getPrimitiveSizeInBits().getKnownMinValue() : 32;
    R.first = std::max(R.first, N);
    R.second = std::max(R.second, Bits ? Bits : 32);
  };
  See(I.getType());
  for (const Value *Op : I.operands())
    See(Op->getType());
  return R;
}

uint64_t straightWeight(const Instruction &I) {
  // Work counts what the instruction compiles to (R6-F1): one unit is about one
  // simple 32-bit operation, so a value of N registers costs N, a division or a
  // math routine StraightSlowOpWeight per 64-bit piece of every element (an i64
  // division is a ~70-instruction subroutine), a memory access
  // StraightMemoryWeight per 16 bytes (the widest access of one thread).
  const uint64_t Lanes = widestLanes(I);
  // Phis, casts between integers and pointers and freezes are register moves (often
  // none) while a value fits one 128-bit register; wider ones move piece by piece.
  // Allocas are frame slots.
  if (isa<AllocaInst>(I))
    return 0;
  if (isa<PHINode, FreezeInst>(I) || (isa<CastInst>(I) && !isa<FPToUIInst, FPToSIInst, UIToFPInst,
                                                           SIToFPInst, FPTruncInst, FPExtInst>(I)))
    return Lanes <= 4 ? 0 : Lanes;
  auto [Elems, Bits] = widestElements(I);
  const uint64_t Pieces = Elems * ((Bits + 63) / 64);
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return Lanes; // register-only (the allow-list): ALU work
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
        return 0;
      // LLVM's math routines become instruction sequences (or ptxas subroutines);
      // the NVVM division, reciprocal and square-root forms likewise.
      switch (II->getIntrinsicID()) {
      case Intrinsic::sqrt: case Intrinsic::exp: case Intrinsic::exp2:
      case Intrinsic::exp10: case Intrinsic::log: case Intrinsic::log2:
      case Intrinsic::log10: case Intrinsic::sin: case Intrinsic::cos:
      case Intrinsic::tan: case Intrinsic::asin: case Intrinsic::acos:
      case Intrinsic::atan: case Intrinsic::atan2: case Intrinsic::sinh:
      case Intrinsic::cosh: case Intrinsic::tanh: case Intrinsic::pow:
      case Intrinsic::powi: case Intrinsic::ldexp: case Intrinsic::frexp:
        return StraightSlowOpWeight * Pieces;
      default:
        break;
      }
      StringRef Name = II->getCalledFunction()->getName();
      if (Name.starts_with("llvm.nvvm.div.") || Name.starts_with("llvm.nvvm.rcp.") ||
          Name.starts_with("llvm.nvvm.sqrt.") || Name.starts_with("llvm.nvvm.rsqrt."))
        return StraightSlowOpWeight * Pieces;
    }
  }
  if (I.mayReadOrWriteMemory()) {
    // R7-F3: what the backend emits: an access of B bytes at alignment A is
    // ceil(B / min(A, 16)) machine accesses (an unaligned <4 x i32> is 16 byte
    // loads); a small memory intrinsic (kept when its length is a constant of at
    // most 64 bytes) is that many loads and as many stores.
    auto Accesses = [](uint64_t Bytes, uint64_t Align) {
      const uint64_t Piece = std::max<uint64_t>(1, std::min<uint64_t>(Align, 16));
      return std::max<uint64_t>(1, (Bytes + Piece - 1) / Piece);
    };
    const DataLayout &DL = I.getDataLayout();
    if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      auto *Len = dyn_cast<ConstantInt>(MI->getLength());
      // A run-time length is expanded into a checked loop before this is asked.
      const uint64_t Bytes = Len ? Len->getLimitedValue(1 << 20) : (1 << 20);
      uint64_t N = Accesses(Bytes, MI->getDestAlign().valueOrOne().value());
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        N += Accesses(Bytes, MT->getSourceAlign().valueOrOne().value());
      return StraightMemoryWeight * N;
    }
    // R8-F5: a masked load or store is scalarised (ScalarizeMaskedMemIntrin): per
    // element, a branch on the mask's element, an access at most at the element's
    // alignment and (what the check after codegen weighs) the vector's extract,
    // insert and phi copies.
    if (auto *II = dyn_cast<IntrinsicInst>(&I); II && (II->getIntrinsicID() == Intrinsic::masked_load ||
                                                       II->getIntrinsicID() == Intrinsic::masked_store)) {
      bool Load = II->getIntrinsicID() == Intrinsic::masked_load;
      if (auto *VT = dyn_cast<FixedVectorType>(Load ? II->getType() : II->getArgOperand(0)->getType())) {
        uint64_t E = DL.getTypeStoreSize(VT->getElementType()), A = II->getParamAlign(!Load).valueOrOne().value();
        uint64_t N = VT->getNumElements(), Moves = (Load ? 3 : 1) * registerLanes(VT) + N + 4;
        return N * (StraightMemoryWeight * Accesses(E, std::min(A, E)) + Moves);
      }
    }
    if (auto *LI = dyn_cast<LoadInst>(&I))
      return StraightMemoryWeight *
             Accesses(DL.getTypeStoreSize(LI->getType()), LI->getAlign().value());
    if (auto *SI = dyn_cast<StoreInst>(&I))
      return StraightMemoryWeight *
             Accesses(DL.getTypeStoreSize(SI->getValueOperand()->getType()),
                      SI->getAlign().value());
    const uint64_t Chunks = (Lanes + 3) / 4; // 16-byte pieces
    return StraightMemoryWeight * Chunks;
  }
  switch (I.getOpcode()) {
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::FDiv:
  case Instruction::FRem:
    return StraightSlowOpWeight * Pieces * ((Bits + 63) / 64); // wide: quadratic
  case Instruction::Mul:
    // A multiplication of N-piece integers is N^2 64-bit products.
    return Bits > 64 ? Lanes * ((Bits + 63) / 64) : Lanes;
  default:
    return Lanes;
  }
}

uint64_t chargedWork(const Instruction &I) {
  if (!I.isTerminator())
    return 0;
  MDNode *N = I.getMetadata(ATOLL_CHARGED_WORK_MD);
  if (!N || N->getNumOperands() != 1)
    return 0;
  auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(0));
  return C ? C->getZExtValue() : 0;
}

uint64_t walkWeight(const Instruction &I) {
  // R7-F8: a phi is a copy on each incoming edge (codegen puts the moves at the end
  // of the predecessor), so its work is charged to the predecessor's terminator,
  // before which a poll can always go (never before a phi: that breaks the module).
  if (isa<PHINode>(I))
    return 0;
  uint64_t W = straightWeight(I);
  if (I.isTerminator()) {
    uint64_t Copies = 0;
    for (const BasicBlock *S : successors(&I)) {
      uint64_t C = 0;
      for (const PHINode &Phi : S->phis())
        C += straightWeight(Phi);
      Copies = std::max(Copies, C);
    }
    W += Copies;
  }
  return W;
}

/// The compare of a poll's value, or the branch on that compare.
static bool isPollTail(const Instruction &I, function_ref<bool(const Instruction &)> IsPoll) {
  const Instruction *Cmp = &I;
  if (auto *Br = dyn_cast<BranchInst>(&I)) {
    if (!Br->isConditional())
      return false;
    Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  }
  if (!Cmp || !isa<ICmpInst>(Cmp))
    return false;
  return any_of(Cmp->operands(), [&](const Value *Op) {
    auto *L = dyn_cast<Instruction>(Op);
    return L && IsPoll(*L);
  });
}

bool feedsBranch(const Instruction &I) {
  return any_of(I.users(), [](const User *U) {
    return isa<ICmpInst>(U) && any_of(U->users(), [](const User *B) {
             auto *Br = dyn_cast<BranchInst>(B);
             return Br && Br->isConditional();
           });
  });
}

bool feedsBranchOrVote(const Instruction &I) {
  if (feedsBranch(I))
    return true;
  return any_of(I.users(), [](const User *Cmp) {
    return isa<ICmpInst>(Cmp) && any_of(Cmp->users(), [](const User *V) {
             auto *II = dyn_cast<IntrinsicInst>(V);
             return II && II->getIntrinsicID() == Intrinsic::nvvm_barrier_cta_red_or_all &&
                    any_of(II->users(), [](const User *B) {
                      auto *Br = dyn_cast<BranchInst>(B);
                      return Br && Br->isConditional();
                    });
           });
  });
}

uint64_t walkStraightRuns(Function &F, function_ref<bool(const Instruction &)> IsPoll,
                          function_ref<bool(Instruction &, uint64_t)> Visit) {
  return walkStraightRuns(F, IsPoll,
                          [&](Instruction &I, uint64_t Run, uint64_t) { return Visit(I, Run); });
}

WorkToExit::WorkToExit(Function &F) {
  constexpr uint64_t Unbounded = ~uint64_t(0);
  CycleInfo CI;
  CI.compute(F);
  // Post-order: outside cycles every successor is done before its predecessor (an
  // edge back to an unfinished block closes a cycle, and both ends are in it).
  for (BasicBlock *BB : post_order(&F.getEntryBlock())) {
    if (CI.getCycle(BB)) {
      In[BB] = Unbounded;
      continue;
    }
    uint64_t Own = 0;
    for (const Instruction &I : *BB)
      Own += walkWeight(I);
    uint64_t After = 0;
    for (const BasicBlock *S : successors(BB)) {
      auto It = In.find(S);
      After = std::max(After, It == In.end() ? Unbounded : It->second);
    }
    In[BB] = After == Unbounded ? Unbounded : Own + After;
  }
}

uint64_t WorkToExit::from(const Instruction &I, uint64_t Limit) const {
  constexpr uint64_t Unbounded = ~uint64_t(0);
  const BasicBlock *BB = I.getParent();
  uint64_t Own = 0;
  for (const Instruction *J = &I; J; J = J->getNextNode())
    if ((Own += walkWeight(*J)) > Limit)
      return Unbounded;
  uint64_t After = 0;
  for (const BasicBlock *S : successors(BB)) {
    auto It = In.find(S);
    After = std::max(After, It == In.end() ? Unbounded : It->second);
  }
  return After == Unbounded ? Unbounded : Own + After;
}

bool addressesControl(const Value *P, const Value *Control, bool ConstantOffsets) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (P == Control)
      return true;
    if (auto *C = dyn_cast<CastInst>(P))
      P = C->getOperand(0);
    else if (auto *G = dyn_cast<GetElementPtrInst>(P);
             G && (ConstantOffsets ? G->hasAllConstantIndices() : G->hasAllZeroIndices()))
      P = G->getPointerOperand();
    else if (auto *CE = dyn_cast<ConstantExpr>(P); CE && CE->isCast())
      P = CE->getOperand(0);
    else
      return false;
  }
  return false;
}

bool isEntryRead(const Instruction &I, const Value *Control) {
  auto *LI = dyn_cast<LoadInst>(&I);
  return LI && !LI->isVolatile() && LI->getOrdering() == AtomicOrdering::Monotonic &&
         addressesControl(LI->getPointerOperand(), Control, /*ConstantOffsets=*/false);
}

bool isEntryReadOrCompare(const Instruction &I, const Value *Control) {
  if (isEntryRead(I, Control))
    return true;
  return isa<ICmpInst>(I) && any_of(I.operands(), [&](const Value *Op) {
           auto *L = dyn_cast<Instruction>(Op);
           return L && isEntryRead(*L, Control);
         });
}

bool isEntryCheck(const Instruction &I, const Value *Control) {
  auto *Br = dyn_cast<BranchInst>(&I);
  if (!Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  return Cmp && any_of(Cmp->operands(), [&](const Value *Op) {
           auto *L = dyn_cast<Instruction>(Op);
           return L && isEntryRead(*L, Control);
         });
}

uint64_t walkStraightRuns(Function &F, function_ref<bool(const Instruction &)> IsPoll,
                          function_ref<bool(Instruction &, uint64_t, uint64_t)> Visit,
                          function_ref<bool(const Instruction &)> IsEntryCheck,
                          function_ref<bool(const Instruction &)> IsFree) {
  // The cycle-closing edges: from inside a cycle to its header, for every cycle of
  // the forest. Every closed walk takes one (Preemption.cpp), so the rest is acyclic.
  CycleInfo CI;
  CI.compute(F);
  DenseSet<std::pair<const BasicBlock *, const BasicBlock *>> Closing;
  SmallVector<const CycleInfo::CycleT *, 16> Work(CI.toplevel_cycles());
  while (!Work.empty()) {
    const CycleInfo::CycleT *C = Work.pop_back_val();
    append_range(Work, C->children());
    for (BasicBlock *P : predecessors(C->getHeader()))
      if (C->contains(P))
        Closing.insert({P, C->getHeader()});
  }
  // Kahn's algorithm over the remaining edges between reachable blocks (counted with
  // multiplicity; an unreachable predecessor would otherwise hold a block back
  // forever, and CycleInfo knows no unreachable cycle).
  SmallPtrSet<const BasicBlock *, 32> Reachable;
  for (BasicBlock *BB : depth_first(&F.getEntryBlock()))
    Reachable.insert(BB);
  DenseMap<const BasicBlock *, unsigned> InDeg;
  for (BasicBlock &BB : F)
    if (Reachable.contains(&BB))
      for (BasicBlock *S : successors(&BB))
        if (!Closing.contains({&BB, S}))
          ++InDeg[S];
  SmallVector<BasicBlock *, 32> Ready{&F.getEntryBlock()};
  size_t Walked = 0;
  DenseMap<const BasicBlock *, uint64_t> In; // the largest run on entry
  // Fresh runs: the largest work on the paths from the kernel's entry that have
  // neither polled nor passed an entry check (a block that starts after a cancel
  // runs this far), tracked apart from the largest run on any path, so a join of a
  // long checked path and a short fresh one asks for nothing. In a cycle this is
  // the first iteration (R7-F7: a body heavier than the entry budget gets an entry
  // check, a branch on a register, in every iteration; from the first back edge on
  // the loop's own check leaves, Preemption.cpp). Absent: no fresh path reaches
  // the block.
  DenseMap<const BasicBlock *, uint64_t> InFresh;
  InFresh[&F.getEntryBlock()] = 0;
  uint64_t Max = 0;
  while (!Ready.empty()) {
    BasicBlock *BB = Ready.pop_back_val();
    ++Walked;
    uint64_t Run = In.lookup(BB);
    auto FI = InFresh.find(BB);
    bool IsFresh = FI != InFresh.end();
    uint64_t FreshRun = IsFresh ? FI->second : 0;
    // Visit may split the block before an instruction I and put a poll at the end
    // of the first half: the walk goes on through the poll (counting what follows
    // it) and then through the second half, which starts with I.
    BasicBlock *Cur = BB;
    BasicBlock::iterator It = Cur->begin();
    for (;;) {
      BasicBlock *Tail = nullptr;
      while (It != Cur->end()) {
        Instruction &I = *It++;
        if (IsPoll(I)) {
          Run = 0;
          IsFresh = false;
          continue;
        }
        if (IsEntryCheck && IsEntryCheck(I))
          IsFresh = false; // and counts its own weight: it reads nothing new
        // The poll's own compare and branch are part of it (without this, an
        // instruction of exactly the budget after a poll would ask for polls forever).
        if (isPollTail(I, IsPoll))
          continue;
        // The entry read and its compare are free: nothing waits for the read where
        // it is issued, and CodeGenPrepare sinks the compare next to its branch, where
        // it would count while the path is still fresh (R7-F9).
        if (IsFree && IsFree(I))
          continue;
        uint64_t W = walkWeight(I), WF = W + chargedWork(I);
        if (!WF)
          continue;
        Instruction *Prev = I.getPrevNode();
        if (Visit(I, Run + W, IsFresh ? FreshRun + WF : 0) && I.getParent() != Cur) {
          Tail = I.getParent();
          It = Prev ? std::next(Prev->getIterator()) : Cur->begin(); // the poll
          continue;
        }
        Run += W;
        FreshRun += WF;
        Max = std::max(Max, Run);
      }
      if (!Tail)
        break;
      Cur = Tail;
      It = Cur->begin();
    }
    for (BasicBlock *S : successors(Cur)) {
      if (Closing.contains({BB, S}) || Closing.contains({Cur, S}))
        continue;
      uint64_t &V = In[S];
      V = std::max(V, Run);
      if (IsFresh) {
        auto [SI, New] = InFresh.try_emplace(S, FreshRun);
        if (!New)
          SI->second = std::max(SI->second, FreshRun);
      }
      if (--InDeg[S] == 0)
        Ready.push_back(S);
    }
  }
  // A reachable block never walked (the graph was not acyclic): no bound is known,
  // so the checks refuse (deny by default).
  if (Walked != Reachable.size())
    return ~uint64_t(0);
  return Max;
}

} // namespace Atoll
