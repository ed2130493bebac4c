// SM partitions on green contexts; see PartitionManager.h.
#include "partition/PartitionManager.h"

#include "RuntimeState.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace Atoll::detail {

struct PartitionManager::Partition {
  enum class State { Creating, Failed, Idle, InUse, Draining };
  State state = State::Creating;
  CUgreenCtx green = nullptr;
  uint32_t request = 0; // the rounded request it was made for (reuse key)
  uint32_t sms = 0;     // SMs of its units
  std::vector<uint32_t> units;
  CUevent done = nullptr;  // Draining: recorded after the last pipeline's work
  bool waiterGone = false; // Creating: the requester stopped waiting
  bool remainder = false;  // the remainder's (pipelines without a quota); never pooled
  std::optional<Error> error;
  uint64_t lastUse = 0;
};

PartitionManager::PartitionManager(RuntimeState &state) : state_(state) {}
PartitionManager::~PartitionManager() = default;

void PartitionManager::init(const cuda::DriverApi &api, CUdevice device) {
  std::lock_guard lock(mutex_);
  api_ = &api;
  device_ = device;
  int count = 0;
  if (api.cuDeviceGetAttribute(&count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) ==
      CUDA_SUCCESS)
    deviceSms_ = uint32_t(std::max(count, 0));
  if (!api.hasGreenContexts()) {
    unsupported_ = "the CUDA driver has no green contexts (cuGreenCtxCreate and related entry "
                   "points need a CUDA 12.4+ driver)";
    return;
  }
  CUdevResource all{};
  if (CUresult r = api.cuDeviceGetDevResource(device, &all, CU_DEV_RESOURCE_TYPE_SM);
      r != CUDA_SUCCESS || all.type != CU_DEV_RESOURCE_TYPE_SM || all.sm.smCount == 0) {
    unsupported_ = fmt::format("the device does not offer SM partitions (cuDeviceGetDevResource: {})",
                               r == CUDA_SUCCESS ? "no SMs" : cuda::describe(api, r));
    return;
  }
  deviceSms_ = all.sm.smCount;
  minSms_ = std::max(1u, all.sm.minSmPartitionSize);
  granularity_ = std::max(1u, all.sm.smCoscheduledAlignment);
  // One split at the granularity: disjoint units that partitions are made of.
  const uint32_t unit = std::max(minSms_, granularity_);
  unsigned n = 0;
  if (CUresult r = api.cuDevSmResourceSplitByCount(nullptr, &n, &all, nullptr, 0, unit);
      r != CUDA_SUCCESS || n == 0) {
    unsupported_ = fmt::format("the device's SMs cannot be split into partitions of {} SMs "
                               "(cuDevSmResourceSplitByCount: {})",
                               unit, r == CUDA_SUCCESS ? "no groups" : cuda::describe(api, r));
    return;
  }
  std::vector<CUdevResource> groups(n);
  CUdevResource rest{};
  if (CUresult r = api.cuDevSmResourceSplitByCount(groups.data(), &n, &all, &rest, 0, unit);
      r != CUDA_SUCCESS) {
    unsupported_ = fmt::format("splitting the device's SMs failed (cuDevSmResourceSplitByCount: {})",
                               cuda::describe(api, r));
    return;
  }
  groups.resize(n);
  for (const CUdevResource &g : groups)
    units_.push_back({g, g.sm.smCount, false});
  // The split's leftover is a unit of its own when it can hold a partition (12 SMs
  // on an H200: the 16th disjoint partition of 8).
  if (rest.type == CU_DEV_RESOURCE_TYPE_SM && rest.sm.smCount >= minSms_)
    units_.push_back({rest, rest.sm.smCount, false});
  else if (rest.type == CU_DEV_RESOURCE_TYPE_SM && rest.sm.smCount > 0)
    leftover_ = rest; // too few for a partition: only the remainder can use them
  unsupported_.clear();
}

bool PartitionManager::supported() const {
  std::lock_guard lock(mutex_);
  return unsupported_.empty();
}

std::string PartitionManager::unsupportedReason() const {
  std::lock_guard lock(mutex_);
  return unsupported_;
}

uint32_t PartitionManager::deviceSms() const {
  std::lock_guard lock(mutex_);
  return deviceSms_;
}

uint32_t PartitionManager::rounded(uint32_t sms) const {
  const uint64_t g = granularity_;
  // Saturated: a request near 2^32 must not wrap to a small one.
  return uint32_t(std::min<uint64_t>(UINT32_MAX,
                                     std::max<uint64_t>(minSms_, (uint64_t(sms) + g - 1) / g * g)));
}

Result<uint32_t> PartitionManager::quotaFor(uint32_t smCount, double smShare) const {
  if (smShare != 0 && smCount != 0)
    return Error(ErrorCode::InvalidArgument,
                 "set at most one of PipelineOptions::smCount and PipelineOptions::smShare");
  if (!(smShare >= 0 && smShare <= 1)) // NaN included
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("PipelineOptions::smShare must be in (0, 1], got {}", smShare));
  if (smCount == 0 && smShare == 0)
    return uint32_t(0);
  std::lock_guard lock(mutex_);
  if (!unsupported_.empty())
    return Error(ErrorCode::Unsupported,
                 fmt::format("an SM quota needs SM partitions, which are unsupported here: {}",
                             unsupported_));
  if (smShare > 0)
    smCount = std::max<uint32_t>(1, uint32_t(std::ceil(smShare * double(deviceSms_))));
  return smCount;
}

void PartitionManager::freeUnitsLocked(const Partition &p) noexcept {
  for (uint32_t u : p.units)
    units_[u].used = false;
}

void PartitionManager::collectLocked() noexcept {
  for (auto &p : partitions_) {
    if (p->state != Partition::State::Draining)
      continue;
    if (api_->cuEventQuery(p->done) != CUDA_SUCCESS) // still running (or lost: kept)
      continue;
    api_->cuEventDestroy(p->done);
    p->done = nullptr;
    p->state = Partition::State::Idle;
    freeUnitsLocked(*p);
  }
}

void PartitionManager::destroyLater(CUgreenCtx green) noexcept {
  // Its pooled pipeline lanes first (Lanes.h): their streams are destroyed (or
  // retired, then destroyed by the quiet check) before the green context.
  state_.lanes.drop(green);
  // Only in a quiet section, like the other context-level calls that may wait: by
  // then every stream of the partition has been destroyed (retired streams are
  // destroyed by the quiet check itself, DeviceActivity.h).
  state_.reclaim([api = api_, green] { api->cuGreenCtxDestroy(green); });
}

PartitionManager::Lease PartitionManager::leaseLocked(Partition &p, bool fromPool) {
  p.state = Partition::State::InUse;
  p.lastUse = ++clock_;
  for (uint32_t u : p.units)
    units_[u].used = true;
  if (fromPool)
    ++fromPool_;
  return Lease{&p, p.green, p.sms, fromPool};
}

Result<PartitionManager::Lease> PartitionManager::acquire(uint32_t sms,
                                                          std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  if (!unsupported_.empty())
    return Error(ErrorCode::Unsupported,
                 fmt::format("an SM quota needs SM partitions, which are unsupported here: {}",
                             unsupported_));
  collectLocked();
  uint32_t total = 0, committed = 0;
  for (const Unit &u : units_) {
    if (u.remainder)
      continue; // never a quota's
    total += u.sms;
    committed += u.used ? u.sms : 0;
  }
  // Rounded up to the granularity, but never past the device: a request for every
  // SM (132 on an H200) is all units (15 x 8 + 12), not 136.
  const uint32_t want = sms <= total ? std::min(rounded(sms), total) : rounded(sms);
  auto refuse = [&](std::string why) {
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("no room for a partition of {} SMs (asked {}, rounded to the "
                             "device's granularity of {}): {}",
                             want, sms, granularity_, why));
  };
  if (want > total)
    return refuse(remainder_ ? fmt::format("quota pipelines can use the {} SMs set aside for "
                                           "them (RuntimeOptions::quotaSms); the other {} run "
                                           "pipelines without a quota",
                                           total, remainder_->sms)
                             : fmt::format("partitions can use {} SMs of this device", total));
  // Reuse: an idle partition made for the same rounded size, on free units.
  Partition *best = nullptr;
  for (auto &p : partitions_)
    if (p->state == Partition::State::Idle && p->request == want &&
        std::none_of(p->units.begin(), p->units.end(), [&](uint32_t u) { return units_[u].used; }) &&
        (!best || p->lastUse > best->lastUse))
      best = p.get();
  if (best)
    return leaseLocked(*best, true);
  // Fresh units: the smallest first (whole groups before the split's leftover).
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < units_.size(); ++i)
    if (!units_[i].used && !units_[i].remainder)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return units_[a].sms < units_[b].sms; });
  std::vector<uint32_t> take;
  uint32_t got = 0;
  // A single unit that holds it alone (the leftover's for a request of 12) wins
  // over several smaller ones.
  for (uint32_t i : order)
    if (units_[i].sms >= want) {
      take = {i};
      got = units_[i].sms;
      break;
    }
  for (size_t k = 0; take.empty() && k < order.size(); ++k) {
    got += units_[order[k]].sms;
    if (got >= want) {
      take.assign(order.begin(), order.begin() + k + 1);
      break;
    }
  }
  if (take.empty())
    return refuse(fmt::format("{} of {} SMs are committed to other partitions", committed, total));
  if (partitions_.size() >= kMaxPartitions) {
    // Make room: the least recently used idle partition goes (on the reclaimer).
    auto victim = std::min_element(partitions_.begin(), partitions_.end(), [](auto &a, auto &b) {
      bool ia = a->state == Partition::State::Idle, ib = b->state == Partition::State::Idle;
      return ia != ib ? ia : a->lastUse < b->lastUse;
    });
    if (victim == partitions_.end() || (*victim)->state != Partition::State::Idle)
      return refuse(fmt::format("{} partitions exist and none is idle", partitions_.size()));
    destroyLater((*victim)->green);
    partitions_.erase(victim);
  }
  auto owned = std::make_unique<Partition>();
  Partition *p = owned.get();
  p->request = want;
  p->sms = got;
  p->units = take;
  for (uint32_t u : take)
    units_[u].used = true;
  partitions_.push_back(std::move(owned));
  createAndWait(lock, p, limit);
  auto erase = [&] {
    std::erase_if(partitions_, [&](const auto &q) { return q.get() == p; });
  };
  switch (p->state) {
  case Partition::State::Creating:
    p->waiterGone = true; // it joins the pool when done
    return Error(ErrorCode::Timeout,
                 fmt::format("creating a partition of {} SMs did not finish within {} ms: it "
                             "waits for a moment with no kernel running (another tenant's long "
                             "kernel); it goes on and joins the pool, so a retry finds it "
                             "(RuntimeOptions::partitionPool creates partitions at start)",
                             want, limit.count()));
  case Partition::State::Failed: {
    Error e = p->error ? *p->error
                       : Error(ErrorCode::DriverError, "creating the partition failed");
    freeUnitsLocked(*p);
    erase();
    return e;
  }
  default:
    ++created_;
    return leaseLocked(*p, false);
  }
}

void PartitionManager::createAndWait(std::unique_lock<std::mutex> &lock, Partition *p,
                                     std::chrono::milliseconds limit) {
  // Created on the loader thread (a quiet section); bounded here by `limit`. Posted
  // without the lock: a task the loader drops runs at once (task(false)) and locks.
  lock.unlock();
  state_.loader.post([weak = state_.weak_from_this(), p](bool run) {
    auto self = weak.lock();
    if (!self)
      return; // the state (and the manager) is gone
    if (!run) {
      std::lock_guard l(self->partitions->mutex_);
      p->error = Error(ErrorCode::ContextLost, "the runtime was torn down before the partition "
                                               "was created");
      p->state = Partition::State::Failed;
      self->partitions->cv_.notify_all();
      return;
    }
    self->partitions->create(p);
  });
  lock.lock();
  const auto deadline = deadlineAfter(std::chrono::steady_clock::now(), limit);
  cv_.wait_until(lock, deadline, [&] { return p->state != Partition::State::Creating; });
}

void PartitionManager::create(Partition *p) {
  const cuda::DriverApi &api = *api_;
  std::vector<CUdevResource> resources;
  bool withLeftover = false;
  {
    std::lock_guard lock(mutex_);
    for (uint32_t u : p->units)
      resources.push_back(units_[u].resource);
    if (p->remainder && leftover_) {
      resources.push_back(*leftover_);
      withLeftover = true;
    }
  }
  CUgreenCtx green = nullptr;
  std::optional<Error> error;
  bool unsupportedNow = false, leftoverDropped = false;
  {
    // cuGreenCtxCreate may wait for running kernels like the other context-level
    // calls (about 1 ms on the H200): only in a quiet section, on the loader thread.
    auto quiet = state_.waitQuiet("create an SM partition");
    if (!quiet) {
      error = std::move(quiet).error();
    } else {
      CUdevResourceDesc desc = nullptr;
      CUresult r = api.cuDevResourceGenerateDesc(&desc, resources.data(), unsigned(resources.size()));
      if (r != CUDA_SUCCESS && withLeftover) {
        // A driver that does not combine the split's leftover with its groups: the
        // remainder goes without those few SMs (they stay idle).
        resources.pop_back();
        r = api.cuDevResourceGenerateDesc(&desc, resources.data(), unsigned(resources.size()));
        leftoverDropped = r == CUDA_SUCCESS;
      }
      if (r == CUDA_SUCCESS)
        r = api.cuGreenCtxCreate(&green, desc, device_, CU_GREEN_CTX_DEFAULT_STREAM);
      if (r != CUDA_SUCCESS) {
        green = nullptr;
        error = state_.fail(r, fmt::format("creating a green context of {} SMs", p->sms));
      } else if (!probed_) {
        // Pipelines record the runtime's events (made in the primary context) on
        // their partition's stream; a driver that refuses that cannot run them.
        CUstream s = nullptr;
        CUevent e = nullptr;
        CUresult c = api.cuGreenCtxStreamCreate(&s, green, CU_STREAM_NON_BLOCKING, 0);
        if (c == CUDA_SUCCESS)
          c = api.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
        if (c == CUDA_SUCCESS)
          c = api.cuEventRecord(e, s);
        if (e)
          api.cuEventDestroy(e);
        if (s)
          api.cuStreamDestroy(s);
        probed_ = true;
        if (c != CUDA_SUCCESS) {
          unsupportedNow = true;
          error = Error(ErrorCode::Unsupported,
                        "an SM quota needs SM partitions, which are unsupported here: the driver "
                        "does not record the runtime's events on a green context's stream",
                        cuda::describe(api, c));
        }
      }
    }
  }
  std::lock_guard lock(mutex_);
  if (unsupportedNow) {
    unsupported_ = "the driver does not record the runtime's events on a green context's stream";
    destroyLater(green);
    green = nullptr;
  }
  if (leftoverDropped && leftover_)
    p->sms -= leftover_->sm.smCount;
  if (p->remainder && p->waiterGone) {
    // Runtime::create stopped waiting for it (and failed): nobody uses it.
    if (green)
      destroyLater(green);
    std::erase_if(partitions_, [&](const auto &q) { return q.get() == p; });
    cv_.notify_all();
    return;
  }
  if (!green) {
    p->error = std::move(error);
    p->state = Partition::State::Failed;
    if (p->waiterGone) {
      freeUnitsLocked(*p);
      std::erase_if(partitions_, [&](const auto &q) { return q.get() == p; });
    }
  } else {
    p->green = green;
    p->state = Partition::State::InUse; // the waiter takes it
    if (p->waiterGone) {
      ++created_;
      p->state = Partition::State::Idle;
      freeUnitsLocked(*p);
    }
  }
  cv_.notify_all();
}

void PartitionManager::release(const Lease &lease, CUevent done) noexcept {
  std::lock_guard lock(mutex_);
  Partition *p = lease.partition;
  if (!p)
    return;
  if (done) {
    p->state = Partition::State::Draining;
    p->done = done;
  } else {
    p->state = Partition::State::Idle;
    freeUnitsLocked(*p);
  }
  p->lastUse = ++clock_;
  // Too many idle: the least recently used beyond kMaxIdle go (on the reclaimer).
  size_t idle = std::count_if(partitions_.begin(), partitions_.end(), [](auto &q) {
    return q->state == Partition::State::Idle;
  });
  while (idle > kMaxIdle) {
    auto victim = partitions_.end();
    for (auto it = partitions_.begin(); it != partitions_.end(); ++it)
      if ((*it)->state == Partition::State::Idle &&
          (victim == partitions_.end() || (*it)->lastUse < (*victim)->lastUse))
        victim = it;
    destroyLater((*victim)->green);
    partitions_.erase(victim);
    --idle;
  }
}

size_t PartitionManager::prewarm(const std::vector<uint32_t> &sizes,
                                 std::chrono::milliseconds limit) {
  std::vector<Lease> held;
  for (uint32_t s : sizes)
    if (s > 0)
      if (auto l = acquire(s, limit))
        held.push_back(*l);
  for (const Lease &l : held)
    release(l, nullptr);
  std::lock_guard lock(mutex_);
  fromPool_ = 0; // start-up creations are not pool hits of tenants
  return held.size();
}

PartitionStats PartitionManager::stats() {
  std::lock_guard lock(mutex_);
  PartitionStats s;
  if (!unsupported_.empty() || !api_)
    return s;
  collectLocked();
  for (const Unit &u : units_) {
    if (u.remainder)
      continue;
    s.sms += u.sms;
    s.committed += u.used ? u.sms : 0;
  }
  s.remainder = remainder_ ? remainder_->sms : 0;
  for (auto &p : partitions_) {
    if (p->remainder)
      continue;
    s.live += p->state == Partition::State::InUse;
    s.pooled += p->state == Partition::State::Idle;
    s.draining += p->state == Partition::State::Draining;
  }
  s.created = created_;
  s.fromPool = fromPool_;
  return s;
}

void PartitionManager::shutdown() noexcept {
  std::lock_guard lock(mutex_);
  for (auto &p : partitions_) {
    if (p->done)
      api_->cuEventDestroy(p->done);
    p->done = nullptr;
    if (p->green)
      destroyLater(p->green);
    p->green = nullptr;
  }
  partitions_.clear();
  remainder_ = nullptr;
}

Status PartitionManager::reserve(uint32_t sms, std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  if (!unsupported_.empty())
    return Error(ErrorCode::Unsupported, unsupported_);
  if (remainder_ || !partitions_.empty())
    return Error(ErrorCode::InvalidArgument, "SMs are set aside for quotas only once, at start");
  // Whole units from the front (the groups of the split; the unit made of its
  // leftover, listed last, goes to quotas only when nothing else fits).
  const uint32_t want = rounded(sms);
  uint32_t got = 0, total = 0;
  size_t k = 0;
  for (const Unit &u : units_)
    total += u.sms;
  while (k < units_.size() && got < want)
    got += units_[k++].sms;
  if (sms >= total || got < want || k == units_.size())
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("RuntimeOptions::quotaSms of {} (rounded to {}, the device's "
                             "partition granularity) leaves no SMs for pipelines without a "
                             "quota: partitions can use {} SMs of this device in units of {}",
                             sms, want, total, std::max(minSms_, granularity_)));
  auto owned = std::make_unique<Partition>();
  Partition *p = owned.get();
  p->remainder = true;
  p->request = 0; // never matched by a quota's request
  for (size_t i = k; i < units_.size(); ++i) {
    units_[i].remainder = true;
    units_[i].used = true;
    p->units.push_back(uint32_t(i));
    p->sms += units_[i].sms;
  }
  if (leftover_)
    p->sms += leftover_->sm.smCount;
  partitions_.push_back(std::move(owned));
  createAndWait(lock, p, limit);
  auto undo = [&] {
    for (Unit &u : units_)
      u.remainder = u.used = false;
  };
  switch (p->state) {
  case Partition::State::Creating:
    p->waiterGone = true; // destroyed when done (create())
    undo();
    return Error(ErrorCode::Timeout,
                 fmt::format("creating the green context of the {} SMs left to pipelines without "
                             "a quota did not finish within {} ms (another runtime's kernels "
                             "kept the device busy)",
                             p->sms, limit.count()));
  case Partition::State::Failed: {
    Error e = p->error ? *p->error
                       : Error(ErrorCode::DriverError, "creating the remainder's green context failed");
    std::erase_if(partitions_, [&](const auto &q) { return q.get() == p; });
    undo();
    return e;
  }
  default:
    remainder_ = p;
    ++created_;
    return {};
  }
}

PartitionManager::Lease PartitionManager::remainder() const {
  std::lock_guard lock(mutex_);
  if (!remainder_ || !unsupported_.empty())
    return {};
  return Lease{nullptr, remainder_->green, remainder_->sms, false};
}

} // namespace Atoll::detail
