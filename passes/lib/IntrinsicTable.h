// The intrinsic policy table of atoll-mem: what the pass does with every LLVM and
// NVVM intrinsic, in one place (IntrinsicTable.cpp). Classification (which calls
// are memory accesses, which are refused), policy (the sync operand rules) and the
// rewrite (how operands are confined) all read the row; a new intrinsic is one
// row. Deny by default: an intrinsic without a row falls to the generic rules at
// the end of lookupIntrinsic, which allow only calls without memory effects (or
// with inaccessible-memory effects and no pointer operand) and refuse the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace Atoll {

/// What atoll-mem does with an intrinsic call.
enum class IntrinsicAction : uint8_t {
  Allow,   // touches no memory a tenant could misuse (math, sreg, barriers, ...)
  Drop,    // no semantic effect worth keeping: prefetch, lifetime markers
  Confine, // a memory access the pass confines (memcpy, ldu, cp.async, ...)
  Refuse,  // unsupported or unsafe
};

/// How a Confine row's memory operands are read (which operands are pointers,
/// their size and alignment). Sizes and alignments come from the call's types and
/// attributes where the row has none of its own (Bytes).
enum class AccessForm : uint8_t {
  None,
  MemTransfer, // memcpy/memmove(.inline): arg 0 written, arg 1 read, length arg 2
  MemSet,      // memset(.inline): arg 0 written, length arg 2
  MaskedLoad,  // masked.load: arg 0 read, the result's size, align param/arg 1
  MaskedStore, // masked.store: arg 1 written, arg 0's size, align param/arg 2
  Ldu,         // ldu.global: arg 0 read, the result's size, align max(size, arg 1)
  NvvmAtomic,  // nvvm.atomic.*: arg 0 read-modify-written, the result's size and align
  CpAsync,     // cp.async.{ca,cg}.shared.global: arg 0 (shared) written, arg 1
               // (global) read, Bytes each; the optional arg 2 (src-size) is cut
  Matrix,      // ldmatrix/stmatrix m8n8: arg 0, one 16-byte row per thread
};

/// The space an access's pointer is confined into, whatever it was traced to.
enum class SpaceRule : uint8_t {
  AsTraced, // the traced origin (AccessClassifier.cpp)
  Global,   // ldu.global: the global state space only
  Shared,   // ldmatrix/stmatrix: shared memory only
};

/// The operands of an allowed synchronisation primitive that can fault, and are
/// confined at run time (SyncPolicy.cpp).
enum class SyncOperands : uint8_t {
  None,     // no operand that can fault
  Barrier,      // arg 0: barrier id
  BarrierCount, // arg 0: barrier id, arg 1: thread count (refused)
  MaskArg0, // arg 0: warp member mask
  MaskArg1, // arg 1: warp member mask (redux.sync)
};

/// One row of the table, as the call sites see it.
struct IntrinsicPolicy {
  IntrinsicAction Action = IntrinsicAction::Refuse;
  std::string Reason; // for Refuse, with the intrinsic's name filled in
  AccessForm Form = AccessForm::None;
  SpaceRule Space = SpaceRule::AsTraced;
  SyncOperands Sync = SyncOperands::None;
  uint8_t Bytes = 0;   // the access size when fixed by the intrinsic (cp.async, matrix)
  bool Writes = false; // Matrix: stmatrix
  bool Atomic = false; // an atomic (refused on local memory and byval parameters)
  /// Whether the row came from the sync part of the table (or its convergent
  /// default rule); only for classifySyncIntrinsic.
  bool IsSync = false;
  /// A `.sync.aligned` warp collective (ldmatrix/stmatrix; mma/wmma if ever
  /// allowed): every thread of the warp must execute the same instruction, so
  /// the call is guarded to run only when the whole warp is there (SyncPolicy.cpp).
  bool AlignedWarpCollective = false;
};

/// The one lookup: the row of Callee (an intrinsic declaration), or the generic
/// deny-by-default rules when it has none.
IntrinsicPolicy classifyIntrinsic(const llvm::Function &Callee);

/// Barriers and warp primitives only: the policy of a listed one, Refuse for any
/// other convergent NVVM intrinsic, nullopt for the rest (unit SyncPolicyTest).
std::optional<IntrinsicPolicy> classifySyncIntrinsic(const llvm::Function &Callee);

} // namespace Atoll
