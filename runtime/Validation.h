// The checks between a tenant's request and the driver, as pure functions (no CUDA),
// so that they are unit-tested without a GPU:
//  - buffer ownership/liveness and copy ranges (overflow-safe),
//  - launch arguments against a kernel signature, packed for cuLaunchKernel with the
//    hidden arena parameters of abi.h appended,
//  - launch shapes against device and kernel limits.
// Errors carry no pipeline name; the caller adds it with Error::within().
#pragma once

#include "BlockAllocator.h"

#include "atoll/abi.h"
#include "atoll/application.h"
#include "atoll/buffer.h"
#include "atoll/error.h"
#include "atoll/launch.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace Atoll::detail {

/// What a buffer is checked against: the pipeline that uses it and its arena.
struct ArenaView {
  uint64_t pipelineId = 0;
  uint64_t base = 0;      // device address of the arena
  uint64_t size = 0;      // arena bytes
  const BlockAllocator *allocator = nullptr; // live buffers (nullptr: skip liveness)
  uint64_t control = 0;   // device address of the pipeline's control block (ABI v2)
};

/// InvalidArgument for an invalid buffer, one of another pipeline, or one that is
/// not (or no longer) a live allocation of this pipeline with exactly this extent.
Status checkBuffer(const ArenaView &arena, const Buffer &buffer);

/// OutOfArena unless [offset, offset + bytes) lies inside the buffer and the buffer
/// inside the arena. Overflow-safe for any 64-bit values.
Status checkRange(const ArenaView &arena, const Buffer &buffer, uint64_t offset, uint64_t bytes);

/// checkBuffer + checkRange.
Status checkBufferRange(const ArenaView &arena, const Buffer &buffer, uint64_t offset,
                        uint64_t bytes);

/// True when [a, a + an) and [b, b + bn) overlap (both ranges already validated).
bool rangesOverlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) noexcept;

/// The kernelParams array for cuLaunchKernel: one pointer per tenant parameter, then
/// the ATOLL_HIDDEN_PARAM_COUNT hidden ones (arena base, arena size, control block)
/// in abi.h order.
/// Up to kInline parameters live on the stack; more use the heap.
class ParamPack {
public:
  static constexpr size_t kInline = 32;
  ParamPack() = default;
  ParamPack(const ParamPack &) = delete;
  ParamPack &operator=(const ParamPack &) = delete;

  /// Sizes the pack for n tenant parameters.
  void reset(size_t tenantParams);
  void **pointers() noexcept { return ptrs_; }
  size_t count() const noexcept { return count_; }
  size_t tenantCount() const noexcept { return count_ - ATOLL_HIDDEN_PARAM_COUNT; }
  /// The descriptor whose fields the hidden parameters point at.
  const atoll_arena_descriptor &hidden() const noexcept { return hidden_; }

private:
  friend Status packArguments(const KernelInfo &, std::span<const Arg>, const ArenaView &,
                              ParamPack &);
  void *inlinePtrs_[kInline + ATOLL_HIDDEN_PARAM_COUNT];
  uint64_t inlineAddrs_[kInline];
  std::vector<void *> heapPtrs_;
  std::vector<uint64_t> heapAddrs_;
  void **ptrs_ = inlinePtrs_;
  uint64_t *addrs_ = inlineAddrs_;
  size_t count_ = 0;
  atoll_arena_descriptor hidden_{0, 0, 0};
};

/// Checks args against the kernel's tenant-visible signature and fills `out`:
/// count, kind and size of every argument; scalars must match int vs float and
/// size; pointer parameters take Arg::buffer (a live buffer of arena.pipelineId,
/// offset <= buffer size) or Arg::null(); by-value parameters take Arg::bytes of
/// exactly their size. InvalidLaunch names the kernel and the parameter.
Status packArguments(const KernelInfo &kernel, std::span<const Arg> args,
                     const ArenaView &arena, ParamPack &out);

/// What the loaded kernel allows (cuFuncGetAttribute).
struct KernelLimits {
  uint32_t maxThreadsPerBlock = 0;  // 0 = only the device limit applies
  uint32_t staticSharedBytes = 0;
  uint32_t dynamicSharedLimit = 48u << 10; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES now
};

/// Checks grid/block dimensions and dynamic shared memory. When the launch needs a
/// higher dynamic-shared limit than the kernel has (but within the device opt-in
/// maximum), sets raiseDynamicSharedTo to the value to set; otherwise leaves it 0.
Status checkLaunchShape(const LaunchConfig &config, const DeviceLimits &device,
                        const KernelLimits &kernel, std::string_view kernelName,
                        uint32_t &raiseDynamicSharedTo);

/// "pointer (ptr)", "i32", "f32", "by-value %struct.S (24 bytes)".
std::string describeParam(const ParamInfo &param);

} // namespace Atoll::detail
