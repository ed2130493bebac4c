// A kernel's tenant-visible signature: the one description of kernel parameters.
// The toolchain makes it from the final module; the compile worker's answers, the
// disk cache, launch validation and the driver-side module check use it unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace Atoll {

enum class ParamKind : uint8_t { Pointer, Scalar, ByVal };

/// One tenant-visible kernel parameter (the hidden ABI parameters are not listed).
struct ParamInfo {
  ParamKind kind = ParamKind::Scalar;
  uint32_t size = 0;  // bytes the host passes (8 for pointers)
  uint32_t align = 1;
  bool isFloat = false;
  bool isSigned = false;
  std::string type;   // IR type name: "ptr", "i32", "float", "%struct.S", ...
};

struct KernelInfo {
  std::string name;
  std::vector<ParamInfo> params;
  // From the loaded function (0 when the application is not loaded on a device,
  // and in the toolchain's output).
  uint32_t maxThreadsPerBlock = 0;
  uint32_t staticSharedBytes = 0;
  uint32_t localBytesPerThread = 0;
  uint32_t registers = 0;
};

} // namespace Atoll
