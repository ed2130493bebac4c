// An independent check of the final artifact: the PTX that the driver is about to
// load. It needs no LLVM: it tokenises the PTX text itself (comments, strings,
// directives, labels, instructions) and refuses, deny by default,
//  - any .entry that is not one of the expected hardened kernels (or that lacks
//    the hidden ABI parameters), any missing or duplicate expected kernel;
//  - any .func (everything is inlined into the kernels), .alias, .callprototype;
//  - module-scope writable storage (.global, .local) and, when the caller names
//    them, any module-scope symbol the final IR does not declare;
//  - any instruction whose opcode is not on the allow-list (no trap, brkpt,
//    pmevent, call, brx.idx, texture/surface, cluster, bulk/TMA, mbarrier, red,
//    no writes to the parameter space), and any barrier other than the whole-CTA
//    barrier 0 without a thread count;
//  - any atom other than the forms NVPTX emits for the atomics atoll-mem lets
//    through (one scalar of 4 or 8 bytes, global/shared/generic, one SASS
//    instruction in its space), and any fence, membar, redux, match, shfl, vote or
//    activemask form not on their lists.
// docs/passes.md ("PTX validation") lists the rules. The runtime runs it before
// every module load (compiled or from the disk cache), the toolchain after every
// compilation (atoll-harden --emit=ptx, atoll-attacks --offline).
#pragma once

#include "atoll/abi.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Atoll::ptx {

/// A kernel the PTX must define as an .entry: its name and the number of tenant
/// parameters (the hidden ABI parameters come after them).
struct ExpectedEntry {
  std::string name;
  uint32_t tenantParams = 0;
};

enum class Space { Shared, Const };

/// A module-scope variable the final IR declares.
struct ExpectedGlobal {
  std::string name;
  Space space = Space::Shared;
};

struct Expectation {
  std::vector<ExpectedEntry> entries;
  /// Hidden parameters appended to every entry (ATOLL_HIDDEN_PARAM_COUNT); each
  /// must be a 64-bit parameter.
  uint32_t hiddenParams = 0;
  /// When set, every module-scope variable of the PTX must be one of these (same
  /// name, same space). The runtime's disk cache does not store them: nullopt
  /// there, and only the space rules apply.
  std::optional<std::vector<ExpectedGlobal>> globals;
  /// Largest `.local` memory (the stack depot) of one function, in bytes
  /// (ATOLL_DEFAULT_MAX_LOCAL_BYTES of abi.h, R5-F4): atoll-mem's frame limit,
  /// checked again here where codegen's own temporaries are counted too. One
  /// check with the hardware's 512 KiB per thread: the smaller bound applies
  /// ("local memory per thread of N bytes exceeds the L-byte limit").
  uint64_t maxLocalBytes = ATOLL_DEFAULT_MAX_LOCAL_BYTES;
};

struct Violation {
  uint32_t line = 0;  // 1-based line of the PTX (0: the module as a whole)
  std::string text;   // that line, trimmed (at most 200 characters)
  std::string reason;
  /// "PTX line <n>: <reason>: '<text>'" (or just the reason for line 0).
  std::string describe() const;
};

/// The first violation in `ptx`, or nullopt when the module is acceptable.
std::optional<Violation> validate(std::string_view ptx, const Expectation &expected);

/// Why an instruction with this opcode (e.g. "ld.global.nc.v4.b32") and these
/// operands (comma-separated at top level, trimmed) is refused, or "" when it is
/// allowed. Exposed for tests.
std::string checkInstruction(std::string_view opcode, const std::vector<std::string> &operands);

} // namespace Atoll::ptx
