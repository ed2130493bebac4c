// The atomic forms the target runs as one instruction, and the expansion of every
// other one into a compare-and-swap loop of the pass's own (AtomicPolicy.cpp).
#pragma once

#include "AtollMemInternal.h"

#include <string>

namespace Atoll {

/// True when the atomic I (atomicrmw, cmpxchg, or an llvm.nvvm.atomic.*.gen.*
/// intrinsic) is in the table of forms that the target assembles into one
/// instruction, without a loop, for its pointer's address space (generic: in both
/// the global and the shared space).
bool isNativeAtomic(const llvm::Instruction &I, const llvm::DataLayout &DL);

/// Why the atomic I can be neither kept nor expanded into a loop over a native
/// compare-and-swap (its width or address space has none), or would become a
/// library call (aligned below its size; an atomic load or store over 64 bits);
/// empty when it can.
std::string atomicRefusal(const llvm::Instruction &I, const llvm::DataLayout &DL);

/// Rewrites every atomic of F that is not native into an IR loop around a native
/// `cmpxchg` on the same (already confined) pointer, or on the aligned 32-bit word
/// holding a sub-word value, so that the loop takes a preemption check like any
/// other; a generic-space atomic whose pointer is a cast from a space where the
/// form is native gets that pointer instead. Returns false after Refuse.
bool expandNonNativeAtomics(llvm::Function &F, const RefuseFn &Refuse);

} // namespace Atoll
