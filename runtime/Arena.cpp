// Device memory for arenas, mapped with the virtual memory management API: an
// address range reserved (for mask-capable arenas with alignment = size, as
// (addr & (size - 1)) | base needs), one physical allocation of the footprint mapped
// into it, read/write access for the device. VMM for every arena because unmapping
// returns at once, while cuMemFree waits for every running kernel of the context
// (docs/architecture.md). Devices without VMM fall back to cuMemAlloc; their frees
// go to the reclaim thread.
#include "RuntimeState.h"

#include <fmt/format.h>


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
  a.footprint = spec.bytes();
  a.serial = ++serial_;

  CUevent event = nullptr;
  if (CUresult r = api.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING); r != CUDA_SUCCESS)
    return allocationError(state_, r, spec, "creating the scrub event");
  a.event = event;
  auto failWith = [&](Error e) -> Result<Arena> {
    api.cuEventDestroy(event);
    return e;
  };

  if (!state_.vmm) {
    // No VMM: cuMemAlloc; a mask arena is over-allocated (its footprint, twice the
    // size, is what the budget counts) and aligned inside. Old devices only.
    CUdeviceptr p = 0;
    if (CUresult r = api.cuMemAlloc(&p, a.footprint); r != CUDA_SUCCESS)
      return failWith(allocationError(state_, r, spec, "cuMemAlloc"));
    a.reservation = p;
    a.reservationSize = a.footprint;
    a.base = spec.maskCapable ? (p + spec.size - 1) & ~(spec.size - 1) : p;
    return a;
  }

  // Reserve the range; a mask arena's is aligned to its size. If the driver does
  // not honour the alignment, reserve twice the size and map the aligned half.
  const uint64_t mapped = a.footprint; // a multiple of the granularity
  CUdeviceptr va = 0;
  uint64_t reserved = mapped;
  CUdeviceptr base = 0;
  if (spec.maskCapable) {
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
    base = (va + spec.size - 1) & ~(CUdeviceptr(spec.size) - 1);
  } else {
    if (CUresult r2 = api.cuMemAddressReserve(&va, reserved, 0, 0, 0); r2 != CUDA_SUCCESS)
      return failWith(allocationError(state_, r2, spec, "reserving device addresses"));
    base = va;
  }

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = state_.device;
  CUmemGenericAllocationHandle handle{};
  if (CUresult r2 = api.cuMemCreate(&handle, mapped, &prop, 0); r2 != CUDA_SUCCESS) {
    api.cuMemAddressFree(va, reserved);
    return failWith(allocationError(state_, r2, spec, "cuMemCreate"));
  }
  if (CUresult r2 = api.cuMemMap(base, mapped, 0, handle, 0); r2 != CUDA_SUCCESS) {
    api.cuMemRelease(handle);
    api.cuMemAddressFree(va, reserved);
    return failWith(allocationError(state_, r2, spec, "cuMemMap"));
  }
  // The mapping keeps the physical memory alive; unmapping frees it.
  api.cuMemRelease(handle);
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (CUresult r2 = api.cuMemSetAccess(base, mapped, &access, 1); r2 != CUDA_SUCCESS) {
    api.cuMemUnmap(base, mapped);
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
  // Unmapping, address release and event destruction return at once (measured);
  // cuMemFree waits for every running kernel of the context: reclaim thread.
  if (a.vmm) {
    api.cuMemUnmap(a.base, a.bytes());
    api.cuMemAddressFree(a.reservation, a.reservationSize);
  } else if (a.reservation) {
    state_.reclaim([&api, p = CUdeviceptr(a.reservation)] { api.cuMemFree(p); });
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

bool CudaArenaBackend::usable() noexcept {
  return state_.hasDevice() && !state_.lost() && !state_.abandoned.load();
}

} // namespace Atoll::detail
