// The arena pool's backend on the CUDA driver (Arena.cpp): VMM-mapped arenas, or
// cuMemAlloc where the device has no VMM, whose frees go to the reclaimer.
#pragma once

#include "ArenaPool.h"

#include <atomic>
#include <cstdint>

namespace Atoll::detail {

struct RuntimeState;

class CudaArenaBackend final : public ArenaBackend {
public:
  explicit CudaArenaBackend(RuntimeState &state) : state_(state) {}
  Result<Arena> allocate(const ArenaSpec &spec) override;
  void destroy(Arena &arena) noexcept override;
  bool workDone(const Arena &arena) noexcept override;
  bool usable() noexcept override;

private:
  RuntimeState &state_;
  std::atomic<uint64_t> serial_{0};
};

} // namespace Atoll::detail
