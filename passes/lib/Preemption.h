// Preemption checks on every cycle-closing edge (ABI v2 control block); see
// Preemption.cpp.
#pragma once

#include "AtollMemInternal.h"
#include "atoll/abi.h"

#include "llvm/ADT/GenericCycleInfo.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/IRBuilder.h"

namespace Atoll {

/// Charged loops run at most 2^DefaultChargeShift iterations without a check.
constexpr unsigned DefaultChargeShift = 12;

struct PreemptOptions {
  bool Enabled = true;
  unsigned PollShift = ATOLL_DEFAULT_POLL_SHIFT; // read the cancel word every 2^PollShift edges
  /// Bytes of the frame the zero-init will clear (byte stores). Above the
  /// straight-line budget's worth, the kernel polls at entry (R5-F2).
  uint64_t FrameBytes = 0;
  /// The kernel zeroes its shared window at entry, cooperatively: a thread that
  /// left before doing its share would leave residue to the others, so the entry
  /// poll is a vote of the whole block (one barrier; R7-F11).
  bool ZeroShared = false;
  /// The first block of the tenant's code (KernelConfiner::body()); what runs before
  /// it is the setup, before the shared zeroing. With ZeroShared, no thread may
  /// leave alone there (R8-F1): the budget's polls in it are block votes.
  llvm::BasicBlock *Body = nullptr;
};

/// The block-wide form of a poll: every thread reads the cancel word and all leave
/// together when any saw it set (barrier.red.or), so a cooperative prologue is done
/// by all threads or by none. Every thread of the block must reach it.
llvm::Value *voteCancel(llvm::IRBuilder<> &B, llvm::Value *Control);

/// Recognises the branch condition voteCancel builds.
bool isVoteCondition(const llvm::Value *Cond, const llvm::Value *Control);

/// True when a kernel whose zero-init clears FrameBytes bytes of frame polls at entry.
bool pollsAtEntry(uint64_t FrameBytes);

/// A charge: Amount (i32, >= 1) iterations counted before Block's terminator;
/// MaxAmount bounds the iterations it stands for (the constant bound, or the cap).
struct ChargeSite {
  llvm::BasicBlock *Block;
  llvm::Value *Amount;
  uint64_t MaxAmount;
  uint64_t IterationWork; // one iteration at most, StraightLine.h units
};

/// PreemptionLoops.cpp: every innermost loop that is one cycle without inner
/// cycles, does not wait, and provably runs at most 2^CapShift iterations (a
/// constant bound), or does so by a run-time test in its preheader (the loop is
/// versioned: the copy for short runs has no check), is marked bounded
/// (ATOLL_BOUNDED_LOOP_MD on every block) and gets a ChargeSite in its preheader.
/// CapShift 0 charges nothing.
void chargeBoundedLoops(llvm::Function &F, unsigned CapShift,
                        llvm::SmallVectorImpl<ChargeSite> &Charges);

/// A cycle all of whose blocks carry the bounded mark (a charged loop, or after
/// markBoundedCycles the zero-init's): it needs no check.
bool isChargedCycle(const llvm::CycleInfo::CycleT &C);

/// Memory intrinsics with a constant length of at most this many bytes stay
/// intrinsics: NVPTX codegen (LLVM 22) lowers them to straight-line loads and
/// stores; from 65 bytes on it makes a loop (nvptx-lower-aggr-copies). Every other
/// one is expanded into an IR loop by expandMemIntrinsicLoops: the tenant's before
/// the checks (so its loops take one), the zero-init's after (bounded, marked). If
/// a later LLVM lowers differently, the toolchain's check after code generation
/// (checkCyclesPolled) refuses the module instead of emitting an unchecked loop.
constexpr uint64_t MaxUncheckedMemBytes = 64;

/// Expands every memcpy/memmove/memset (and .inline form) of F whose length is not
/// a constant <= MaxUncheckedMemBytes into an explicit loop over the same (already
/// confined) pointers and (already cut) length. Returns false after Refuse.
bool expandMemIntrinsicLoops(llvm::Function &F, const RefuseFn &Refuse);

/// After insertPreemptionChecks: every cycle of F contains a block that reads the
/// cancel word and can leave the cycle on it, the entry block polls, and no memory
/// intrinsic that codegen would turn into an unchecked loop is left. Returns false
/// after Refuse (a pass bug must not become an uncancellable kernel).
bool verifyPreemptionChecks(llvm::Function &F, llvm::Value *Control, const RefuseFn &Refuse,
                            uint64_t FrameBytes = 0);

/// After the zero-init (R8-F1): no thread leaves before the shared window is zeroed.
/// Every path from the entry to a return either passes Done (the block after the
/// zeroing's barrier) or leaves on a block vote (all threads together). Returns
/// false after Refuse.
bool verifyZeroedBeforeLeaving(llvm::Function &F, llvm::Value *Control, llvm::BasicBlock *Done,
                               const RefuseFn &Refuse);

/// After the zero-init (whose loops must run to the end: a thread that left half
/// way would leave other tenants' shared-memory residue to its block): marks the
/// branches of every cycle without a check with ATOLL_BOUNDED_LOOP_MD, the only
/// cycles the toolchain's final check lets through.
void markBoundedCycles(llvm::Function &F, llvm::Value *Control);

/// Inserts the checks into kernel F (already confined); Control is the i64 hidden
/// parameter holding the control block's device address. Returns false after
/// Refuse when a cycle cannot take a check.
bool insertPreemptionChecks(llvm::Function &F, llvm::Value *Control,
                            const PreemptOptions &Opts, const RefuseFn &Refuse);

} // namespace Atoll
