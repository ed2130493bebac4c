// Pipelines: creation (stream, events, arena lease and its scrub), teardown (scrub
// on the pipeline's own stream, then pool or quarantine), buffers, completion with a
// bounded wait, and the validated launch.
#include "PipelineImpl.h"

#include <cassert>
#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace Atoll {
namespace detail {
namespace {

std::atomic<uint64_t> nextPipelineId{1};

} // namespace

std::atomic<bool> failCreatePipelineAfterLease{false};
// A cancelled grid drains in tens of microseconds (H200: 29 us p50, 76 us p99 from
// the set): poll without sleeping for a while, so cancel() returns when it has ended.
constexpr std::chrono::microseconds kCancelSpin{2000};

Result<std::unique_ptr<Pipeline>> RuntimeState::createPipeline(const PipelineOptions &opts) {
  return detail::createPipeline(shared_from_this(), opts);
}

const char *createStepName(CreateStep s) noexcept {
  switch (s) {
  case CreateStep::Checks: return "checks";
  case CreateStep::Partition: return "partition";
  case CreateStep::Arena: return "arena";
  case CreateStep::Lane: return "lane";
  case CreateStep::Reset: return "reset";
  case CreateStep::Events: return "events";
  case CreateStep::Scrub: return "scrub";
  case CreateStep::Impl: return "impl";
  case CreateStep::Watch: return "watch";
  case CreateStep::Count: break;
  }
  return "?";
}

std::atomic<bool> profileCreatePipeline{false};

CreateProfile &createProfile() {
  static CreateProfile *p = new CreateProfile; // never destroyed (pipelines at exit)
  return *p;
}

namespace {

/// The steps of one createPipeline, timed while profileCreatePipeline is set.
class StepClock {
public:
  StepClock() : on_(profileCreatePipeline.load(std::memory_order_relaxed)) {
    if (on_)
      mark_ = std::chrono::steady_clock::now();
  }
  void done(CreateStep s) noexcept {
    if (!on_)
      return;
    const auto now = std::chrono::steady_clock::now();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - mark_).count();
    sample_.ns[size_t(s)] = uint32_t(std::clamp<int64_t>(ns, 0, UINT32_MAX));
    mark_ = now;
  }
  void laneReused(bool r) noexcept { sample_.laneReused = r; }
  /// The pipeline was created: the sample joins the profile.
  void record() noexcept {
    if (!on_)
      return;
    CreateProfile &p = createProfile();
    std::lock_guard lock(p.mutex);
    try {
      p.creates.push_back(sample_);
    } catch (...) {
    }
  }

private:
  bool on_;
  std::chrono::steady_clock::time_point mark_;
  CreateSample sample_;
};

} // namespace

Result<std::unique_ptr<Pipeline>> createPipeline(const std::shared_ptr<RuntimeState> &state,
                                                 const PipelineOptions &opts) {
  StepClock clock;
  const uint64_t id = nextPipelineId.fetch_add(1);
  std::string name = opts.name.empty() ? fmt::format("pipeline-{}", id) : opts.name;
  auto named = [&](Error e) { return std::move(e.within(fmt::format("pipeline '{}'", name))); };
  if (Status s = state->requireDevice("create a pipeline"); !s)
    return named(std::move(s).error());
  if (Status s = checkPipelineLimits(state->options, opts); !s)
    return named(std::move(s).error());
  auto spec = arenaSpecFor(opts.arenaBytes, opts.roundToPowerOfTwo,
                           state->info.allocationGranularity, state->vmm);
  if (!spec)
    return named(std::move(spec).error());
  // SM quota: a partition (green context) first; it is given back if anything later
  // fails. Without one: the rest of the device when SMs are set aside for quotas
  // (RuntimeOptions::quotaSms; nothing to give back), else the whole device.
  auto quota = state->partitions->quotaFor(opts.smCount, opts.smShare);
  if (!quota)
    return named(std::move(quota).error());
  clock.done(CreateStep::Checks);
  PartitionManager::Lease partition;
  if (*quota) {
    auto p = state->partitions->acquire(*quota, state->options.loadTimeout);
    if (!p)
      return named(std::move(p).error());
    partition = *p;
  } else {
    partition = state->partitions->remainder();
  }
  clock.done(CreateStep::Partition);
  auto lease = state->pool->acquire(*spec);
  if (!lease) {
    state->partitions->release(partition, nullptr);
    return named(std::move(lease).error());
  }
  clock.done(CreateStep::Arena);

  const cuda::DriverApi &api = *state->api;
  // The lane (stream, cancel event, control slot; Lanes.h): a pooled one of this
  // partition's context (or of the rest, or of the whole device), else a new one.
  Lane lane;
  bool laneFromPool = false;
  CUevent start = nullptr, end = nullptr;
  bool scrubEnqueued = false;
  // Gives back everything acquired so far; never throws, never waits.
  auto release = [&]() noexcept {
    bool ok = true;
    if (lane.stream && scrubEnqueued) // the lease's event must follow the scrub
      ok = api.cuEventRecord(static_cast<CUevent>(lease->arena.event), lane.stream) ==
           CUDA_SUCCESS;
    // No kernel of this pipeline ever ran; the slot's zeroing may still be queued
    // (review R5-F5): reused only once the stream is idle (LanePool::dispose).
    state->lanes.dispose(lane);
    if (start)
      api.cuEventDestroy(start);
    if (end)
      api.cuEventDestroy(end);
    // Nothing ran on its stream (no launch): its SMs are free at once.
    state->partitions->release(partition, nullptr);
    try {
      if (ok)
        state->pool->cancel(*lease);
      else
        state->pool->abandon(lease->arena);
    } catch (...) {
      state->pool->abandon(lease->arena);
    }
  };
  auto cleanup = [&](CUresult r, std::string_view what) {
    Error e = state->fail(r, what);
    release();
    return named(std::move(e));
  };
  std::unique_ptr<PipelineImpl> impl;
  try {
    if (failCreatePipelineAfterLease.load())
      throw std::bad_alloc();
    if (auto pooled = state->lanes.take(partition.green)) {
      lane = *pooled;
      laneFromPool = true;
    } else {
      auto control = state->controls.acquire();
      if (!control) {
        Error e = std::move(control).error();
        release();
        return named(std::move(e));
      }
      lane.control = *control;
      // In a partition (or the rest of the device): a stream of its green context (its
      // kernels run on those SMs only); every other call on it is as on any stream.
      if (CUresult r = partition.green
                           ? api.cuGreenCtxStreamCreate(&lane.stream, partition.green,
                                                        CU_STREAM_NON_BLOCKING, 0)
                           : api.cuStreamCreate(&lane.stream, CU_STREAM_NON_BLOCKING);
          r != CUDA_SUCCESS) {
        lane.stream = nullptr;
        return cleanup(r, "creating the pipeline's stream");
      }
      // Its kernels count for every runtime's quiet sections (DeviceActivity.h), from
      // now until the lane is disposed of.
      DeviceActivity::of(state->info.ordinal).addStream(lane.stream, state->generation);
      if (CUresult r = api.cuEventCreate(&lane.cancelEvent, CU_EVENT_DISABLE_TIMING);
          r != CUDA_SUCCESS) {
        lane.cancelEvent = nullptr;
        return cleanup(r, "creating the cancel event");
      }
    }
    clock.laneReused(laneFromPool);
    clock.done(CreateStep::Lane);
    // The zeroing and the fresh arena's scrub are device work: they pass the launch
    // gate like every enqueue on a tenant stream (review R8-F6; a quiet section does
    // not see a new pipeline's scrub start under it).
    std::optional<DeviceActivity::LaunchPass> pass;
    pass.emplace(DeviceActivity::of(state->info.ordinal));
    // The slot may hold an earlier pipeline's words: zeroed ahead of all this
    // pipeline's work (on a pooled lane: after all of the last owner's work too).
    if (CUresult r =
            api.cuMemsetD32Async(lane.control, 0, ATOLL_CONTROL_BLOCK_BYTES / 4, lane.stream);
        r != CUDA_SUCCESS)
      return cleanup(r, "resetting the control block");
    clock.done(CreateStep::Reset);
    if (opts.gpuTiming) {
      if (CUresult r = api.cuEventCreate(&start, CU_EVENT_DEFAULT); r != CUDA_SUCCESS)
        return cleanup(r, "creating a timing event");
      if (CUresult r = api.cuEventCreate(&end, CU_EVENT_DEFAULT); r != CUDA_SUCCESS)
        return cleanup(r, "creating a timing event");
    }
    clock.done(CreateStep::Events);
    // Scrub before the tenant can see anything: fresh memory is zeroed on this stream
    // ahead of all its work; a pooled arena's scrub (on its old stream) is waited for
    // (always: a stream handle may name a new stream since, so no shortcut by handle).
    const Arena &arena = lease->arena;
    switch (lease->source) {
    case ArenaPool::Source::Fresh:
      if (CUresult r = api.cuMemsetD8Async(arena.base, 0, arena.size, lane.stream);
          r != CUDA_SUCCESS)
        return cleanup(r, "scrubbing the new arena");
      scrubEnqueued = true;
      break;
    case ArenaPool::Source::PoolScrubbing:
      if (CUresult r =
              api.cuStreamWaitEvent(lane.stream, static_cast<CUevent>(arena.event), 0);
          r != CUDA_SUCCESS)
        return cleanup(r, "waiting for the pooled arena's scrub");
      break;
    case ArenaPool::Source::PoolClean:
      break;
    }
    pass.reset();
    clock.done(CreateStep::Scrub);
    // From here on the PipelineImpl owns the lease, the lane and the events.
    impl = std::make_unique<PipelineImpl>(state, id, std::move(name), opts, std::move(*lease),
                                          lane, laneFromPool, start, end, partition);
  } catch (...) {
    release();
    throw; // Runtime::createPipeline turns it into an Error
  }
  clock.done(CreateStep::Impl);
  // Watched from here on (Watchdog.h): its work is bounded whether or not anyone waits.
  impl->watch = Watchdog::instance().add(*state, impl->stream, impl->control,
                                         impl->watchdogLimit());
  if (!impl->watch)
    return impl->named(Error(ErrorCode::CapacityExceeded, "cannot start the runtime's watchdog"));
  state->pipelinesCreated++;
  auto pipeline = std::make_unique<Pipeline>(std::move(impl)); // on bad_alloc ~PipelineImpl releases
  clock.done(CreateStep::Watch);
  clock.record();
  return pipeline;
}

PipelineImpl::PipelineImpl(std::shared_ptr<RuntimeState> st, uint64_t id, std::string nm,
                           const PipelineOptions &opts, ArenaPool::Lease lease, Lane lane,
                           bool laneFromPool, CUevent start, CUevent end,
                           PartitionManager::Lease partition)
    : state(std::move(st)), id(id), name(std::move(nm)), prefix(fmt::format("pipeline '{}'", name)),
      configuredTimeout(opts.timeout), gpuTiming(opts.gpuTiming), arenaSource(lease.source),
      laneFromPool(laneFromPool), arena(std::move(lease.arena)), stream(lane.stream),
      startEvent(start), endEvent(end), control(lane.control), cancelEvent(lane.cancelEvent),
      cancelOnTimeout(opts.cancelOnTimeout),
      cancelDeadline(opts.cancelDeadline.count() > 0
                         ? opts.cancelDeadline
                         : std::min(std::chrono::milliseconds(1000), st->options.maxCancelDeadline)),
      maxBuffers(opts.maxBuffers ? opts.maxBuffers : kDefaultMaxBuffers),
      partition(partition), allocator(arena.size, ATOLL_BUFFER_ALIGNMENT) {
  // The stream counts for every runtime's quiet sections since its lane was made.
  state->livePipelines++; // last: the destructor, which decrements, runs only from here on
}

PipelineImpl::~PipelineImpl() {
  // Never throws, never waits for tenant work.
  const bool profiling = profileCreatePipeline.load(std::memory_order_relaxed);
  const auto began = profiling ? std::chrono::steady_clock::now()
                               : std::chrono::steady_clock::time_point{};
  // First: the watchdog sets nothing more for this control block (a set it made is
  // on the control stream, ordered before the slot's event below).
  Watchdog::instance().remove(watch);
  state->livePipelines--;
  const cuda::DriverApi &api = *state->api;
  if (!state->makeCurrent()) {
    // Lost (or abandoned) context: the reset frees everything; touch nothing.
    DeviceActivity::of(state->info.ordinal).retireStream(stream);
    state->pool->abandon(arena);
    // Its SMs stay committed: the partition is never handed out again (draining
    // on an event that is never recorded would need the driver).
    return;
  }
  CUresult q = api.cuStreamQuery(stream);
  // Only a kernel can run forever: without launches, the pending work (copies,
  // fills, the arena's first scrub) always ends, and the pooled arena's scrub
  // event orders the next tenant after it.
  bool idle = q == CUDA_SUCCESS || (q == CUDA_ERROR_NOT_READY && counters.launches == 0);
  bool ok = q == CUDA_SUCCESS || q == CUDA_ERROR_NOT_READY;
  if (!ok)
    (void)state->fail(q, "querying the pipeline's stream");
  // Work still running is cancelled (from the control stream), whatever the policy:
  // cancelOnTimeout governs what a timeout does; once the pipeline is gone nothing
  // else could ever cancel its kernels (review R3-F8). It ends within microseconds
  // and the quarantined arena and control slot below come back soon after.
  if (!idle && ok && state->controls.stream())
    (void)api.cuMemsetD32Async(control + ATOLL_CONTROL_CANCEL_OFFSET, 1, 1,
                               state->controls.stream());
  // The slot is reused only once every write to it has landed (review R5-F5): those
  // queued on this stream (its zeroing, fuel and status words, a cancel's reset) and
  // those on the control stream (cancel sets of cancel(), a timeout, the watchdog,
  // this teardown).
  const CUstream cs = state->controls.stream();
  const bool controlIdle = !cs || api.cuStreamQuery(cs) == CUDA_SUCCESS;
  // The lane (Lanes.h) goes back to the pool, its slot with its stream, only when
  // its stream is idle (review R8-F2: not "no kernel launched"; queued copies and
  // fills would run ahead of the next owner's work and count against its timeout)
  // and every set on the control stream has landed. The scrub below is then the
  // only work queued on it, and LanePool::take checks the stream again.
  const bool laneReusable = q == CUDA_SUCCESS && controlIdle;
  if (!laneReusable) {
    // Idle only when both streams say so (not "never launched"); else quarantined
    // behind an event on each (review R3-F2: never dropped for good).
    const bool slotIdle = q == CUDA_SUCCESS && controlIdle;
    if (slotIdle) {
      state->controls.release(control, true);
    } else {
      CUevent done = nullptr, controlDone = nullptr;
      if (ok && api.cuEventCreate(&done, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
          api.cuEventRecord(done, stream) == CUDA_SUCCESS &&
          (!cs || (api.cuEventCreate(&controlDone, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
                   api.cuEventRecord(controlDone, cs) == CUDA_SUCCESS))) {
        state->controls.quarantine(control, done, controlDone);
      } else {
        if (done)
          api.cuEventDestroy(done);
        if (controlDone)
          api.cuEventDestroy(controlDone);
        state->controls.release(control, false); // never reused (lost context)
      }
    }
  }
  // The scrub runs after all of this pipeline's work, on its own stream.
  ok = ok && api.cuMemsetD8Async(arena.base, 0, arena.size, stream) == CUDA_SUCCESS &&
       api.cuEventRecord(static_cast<CUevent>(arena.event), stream) == CUDA_SUCCESS;
  if (!ok) {
    state->pool->abandon(arena); // never reused unscrubbed, never freed under a kernel
  } else {
    if (!idle)
      arena.pinned.assign(batchModules.begin(), batchModules.end());
    state->pool->release(arena, idle);
  }
  if (startEvent)
    api.cuEventDestroy(startEvent);
  if (endEvent)
    api.cuEventDestroy(endEvent);
  // The partition's SMs: free at once when no kernel of this pipeline can still run
  // (what else is queued, copies and the scrub, ends on its own); otherwise committed
  // until an event after its last work has completed (a new tenant never shares SMs
  // with a kernel that is still leaving). No event: never handed out again.
  CUevent partitionDone = nullptr;
  if (partition.partition && !idle) {
    if (!ok || api.cuEventCreate(&partitionDone, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS ||
        api.cuEventRecord(partitionDone, stream) != CUDA_SUCCESS) {
      if (partitionDone)
        api.cuEventDestroy(partitionDone);
      partitionDone = nullptr;
    }
  }
  // The lane: pooled before the partition is released (a release may destroy an idle
  // partition's green context, and its pooled lanes with it).
  const Lane lane{stream, cancelEvent, control};
  if (laneReusable && ok && state->lanes.put(partition.green, lane)) {
    // Pooled: the stream stays registered (DeviceActivity.h).
  } else if (laneReusable) {
    state->lanes.dispose(lane); // the pool is full, or the scrub was not enqueued
  } else {
    api.cuEventDestroy(cancelEvent);
    // A stream whose kernels may still run stays counted (no waiting call is made
    // until they end, DeviceActivity.h) and is destroyed once seen idle.
    if (q == CUDA_SUCCESS) {
      DeviceActivity::of(state->info.ordinal).removeStream(stream);
      api.cuStreamDestroy(stream);
    } else {
      DeviceActivity::of(state->info.ordinal).retireStream(stream);
    }
  }
  if (partition.partition && (idle || partitionDone))
    state->partitions->release(partition, partitionDone);
  if (profiling) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - began)
                        .count();
    CreateProfile &p = createProfile();
    std::lock_guard lock(p.mutex);
    try {
      p.teardownNs.push_back(uint32_t(std::clamp<int64_t>(ns, 0, UINT32_MAX)));
    } catch (...) {
    }
  }
}

std::chrono::milliseconds PipelineImpl::effectiveTimeout() const noexcept {
  if (configuredTimeout.count() > 0)
    return configuredTimeout;
  if (batchAppTimeout.count() > 0)
    return batchAppTimeout;
  return state->options.defaultTimeout;
}

Status PipelineImpl::usable(Lock &lock) {
  if (!state->makeCurrent())
    return named(state->lost() ? state->lostError("use the pipeline")
                               : Error(ErrorCode::DriverError, "cannot make the context current"));
  if (Status s = takeWatchdogCancel(lock); !s)
    return s;
  if (wedged) {
    auto idle = pollIdle(lock);
    if (!idle)
      return std::move(idle).error();
    if (!*idle)
      return named(Error(ErrorCode::Timeout,
                         fmt::format("the pipeline is wedged: earlier work exceeded its timeout "
                                     "of {} ms and is still running",
                                     effectiveTimeout().count())));
  }
  return {};
}

Status PipelineImpl::beginBatch() {
  if (gpuTiming && !startRecorded) {
    if (CUresult r = state->api->cuEventRecord(startEvent, stream); r != CUDA_SUCCESS)
      return named(state->fail(r, "recording a timing event"));
    startRecorded = true;
  }
  return {};
}

Result<bool> PipelineImpl::pollIdle(Lock &) {
  CUresult r = state->api->cuStreamQuery(stream);
  if (r == CUDA_ERROR_NOT_READY)
    return false;
  if (r != CUDA_SUCCESS)
    return named(state->fail(r, "querying the pipeline's stream"));
  wedged = false; // its work has ended; accounting happens at the next wait
  noteRest();
  return true;
}

void PipelineImpl::finishBatch(uint64_t upTo) {
  completed = std::max(completed, upTo);
  wedged = false;
  if (completed != enqueued)
    return;
  queuedBytes = 0;
  if (startRecorded && endRecordedAt == enqueued) {
    float ms = 0;
    if (state->api->cuEventElapsedTime(&ms, startEvent, endEvent) == CUDA_SUCCESS && ms > 0)
      counters.gpuTime += std::chrono::nanoseconds(int64_t(double(ms) * 1e6));
  }
  startRecorded = false;
  endRecordedAt = ~uint64_t(0);
  batchModules.clear();
  batchAppTimeout = std::chrono::milliseconds(0);
  publishWatchdogLimit();
}

Status PipelineImpl::waitIdle(Lock &lock, bool countAsSync,
                              std::chrono::steady_clock::time_point callerDeadline) {
  if (countAsSync)
    counters.synchronizations++;
  if (Status s = takeWatchdogCancel(lock); !s) {
    if (s.error().code() != ErrorCode::Timeout)
      return s;
    // Report it once the cancelled work has left (it is then usable again).
    auto ended = waitStream(lock, deadlineAfter(std::chrono::steady_clock::now(), cancelDeadline),
                            kCancelSpin);
    if (!ended)
      return std::move(ended).error();
    if (*ended)
      finishBatch(enqueued);
    else
      wedged = true;
    return s;
  }
  if (enqueued == completed && !wedged)
    return {};
  const uint64_t target = enqueued;
  if (gpuTiming && startRecorded && endRecordedAt != enqueued) {
    // The end of the batch: after everything enqueued so far. (After a timeout with
    // no new work, the earlier record still marks the end of the slow work.)
    if (CUresult r = state->api->cuEventRecord(endEvent, stream); r != CUDA_SUCCESS)
      return named(state->fail(r, "recording a timing event"));
    endRecordedAt = enqueued;
  }
  const auto timeout = effectiveTimeout();
  const uint64_t epoch = cancelEpoch;
  const auto workDeadline = deadlineAfter(std::chrono::steady_clock::now(), timeout);
  // The caller's deadline is earlier: the work has not used up its timeout, so
  // running out of time then cancels nothing.
  const bool cut = callerDeadline < workDeadline;
  auto idle = waitStream(lock, cut ? callerDeadline : workDeadline);
  if (!idle)
    return std::move(idle).error();
  if (!*idle && cut)
    return named(Error(ErrorCode::Timeout, "earlier work had not finished by the deadline"));
  if (!*idle) {
    counters.timeouts++;
    if (cancelOnTimeout && !wedged) {
      if (Status s = requestCancel(lock); !s)
        return s;
      auto ended = waitStream(lock, deadlineAfter(std::chrono::steady_clock::now(), cancelDeadline),
                              kCancelSpin);
      if (!ended)
        return std::move(ended).error();
      if (*ended) {
        // The watchdog may have cancelled the same busy period at the same limit:
        // taken here (its reset queued), so the next call does not report it again.
        (void)takeWatchdogCancel(lock);
        finishBatch(enqueued);
        return named(Error(ErrorCode::Timeout,
                           fmt::format("work did not finish within the timeout of {} ms and "
                                       "was cancelled; the pipeline is usable again",
                                       timeout.count())));
      }
    }
    wedged = true;
    return named(Error(ErrorCode::Timeout,
                       fmt::format("work did not finish within the timeout of {} ms; the "
                                   "pipeline is wedged until it does (other pipelines are not "
                                   "affected)",
                                   timeout.count())));
  }
  // The watchdog cancelled the work while this call waited: not a success.
  if (Status s = takeWatchdogCancel(lock); !s) {
    finishBatch(target);
    return s;
  }
  if (epoch != cancelEpoch) {
    finishBatch(target);
    return named(Error(ErrorCode::Cancelled, "the work was cancelled before it finished"));
  }
  if (batchUsedFuel) {
    batchUsedFuel = false;
    uint32_t status = 0;
    const cuda::DriverApi &api = *state->api;
    // Read on the control stream, which carries no kernels: this pipeline's stream
    // was seen idle without the lock, and another thread may have launched on it
    // since; a pageable read there would wait for that kernel under the lock. To
    // pageable memory the copy has ended when the call returns (the poll of the
    // control stream, which holds only cancel sets, is a second guarantee).
    const CUstream cs = state->controls.stream();
    if (CUresult r = api.cuMemcpyDtoHAsync(&status, control + ATOLL_CONTROL_STATUS_OFFSET,
                                           sizeof status, cs);
        r != CUDA_SUCCESS)
      return named(state->fail(r, "reading the control block"));
    const auto readBy = deadlineAfter(std::chrono::steady_clock::now(), cancelDeadline);
    CUresult q;
    while ((q = api.cuStreamQuery(cs)) == CUDA_ERROR_NOT_READY &&
           std::chrono::steady_clock::now() < readBy)
      std::this_thread::yield();
    if (q == CUDA_ERROR_NOT_READY)
      return named(Error(ErrorCode::Timeout, "reading the control block did not finish"));
    if (q != CUDA_SUCCESS)
      return named(state->fail(q, "reading the control block"));
    if (status & ATOLL_STATUS_FUEL_EXHAUSTED) {
      statusDirty = true;
      counters.fuelExhausted++;
      finishBatch(target);
      return named(Error(ErrorCode::FuelExhausted,
                         "a kernel thread spent its fuel (LaunchConfig::fuel) and ended early"));
    }
  }
  finishBatch(target);
  return {};
}

Result<bool> PipelineImpl::waitStream(Lock &lock, std::chrono::steady_clock::time_point deadline,
                                      std::chrono::microseconds spin) {
  const auto begin = std::chrono::steady_clock::now();
  const CUstream s = stream;
  const cuda::DriverApi &api = *state->api;
  CUresult r;
  bool timedOut = false;
  lock.unlock();
  {
    auto pause = std::chrono::microseconds(20);
    while ((r = api.cuStreamQuery(s)) == CUDA_ERROR_NOT_READY) {
      auto now = std::chrono::steady_clock::now();
      if (now >= deadline) {
        timedOut = true;
        break;
      }
      if (now - begin < spin) {
        std::this_thread::yield(); // short kernels: stay responsive
      } else {
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
        // At most 100 us: a waiter that backed off to 1 ms pauses woke up to 1 ms after
        // its work ended (the victim of a cancelled spin measured 0% of its idle
        // throughput for 600 us after cancel() returned, on the H200).
        pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::microseconds(100));
      }
    }
  }
  lock.lock();
  if (timedOut)
    return false;
  if (r != CUDA_SUCCESS)
    return named(state->fail(r, "waiting for the pipeline's work"));
  noteRest();
  return true;
}

Status PipelineImpl::requestCancel(Lock &) {
  const cuda::DriverApi &api = *state->api;
  const CUstream cs = state->controls.stream();
  CUresult r = api.cuMemsetD32Async(control + ATOLL_CONTROL_CANCEL_OFFSET, 1, 1, cs);
  if (r == CUDA_SUCCESS)
    r = api.cuEventRecord(cancelEvent, cs);
  // The reset waits for the set (a late set would cancel the next launch) and runs
  // after every kernel queued so far; the status word goes with it.
  if (r == CUDA_SUCCESS)
    r = api.cuStreamWaitEvent(stream, cancelEvent, 0);
  if (r == CUDA_SUCCESS)
    r = api.cuMemsetD32Async(control, 0, 2, stream);
  if (r != CUDA_SUCCESS)
    return named(state->fail(r, "cancelling the pipeline's work"));
  noteEnqueued();
  cancelEpoch++;
  counters.cancellations++;
  batchUsedFuel = false;
  statusDirty = false;
  return {};
}

Status PipelineImpl::launch(const Application &app, uint32_t index, const LaunchConfig &config,
                            std::span<const Arg> args) {
  const LoadedModule &m = app.module();
  if (app.runtimeState() != state.get())
    return named(Error(ErrorCode::InvalidLaunch,
                       fmt::format("application '{}' belongs to another runtime", app.name())));
  if (index >= m.kernels.size() || !m.module)
    return named(Error(ErrorCode::InvalidLaunch,
                       fmt::format("application '{}' has no loaded kernel {}", app.name(), index)));
  const KernelInfo &kernel = m.kernels[index];

  Lock lock(mutex);
  if (Status s = usable(lock); !s)
    return s;
  // A full driver queue would make cuLaunchKernel wait for this pipeline's kernels
  // with the lock held: wait for room first, bounded, without the lock.
  if (enqueued - completed > kMaxQueued - 4)
    if (Status s = waitForRoom(lock, kMaxQueued - 4, "a launch"); !s)
      return s;
  if (m.clamping == Clamping::MaskBased && !arena.maskCapable)
    return named(Error(
        ErrorCode::InvalidLaunch,
        fmt::format("kernel '{}' of application '{}' is mask-based, which needs a power-of-two "
                    "arena; this pipeline's arena ({} bytes) is modulo-only: load the "
                    "application with Clamping::ModuloBased or use a power-of-two arena",
                    kernel.name, app.name(), arena.size)));

  ParamPack pack;
  if (Status s = packArguments(kernel, args, view(), pack); !s)
    return named(std::move(s).error());

  KernelLimits limits = m.limits[index];
  limits.dynamicSharedLimit = m.dynamicSharedLimit[index].load(std::memory_order_acquire);
  uint32_t raiseTo = 0;
  if (Status s = checkLaunchShape(config, state->info.limits, limits, kernel.name, raiseTo); !s)
    return named(std::move(s).error());
  CUfunction fn = static_cast<CUfunction>(m.functions[index]);
  if (raiseTo) {
    std::lock_guard guard(m.attributeMutex);
    if (m.dynamicSharedLimit[index].load() < raiseTo) {
      CUresult r = state->api->cuFuncSetAttribute(
          fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(raiseTo));
      if (r != CUDA_SUCCESS)
        return named(Error(ErrorCode::InvalidLaunch,
                           fmt::format("kernel '{}': cannot use {} bytes of dynamic shared memory",
                                       kernel.name, raiseTo),
                           cuda::describe(*state->api, r)));
      m.dynamicSharedLimit[index].store(raiseTo, std::memory_order_release);
    }
  }

  if (Status s = beginBatch(); !s)
    return s;
  // No kernel starts while a quiet section makes waiting driver calls
  // (DeviceActivity.h): this waits at most for one such section. The pass covers
  // every enqueue of this launch, the control-block writes included (review R8-F6:
  // all device work passes the gate).
  std::optional<DeviceActivity::LaunchPass> pass;
  pass.emplace(DeviceActivity::of(state->info.ordinal));
  // Fuel and status words, ordered before the kernel on this stream; written only
  // when they change (no cost for launches without fuel).
  const cuda::DriverApi &api = *state->api;
  if (config.fuel != fuelWritten || statusDirty) {
    CUresult w = api.cuMemsetD32Async(control + ATOLL_CONTROL_FUEL_OFFSET,
                                      uint32_t(config.fuel), 1, stream);
    if (w == CUDA_SUCCESS)
      w = api.cuMemsetD32Async(control + ATOLL_CONTROL_FUEL_OFFSET + 4,
                               uint32_t(config.fuel >> 32), 1, stream);
    if (w == CUDA_SUCCESS && statusDirty)
      w = api.cuMemsetD32Async(control + ATOLL_CONTROL_STATUS_OFFSET, 0, 1, stream);
    if (w != CUDA_SUCCESS)
      return named(state->fail(w, "writing the control block"));
    noteEnqueued();
    fuelWritten = config.fuel;
    statusDirty = false;
  }
  batchUsedFuel |= config.fuel != 0;
  assert(pass.has_value()); // the DeviceActivity::LaunchPass taken above covers the kernel
  const CUresult r = state->api->cuLaunchKernel(
      fn, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
      config.block.z, config.dynamicSharedBytes, stream, pack.pointers(), nullptr);
  pass.reset();
  if (r != CUDA_SUCCESS)
    return named(state->fail(r, fmt::format("launching kernel '{}'", kernel.name)));
  noteEnqueued();
  counters.launches++;
  // Keep the module loaded while this batch may run (even if the pipeline is
  // destroyed while wedged).
  if (batchModules.empty() || batchModules.back().get() != &m) {
    if (std::find_if(batchModules.begin(), batchModules.end(),
                     [&](const auto &p) { return p.get() == &m; }) == batchModules.end())
      batchModules.push_back(app.modulePtr());
  }
  if (app.timeout() > batchAppTimeout) {
    batchAppTimeout = app.timeout();
    publishWatchdogLimit();
  }
  return {};
}

} // namespace detail

// --- Pipeline ---------------------------------------------------------------------------

using detail::PipelineImpl;

Pipeline::Pipeline(std::unique_ptr<PipelineImpl> impl) : impl_(std::move(impl)) {}
Pipeline::~Pipeline() = default;

uint64_t Pipeline::id() const noexcept { return impl_->id; }
const std::string &Pipeline::name() const noexcept { return impl_->name; }
uint64_t Pipeline::arenaBytes() const noexcept { return impl_->arena.size; }
uint64_t Pipeline::arenaBase() const noexcept { return impl_->arena.base; }
Clamping Pipeline::arenaMode() const noexcept {
  return impl_->arena.maskCapable ? Clamping::MaskBased : Clamping::ModuloBased;
}
bool Pipeline::supports(Clamping mode) const noexcept {
  return mode == Clamping::ModuloBased || impl_->arena.maskCapable;
}
uint32_t Pipeline::partitionSms() const noexcept { return impl_->partition.sms; }
std::chrono::milliseconds Pipeline::timeout() const noexcept {
  return impl_->configuredTimeout.count() > 0 ? impl_->configuredTimeout
                                              : impl_->state->options.defaultTimeout;
}

bool Pipeline::wedged() const {
  PipelineImpl::Lock lock(impl_->mutex);
  if (impl_->wedged && impl_->state->makeCurrent())
    (void)impl_->pollIdle(lock);
  return impl_->wedged;
}

PipelineStats Pipeline::stats() const {
  std::lock_guard lock(impl_->mutex);
  PipelineStats s = impl_->counters;
  s.arenaBytes = impl_->arena.size;
  s.arenaFromPool = impl_->arenaSource != detail::ArenaPool::Source::Fresh;
  s.streamFromPool = impl_->laneFromPool;
  s.bytesAllocated = impl_->allocator.usedBytes();
  s.peakBytesAllocated = impl_->allocator.peakBytes();
  s.liveBuffers = impl_->allocator.liveBlocks();
  s.partitionSms = impl_->partition.sms;
  return s;
}

Result<Buffer> Pipeline::allocate(uint64_t bytes) {
  std::lock_guard lock(impl_->mutex);
  if (impl_->state->lost())
    return impl_->named(impl_->state->lostError("allocate a buffer"));
  if (impl_->allocator.liveBlocks() >= impl_->maxBuffers)
    return impl_->named(Error(
        ErrorCode::CapacityExceeded,
        fmt::format("{} live buffers is the limit (PipelineOptions::maxBuffers): free some first",
                    impl_->maxBuffers)));
  auto block = impl_->allocator.allocate(bytes);
  if (!block)
    return impl_->named(std::move(block).error());
  return Buffer(impl_->id, block->id, block->offset, block->size);
}

Status Pipeline::free(const Buffer &buffer) {
  std::lock_guard lock(impl_->mutex);
  if (Status s = detail::checkBuffer(impl_->view(), buffer); !s)
    return impl_->named(std::move(s).error());
  if (Status s = impl_->allocator.free(buffer.offset(), buffer.id()); !s)
    return impl_->named(std::move(s).error());
  return {};
}

Result<uint64_t> Pipeline::deviceAddress(const Buffer &buffer, uint64_t offset) const {
  std::lock_guard lock(impl_->mutex);
  if (Status s = detail::checkBufferRange(impl_->view(), buffer, offset, 0); !s)
    return impl_->named(std::move(s).error());
  return impl_->arena.base + buffer.offset() + offset;
}

Status Pipeline::launch(const Kernel &kernel, const LaunchConfig &config,
                        std::span<const Arg> args) {
  if (!kernel.valid())
    return impl_->named(Error(ErrorCode::InvalidLaunch, "invalid (default-constructed) kernel"));
  return impl_->launch(kernel.application(), kernel.index(), config, args);
}

Status Pipeline::launch(const Application &app, std::string_view kernel,
                        const LaunchConfig &config, std::span<const Arg> args) {
  int index = app.findKernel(kernel);
  if (index < 0)
    return impl_->named(Error(ErrorCode::NotFound,
                              fmt::format("application '{}' has no kernel '{}'", app.name(),
                                          kernel)));
  return impl_->launch(app, uint32_t(index), config, args);
}

Status Pipeline::synchronize() {
  PipelineImpl::Lock lock(impl_->mutex);
  if (!impl_->state->makeCurrent())
    return impl_->named(impl_->state->lostError("synchronize"));
  return impl_->waitIdle(lock, /*countAsSync=*/true);
}

Status Pipeline::cancel(std::chrono::milliseconds deadline) {
  PipelineImpl::Lock lock(impl_->mutex);
  if (!impl_->state->makeCurrent())
    return impl_->named(impl_->state->lostError("cancel"));
  if (deadline.count() <= 0)
    deadline = impl_->cancelDeadline;
  // A cancel by the watchdog is taken here (its reset queued); this cancel() asked
  // for the same, so it is not reported as an error.
  if (Status s = impl_->takeWatchdogCancel(lock); !s && s.error().code() != ErrorCode::Timeout)
    return s;
  auto idle = impl_->pollIdle(lock);
  if (!idle)
    return std::move(idle).error();
  if (*idle) {
    impl_->finishBatch(impl_->enqueued);
    return {};
  }
  if (Status s = impl_->requestCancel(lock); !s)
    return s;
  auto ended = impl_->waitStream(lock, detail::deadlineAfter(std::chrono::steady_clock::now(), deadline),
                                 detail::kCancelSpin);
  if (!ended)
    return std::move(ended).error();
  if (!*ended) {
    impl_->wedged = true;
    return impl_->named(Error(
        ErrorCode::Timeout,
        fmt::format("cancelled work did not end within {} ms; the pipeline is wedged until it "
                    "does",
                    deadline.count())));
  }
  // A cancel of the watchdog meanwhile: taken (its reset queued), no error here.
  if (Status s = impl_->takeWatchdogCancel(lock); !s && s.error().code() != ErrorCode::Timeout)
    return s;
  impl_->finishBatch(impl_->enqueued);
  return {};
}

Result<bool> Pipeline::idle() {
  PipelineImpl::Lock lock(impl_->mutex);
  if (!impl_->state->makeCurrent())
    return impl_->named(impl_->state->lostError("query the pipeline"));
  return impl_->pollIdle(lock);
}

} // namespace Atoll
