// Preemption checks (ABI v2): every edge that closes a CFG cycle gets a check that
// makes the thread leave the kernel when the pipeline's control block says so
// (cancel) or when the thread's fuel is spent. Runs inside atoll-mem after
// confinement and zero-init, so its own loads of the control block (through the
// hidden parameter, outside every arena) are never confined and never go through a
// tenant pointer. docs/passes.md "Preemption" has the rules.
//
// Why every cycle is covered: CycleInfo builds the cycle forest of the whole CFG,
// irreducible cycles included. A closed walk lies in some top-level cycle C; either it
// passes C's header, and then the edge into the header comes from inside C and is a
// checked edge, or it avoids the header and so lies in a child cycle (the SCCs of C
// without its header); by induction it takes a checked edge. So a thread cannot run
// unboundedly without passing checks (recursion is refused; calls are inlined).
//
// Cost: the fast path of a check is one register decrement and compare; every 2^k-th
// edge (poll-shift=k) reads the cancel word with a volatile load and accounts fuel.
// Cycles that wait (nanosleep, volatile memory accesses) also read the cancel word
// on every edge: their iterations are slow anyway and a sleeping loop would
// otherwise take 2^k sleeps to notice a cancel. Inline asm does not count: what is
// accepted is register-only (the allow-list), and the pass's own asm (alignment
// hints, opaque clamps) sits in every hot loop (measured on the H200: counting it
// made histogram 6x and libdevice math 3.5x slower).
#include "Preemption.h"
#include "Statistics.h"

#include "atoll/abi.h"
#include "atoll/passes/Cycles.h"
#include "atoll/passes/StraightLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LowerMemIntrinsics.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#define DEBUG_TYPE "atoll-preempt"

using namespace llvm;

// Fault injection for the lit tests of the verification (a pass bug must be refused,
// never emitted): skip one check, or the expansion of memory intrinsics.
// Off by default: on the H200 one volatile load before any work made streaming
// kernels (one element per thread, millions of blocks) up to 3.4x slower (copy; the
// log of 2026-12-01). Without it a cancelled grid still drains in bounded time: loops
// poll, loop-free code is bounded, and the runtime caps the blocks of a launch
// (RuntimeOptions::maxBlocksPerLaunch).
static cl::opt<bool> EntryPoll("atoll-preempt-entry-poll", cl::init(false), cl::Hidden,
                               cl::desc("atoll-mem: also read the cancel word at kernel entry"));
static cl::opt<bool> TestSkipFirstCheck("atoll-test-skip-first-preempt-check", cl::Hidden,
                                        cl::desc("testing only: leave one cycle unchecked"));
static cl::opt<bool> TestSkipSleepPolls("atoll-test-skip-sleep-polls", cl::Hidden,
                                        cl::desc("testing only: no poll before nanosleeps"));
static cl::opt<bool> TestSkipEntryPoll("atoll-test-skip-entry-poll", cl::Hidden,
                                       cl::desc("testing only: no entry poll for a big frame"));
static cl::opt<bool> TestSkipStraightPolls("atoll-test-skip-straight-polls", cl::Hidden,
                                           cl::desc("testing only: no straight-line polls"));
static cl::opt<bool> TestThreadPollsInPrologue(
    "atoll-test-thread-polls-in-prologue", cl::Hidden,
    cl::desc("testing only: per-thread polls before the shared zeroing (R8-F1)"));
static cl::opt<uint64_t> StraightBudget(
    "atoll-preempt-straight-budget", cl::init(Atoll::DefaultStraightBudget), cl::Hidden,
    cl::desc("atoll-mem: a poll at least every N units of straight-line work (a memory "
             "access 64, any other instruction 1)"));
static cl::opt<uint64_t> EntryBudget(
    "atoll-preempt-entry-budget", cl::init(Atoll::DefaultEntryBudget), cl::Hidden,
    cl::desc("atoll-mem: in loop-free code, the first poll at most N units of work "
             "after the kernel's entry (R6-F3: the rate a cancelled grid drains at)"));
static cl::opt<bool> TestSkipEntryCancel("atoll-test-skip-entry-cancel", cl::Hidden,
                                         cl::desc("testing only: the loop counter does not "
                                                  "start from the cancel word"));
static cl::opt<bool> TestPolledStaysFalse(
    "atoll-test-polled-stays-false", cl::Hidden,
    cl::desc("testing only: the first-poll flag is never set (every counted poll takes "
             "the entry read; R9-R2-F2)"));
static cl::opt<bool> TestSleepPollsFirst(
    "atoll-test-sleep-polls-first", cl::Hidden,
    cl::desc("testing only: poll before the nanosleeps before the back edges are split "
             "(the order of R10-F4: refused, never a crash)"));
static cl::opt<bool> TestSkipMemExpansion("atoll-test-skip-mem-expansion", cl::Hidden,
                                          cl::desc("testing only: keep memory intrinsics"));

static cl::opt<unsigned> ChargeShift(
    "atoll-preempt-charge-shift", cl::init(Atoll::DefaultChargeShift), cl::Hidden,
    cl::desc("atoll-mem: loops known to run at most 2^N iterations are charged once, "
             "without a check inside (0: none)"));
static cl::opt<bool> NoCharge("atoll-preempt-no-charge", cl::init(false), cl::Hidden,
                              cl::desc("atoll-mem: check every loop on every edge (no charged loops)"));

ATOLL_STATISTIC(NumCharges, "Charges of a loop's count in its preheader");
ATOLL_STATISTIC(NumChecks, "Preemption checks inserted (one per cycle header)");
ATOLL_STATISTIC(NumSleepPolls, "Polls right before a nanosleep");
ATOLL_STATISTIC(NumEagerChecks, "Checks that read the cancel word on every edge");
ATOLL_STATISTIC(NumStraightPolls, "Polls put in straight-line code by its budget");
ATOLL_STATISTIC(NumPrologueVotes, "Block votes the budget put before the shared zeroing (R8-F1)");
ATOLL_STATISTIC(NumChargeEntryChecks, "Entry checks before charged loops whose charge can pass half the entry budget (R8-F3)");
ATOLL_STATISTIC(NumEntryChecks, "Entry checks (branches on the entry read) put in loop-free code");
ATOLL_STATISTIC(NumExpandedMemIntrinsics, "Memory intrinsics expanded into IR loops (checked)");

namespace Atoll {

namespace {

/// True when the cycle looks like a wait: it sleeps (nanosleep) or polls
/// memory with volatile accesses. Such cycles read the cancel word on every edge.
/// Atomics are not included: they are common in hot compute loops (histograms,
/// reductions), and an atomic spin iteration is short enough for the counted check.
bool cycleWaits(const CycleInfo::CycleT &C) {
  for (BasicBlock *BB : C.blocks())
    for (Instruction &I : *BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isVolatile())
        return true;
      if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isVolatile())
        return true;
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (Function *F = CB->getCalledFunction())
          if (F->getName().starts_with("llvm.nvvm.nanosleep"))
            return true;
      }
    }
  return false;
}

bool isNanosleep(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  Function *F = CB ? CB->getCalledFunction() : nullptr;
  return F && F->getName().starts_with("llvm.nvvm.nanosleep");
}

/// True for a memory intrinsic whose length codegen lowers without an unbounded
/// loop: a constant of at most MaxUncheckedMemBytes.
bool smallConstantLength(const MemIntrinsic &MI) {
  auto *CL = dyn_cast<ConstantInt>(MI.getLength());
  return CL && CL->getValue().ule(MaxUncheckedMemBytes);
}

/// The cancel word's address: inttoptr of the control parameter (offset 0).
/// A vote's read counts as a poll too (the block leaves on it as a whole).
bool isCancelPoll(const Instruction &I, const Value *Control) {
  auto *LI = dyn_cast<LoadInst>(&I);
  if (!LI || !LI->isVolatile())
    return false;
  auto *P = dyn_cast<IntToPtrInst>(LI->getPointerOperand());
  if (!P || P->getOperand(0) != Control)
    return false;
  return Atoll::feedsBranchOrVote(I);
}

/// A block that reads the cancel word and branches on it.
bool isCheckBlock(const BasicBlock &BB, const Value *Control) {
  auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  if (isVoteCondition(Br->getCondition(), Control))
    return true;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  auto *L = dyn_cast<Instruction>(Cmp->getOperand(0));
  return L && L->getParent() == &BB && isCancelPoll(*L, Control);
}

} // namespace

Value *voteCancel(IRBuilder<> &B, Value *Control) {
  LLVMContext &Ctx = B.getContext();
  Value *Ptr = B.CreateIntToPtr(Control, PointerType::get(Ctx, 1), "atoll.ctrl.vote");
  Value *W = B.CreateAlignedLoad(Type::getInt32Ty(Ctx), Ptr, Align(4), /*isVolatile=*/true,
                                 "atoll.cancel.vote");
  Value *Mine = B.CreateICmpNE(W, B.getInt32(0), "atoll.cancelled.mine");
  return B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_red_or_all, {},
                           {B.getInt32(0), Mine}, nullptr, "atoll.cancelled.block");
}

bool isVoteCondition(const Value *Cond, const Value *Control) {
  auto *Vote = dyn_cast<IntrinsicInst>(Cond);
  if (!Vote || Vote->getIntrinsicID() != Intrinsic::nvvm_barrier_cta_red_or_all)
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Vote->getArgOperand(1));
  auto *L = Cmp ? dyn_cast<LoadInst>(Cmp->getOperand(0)) : nullptr;
  auto *P = L ? dyn_cast<IntToPtrInst>(L->getPointerOperand()) : nullptr;
  return P && L->isVolatile() && P->getOperand(0) == Control;
}

bool expandMemIntrinsicLoops(Function &F, const RefuseFn &Refuse) {
  if (TestSkipMemExpansion)
    return true;
  SmallVector<MemIntrinsic *, 8> Work;
  for (Instruction &I : instructions(F))
    if (auto *MI = dyn_cast<MemIntrinsic>(&I); MI && !smallConstantLength(*MI))
      Work.push_back(MI);
  // The generic cost model: byte-wide loops, what NVPTX codegen emits itself.
  TargetTransformInfo TTI(F.getDataLayout());
  for (MemIntrinsic *MI : Work) {
    ++NumExpandedMemIntrinsics;
    if (auto *MS = dyn_cast<MemSetInst>(MI)) {
      expandMemSetAsLoop(MS);
    } else if (auto *MC = dyn_cast<MemCpyInst>(MI)) {
      expandMemCpyAsLoop(MC, TTI);
    } else if (auto *MM = dyn_cast<MemMoveInst>(MI)) {
      // Pointers of two spaces: compare them as generic addresses (the same bytes;
      // the loop still touches exactly [dst, dst+len) and [src, src+len)).
      if (MM->getDestAddressSpace() != MM->getSourceAddressSpace()) {
        IRBuilder<> B(MM);
        PointerType *Generic = PointerType::get(F.getContext(), 0);
        Value *D = B.CreateAddrSpaceCast(MM->getRawDest(), Generic);
        Value *S = B.CreateAddrSpaceCast(MM->getRawSource(), Generic);
        auto *New = cast<MemMoveInst>(B.CreateMemMove(D, MM->getDestAlign(), S,
                                                      MM->getSourceAlign(), MM->getLength(),
                                                      MM->isVolatile()));
        MM->eraseFromParent();
        MI = MM = New;
      }
      if (!expandMemMoveAsLoop(MM, TTI)) {
        Refuse(F, MM, StateSpace::Unknown, AccessKind::MemTransfer,
               "a memmove cannot be expanded into a checked loop");
        return false;
      }
    } else {
      Refuse(F, MI, StateSpace::Unknown, AccessKind::Call,
             "a memory intrinsic with a run-time length cannot be expanded into a checked loop");
      return false;
    }
    MI->eraseFromParent();
  }
  return true;
}

bool pollsAtEntry(uint64_t FrameBytes) {
  // The zero-init clears the frame with byte stores (expanded memsets): one memory
  // access per byte. A prologue longer than the straight-line budget would run whole
  // in every block that starts after a cancel (R5-F2: 400 KiB took 60 ms per wave).
  return EntryPoll || FrameBytes * StraightMemoryWeight > StraightBudget;
}

bool verifyPreemptionChecks(Function &F, Value *Control, const RefuseFn &Refuse,
                            uint64_t FrameBytes) {
  // A memory intrinsic left here becomes a codegen loop without a check.
  for (Instruction &I : instructions(F))
    if (auto *MI = dyn_cast<MemIntrinsic>(&I); MI && !smallConstantLength(*MI)) {
      Refuse(F, MI, StateSpace::Unknown, AccessKind::Call,
             "internal: a memory intrinsic with a run-time or long length was not expanded "
             "into a checked loop");
      return false;
    }
  if (pollsAtEntry(FrameBytes) && !isCheckBlock(F.getEntryBlock(), Control)) {
    Refuse(F, F.getEntryBlock().getTerminator(), StateSpace::Unknown, AccessKind::Call,
           "internal: the kernel has no cancel poll at entry");
    return false;
  }
  // Every nanosleep starts its block, whose only predecessor polls and branches to it.
  for (Instruction &I : instructions(F))
    if (isNanosleep(I)) {
      BasicBlock *BB = I.getParent();
      BasicBlock *Pred = BB->getSinglePredecessor();
      if (&*BB->getFirstNonPHIOrDbg() != &I || !Pred || !isCheckBlock(*Pred, Control)) {
        Refuse(F, &I, StateSpace::Unknown, AccessKind::Call,
               "internal: a nanosleep has no cancel poll right before it");
        return false;
      }
    }
  // The straight-line budget: no path without a cycle-closing edge runs more than
  // the budget's work between two polls.
  Instruction *Over = nullptr;
  bool OverFresh = false;
  const uint64_t Entry = std::min<uint64_t>(EntryBudget, StraightBudget);
  const WorkToExit Tail(F);
  uint64_t Longest = walkStraightRuns(
      F, [&](const Instruction &I) { return isCancelPoll(I, Control); },
      [&](Instruction &I, uint64_t Run, uint64_t FreshRun) {
        const bool OverEntry =
            FreshRun > Entry && !endsWithinEntrySlack(FreshRun - walkWeight(I),
                                                      Tail.from(I, Entry), Entry);
        if ((Run > StraightBudget || OverEntry) && !Over) {
          Over = &I;
          OverFresh = OverEntry && Run <= StraightBudget;
        }
        return false;
      },
      [&](const Instruction &I) { return isEntryCheck(I, Control); },
      [&](const Instruction &I) { return isEntryReadOrCompare(I, Control); });
  if (Over || Longest > StraightBudget) {
    Refuse(F, Over ? Over : F.getEntryBlock().getTerminator(), StateSpace::Unknown,
           AccessKind::Call,
           OverFresh ? "internal: a path without loops runs more than " +
                           std::to_string(std::min<uint64_t>(EntryBudget, StraightBudget)) +
                           " units of work from the kernel's entry without a cancel poll"
                     : "internal: a path without loops runs more than " +
                           std::to_string(StraightBudget) +
                           " units of work without a cancel poll");
    return false;
  }
  return forEachCycle(F, [&](const CycleInfo::CycleT &C) {
    bool Checked = any_of(C.blocks(), [&](BasicBlock *BB) {
      return isCheckBlock(*BB, Control) &&
             any_of(successors(BB), [&](BasicBlock *S) { return !C.contains(S); });
    });
    if (!Checked && !isChargedCycle(C)) {
      Refuse(F, C.getHeader()->getTerminator(), StateSpace::Unknown, AccessKind::Call,
             "internal: a cycle has no preemption check");
      return false;
    }
    return true;
  });
}

bool verifyZeroedBeforeLeaving(Function &F, Value *Control, BasicBlock *Done,
                               const RefuseFn &Refuse) {
  if (!Done)
    return true;
  // Deny by default: walk from the entry, never into Done, never along a vote's
  // leave edge (successor 0 of a branch on a block vote); any return or unreachable
  // reached is a thread that can leave alone before the zeroing.
  SmallVector<BasicBlock *, 16> Work{&F.getEntryBlock()};
  SmallPtrSet<BasicBlock *, 16> Seen{&F.getEntryBlock()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    Instruction *T = BB->getTerminator();
    if (isa<ReturnInst, UnreachableInst>(T)) {
      Refuse(F, T, StateSpace::Shared, AccessKind::Call,
             "internal: a thread can leave before the shared window is zeroed (its share "
             "would keep the previous kernel's data)");
      return false;
    }
    auto *Br = dyn_cast<BranchInst>(T);
    const bool Vote = Br && Br->isConditional() && isVoteCondition(Br->getCondition(), Control);
    for (unsigned K = 0, N = T->getNumSuccessors(); K < N; ++K) {
      BasicBlock *S = T->getSuccessor(K);
      if (S == Done || (Vote && K == 0))
        continue;
      if (Seen.insert(S).second)
        Work.push_back(S);
    }
  }
  return true;
}

void markBoundedCycles(Function &F, Value *Control) {
  MDNode *Empty = MDNode::get(F.getContext(), {});
  forEachCycle(F, [&](const CycleInfo::CycleT &C) {
    if (none_of(C.blocks(), [&](BasicBlock *BB) { return isCheckBlock(*BB, Control); }))
      for (BasicBlock *BB : C.blocks())
        BB->getTerminator()->setMetadata(ATOLL_BOUNDED_LOOP_MD, Empty);
    return true;
  });
}

/// The kernel's entry read of the cancel word (R6-F3): a relaxed atomic load at the
/// top of the entry block that nothing waits for until a loop is entered or an
/// entry check branches on it. Relaxed, not volatile: it is no poll by itself
/// (isEntryRead), and it reads at system scope, so no stale copy of the line in L1
/// answers it. Made on first use; returns the "cancelled" compare.
namespace {
struct EntryRead {
  Function &F;
  Value *Control;
  Value *Cancelled = nullptr;
  Value *get() {
    if (Cancelled)
      return Cancelled;
    LLVMContext &Ctx = F.getContext();
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> B(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    Value *Ptr = B.CreateIntToPtr(Control, PointerType::get(Ctx, 1), "atoll.ctrl.entry");
    LoadInst *W = B.CreateAlignedLoad(Type::getInt32Ty(Ctx), Ptr, Align(4), "atoll.cancel.start");
    W->setAtomic(AtomicOrdering::Monotonic);
    Cancelled = B.CreateICmpNE(W, B.getInt32(0), "atoll.cancelled.start");
    return Cancelled;
  }
  /// Removes the read when nothing branches or selects on it (a kernel without
  /// checked loops and without entry checks pays no load).
  void dropIfUnused() {
    auto *Cmp = cast_or_null<Instruction>(Cancelled);
    if (!Cmp || !Cmp->use_empty())
      return;
    auto *W = cast<Instruction>(Cmp->getOperand(0));
    auto *Ptr = cast<Instruction>(W->getOperand(0));
    Cmp->eraseFromParent();
    W->eraseFromParent();
    Ptr->eraseFromParent();
    Cancelled = nullptr;
  }
};
} // namespace

/// The straight-line budget (R3-F5 part 2): a poll (cancel only; fuel counts
/// iterations) right before the instruction at which the work since the last poll,
/// on some path without a cycle-closing edge, would exceed the budget. In loop-free
/// code reached from the entry without a poll, an entry check (a branch on the entry
/// read) before the work exceeds the entry budget: a block that starts after a
/// cancel leaves there (R6-F3). Leave is the kernel's exit block (made here when the
/// checks left none).
/// The instructions that run before the tenant's code (blocks reached from the
/// entry without passing Opts.Body) when the kernel zeroes shared memory; else none.
static SmallPtrSet<const Instruction *, 32> prologueOf(Function &F, const PreemptOptions &Opts) {
  SmallPtrSet<const Instruction *, 32> Out;
  if (!Opts.ZeroShared || !Opts.Body)
    return Out;
  SmallVector<BasicBlock *, 8> Work{&F.getEntryBlock()};
  SmallPtrSet<BasicBlock *, 8> Seen{&F.getEntryBlock()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Opts.Body)
      continue;
    for (Instruction &I : *BB)
      Out.insert(&I);
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  return Out;
}

/// Prologue: the setup code before the shared zeroing when the kernel zeroes shared
/// memory (else empty). R8-F1: a thread that left there skipped its share of the
/// zeroing while the rest of the block went on to read that share's old contents,
/// so a poll or entry check the budget asks for in the prologue is a block vote
/// (every thread runs the prologue: straight-line code at the top of the kernel).
static void insertStraightPolls(Function &F, Value *Control, BasicBlock *Leave,
                                EntryRead &Start,
                                const SmallPtrSetImpl<const Instruction *> &Prologue) {
  if (TestSkipStraightPolls) {
    Start.dropIfUnused();
    return;
  }
  LLVMContext &Ctx = F.getContext();
  MDNode *Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  Value *CtrlPtr = nullptr;
  // The read exists during the walk, so its weight counts as it will in the
  // verification; dropped after it when no entry check needed it.
  Start.get();
  const uint64_t Entry = std::min<uint64_t>(EntryBudget, StraightBudget);
  const WorkToExit Tail(F); // before the walk splits anything
  auto LeaveBefore = [&](Instruction &I, Value *Cancelled, StringRef Name,
                         bool Repeatable = false) {
    if (!Leave) {
      Leave = BasicBlock::Create(Ctx, "atoll.leave", &F);
      ReturnInst::Create(Ctx, Leave);
    }
    // Inside a charged (bounded) loop the first half keeps the loop's mark, which
    // split moved to the second half's terminator (isChargedCycle wants every block).
    MDNode *Bounded = I.getParent()->getTerminator()->getMetadata(ATOLL_BOUNDED_LOOP_MD);
    Instruction *T = SplitBlockAndInsertIfThen(Cancelled, &I, false, Unlikely);
    T->getParent()->setName(Name);
    Instruction *Br = T->getParent()->getSinglePredecessor()->getTerminator();
    if (Bounded)
      Br->setMetadata(ATOLL_BOUNDED_LOOP_MD, Bounded);
    if (Repeatable) // an entry check, not a first poll (ATOLL_ENTRY_CHECK_MD)
      Br->setMetadata(ATOLL_ENTRY_CHECK_MD, MDNode::get(Ctx, {}));
    ReplaceInstWithInst(T, BranchInst::Create(Leave));
  };
  walkStraightRuns(
      F, [&](const Instruction &I) { return isCancelPoll(I, Control); },
      [&](Instruction &I, uint64_t Run, uint64_t FreshRun) {
        // No entry check in a kernel's last half budget (endsWithinEntrySlack).
        const bool OverEntry =
            FreshRun > Entry && !endsWithinEntrySlack(FreshRun - walkWeight(I),
                                                      Tail.from(I, Entry), Entry);
        if (Run <= StraightBudget && !OverEntry)
          return false;
        if (!TestThreadPollsInPrologue && Prologue.contains(&I) && Run != walkWeight(I)) {
          IRBuilder<> B(&I);
          LeaveBefore(I, voteCancel(B, Control), "atoll.cancel.prologue");
          ++NumPrologueVotes;
          return true;
        }
        if (Run <= StraightBudget) {
          // The entry check: no new load (one that waits before the work made
          // streaming kernels up to 3.4x slower), just a branch on the entry read.
          LeaveBefore(I, Start.get(), "atoll.cancel.entrycheck", /*Repeatable=*/true);
          ++NumEntryChecks;
          return true;
        }
        // I alone costs more than the budget (nothing since the last poll): another
        // poll before it would not help and would be asked for again forever (a
        // <1024 x i32> store ran the pass out of memory). Left to the verification,
        // which refuses the kernel.
        if (Run == walkWeight(I))
          return false;
        IRBuilder<> B(&I);
        if (!CtrlPtr) {
          BasicBlock &Entry = F.getEntryBlock();
          IRBuilder<> EB(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
          CtrlPtr = EB.CreateIntToPtr(Control, PointerType::get(Ctx, 1), "atoll.ctrl.straight");
        }
        LoadInst *W = B.CreateAlignedLoad(Type::getInt32Ty(Ctx), CtrlPtr, Align(4),
                                          /*isVolatile=*/true, "atoll.cancel");
        LeaveBefore(I, B.CreateICmpNE(W, B.getInt32(0), "atoll.cancelled"),
                    "atoll.cancel.straight");
        ++NumStraightPolls;
        return true;
      },
      [&](const Instruction &I) { return isEntryCheck(I, Control); },
      [&](const Instruction &I) { return isEntryReadOrCompare(I, Control); });
  Start.dropIfUnused();
}

bool insertPreemptionChecks(Function &F, Value *Control, const PreemptOptions &Opts,
                            const RefuseFn &Refuse) {
  if (!Opts.Enabled)
    return true;
  // Loops with a known short count: charged once, no check inside (PreemptionLoops.cpp).
  SmallVector<ChargeSite, 8> Charges;
  if (!NoCharge)
    chargeBoundedLoops(F, std::min(unsigned(ChargeShift), 20u), Charges); // 2^20: see matchGridStride
  struct Site {
    BasicBlock *Header;
    SmallVector<BasicBlock *, 4> Latches;
    bool Eager;
    /// Every edge into the cycle from outside it (R7-F4: an irreducible cycle has
    /// entries other than its header).
    SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> EntryEdges;
  };
  SmallVector<Site, 8> Sites;
  bool Checkable = forEachCycle(F, [&](const CycleInfo::CycleT &C) {
    if (isChargedCycle(C))
      return true;
    Site S{C.getHeader(), {}, cycleWaits(C), {}};
    for (BasicBlock *E : C.getEntries())
      for (BasicBlock *P : predecessors(E))
        if (!C.contains(P))
          S.EntryEdges.push_back({P, E});
    for (BasicBlock *P : predecessors(S.Header))
      if (C.contains(P) && !is_contained(S.Latches, P)) {
        if (!isa<BranchInst, SwitchInst>(P->getTerminator())) {
          Refuse(F, P->getTerminator(), StateSpace::Unknown, AccessKind::Call,
                 "a cycle is closed by a terminator that cannot take a preemption check");
          return false;
        }
        S.Latches.push_back(P);
      }
    Sites.push_back(std::move(S));
    return true;
  });
  if (!Checkable)
    return false;
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  const uint64_t Interval = uint64_t(1) << Opts.PollShift;
  const bool Counted = !Sites.empty() || !Charges.empty();

  // Per-thread state in two allocas, promoted to registers below: Count, the
  // iterations left before the next poll (i32; a charge can take it below 0), and
  // Fuel, the budget not yet handed to Count (i64, signed: at most 2^63-1).
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> EB(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
  AllocaInst *Count = nullptr, *Fuel = nullptr, *Polled = nullptr;
  if (Counted) {
    Count = EB.CreateAlloca(I32, nullptr, "atoll.poll.count");
    Fuel = EB.CreateAlloca(I64, nullptr, "atoll.fuel.left");
    Polled = EB.CreateAlloca(Type::getInt1Ty(Ctx), nullptr, "atoll.polled");
  }
  // Initialisation at the end of the entry block (it dominates every cycle).
  EB.SetInsertPoint(Entry.getTerminator());
  Value *CtrlPtr = EB.CreateIntToPtr(Control, PointerType::get(Ctx, 1), "atoll.ctrl");
  Value *CancelPtr = CtrlPtr; // offset ATOLL_CONTROL_CANCEL_OFFSET == 0
  static_assert(ATOLL_CONTROL_CANCEL_OFFSET == 0);
  Value *StatusPtr =
      EB.CreateConstInBoundsGEP1_64(Type::getInt8Ty(Ctx), CtrlPtr, ATOLL_CONTROL_STATUS_OFFSET,
                                    "atoll.ctrl.status");
  Value *FuelPtr = EB.CreateConstInBoundsGEP1_64(Type::getInt8Ty(Ctx), CtrlPtr,
                                                 ATOLL_CONTROL_FUEL_OFFSET, "atoll.ctrl.fuel");
  if (Counted) {
    Value *Budget = EB.CreateAlignedLoad(I64, FuelPtr, Align(8), "atoll.fuel");
    // 0 = unlimited; anything above 2^63-1 is as good as unlimited.
    Value *Unlimited = EB.CreateICmpEQ(Budget, EB.getInt64(0));
    Budget = EB.CreateSelect(Unlimited, EB.getInt64(INT64_MAX), Budget);
    Budget = EB.CreateBinaryIntrinsic(Intrinsic::umin, Budget, EB.getInt64(INT64_MAX),
                                      nullptr, "atoll.fuel.budget");
    Value *First = EB.CreateBinaryIntrinsic(Intrinsic::umin, Budget, EB.getInt64(Interval));
    Value *FirstCount = EB.CreateTrunc(First, I32);
    // R6-F3: a block that starts after a cancel polls at the first back edge of a
    // checked loop (not 2^K iterations later: up to 2^22 units per block, minutes for
    // a grid of 2^24 blocks): on the way into the loop the counter becomes 0 when the
    // entry read saw the cancel (below). Charged loops (at most 2^20 units) never
    // wait for the read (at a charge it cost the grid-stride kernels up to 7% on the
    // H200), so a kernel with charged loops only makes no entry read for them.
    EB.CreateStore(FirstCount, Count);
    EB.CreateStore(EB.getFalse(), Polled);
    EB.CreateStore(EB.CreateSub(Budget, First), Fuel);
  }
  EntryRead Start{F, Control};

  // One exit block per kernel: sets the fuel bit when asked, then returns.
  BasicBlock *FuelOut = BasicBlock::Create(Ctx, "atoll.fuel.exhausted", &F);
  BasicBlock *Leave = BasicBlock::Create(Ctx, "atoll.leave", &F);
  {
    IRBuilder<> B(FuelOut);
    B.CreateAtomicRMW(AtomicRMWInst::Or, StatusPtr, B.getInt32(ATOLL_STATUS_FUEL_EXHAUSTED),
                      Align(4), AtomicOrdering::Monotonic);
    B.CreateBr(Leave);
    B.SetInsertPoint(Leave);
    B.CreateRetVoid();
  }
  MDNode *Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  auto PollCancel = [&](IRBuilder<> &B) {
    LoadInst *W = B.CreateAlignedLoad(I32, CancelPtr, Align(4), /*isVolatile=*/true,
                                      "atoll.cancel");
    return B.CreateICmpNE(W, B.getInt32(0), "atoll.cancelled");
  };
  // Right before Before: when Cond holds, the thread leaves (a block named Name).
  // Repeatable: an entry check a thread may take again and again (the charge check),
  // marked ATOLL_ENTRY_CHECK_MD; the other branch on the entry read is the first
  // poll's, which the check after code generation lets a thread take only once.
  auto LeaveIf = [&](Value *Cond, Instruction *Before, StringRef Name = "",
                     bool Repeatable = false) {
    Instruction *T = SplitBlockAndInsertIfThen(Cond, Before, false, Unlikely);
    if (!Name.empty())
      T->getParent()->setName(Name);
    if (Repeatable)
      T->getParent()->getSinglePredecessor()->getTerminator()->setMetadata(
          ATOLL_ENTRY_CHECK_MD, MDNode::get(Ctx, {}));
    ReplaceInstWithInst(T, BranchInst::Create(Leave));
  };

  // Entry poll: a block that starts after a cancel leaves at once, so a cancelled
  // grid drains at the rate blocks start, loop-free kernels included (one volatile
  // load per thread, outside every loop).
  const bool AtEntry = pollsAtEntry(Opts.FrameBytes) && !TestSkipEntryPoll;
  if (AtEntry) {
    // At the top, before the setup: what the budget asks for later in the setup is
    // then counted from here (and the entry block is this poll, as verified).
    IRBuilder<> TB(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    Value *Cancelled;
    if (Opts.ZeroShared) {
      Cancelled = voteCancel(TB, Control);
    } else {
      Value *Ptr = TB.CreateIntToPtr(Control, PointerType::get(Ctx, 1), "atoll.ctrl.entrypoll");
      Value *W = TB.CreateAlignedLoad(I32, Ptr, Align(4), /*isVolatile=*/true, "atoll.cancel");
      Cancelled = TB.CreateICmpNE(W, TB.getInt32(0), "atoll.cancelled");
    }
    LeaveIf(Cancelled, cast<Instruction>(Cancelled)->getNextNode(), "atoll.cancel.entry");
  }
  // R3-F5: a poll right before every nanosleep (up to ~2 ms each), loop or not: a
  // cancelled thread never starts a sleep, so straight-line sleeps cannot hold a
  // cancelled grid (2000 of them were seconds per block without a single poll).
  // Inserted last, after the back edges are split: the poll splits the sleep's
  // block, and a latch split before its back edge is no longer a predecessor of
  // its header (the back-edge check was then cut off, and a header phi crashed
  // SplitBlockPredecessors: R10-F4, lit preempt-sleep-latch.ll).
  SmallVector<Instruction *, 8> Sleeps;
  for (Instruction &I : instructions(F))
    if (isNanosleep(I) && !TestSkipSleepPolls)
      Sleeps.push_back(&I);
  auto PollBeforeSleeps = [&] {
    for (Instruction *Sleep : Sleeps) {
      IRBuilder<> B(Sleep);
      LeaveIf(PollCancel(B), Sleep, "atoll.cancel.sleep");
      ++NumSleepPolls;
    }
  };
  if (!Counted) {
    PollBeforeSleeps();
    FuelOut->eraseFromParent(); // nothing counts fuel
    if (!AtEntry && Sleeps.empty()) { // loop-free, no entry poll, no sleep: nothing leaves early
      Leave->eraseFromParent();
      Leave = nullptr;
    }
    insertStraightPolls(F, Control, Leave, Start, prologueOf(F, Opts));
    return true;
  }

  // The counted check before Term: Count -= Amount; when it reaches 0 or less, the
  // slow path reads the cancel word, and refills Count from the fuel: R = Fuel +
  // Count is the budget left (Count <= 0 is the overdraft of the last charge);
  // R <= 0 means the thread has been charged its whole budget.
  auto CountedCheck = [&](Instruction *Term, Value *Amount) {
    IRBuilder<> B(Term);
    Value *C = B.CreateLoad(I32, Count);
    Value *C1 = B.CreateSub(C, Amount, "atoll.poll.next");
    B.CreateStore(C1, Count);
    Value *Due = B.CreateICmpSLT(C1, B.getInt32(1), "atoll.poll.due");
    Instruction *SlowT = SplitBlockAndInsertIfThen(Due, Term, false, Unlikely);
    BasicBlock *Slow = SlowT->getParent();
    Slow->setName("atoll.poll");
    // A thread's first counted poll takes the entry read (issued at the kernel's
    // start, long back) instead of a fresh read it would wait for: a fresh read at
    // the charge of every grid-stride loop above the first 2^K held each thread
    // about a memory latency before its loop (session 9). The first interval then
    // runs from the kernel's start to the second counted poll: one interval more
    // of work after a cancel, once per thread (docs/passes.md "The first poll").
    // A block that started after the cancel still leaves there.
    B.SetInsertPoint(SlowT);
    Value *Fresh = B.CreateLoad(B.getInt1Ty(), Polled, "atoll.polled");
    Instruction *FreshT = nullptr, *FirstT = nullptr;
    SplitBlockAndInsertIfThenElse(Fresh, SlowT, &FreshT, &FirstT);
    FreshT->getParent()->setName("atoll.poll.fresh");
    FirstT->getParent()->setName("atoll.poll.entryread");
    Slow->getTerminator()->setMetadata(ATOLL_FIRST_POLL_MD, MDNode::get(Ctx, {}));
    {
      IRBuilder<> FB(FreshT);
      LeaveIf(PollCancel(FB), FreshT);
    }
    // The flag is set on this arm: every later poll of the thread reads fresh. The
    // check after code generation verifies it on the final IR (R9-R2-F2).
    if (!TestPolledStaysFalse)
      IRBuilder<>(FirstT).CreateStore(B.getTrue(), Polled);
    LeaveIf(Start.get(), FirstT);
    B.SetInsertPoint(SlowT);
    Value *Left = B.CreateAdd(B.CreateLoad(I64, Fuel), B.CreateSExt(C1, I64), "atoll.fuel.rest");
    Value *Spent = B.CreateICmpSLT(Left, B.getInt64(1), "atoll.fuel.spent");
    Instruction *OutT = SplitBlockAndInsertIfThen(Spent, SlowT, false, Unlikely);
    ReplaceInstWithInst(OutT, BranchInst::Create(FuelOut));
    B.SetInsertPoint(SlowT);
    Value *Chunk = B.CreateBinaryIntrinsic(Intrinsic::umin, Left, B.getInt64(Interval));
    B.CreateStore(B.CreateTrunc(Chunk, I32), Count);
    B.CreateStore(B.CreateSub(Left, Chunk), Fuel);
  };

  // R8-F3: the counter starts at 2^K without waiting for the entry read, so a block
  // that starts after a cancel ran a charged loop whole before its first poll (63
  // iterations of 50 dependent loads: seconds to drain a big grid). Each charged
  // loop is now fresh work to the entry budget: up to Light iterations (half the
  // entry budget of work) it runs on, and the walk counts that much
  // (ATOLL_CHARGED_WORK_MD, chargedWork) so that its entry checks come where the
  // total passes the budget; a run-time charge above Light branches on the entry
  // read first (a register test where the charge is light: histogram's charges of
  // 1 never wait for the read, see docs/passes.md).
  const uint64_t EntryWork = std::min<uint64_t>(EntryBudget, StraightBudget);
  for (const ChargeSite &CS : Charges) {
    Instruction *Term = CS.Block->getTerminator();
    const uint64_t W = std::max<uint64_t>(CS.IterationWork, 1);
    const uint64_t Light = std::min(CS.MaxAmount, EntryWork / 2 / W);
    if (Light > 1)
      Term->setMetadata(ATOLL_CHARGED_WORK_MD,
                        MDNode::get(Ctx, ConstantAsMetadata::get(
                                             ConstantInt::get(I64, (Light - 1) * W))));
    if (CS.MaxAmount > Light) {
      IRBuilder<> B(Term);
      Instruction *At = Term;
      if (Light > 0) {
        Value *Heavy = B.CreateICmpUGT(CS.Amount, ConstantInt::get(CS.Amount->getType(), Light),
                                       "atoll.charge.heavy");
        At = SplitBlockAndInsertIfThen(Heavy, Term, false, Unlikely);
        At->getParent()->setName("atoll.charge.heavy");
      }
      LeaveIf(Start.get(), At, "atoll.cancel.chargecheck", /*Repeatable=*/true);
      ++NumChargeEntryChecks;
    }
    CountedCheck(Term, CS.Amount);
  }
  NumCharges += Charges.size();

  if (TestSleepPollsFirst)
    PollBeforeSleeps();
  if (TestSkipFirstCheck && !Sites.empty())
    Sites.erase(Sites.begin());
  for (Site &S : Sites) {
    // R10-F4: the latches and entry edges were taken before the splits (charges,
    // earlier sites); a split that moved a latch's terminator would leave the
    // back-edge check unreachable (and a header phi made SplitBlockPredecessors write
    // out of bounds). Refused, never split blind.
    auto IsEdge = [](BasicBlock *From, BasicBlock *To) {
      return is_contained(successors(From), To);
    };
    for (auto &[From, To] : S.EntryEdges)
      if (!IsEdge(From, To)) {
        Refuse(F, From->getTerminator(), StateSpace::Unknown, AccessKind::Call,
               "internal: an edge into a cycle changed before its preemption check");
        return false;
      }
    for (BasicBlock *Latch : S.Latches)
      if (!IsEdge(Latch, S.Header)) {
        Refuse(F, Latch->getTerminator(), StateSpace::Unknown, AccessKind::Call,
               "internal: a cycle-closing edge changed before its preemption check");
        return false;
      }
    if (!TestSkipEntryCancel && !S.Eager)
      for (auto &Edge : S.EntryEdges) {
        IRBuilder<> B(Edge.first->getTerminator());
        Value *C = B.CreateLoad(I32, Count);
        B.CreateStore(B.CreateSelect(Start.get(), B.getInt32(0), C, "atoll.poll.first"), Count);
      }
    BasicBlock *Edge = SplitBlockPredecessors(S.Header, S.Latches, ".atoll.backedge");
    if (!Edge) {
      Refuse(F, S.Latches.front()->getTerminator(),
             StateSpace::Unknown, AccessKind::Call,
             "a cycle-closing edge cannot be split for a preemption check");
      return false;
    }
    ++NumChecks;
    Instruction *Term = Edge->getTerminator();
    if (S.Eager) {
      ++NumEagerChecks;
      IRBuilder<> B(Term);
      LeaveIf(PollCancel(B), Term, "atoll.cancel.eager");
    }
    // Fast path: count down; every Interval-th edge takes the slow path.
    CountedCheck(Term, ConstantInt::get(I32, 1));
  }

  if (!TestSleepPollsFirst)
    PollBeforeSleeps();
  DominatorTree DT(F);
  PromoteMemToReg({Count, Fuel, Polled}, DT);
  insertStraightPolls(F, Control, Leave, Start, prologueOf(F, Opts));
  return true;
}

} // namespace Atoll
