// The straight-line budget of the preemption checks (R3-F5 part 2): along every
// path of a kernel's CFG without its cycle-closing edges, a poll of the cancel word
// at least every StraightBudget units of work. Shared by atoll-mem (which inserts
// the polls and checks them) and the toolchain's check after code generation.
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

#include <cstdint>

namespace Atoll {

/// Weights, by what an instruction compiles to (R6-F1): a memory access costs
/// StraightMemoryWeight per 16 bytes (a dependent global load can take ~1 us under
/// load); a division, remainder or math routine StraightSlowOpWeight per 64-bit
/// piece of each element; any other instruction one unit per 32-bit register of its
/// widest value (ALU work, a few ns each). Memory accesses are what makes a straight
/// path slow; the ALU terms bound paths without them.
constexpr uint64_t StraightMemoryWeight = 64;
constexpr uint64_t StraightSlowOpWeight = 64;
/// At most 256 memory accesses (or 16384 other instructions) between two polls.
constexpr uint64_t DefaultStraightBudget = 256 * StraightMemoryWeight;
/// The most work from a kernel's entry to its first check of the cancel word in
/// loop-free code (R6-F3, session 7): a block that starts after a cancel runs that
/// far, so a cancelled grid of 2^24 blocks drains at that rate (64 dependent loads,
/// ~20 us per block). 16 accesses drained faster but cost const_table 1.10x and
/// transpose 1.35x on the H200 (session 7): a check mid-burst holds the rest of the
/// burst until the entry read is back, and one inside a guarded block stops ptxas
/// from predicating it. The check branches on the entry read (a relaxed atomic load
/// at the top of the kernel that nothing else waits for), so it costs no new load;
/// the regular polls still come every DefaultStraightBudget from the entry on.
constexpr uint64_t DefaultEntryBudget = 64 * StraightMemoryWeight;

/// The weight of I (0 for what costs nothing at run time: debug records, lifetime
/// markers, the register-only inline asm the allow-list accepts, reads of the
/// control block that IsPoll names).
uint64_t straightWeight(const llvm::Instruction &I);

/// Instruction metadata (kind name) that atoll-mem puts on the branch into a charged
/// loop: !{i64 N}, the work the loop may run beyond its first iteration before the
/// thread consults the cancel word (R8-F3). Reserved for the passes, like
/// ATOLL_BOUNDED_LOOP_MD (abi.h): input carrying it is refused.
#define ATOLL_CHARGED_WORK_MD "atoll.charged.work"

/// Instruction metadata (kind name, !{}) that atoll-mem puts on the entry checks that
/// a thread may take any number of times: the one before a heavy charge (R8-F3) and
/// those of the straight-line budget (R6-F3). Every other branch on the entry read
/// is a counted poll's first-poll arm, which a thread takes at most once (its flag
/// %atoll.polled is then true): the toolchain's check after code generation
/// verifies that (R9-R2-F2). Reserved for the passes: input carrying it is refused.
#define ATOLL_ENTRY_CHECK_MD "atoll.entry.check"

/// Instruction metadata (kind name, !{}) that atoll-mem puts on the branch of a
/// counted poll on its first-poll flag: true, a fresh read of the cancel word; false
/// (the thread's first counted poll), the entry read's arm, which sets the flag. The
/// check after code generation proves that a thread takes the false edge at most
/// once, also where the arm's own branch on the entry read was folded away (under an
/// entry check that tested the read already). Reserved for the passes.
#define ATOLL_FIRST_POLL_MD "atoll.first.poll"

/// The work a charged loop may run beyond its first iteration before its thread
/// consults the cancel word: ATOLL_CHARGED_WORK_MD on the branch into the loop (0
/// elsewhere). Fresh runs count it (the entry budget, R8-F3); runs between polls do
/// not (the loop's charge bounds those).
uint64_t chargedWork(const llvm::Instruction &I);

/// The weight the walk charges for I: straightWeight, except that a phi's copies
/// are charged to its predecessors' terminators (the largest over the successors),
/// where a poll can go (R7-F8).
uint64_t walkWeight(const llvm::Instruction &I);

/// Whether the value I reads is compared and branched on (a poll: the thread can
/// leave there). The counter's read of the cancel word at entry is not one.
bool feedsBranch(const llvm::Instruction &I);

/// feedsBranch, or the value is compared and the compare feeds a block vote
/// (barrier.cta.red.or) that is branched on: a poll the whole block leaves on
/// (Preemption.cpp voteCancel; R8-F1: the setup's polls are votes).
bool feedsBranchOrVote(const llvm::Instruction &I);

/// Walks F's CFG without its cycle-closing edges (CycleInfo: every edge from inside
/// a cycle to its header; what is left is acyclic) in topological order. Work counts
/// from the entry and from every instruction IsPoll accepts (a poll: the thread
/// leaves there if cancelled). Visit(I, Run) is called for every instruction with
/// the largest work Run on any path to it since the last poll, I included; it may
/// put a poll right before I (splitting I's block there, the poll and its branch
/// ending the first half) and return true: the walk then counts from the poll on.
/// Returns the largest Run seen (after the polls Visit asked for).
uint64_t walkStraightRuns(
    llvm::Function &F, llvm::function_ref<bool(const llvm::Instruction &)> IsPoll,
    llvm::function_ref<bool(llvm::Instruction &, uint64_t Run)> Visit);
/// The same, and Visit also learns FreshRun: the largest work, I included, on the
/// paths from the kernel's entry that have neither polled nor passed an entry check
/// (the entry budget); 0 when no such path reaches I or I is in a cycle. IsEntryCheck names the entry checks: branches on
/// the kernel's entry read of the cancel word. A thread that started after a cancel
/// leaves there, one that started before does not (its read is older than the
/// cancel), so an entry check ends Fresh but not the run since the last poll.
uint64_t walkStraightRuns(
    llvm::Function &F, llvm::function_ref<bool(const llvm::Instruction &)> IsPoll,
    llvm::function_ref<bool(llvm::Instruction &, uint64_t Run, uint64_t FreshRun)> Visit,
    llvm::function_ref<bool(const llvm::Instruction &)> IsEntryCheck = {},
    llvm::function_ref<bool(const llvm::Instruction &)> IsFree = {});

/// The most work (walkWeight units) from an instruction to the end of the kernel
/// on any path; ~0 when a cycle can be reached from it. Computed once for the CFG
/// it is given; a block made later (a split's tail) counts as unbounded when reached.
class WorkToExit {
public:
  explicit WorkToExit(llvm::Function &F);
  /// From I (included) to a return; ~0 as soon as it exceeds Limit.
  uint64_t from(const llvm::Instruction &I, uint64_t Limit = ~uint64_t(0)) const;

private:
  llvm::DenseMap<const llvm::BasicBlock *, uint64_t> In;
};

/// Where the entry budget does not call for an entry check although the fresh run
/// exceeds it: the kernel ends anyway within half the budget more (a check in its
/// last accesses holds the rest of them until the entry read is back and buys
/// nothing: const_table 1.045x on the H200 with its check 4 accesses before the
/// end, 0.992x with it at the end). Fresh work then stays within 1.5x the budget.
/// FreshBefore is the fresh run before I, Rest the work from I to the end.
inline bool endsWithinEntrySlack(uint64_t FreshBefore, uint64_t Rest, uint64_t EntryBudget) {
  return Rest <= EntryBudget && FreshBefore + Rest <= EntryBudget + EntryBudget / 2;
}

/// P is Control through casts and GEPs: with zero indices only, or with any constant
/// indices when ConstantOffsets (a field of the control block).
bool addressesControl(const llvm::Value *P, const llvm::Value *Control, bool ConstantOffsets);

/// The entry read, or a compare of it (weightless in the walk: IsFree).
bool isEntryReadOrCompare(const llvm::Instruction &I, const llvm::Value *Control);

/// The kernel's entry read of the cancel word: a relaxed (monotonic) atomic load,
/// not volatile, from the control parameter (offset 0). Never a poll by itself; the
/// loop counters start from it and entry checks branch on it.
bool isEntryRead(const llvm::Instruction &I, const llvm::Value *Control);

/// A conditional branch whose condition compares an entry read (an entry check).
bool isEntryCheck(const llvm::Instruction &I, const llvm::Value *Control);

} // namespace Atoll
