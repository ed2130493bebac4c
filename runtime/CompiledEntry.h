// A compiled module before it is loaded: what the toolchain (in process or in a
// compile worker) produces, what the disk cache stores per key, and what
// RuntimeState::loadModule checks and hands to the driver.
#pragma once

#include "atoll/application.h"

#include <string>
#include <vector>

namespace Atoll::detail {

struct CompiledEntry {
  std::string ptx;   // validated before every load (ptx/PtxValidator.h)
  std::string cubin; // assembled from ptx after validation; what the driver loads
  std::vector<KernelInfo> kernels; // signatures only
};

} // namespace Atoll::detail
