// The straight-line budget of the preemption checks (R3-F5 part 2): along every
// path of a kernel's CFG without its cycle-closing edges, a poll of the cancel word
// at least every StraightBudget units of work. Shared by atoll-mem (which inserts
// the polls and checks them) and the toolchain's check after code generation.
#pragma once

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
/// The most work from a kernel's entry to its first poll in loop-free code (R6-F3):
/// a block that starts after a cancel runs that far, so a cancelled grid of 2^24
/// blocks drains at that rate. `-atoll-preempt-entry-budget` lowers it; the default
/// is the straight-line budget until a lower one is measured on the H200 and polls
/// never land between a warp collective and the mask computed for it (docs/passes.md).
constexpr uint64_t DefaultEntryBudget = DefaultStraightBudget;

/// The weight of I (0 for what costs nothing at run time: debug records, lifetime
/// markers, the register-only inline asm the allow-list accepts, reads of the
/// control block that IsPoll names).
uint64_t straightWeight(const llvm::Instruction &I);

/// Whether the value I reads is compared and branched on (a poll: the thread can
/// leave there). The counter's read of the cancel word at entry is not one.
bool feedsBranch(const llvm::Instruction &I);

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
/// The same, and Visit also learns whether I is Fresh: in no cycle, and reached by
/// some path from the kernel's entry that has not polled yet (the entry budget).
uint64_t walkStraightRuns(
    llvm::Function &F, llvm::function_ref<bool(const llvm::Instruction &)> IsPoll,
    llvm::function_ref<bool(llvm::Instruction &, uint64_t Run, bool Fresh)> Visit);

} // namespace Atoll
