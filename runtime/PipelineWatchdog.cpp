// The pipeline's side of the runtime's watchdog (Watchdog.h, review R5-F3).
#include "PipelineImpl.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace Atoll::detail {

std::chrono::milliseconds PipelineImpl::watchdogLimit() const noexcept {
  const auto cap = state->options.maxBusyTime;
  return cancelOnTimeout ? std::min(effectiveTimeout(), cap) : cap;
}

void PipelineImpl::publishWatchdogLimit() noexcept {
  if (watch)
    watch->limitMs.store(watchdogLimit().count(), std::memory_order_relaxed);
}

void PipelineImpl::noteRest() noexcept {
  if (watch)
    watch->rests.fetch_add(1, std::memory_order_release);
}

Status PipelineImpl::takeWatchdogCancel(Lock &) {
  if (!watch)
    return {};
  uint32_t pending;
  // 2: the watchdog is between its set and its event (two calls that return at
  // once): the work may already have left, the event is not there yet.
  while ((pending = watch->cancelPending.load(std::memory_order_acquire)) == 2)
    std::this_thread::yield();
  if (!pending)
    return {};
  const cuda::DriverApi &api = *state->api;
  // The reset after the watchdog's set (its event on the control stream) and after
  // every kernel queued so far, as in requestCancel.
  CUresult r = api.cuStreamWaitEvent(stream, watch->event, 0);
  if (r == CUDA_SUCCESS)
    r = api.cuMemsetD32Async(control, 0, 2, stream);
  if (r != CUDA_SUCCESS)
    return named(state->fail(r, "resetting the control block after the watchdog's cancel"));
  noteEnqueued();
  cancelEpoch++;
  counters.cancellations++;
  counters.timeouts++;
  counters.watchdogCancels++;
  batchUsedFuel = false;
  statusDirty = false;
  const int64_t after = watch->cancelledAfterMs.load(), limit = watch->cancelledLimitMs.load();
  watch->cancelPending.store(0, std::memory_order_release);
  const bool cooperative = !cancelOnTimeout;
  return named(Error(
      ErrorCode::Timeout,
      fmt::format("work kept the pipeline's stream busy for {} ms, past its limit of {} ms ({}), "
                  "and was cancelled by the runtime's watchdog; the pipeline is usable again",
                  after, limit,
                  cooperative ? "RuntimeOptions::maxBusyTime: cooperative pipelines are "
                                "cancelled only there"
                              : "its timeout")));
}

} // namespace Atoll::detail
