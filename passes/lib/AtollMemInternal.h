// Internal pieces of atoll-mem, split by job: call policy (what may be called),
// inlining, pointer-origin classification, and the confinement code generator.
#pragma once

#include "atoll/passes/AtollMem.h"
#include "atoll/passes/HardeningReport.h"
#include "atoll/passes/NVPTX.h"
#include "IntrinsicTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/ValueHandle.h"

#include <functional>
#include <optional>
#include <string>

namespace llvm {
class AllocaInst;
class Argument;
class CallBase;
class DataLayout;
class DominatorTree;
class Function;
class GlobalVariable;
class InlineAsm;
class LoopInfo;
class Module;
} // namespace llvm

namespace Atoll {

/// Reports one refusal (instruction may be null for whole-function refusals).
using RefuseFn = std::function<void(llvm::Function &, llvm::Instruction *, StateSpace,
                                    AccessKind, const llvm::Twine &)>;

//===-- Call policy -------------------------------------------------------===//

/// Empty when the constant operands of an allowed sync primitive are in range;
/// otherwise the reason for refusing the call (e.g. a run-time barrier count).
std::string checkSyncOperands(const llvm::CallBase &CB, SyncOperands Ops);
/// Confines the run-time operands of an allowed sync primitive so that they
/// cannot fault (every barrier becomes barrier.sync 0; member mask | %lanemask_eq);
/// true if changed.
bool confineSyncOperands(llvm::CallBase &CB, SyncOperands Ops);

/// Warp-collective `.aligned` matrix instructions (ldmatrix, stmatrix): run
/// only when the whole warp executes this call together; otherwise skipped, with
/// zero results. True if CB is one (and was guarded).
bool isAlignedWarpCollective(const llvm::CallBase &CB);
void guardAlignedWarpCollective(llvm::CallBase &CB);
/// V frozen (R2-F5: no clamp reads poison or undef), or V itself when it is a
/// ConstantInt or already frozen.
llvm::Value *freezeForClamp(llvm::IRBuilder<> &B, llvm::Value *V, const llvm::Twine &Name = "");

/// Empty when the inline asm is on the allow-list (exact template, constraints and
/// type: libdevice's asm and a few register-only helpers); otherwise the reason
/// for refusing it, with the asm text.
std::string checkInlineAsm(const llvm::InlineAsm &IA);

/// Inlines every call to a defined function into the kernels, refusing recursion
/// and address-taken functions. Returns false when something was refused.
bool inlineAllCalls(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Kernels,
                    const RefuseFn &Refuse);

/// Nothing may keep code alive but a call from a kernel: drops llvm.used and
/// llvm.compiler.used, refuses aliases, ifuncs and every use of a function that is
/// not the callee of a call (a constant table, a ptrtoint constant expression, a
/// global's initialiser, ...), naming the function. False when something was refused.
bool refuseNonCallFunctionUses(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Kernels,
                               const RefuseFn &Refuse);

/// After hardening: erases global variables nothing uses any more and refuses
/// (naming it) every function definition that is not a hardened kernel, so that
/// nothing unhardened can reach the PTX. False when something was refused.
bool checkOnlyHardenedKernelsLeft(llvm::Module &M, const RefuseFn &Refuse);

//===-- Pointer origins ----------------------------------------------------===//

/// Where a pointer may point, traced back through GEPs, casts, phis and selects.
struct PointerOrigin {
  StateSpace Space = StateSpace::Unknown; // Unknown: a generic pointer of unknown space
  /// The single object it points into, when known: an AllocaInst (local), a
  /// GlobalVariable (shared/constant), or a byval Argument (param).
  llvm::Value *Object = nullptr;
  /// A module-scope global outside shared/constant memory was reached.
  llvm::GlobalVariable *ModuleStorage = nullptr;
};

PointerOrigin tracePointerOrigin(llvm::Value *Ptr);

/// How one access is confined: the rewrite's only input besides the pointer.
enum class ConfineForm : uint8_t {
  Arena,        // global: the arena (mask- or modulo-based)
  Object,       // its object: an alloca or frame, a shared or constant global, a byval param
  SharedWindow, // the user shared window (extern __shared__, or a shared pointer of no object)
  SpaceTest,    // unknown generic: isspacep.shared ? shared window : arena
};

struct Confinement {
  ConfineForm Form = ConfineForm::SpaceTest;
  StateSpace Space = StateSpace::Unknown; // the traced (or forced) space, for the report
  /// Object form: the object and its size. A value handle: the object may be a
  /// byval parameter, which the hidden parameters replace with a new one.
  llvm::WeakTrackingVH Object;
  uint64_t ObjectBytes = 0;
};

/// Adds the allocas a local pointer may point into to FrameMembers; false (and
/// nothing added) if some source is not a fixed-size alloca (LocalFrame.cpp).
bool addToLocalFrame(llvm::Value *Ptr, llvm::SmallSetVector<llvm::AllocaInst *, 8> &FrameMembers);
/// Replaces the allocas Members by constant offsets into one new alloca (the
/// frame), returned; null when there are fewer than two.
llvm::AllocaInst *mergeIntoFrame(llvm::Function &F, llvm::ArrayRef<llvm::AllocaInst *> Members);

/// Size in bytes of an origin object, if statically known.
std::optional<uint64_t> objectSize(const llvm::Value *Object, const llvm::DataLayout &DL);

//===-- Confinement code generation ----------------------------------------===//

/// Module-scope helpers the pass creates once per run and keeps by handle. It never
/// looks a name up: a tenant symbol of the same name would be taken for its own
/// (tenant names in the reserved namespace are refused first, ReservedNames.cpp).
struct ModuleHelpers {
  llvm::GlobalVariable *DynSmem = nullptr; // start of dynamic shared memory
  llvm::GlobalVariable *SmemPad = nullptr; // the shared pad
};

/// Reserved-name prefix: every module-scope symbol and hidden parameter the
/// passes, the runtime or the ABI create is named "__atoll...".
inline constexpr const char *ReservedPrefix = "__atoll";

/// Refuses every tenant symbol (function, global, alias, ifunc, declared or
/// defined, used or dead) and every function parameter in the reserved
/// namespace, one diagnostic each. Returns false when something was refused.
bool refuseReservedNames(llvm::Module &M, llvm::StringRef PassName, HardeningReport *Report);

/// Emits the confinement of one kernel's accesses. Values that depend only on
/// the launch (masks, the shared window) are computed once in the entry block.
class KernelConfiner {
public:
  KernelConfiner(llvm::Function &Kernel, llvm::Value *ArenaBase, llvm::Value *ArenaSize,
                 ClampingMode Mode, ModuleHelpers &Helpers);

  /// Confines Ptr as How says for an access of Size bytes (constant or i64 value)
  /// and alignment Align; returns the pointer to use instead (same type as Ptr).
  llvm::Value *confine(llvm::IRBuilder<> &B, llvm::Value *Ptr, const Confinement &How,
                       llvm::Value *Size, llvm::Align Align);

  /// The arena, shared-window and object variants (used by confine()).
  llvm::Value *confineToArena(llvm::IRBuilder<> &B, llvm::Value *Addr, llvm::Value *Size,
                              llvm::Align Align);
  llvm::Value *confineToSharedWindow(llvm::IRBuilder<> &B, llvm::Value *SharedAddr,
                                     llvm::Value *Size, llvm::Align Align);
  llvm::Value *confineToObject(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Object,
                               uint64_t ObjectBytes, llvm::Value *Size, llvm::Align Align);

  /// Window bounds of user shared memory: [lo, lo + bytes) in the shared space.
  llvm::Value *sharedLo();
  llvm::Value *sharedBytes();
  llvm::Value *arenaBase() const { return ArenaBase; }
  llvm::Value *arenaSize() const { return ArenaSize; }
  /// The bytes an arena access can reach: the arena size, at most 4 GiB in mask
  /// mode (run-time copy lengths are cut to it).
  llvm::Value *arenaWindow() const { return ArenaWindow; }
  /// Some access was confined to shared memory (the window or an object).
  bool usedShared() const { return UsedShared; }
  /// Some access was confined to the shared window, whose clamp needs the window
  /// to be at least as large as the widest access (the shared pad).
  bool usedSharedWindow() const { return UsedWindow; }
  /// The first block of the tenant's code (after the setup in the entry block).
  llvm::BasicBlock *body() const { return Body; }

  /// The dominator tree and loops of the kernel, which the modulo-mode clamp keeps
  /// up to date when it splits a block (null: not tracked).
  void setAnalyses(llvm::DominatorTree *DT, llvm::LoopInfo *LI) {
    this->DT = DT;
    this->LI = LI;
  }

  /// Builder positioned in the entry block, after allocas and earlier setup.
  llvm::IRBuilder<> &entryBuilder() { return Entry; }

private:
  llvm::Value *alignDown(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Align A);

  llvm::Function &F;
  ModuleHelpers &Helpers;
  const llvm::DataLayout &DL;
  llvm::Value *ArenaBase, *ArenaSize;
  ClampingMode Mode;
  llvm::IRBuilder<> Entry;
  llvm::BasicBlock *Body = nullptr;
  llvm::Type *I32, *I64;
  llvm::Value *ArenaMask = nullptr;   // i32: min(size, 4 GiB) - 1 (mask mode)
  llvm::Value *ArenaWindow = nullptr; // i64: min(size, 4 GiB) (mask), size (modulo)
  llvm::DenseMap<uint64_t, llvm::Value *> MaskByAlign; // mask & ~(A-1), per A
  llvm::Value *SmemLo = nullptr, *SmemBytes = nullptr;
  bool UsedShared = false, UsedWindow = false;
  llvm::DominatorTree *DT = nullptr;
  llvm::LoopInfo *LI = nullptr;
};

/// Zero-initialises, at kernel entry, every static alloca and (when the kernel can
/// reach shared memory) the whole user shared window, then a CTA barrier.
/// Control: the control parameter when the kernel takes preemption checks (a long
/// shared zeroing is preceded by a block-wide cancel vote, R7-F1), else null.
/// Returns the block after the zeroing's barrier (null when the kernel zeroes no
/// shared memory).
llvm::BasicBlock *emitZeroInit(llvm::Function &Kernel, KernelConfiner &C, bool ZeroShared,
                               llvm::Value *Control = nullptr);

} // namespace Atoll
