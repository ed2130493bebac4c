// Process-wide, per device: which primary-context generation is current and whether
// the device's context is known to be lost (shared by every runtime of the process).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace Atoll::detail {

/// Per device ordinal, process-wide: the generation of its primary context (bumped
/// by every cuDevicePrimaryCtxReset) and whether it is known to be lost. A
/// RuntimeState of an older generation must never touch the driver again: its
/// handles are dead and could alias new ones.
struct DeviceRegistry {
  static constexpr int kMaxDevices = 64;
  static std::atomic<uint64_t> generation[kMaxDevices];
  static std::atomic<bool> lost[kMaxDevices];
  static std::mutex mutex; // serialises retain/reset/release decisions
};

} // namespace Atoll::detail
