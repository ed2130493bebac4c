// The checks of a compiled module before every load, whatever its origin (this
// process's toolchain, a compile worker, the disk cache): first its size against
// the module caps (kernels, PTX and cubin bytes: cheap, before anything scans the
// PTX), then every kernel is a PTX entry with the hidden ABI parameters, and the
// PTX passes the validator (ptx/PtxValidator.h). The loaded cubin is checked from
// the driver's side too (cuda/ModuleCheck.h). Every check is linear in the PTX
// and the signatures (review R10-F1).
#pragma once

#include "CompiledEntry.h"

#include "atoll/error.h"
#include "atoll/runtime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Atoll::detail {

/// The size caps of one module (RuntimeOptions), checked first on every path: the
/// compile answer's decode (kernels), the disk-cache read, validatePtx and the load.
struct ModuleLimits {
  size_t maxKernels = 512;                         // RuntimeOptions::maxKernelsPerModule
  uint64_t maxPtxBytes = uint64_t(160) << 20;      // compileAnswerBytes(options)
  uint64_t maxCubinBytes = uint64_t(32) << 20;     // RuntimeOptions::maxCubinBytes
};

/// The largest compile answer (hardened PTX and signatures): compileWorkers.
/// maxOutputBytes, or 0 = 5 x maxCubinBytes, at least 1 MiB (a frame's length is
/// 32-bit). Also the PTX cap of a module from any path: larger PTX could only
/// assemble to a cubin that the load refuses anyway.
uint32_t compileAnswerBytes(const RuntimeOptions &options);
ModuleLimits moduleLimits(const RuntimeOptions &options);

/// CapacityExceeded when the entry has more kernels, PTX or cubin bytes than the
/// caps, naming the cap; reads nothing but sizes.
Status checkModuleSize(const CompiledEntry &entry, const ModuleLimits &limits);
/// The refusal of a module with more kernels than RuntimeOptions::maxKernelsPerModule
/// (checkModuleSize, and the decode of a worker's answer: Protocol.cpp).
Error tooManyKernels(size_t kernels, size_t cap);

/// Every `.entry` of the PTX and its parameter declarations (trimmed), in one pass:
/// name -> the declarations, or nullopt for an entry whose parameter list is not
/// closed. The first definition of a name wins (the validator refuses a second).
/// Views into `ptx`.
using PtxEntryMap =
    std::unordered_map<std::string_view, std::optional<std::vector<std::string_view>>>;
PtxEntryMap ptxEntries(std::string_view ptx);

/// The parameter declarations of `.entry <kernel>(...)` in the PTX, or nullopt when
/// there is no such entry (one pass over the PTX: for tests and single lookups).
std::optional<std::vector<std::string>> ptxEntryParams(std::string_view ptx,
                                                       std::string_view kernel);
/// Every kernel must be a PTX entry with its tenant parameters plus the
/// ATOLL_HIDDEN_PARAM_COUNT 64-bit hidden ones, and listed once; CompileError
/// otherwise (the module was not hardened and must never be launched). One pass
/// over the PTX, then one lookup per kernel.
Status checkHardenedEntries(std::string_view ptx, const std::vector<KernelInfo> &kernels);

/// The independent check of the final artifact, before every load: the module's
/// size within `limits` (first: CapacityExceeded), the entries are exactly the
/// entry's kernels with the hidden parameters, and nothing outside the PTX
/// allow-list (ptx/PtxValidator.h) is in the module.
Status validatePtx(const CompiledEntry &entry, const ModuleLimits &limits);

} // namespace Atoll::detail
