// The per-kernel worker of atoll-mem: KernelAnalysis.cpp checks every instruction
// (and refuses what cannot be made safe) and collects the list of accesses with
// the confinement or proof of each; KernelRewrite.cpp applies that list.
#pragma once

#include "AtollMemInternal.h"
#include "atoll/abi.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <vector>

namespace Atoll {

/// One memory operand of an instruction, as the analysis found it: which operand,
/// how many bytes, the alignment, and what the rewrite does with it.
struct MemAccess {
  unsigned OpIdx;
  llvm::WeakTrackingVH Size; // ConstantInt, or the i64 run-time length (memcpy/memset)
  llvm::Align Alignment;
  bool Writes;
  PointerOrigin Origin; // for the checks (analysis only: not kept up to date)
  Confinement How;      // what the rewrite applies, unless ProvenSafe
  bool ProvenSafe = false;
  int Group = -1; // index into Groups: the accesses base + C sharing one clamp
  uint64_t GroupOffset = 0;
};

/// One instruction with memory operands (BoundsChecking's model: the analysis
/// produces the list, the rewrite consumes it and recomputes nothing).
struct AccessSite {
  llvm::Instruction *I;
  AccessKind Kind;
  IntrinsicPolicy Policy; // the table row, for intrinsic calls
  /// memcpy/memset: the length is cut to the smallest window involved first.
  bool CutLength = false;
  /// cp.async ...s: the source size operand (arg 2) is cut to this many bytes.
  uint8_t CutSrcSize = 0;
  llvm::SmallVector<MemAccess, 2> Ops;
};

/// Accesses Base + C (C a constant) into the same object, in the same basic
/// block, share one clamp of Base: the block runs all of them or none, so
/// clamping Base to [obj, obj + size - max(C + S)] keeps every one in its object,
/// changes none that was in bounds, and leaves C as an immediate. Each member's
/// C is a multiple of its alignment A, so Base is max(A)-aligned in a correct
/// program and the clamp keeps that alignment: the members of a split float4
/// (align 16, 4, 8, 4) stay one vector access for the backend.
struct AccessGroup {
  llvm::WeakTrackingVH Base;
  Confinement How;
  uint64_t Align = 1; // max over members of A
  uint64_t MaxEnd = 0;
  unsigned Members = 0;
  bool Offsets = false; // some member has C != 0: only then is sharing worth it
  bool shared() const { return Members > 1 && Offsets; }
};

// Widest single access (not memcpy/memset, whose lengths are clamped at run time).
// Every window is at least this large: arenas are >= 2 MiB and the shared pad
// makes the shared window at least SharedPadBytes.
constexpr uint64_t MaxAccessBytes = 256;
constexpr uint64_t SharedPadBytes = 256;
// Widest span (max(C + S)) of a group of global accesses sharing one clamp.
constexpr uint64_t MaxGroupBytes = 4096;
static_assert(MaxGroupBytes <= ATOLL_MIN_ARENA_BYTES, "every arena must hold a group");
static_assert(MaxAccessBytes <= SharedPadBytes, "the shared window must fit every access");

class KernelHardener {
public:
  KernelHardener(llvm::Function &F, const AtollMemOptions &Opts, HardeningReport &Report)
      : Fn(&F), DL(Fn->getParent()->getDataLayout()), Opts(Opts), Report(Report) {}

  /// Checks every instruction and collects the accesses, the calls to drop and
  /// the sync operands to confine; returns false (after reporting) if any is
  /// refused.
  bool analyze();
  /// Collects accesses the pass itself created after analyze() (the vector-lane
  /// slots of DefinedValues.cpp): confined like the tenant's, never refused.
  void addCreatedAccesses(llvm::ArrayRef<llvm::Instruction *> Created);
  /// The last step of the analysis: puts the accesses in program order and plans
  /// the groups that share one clamp.
  void plan();
  /// Rewrites the kernel (after plan()) with the hidden parameters: consumes the
  /// lists, recomputes nothing.
  void harden(llvm::Function &NewF, KernelConfiner &C);
  bool mayTouchShared() const { return TouchesShared; }
  llvm::ArrayRef<AccessSite> accesses() const { return Sites; }

private:
  void refuse(llvm::Instruction *I, StateSpace S, AccessKind K, const llvm::Twine &Why);
  void record(llvm::Instruction *I, StateSpace S, AccessKind K, Outcome O, const llvm::Twine &Detail,
              std::string Text = {});
  AccessKind kindOf(const llvm::Instruction &I) const;
  /// Fills Site.Ops (operand, size, alignment, origin); false if I touches
  /// memory in a form the table does not model.
  bool collect(llvm::Instruction &I, const IntrinsicPolicy *P, AccessSite &Site) const;
  /// The confinement and proof of each collected operand (after the checks),
  /// and the length cut of a memcpy/memset.
  void decide(AccessSite &Site) const;
  void decide(const AccessSite &Site, MemAccess &Op) const;
  bool checkAccess(const AccessSite &Site, const MemAccess &Op);
  bool provenSafe(llvm::Value *Ptr, const MemAccess &Op) const;
  bool checkCall(llvm::CallBase &CB, IntrinsicPolicy *Policy);
  void mergeAmbiguousLocals();
  void rewrite(AccessSite &Site, KernelConfiner &C);

  // Loops of the kernel being rewritten: a clamp of a loop-invariant pointer is
  // computed once, where the pointer is defined, not on every iteration.
  std::unique_ptr<llvm::DominatorTree> DT;
  std::unique_ptr<llvm::LoopInfo> LI;
  llvm::BasicBlock::iterator clampPoint(llvm::Instruction &Access, llvm::Value *Ptr, KernelConfiner &C);

  // What analyze() found, in program order after plan().
  std::vector<AccessSite> Sites;
  std::vector<AccessGroup> Groups;
  std::vector<llvm::Value *> GroupClamps; // rewrite state: each shared group's clamp
  llvm::SmallVector<llvm::Instruction *, 8> Drops;                           // prefetch, lifetime
  llvm::SmallVector<std::pair<llvm::CallBase *, SyncOperands>, 8> SyncCalls; // operands to confine
  llvm::SmallVector<llvm::UnreachableInst *, 4> Unreachables;

  llvm::Function *Fn;
  const llvm::DataLayout &DL;
  const AtollMemOptions &Opts;
  HardeningReport &Report;
  bool Refused = false;
  bool TouchesShared = false;
};

} // namespace Atoll
