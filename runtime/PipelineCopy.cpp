// Copies and fills: every range is validated (buffer ownership and liveness, range
// inside the buffer, buffer inside the arena, overflow-safe) before anything is
// enqueued. Synchronous variants wait (bounded) for earlier work first, so that no
// driver call can block behind a tenant kernel, then for the copy itself. That wait
// releases the lock; after re-locking everything is checked again (another thread
// may have freed a buffer or enqueued work meanwhile), so a pageable copy is only
// issued on a stream known idle, with the lock held since that was known. Every
// enqueue also needs room in the driver's queue (waitForRoom, kMaxQueued) and in the
// pipeline's bytes in flight (RuntimeOptions::maxQueuedCopyBytes; larger requests go
// in pieces), and passes the launch gate (review R8-F6).
#include "PipelineImpl.h"

#include <fmt/format.h>

namespace Atoll {
namespace detail {

Status PipelineImpl::checkCopy(const CopyRequest &q) const {
  const ArenaView v = view();
  if (Status s = checkBufferRange(v, q.device, q.deviceOffset, q.bytes); !s)
    return named(std::move(s).error());
  if (q.kind == CopyKind::DeviceToDevice) {
    if (Status s = checkBufferRange(v, q.src, q.srcOffset, q.bytes); !s)
      return named(std::move(s).error());
    if (rangesOverlap(q.device.offset() + q.deviceOffset, q.bytes, q.src.offset() + q.srcOffset,
                      q.bytes))
      return named(Error(ErrorCode::InvalidArgument,
                         fmt::format("device-to-device copy of {} bytes: the source and "
                                     "destination ranges overlap",
                                     q.bytes)));
  }
  if ((q.kind == CopyKind::ToDevice && !q.hostSrc && q.bytes) ||
      (q.kind == CopyKind::ToHost && !q.hostDst && q.bytes))
    return named(Error(ErrorCode::InvalidArgument, "null host pointer"));
  return {};
}

Status PipelineImpl::waitForRoom(Lock &lock, uint64_t maxQueued, std::string_view what,
                                 const CopyRequest *recheck) {
  // The first wait may use the whole timeout (and cancel work that exceeded it);
  // later ones (another thread enqueued meanwhile) only what is left of it.
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = deadlineAfter(start, effectiveTimeout());
  auto notStarted = [&] {
    return named(Error(ErrorCode::Timeout,
                       fmt::format("{} could not start within the timeout of {} ms: other "
                                   "threads kept enqueuing work on the pipeline",
                                   what, effectiveTimeout().count())));
  };
  bool first = true;
  while (enqueued - completed > maxQueued || wedged) {
    if (!first && std::chrono::steady_clock::now() >= deadline)
      return notStarted();
    const bool cut = !first; // waits after the first end at `deadline`
    first = false;
    Status s = waitIdle(lock, /*countAsSync=*/false,
                        cut ? deadline : std::chrono::steady_clock::time_point::max());
    // Cancelled by another thread: the stream drained; look again (below).
    if (!s && cut && s.error().code() == ErrorCode::Timeout)
      return notStarted();
    if (!s && s.error().code() != ErrorCode::Cancelled)
      return s;
    // The lock was released: the pipeline and the buffers may have changed.
    if (Status u = usable(lock); !u)
      return u;
    if (recheck)
      if (Status c = checkCopy(*recheck); !c)
        return c;
  }
  return {};
}

Status PipelineImpl::copy(const CopyRequest &q) {
  Lock lock(mutex);
  if (Status s = usable(lock); !s)
    return s;
  // Validate everything first: a bad request changes nothing.
  if (Status s = checkCopy(q); !s)
    return s;
  if (q.bytes == 0)
    return {};

  const cuda::DriverApi &api = *state->api;
  const bool hostMemory = q.kind == CopyKind::ToDevice || q.kind == CopyKind::ToHost;
  std::string_view what;
  switch (q.kind) {
  case CopyKind::ToDevice: what = "a copy to the device"; break;
  case CopyKind::ToHost: what = "a copy to the host"; break;
  case CopyKind::DeviceToDevice: what = "a device-to-device copy"; break;
  case CopyKind::Fill: what = "a fill"; break;
  }
  // Pageable host memory makes the driver finish the copy before returning, which
  // would wait for earlier work without a bound: the copy is issued only on an idle
  // stream, with the lock held since that was known (so no launch slipped in).
  // Every other enqueue needs room in the driver's queue (kMaxQueued).
  // Review R9-F2: a page-locked block is held (HostBlocks::Use) from the moment it
  // is recognised until this copy's last fence is recorded, so that no other owner
  // gets it meanwhile, even if its HostMemory is dropped while the copy waits.
  const void *host = q.kind == CopyKind::ToDevice ? q.hostSrc : q.hostDst;
  HostBlocks::Use pinned;
  bool pageable = false;
  if (hostMemory) {
    HostBlocks::Classified c;
    if (state->hostBlocks)
      c = state->hostBlocks->classify(host, q.bytes);
    switch (c.range) {
    case HostBlocks::Range::Foreign: pageable = true; break;
    case HostBlocks::Range::Pinned: pinned = std::move(c.use); break;
    case HostBlocks::Range::Released:
      return named(Error(ErrorCode::InvalidArgument,
                         fmt::format("{} of {} bytes names page-locked host memory that was "
                                     "released (its HostMemory was dropped)",
                                     what, q.bytes)));
    case HostBlocks::Range::Straddles:
      return named(Error(ErrorCode::InvalidArgument,
                         fmt::format("{} of {} bytes: the host range overlaps a block of "
                                     "page-locked host memory (HostMemory) without lying "
                                     "inside it",
                                     what, q.bytes)));
    }
  }
  // Review R8-F6: the bytes in flight are bounded (maxQueuedCopyBytes, per pipeline):
  // a cancel word stops kernels, not a memset or a DMA, so this bounds what a quiet
  // section waits for once the gate is closed. Larger requests go in pieces.
  const uint64_t limit = state->options.maxQueuedCopyBytes;
  DeviceActivity &device = DeviceActivity::of(state->info.ordinal);
  for (uint64_t done = 0; done < q.bytes;) {
    const uint64_t n = std::min(q.bytes - done, limit);
    // queuedBytes + n > limit, overflow-free (queuedBytes <= limit, n <= limit).
    const uint64_t inFlight = queuedBytes;
    const bool overBytes = inFlight > limit - n;
    const bool synchronous = pageable || (hostMemory && !q.async);
    if (synchronous || overBytes) {
      if (Status s = waitForRoom(lock, 0, synchronous ? "a synchronous copy" : what, &q); !s) {
        if (synchronous || s.error().code() != ErrorCode::Timeout) // waited for idle anyway
          return s;
        return named(Error(
            ErrorCode::Timeout,
            fmt::format("{} of {} bytes was not enqueued{}: the pipeline's queued copies and "
                        "fills ({} bytes) would pass the limit of {} bytes in flight "
                        "(RuntimeOptions::maxQueuedCopyBytes) and did not finish in time",
                        what, q.bytes,
                        done ? fmt::format(" past its first {} bytes", done) : std::string(),
                        inFlight, limit),
            s.error().message()));
      }
    } else if (const uint64_t ops = hostMemory ? 2 : 1; // a pinned copy adds its event
               enqueued - completed > kMaxQueued - ops) {
      if (Status s = waitForRoom(lock, kMaxQueued - ops, "a copy", &q); !s)
        return s;
    }
    // Review R9-F2: the waits above released the lock; the owner may have dropped the
    // block meanwhile. It is still held (no one else has it), but the copy no longer
    // has a host side: refused. A release after this check lets this piece land in
    // the released block, which stays held until its fence is recorded.
    if (pinned && state->hostBlocks->released(pinned))
      return named(Error(
          ErrorCode::InvalidArgument,
          fmt::format("{} of {} bytes was not enqueued{}: the host block was released during "
                      "the copy (its HostMemory was dropped while the copy waited)",
                      what, q.bytes,
                      done ? fmt::format(" past its first {} bytes", done) : std::string())));
    if (Status s = beginBatch(); !s)
      return s;

    const CUdeviceptr dst = arena.base + q.device.offset() + q.deviceOffset + done;
    CUresult r = CUDA_SUCCESS;
    std::string_view doing;
    {
      // Every enqueue of device work passes the launch gate (DeviceActivity.h, review
      // R8-F6): no copy or fill starts while a quiet section runs or a drain waits.
      DeviceActivity::LaunchPass pass(device);
      switch (q.kind) {
      case CopyKind::ToDevice:
        r = api.cuMemcpyHtoDAsync(dst, static_cast<const uint8_t *>(q.hostSrc) + done, n, stream);
        doing = "copying to the device";
        break;
      case CopyKind::ToHost:
        r = api.cuMemcpyDtoHAsync(static_cast<uint8_t *>(q.hostDst) + done, dst, n, stream);
        doing = "copying to the host";
        break;
      case CopyKind::DeviceToDevice:
        r = api.cuMemcpyDtoDAsync(dst, arena.base + q.src.offset() + q.srcOffset + done, n,
                                  stream);
        doing = "copying within the arena";
        break;
      case CopyKind::Fill:
        r = api.cuMemsetD8Async(dst, q.value, n, stream);
        doing = "filling a buffer";
        break;
      }
    }
    if (r != CUDA_SUCCESS)
      return named(state->fail(r, doing));
    noteEnqueued();
    queuedBytes += n;
    // A pinned block is not handed to its next owner before this transfer has ended
    // (review R3-F3): an event behind each piece, which the block's reuse queries.
    if (pinned) {
      if (CUresult e = state->hostBlocks->noteTransfer(pinned, id, stream); e != CUDA_SUCCESS)
        return named(state->fail(e, "recording the end of a transfer from pinned memory"));
      noteEnqueued();
    }
    const bool first = done == 0;
    switch (q.kind) {
    case CopyKind::ToDevice:
      counters.copiesToDevice += first;
      counters.bytesToDevice += n;
      break;
    case CopyKind::ToHost:
      counters.copiesToHost += first;
      counters.bytesToHost += n;
      break;
    case CopyKind::DeviceToDevice:
      counters.copiesDeviceToDevice += first;
      counters.bytesDeviceToDevice += n;
      break;
    case CopyKind::Fill:
      counters.fills += first;
      counters.bytesFilled += n;
      break;
    }
    done += n;
  }
  // Pageable: the driver has finished with the host memory when the call returns
  // (to the host: copied; to the device: staged, landing before any later work). A
  // wait for the idle stream would also wait for work other threads enqueued since,
  // and cancel it at the timeout. Pinned: every piece has its fence, so the block is
  // let go of before the wait (its reuse waits for the fences instead).
  if (!q.async && !pageable) {
    pinned.reset();
    return waitIdle(lock, /*countAsSync=*/false);
  }
  return {};
}

} // namespace detail

using Kind = detail::PipelineImpl::CopyKind;

Status Pipeline::copyToDevice(const Buffer &dst, uint64_t dstOffset, const void *src,
                              uint64_t bytes) {
  return impl_->copy({.kind = Kind::ToDevice, .device = dst, .deviceOffset = dstOffset,
                      .hostSrc = src, .bytes = bytes});
}

Status Pipeline::copyToHost(void *dst, const Buffer &src, uint64_t srcOffset, uint64_t bytes) {
  return impl_->copy({.kind = Kind::ToHost, .device = src, .deviceOffset = srcOffset, .hostDst = dst,
                      .bytes = bytes});
}

Status Pipeline::copyDeviceToDevice(const Buffer &dst, uint64_t dstOffset, const Buffer &src,
                                    uint64_t srcOffset, uint64_t bytes) {
  return impl_->copy({.kind = Kind::DeviceToDevice, .device = dst, .deviceOffset = dstOffset,
                      .src = src, .srcOffset = srcOffset, .bytes = bytes});
}

Status Pipeline::fill(const Buffer &dst, uint64_t offset, uint64_t bytes, uint8_t value) {
  return impl_->copy(
      {.kind = Kind::Fill, .device = dst, .deviceOffset = offset, .bytes = bytes, .value = value});
}

Status Pipeline::copyToDeviceAsync(const Buffer &dst, uint64_t dstOffset, const void *src,
                                   uint64_t bytes) {
  return impl_->copy({.kind = Kind::ToDevice, .device = dst, .deviceOffset = dstOffset,
                      .hostSrc = src, .bytes = bytes, .async = true});
}

Status Pipeline::copyToHostAsync(void *dst, const Buffer &src, uint64_t srcOffset,
                                 uint64_t bytes) {
  return impl_->copy({.kind = Kind::ToHost, .device = src, .deviceOffset = srcOffset, .hostDst = dst,
                      .bytes = bytes, .async = true});
}

Status Pipeline::copyDeviceToDeviceAsync(const Buffer &dst, uint64_t dstOffset,
                                         const Buffer &src, uint64_t srcOffset, uint64_t bytes) {
  return impl_->copy({.kind = Kind::DeviceToDevice, .device = dst, .deviceOffset = dstOffset,
                      .src = src, .srcOffset = srcOffset, .bytes = bytes, .async = true});
}

Status Pipeline::fillAsync(const Buffer &dst, uint64_t offset, uint64_t bytes, uint8_t value) {
  return impl_->copy({.kind = Kind::Fill, .device = dst, .deviceOffset = offset, .bytes = bytes,
                      .value = value, .async = true});
}

} // namespace Atoll
