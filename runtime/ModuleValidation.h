// The checks of a compiled module before every load, whatever its origin (this
// process's toolchain, a compile worker, the disk cache): every kernel is a PTX
// entry with the hidden ABI parameters, and the PTX passes the validator
// (ptx/PtxValidator.h). The loaded cubin is checked from the driver's side too
// (cuda/ModuleCheck.h).
#pragma once

#include "CompiledEntry.h"

#include "atoll/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Atoll::detail {

/// The parameter declarations of `.entry <kernel>(...)` in the PTX, or nullopt when
/// there is no such entry.
std::optional<std::vector<std::string>> ptxEntryParams(std::string_view ptx,
                                                       std::string_view kernel);
/// Every kernel must be a PTX entry with its tenant parameters plus the
/// ATOLL_HIDDEN_PARAM_COUNT 64-bit hidden ones; CompileError otherwise (the module
/// was not hardened and must never be launched).
Status checkHardenedEntries(std::string_view ptx, const std::vector<KernelInfo> &kernels);

/// The independent check of the final artifact, before every load: the entries
/// are exactly the entry's kernels with the hidden parameters, and nothing outside
/// the PTX allow-list (ptx/PtxValidator.h) is in the module.
Status validatePtx(const CompiledEntry &entry);

} // namespace Atoll::detail
