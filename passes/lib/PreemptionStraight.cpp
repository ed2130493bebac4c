// The straight-line budget (R3-F5 part 2): loop-free code has no cycle-closing edge,
// so the loop checks never poll in it, and a long chain of dependent loads (up to the
// inliner's limit) would run long after a cancel. walkStraightRuns measures, along
// every path of the CFG without its cycle-closing edges, the work since the last
// poll; atoll-mem puts a poll before the instruction at which it would exceed the
// budget (Preemption.cpp), and both atoll-mem and the toolchain's check after code
// generation refuse a kernel in which it does. docs/passes.md "Straight-line budget".
#include "atoll/passes/StraightLine.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace Atoll {

uint64_t straightWeight(const Instruction &I) {
  // Phis and casts between integers and pointers are register moves (often none);
  // allocas are frame slots; a freeze emits nothing.
  if (isa<PHINode, AllocaInst, FreezeInst>(I) || (isa<CastInst>(I) && !isa<FPToUIInst, FPToSIInst, UIToFPInst,
                                                   SIToFPInst, FPTruncInst, FPExtInst>(I)))
    return 0;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return 1; // register-only (the allow-list): ALU work
    if (auto *II = dyn_cast<IntrinsicInst>(CB))
      if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
        return 0;
  }
  return I.mayReadOrWriteMemory() ? StraightMemoryWeight : 1;
}

uint64_t walkStraightRuns(Function &F, function_ref<bool(const Instruction &)> IsPoll,
                          function_ref<bool(Instruction &, uint64_t)> Visit) {
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
  uint64_t Max = 0;
  while (!Ready.empty()) {
    BasicBlock *BB = Ready.pop_back_val();
    ++Walked;
    uint64_t Run = In.lookup(BB);
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
          continue;
        }
        uint64_t W = straightWeight(I);
        if (!W)
          continue;
        Instruction *Prev = I.getPrevNode();
        if (Visit(I, Run + W) && I.getParent() != Cur) {
          Tail = I.getParent();
          It = Prev ? std::next(Prev->getIterator()) : Cur->begin(); // the poll
          continue;
        }
        Run += W;
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
