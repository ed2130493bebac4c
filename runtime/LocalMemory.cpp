// The context's local-memory reservation (review R5-F4). The driver reserves local
// memory (the per-thread stack) for every resident thread of the device, outside
// every arena and budget, and a launch of a kernel that needs more than the current
// reservation grows it first, waiting for every running kernel of the context
// (measured on the H200: 1.9 s behind another tenant's kernel). So the runtime
// reserves the cap every hardened kernel is held to (cuda::kReservedLocalBytes) once,
// at start, in a quiet section, and refuses at load any kernel that needs more
// (cuda::readKernelAttributes): no launch ever grows the reservation.
//
// CU_CTX_LMEM_RESIZE_TO_MAX is not used: the driver's header marks it deprecated,
// its behaviour (never shrink after a resize) is the default and cannot be disabled,
// and it applies to context creation (the primary context is shared and may already
// be active). cuCtxSetLimit(CU_LIMIT_STACK_SIZE) is what the header points to.
#include "RuntimeState.h"
#include "cuda/ModuleCheck.h"

#include <fmt/format.h>

namespace Atoll::detail {

Status RuntimeState::reserveLocalMemory() {
  const uint64_t want = cuda::kReservedLocalBytes;
  size_t have = 0;
  auto read = [&]() -> Status {
    if (CUresult r = api->cuCtxGetLimit(&have, CU_LIMIT_STACK_SIZE); r != CUDA_SUCCESS)
      return fail(r, "reading the context's per-thread stack limit (CU_LIMIT_STACK_SIZE)");
    return {};
  };
  if (Status s = read(); !s)
    return s;
  if (have < want) {
    // Setting the limit waits for the device: only when no kernel runs (another
    // runtime's tenants may use the shared context already).
    auto quiet = waitQuiet("reserve local memory");
    if (!quiet)
      return std::move(quiet).error();
    if (Status s = read(); !s) // another runtime may have reserved meanwhile
      return s;
    if (have < want) {
      if (CUresult r = api->cuCtxSetLimit(CU_LIMIT_STACK_SIZE, want); r != CUDA_SUCCESS) {
        if (cuda::isStickyError(r))
          return fail(r, "reserving local memory (cuCtxSetLimit)");
        return Error(r == CUDA_ERROR_OUT_OF_MEMORY ? ErrorCode::CapacityExceeded
                                                   : ErrorCode::DriverError,
                     fmt::format("cannot reserve {} bytes of local memory per thread "
                                 "(cuCtxSetLimit(CU_LIMIT_STACK_SIZE) failed)",
                                 want),
                     fmt::format("{}; the driver reserves it for every resident thread of the "
                                 "device (about 4.3 GiB on an H200); every hardened kernel may "
                                 "use this much (ATOLL_DEFAULT_MAX_LOCAL_BYTES)",
                                 cuda::describe(*api, r)));
      }
      if (Status s = read(); !s)
        return s;
    }
  }
  if (have < want)
    return Error(ErrorCode::DriverError,
                 fmt::format("cannot reserve {} bytes of local memory per thread: the "
                             "context's stack limit reads back {} bytes",
                             want, have));
  info.limits.localBytesPerThread = have;
  return {};
}

} // namespace Atoll::detail
