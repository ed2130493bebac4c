// Device memory for arenas. Mask-capable arenas (power of two, base aligned to the
// size, as (addr & (size - 1)) | base needs) are mapped with the virtual memory
// management API: an address range reserved with alignment = size, one physical
// allocation mapped into it, read/write access for the device. Modulo-only arenas
// come from cuMemAlloc (256-byte aligned).
#include "RuntimeState.h"

#include <fmt/format.h>

#include <thread>

namespace Atoll::detail {
namespace {

Error allocationError(RuntimeState &state, CUresult r, const ArenaSpec &spec,
                      std::string_view step) {
  if (r == CUDA_ERROR_OUT_OF_MEMORY)
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the device has no {} bytes left for an arena", spec.size),
                 cuda::describe(*state.api, r));
  return state.fail(r, fmt::format("{} for an arena of {} bytes", step, spec.size));
}

} // namespace

Result<Arena> CudaArenaBackend::allocate(const ArenaSpec &spec) {
  if (!state_.makeCurrent())
    return state_.lostError("allocate an arena");
  const cuda::DriverApi &api = *state_.api;
  Arena a;
  a.size = spec.size;
  a.maskCapable = spec.maskCapable;
  a.serial = ++serial_;

  CUevent event = nullptr;
  if (CUresult r = api.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING); r != CUDA_SUCCESS)
    return allocationError(state_, r, spec, "creating the scrub event");
  a.event = event;
  auto failWith = [&](Error e) -> Result<Arena> {
    api.cuEventDestroy(event);
    return e;
  };

  if (!spec.maskCapable) {
    CUdeviceptr p = 0;
    if (CUresult r = api.cuMemAlloc(&p, spec.size); r != CUDA_SUCCESS)
      return failWith(allocationError(state_, r, spec, "cuMemAlloc"));
    a.base = a.reservation = p;
    a.reservationSize = spec.size;
    return a;
  }

  if (!state_.vmm) {
    // No VMM: over-allocate and align inside (wastes up to half; old devices only).
    CUdeviceptr p = 0;
    if (CUresult r = api.cuMemAlloc(&p, spec.size * 2); r != CUDA_SUCCESS)
      return failWith(allocationError(state_, r, spec, "cuMemAlloc"));
    a.reservation = p;
    a.reservationSize = spec.size * 2;
    a.base = (p + spec.size - 1) & ~(spec.size - 1);
    return a;
  }

  // Reserve a range aligned to the size. If the driver does not honour the
  // alignment, reserve twice the size and map the aligned half.
  CUdeviceptr va = 0;
  uint64_t reserved = spec.size;
  CUresult r = api.cuMemAddressReserve(&va, spec.size, spec.size, 0, 0);
  if (r == CUDA_SUCCESS && (va & (spec.size - 1)) != 0) {
    api.cuMemAddressFree(va, spec.size);
    r = CUDA_ERROR_INVALID_VALUE;
  }
  if (r != CUDA_SUCCESS) {
    reserved = spec.size * 2;
    if (CUresult r2 = api.cuMemAddressReserve(&va, reserved, 0, 0, 0); r2 != CUDA_SUCCESS)
      return failWith(allocationError(state_, r2, spec, "reserving device addresses"));
  }
  CUdeviceptr base = (va + spec.size - 1) & ~(CUdeviceptr(spec.size) - 1);

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = state_.device;
  CUmemGenericAllocationHandle handle{};
  if (CUresult r2 = api.cuMemCreate(&handle, spec.size, &prop, 0); r2 != CUDA_SUCCESS) {
    api.cuMemAddressFree(va, reserved);
    return failWith(allocationError(state_, r2, spec, "cuMemCreate"));
  }
  if (CUresult r2 = api.cuMemMap(base, spec.size, 0, handle, 0); r2 != CUDA_SUCCESS) {
    api.cuMemRelease(handle);
    api.cuMemAddressFree(va, reserved);
    return failWith(allocationError(state_, r2, spec, "cuMemMap"));
  }
  // The mapping keeps the physical memory alive; unmapping frees it.
  api.cuMemRelease(handle);
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (CUresult r2 = api.cuMemSetAccess(base, spec.size, &access, 1); r2 != CUDA_SUCCESS) {
    api.cuMemUnmap(base, spec.size);
    api.cuMemAddressFree(va, reserved);
    return failWith(allocationError(state_, r2, spec, "cuMemSetAccess"));
  }
  a.base = base;
  a.reservation = va;
  a.reservationSize = reserved;
  a.vmm = true;
  return a;
}

void CudaArenaBackend::destroy(Arena &a) noexcept {
  if (!usable() || !state_.makeCurrent())
    return;
  const cuda::DriverApi &api = *state_.api;
  if (a.vmm) {
    api.cuMemUnmap(a.base, a.size);
    api.cuMemAddressFree(a.reservation, a.reservationSize);
  } else if (a.reservation) {
    api.cuMemFree(a.reservation);
  }
  if (a.event)
    api.cuEventDestroy(static_cast<CUevent>(a.event));
  a.event = nullptr;
  a.base = a.reservation = 0;
}

bool CudaArenaBackend::workDone(const Arena &a) noexcept {
  if (!a.event)
    return true;
  if (!state_.makeCurrent())
    return false;
  CUresult r = state_.api->cuEventQuery(static_cast<CUevent>(a.event));
  if (r == CUDA_SUCCESS)
    return true;
  if (r != CUDA_ERROR_NOT_READY && cuda::isStickyError(r))
    state_.markLost();
  return false;
}

bool CudaArenaBackend::waitWorkDone(const Arena &a, std::chrono::milliseconds limit) noexcept {
  auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::microseconds(10);
  while (!workDone(a)) {
    if (!usable() || std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(1));
  }
  return true;
}

bool CudaArenaBackend::usable() noexcept {
  return state_.hasDevice() && !state_.lost() && !state_.abandoned.load();
}

} // namespace Atoll::detail
