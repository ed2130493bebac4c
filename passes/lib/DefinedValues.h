// atoll-mem: no value of a hardened kernel is undefined. Undefined values (undef,
// poison, an out-of-range vector lane) become whatever a register or a
// codegen stack temporary held before: another tenant's data (review F2, F4).
#pragma once

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace Atoll {

/// Rewrites each extractelement/insertelement with a variable (or out-of-range)
/// index into an access to a kernel-owned vector slot (an entry alloca, zeroed
/// at entry by atoll-mem) at an index clamped into the vector, so that codegen
/// makes no stack temporary of its own (it writes only some lanes of one).
/// The loads and stores it creates are appended to Created (they are confined
/// like the tenant's accesses).
void lowerVariableVectorIndexing(llvm::Function &F,
                                 llvm::SmallVectorImpl<llvm::Instruction *> &Created);

/// Replaces every undef/poison operand of every instruction (and every undef
/// lane of a constant vector/aggregate operand, and every undefined shufflevector
/// mask lane) by zero; freeze then always sees a defined value.
void defineUndefinedOperands(llvm::Function &F);

} // namespace Atoll
