// The per-kernel worker of atoll-mem: KernelAnalysis.cpp checks every instruction
// (and refuses what cannot be made safe), KernelRewrite.cpp confines every access.
#pragma once

#include "AtollMemInternal.h"
#include "atoll/abi.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <tuple>

namespace Atoll {

/// One memory operand of an instruction: which operand, how many bytes, alignment.
struct MemOperand {
  unsigned OpIdx;
  llvm::Value *Size; // ConstantInt or an i64 run-time length
  llvm::Align Alignment;
  bool Writes;
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

  /// Checks every instruction; returns false (after reporting) if any is refused.
  bool analyze();
  /// Rewrites the kernel (after analyze() succeeded) with the hidden parameters.
  void harden(llvm::Function &NewF, KernelConfiner &C);
  bool mayTouchShared() const { return TouchesShared; }

private:
  void refuse(llvm::Instruction *I, StateSpace S, AccessKind K, const llvm::Twine &Why);
  void record(llvm::Instruction *I, StateSpace S, AccessKind K, Outcome O, const llvm::Twine &Detail,
              std::string Text = {});
  AccessKind kindOf(const llvm::Instruction &I) const;
  bool memOperands(llvm::Instruction &I, llvm::SmallVectorImpl<MemOperand> &Ops);
  bool checkAccess(llvm::Instruction &I, const MemOperand &Op, const PointerOrigin &O);
  bool provenSafe(llvm::Value *Ptr, const PointerOrigin &O, const MemOperand &Op) const;
  PointerOrigin originOf(llvm::Instruction &I, const MemOperand &Op) const;
  bool checkCall(llvm::CallBase &CB);
  void mergeAmbiguousLocals();
  void rewrite(llvm::Instruction &I, KernelConfiner &C);
  void planGroups(llvm::ArrayRef<llvm::Instruction *> Work);

  // Accesses Base + C (C a constant) into the same object, in the same basic
  // block, share one clamp of Base: the block runs all of them or none, so
  // clamping Base to [obj, obj + size - max(C + S)] keeps every one in its object,
  // changes none that was in bounds, and leaves C as an immediate. Each member's
  // C is a multiple of its alignment A, so Base is max(A)-aligned in a correct
  // program and the clamp keeps that alignment: the members of a split float4
  // (align 16, 4, 8, 4) stay one vector access for the backend.
  using GroupKey = std::tuple<llvm::Value *, llvm::Value *, llvm::BasicBlock *>;
  struct AccessGroup {
    uint64_t Align = 1; // max over members of A
    uint64_t MaxEnd = 0;
    unsigned Members = 0;
    bool Offsets = false; // some member has C != 0: only then is sharing worth it
    llvm::Value *Clamped = nullptr;
  };
  llvm::DenseMap<GroupKey, AccessGroup> Groups;
  // Loops of the kernel being rewritten: a clamp of a loop-invariant pointer is
  // computed once, where the pointer is defined, not on every iteration.
  std::unique_ptr<llvm::DominatorTree> DT;
  std::unique_ptr<llvm::LoopInfo> LI;
  llvm::BasicBlock::iterator clampPoint(llvm::Instruction &Access, llvm::Value *Ptr, KernelConfiner &C);
  llvm::DenseMap<std::pair<llvm::Instruction *, unsigned>, std::pair<GroupKey, uint64_t>> GroupOf;

  llvm::Function *Fn;
  const llvm::DataLayout &DL;
  const AtollMemOptions &Opts;
  HardeningReport &Report;
  bool Refused = false;
  bool TouchesShared = false;
};

} // namespace Atoll
