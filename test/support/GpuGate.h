// When may a GPU test skip? Only when the host has no CUDA driver library or no
// device; every other driver error is a failure, and ATOLL_REQUIRE_GPU=1 (set by
// scripts/run-gpu.sh and scripts/gpu-batch.sh) makes the skip a failure too. Used
// by the GPU tests (test/gpu), the attack suite and the benchmarks, so that a
// broken driver can never end green as "skipped".
#pragma once

#include <string>

namespace atoll_test {

enum class GpuState {
  Present, // libcuda.so.1 loads and cuInit succeeds
  Absent,  // no driver library, or cuInit says CUDA_ERROR_NO_DEVICE: may skip
  Broken,  // anything else (cuInit fails otherwise, entry point missing): must fail
};

struct GpuProbe {
  GpuState state = GpuState::Broken;
  std::string reason; // why Absent or Broken; empty when Present
};

/// Loads libcuda.so.1 itself and calls cuInit (idempotent, cached).
const GpuProbe &probeGpu();

/// True when $ATOLL_REQUIRE_GPU is set to anything but "" or "0".
bool gpuRequired();

enum class GpuVerdict { Run, Skip, Fail };

/// The decision with its message: Run; Skip ("no CUDA driver/device: ..."); Fail
/// ("the CUDA driver is broken: ..." or "ATOLL_REQUIRE_GPU=1 but ...").
GpuVerdict gpuVerdict(std::string &message);

} // namespace atoll_test
