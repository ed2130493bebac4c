#include "DeviceActivity.h"

#include "Deadline.h"
#include "RuntimeState.h"

#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace Atoll::detail {

DeviceActivity &DeviceActivity::of(int ordinal) {
  // Never destroyed: detached threads and late teardowns may still use it at exit.
  static DeviceActivity *devices = new DeviceActivity[DeviceRegistry::kMaxDevices];
  return devices[std::clamp(ordinal, 0, DeviceRegistry::kMaxDevices - 1)];
}

void DeviceActivity::addStream(CUstream s, uint64_t generation) {
  std::lock_guard lock(mutex_);
  streams_.push_back({s, generation, false});
}

void DeviceActivity::removeStream(CUstream s) {
  std::lock_guard lock(mutex_);
  std::erase_if(streams_, [&](const Entry &e) { return e.stream == s; });
}

void DeviceActivity::retireStream(CUstream s) {
  std::lock_guard lock(mutex_);
  for (Entry &e : streams_)
    if (e.stream == s)
      e.retired = true;
}

size_t DeviceActivity::streams() const {
  std::lock_guard lock(mutex_);
  return streams_.size();
}

DeviceActivity::LaunchPass::LaunchPass(DeviceActivity &a) : a_(a) {
  std::unique_lock lock(a_.mutex_);
  a_.cv_.wait(lock, [&] { return !a_.closed_; });
  ++a_.launching_;
}

DeviceActivity::LaunchPass::~LaunchPass() {
  std::lock_guard lock(a_.mutex_);
  if (--a_.launching_ == 0 && a_.closed_)
    a_.cv_.notify_all();
}

DeviceActivity::QuietSection::QuietSection(DeviceActivity &a, std::unique_lock<std::mutex> order)
    : a_(&a), order_(std::move(order)) {}

DeviceActivity::QuietSection::~QuietSection() {
  if (!order_.owns_lock())
    return; // moved from
  {
    std::lock_guard lock(a_->mutex_);
    a_->closed_ = false;
  }
  a_->cv_.notify_all();
}

bool DeviceActivity::allIdleLocked(const cuda::DriverApi &api, uint64_t generation) {
  bool idle = true;
  for (auto it = streams_.begin(); it != streams_.end();) {
    if (it->generation < generation) { // a reset context freed it: forget, touch nothing
      it = streams_.erase(it);
      continue;
    }
    if (it->generation > generation) // the caller is of a reset context: it runs nothing
      return false;
    // cuStreamQuery returns at once; nobody is inside a waiting call (this is the
    // only place they are made).
    CUresult r = api.cuStreamQuery(it->stream);
    if (r == CUDA_ERROR_NOT_READY) {
      idle = false;
      ++it;
      continue;
    }
    // Idle, or the context is lost (then nothing waits either: the runtime's tasks
    // are dropped).
    if (it->retired) {
      if (r == CUDA_SUCCESS)
        api.cuStreamDestroy(it->stream);
      it = streams_.erase(it);
      continue;
    }
    ++it;
  }
  return idle;
}

std::optional<DeviceActivity::QuietSection>
DeviceActivity::tryQuiet(const cuda::DriverApi &api, uint64_t generation,
                         std::chrono::microseconds settle) {
  std::unique_lock order(order_);
  std::unique_lock lock(mutex_);
  // Launches wait while the gate is closed: a settle wait at most every
  // kSettleEvery, whoever asks for it, and never longer than kMaxSettle.
  const auto now = std::chrono::steady_clock::now();
  if (settle.count() > 0 && now - lastSettle_ >= kSettleEvery) {
    settle = std::min<std::chrono::microseconds>(settle, kMaxSettle);
    lastSettle_ = now;
  } else {
    settle = std::chrono::microseconds(0);
  }
  // Cheap first look with the gate open: a busy device costs launches nothing.
  if (settle.count() == 0 && !allIdleLocked(api, generation))
    return std::nullopt;
  closed_ = true;
  cv_.wait(lock, [&] { return launching_ == 0; }); // a launch is one driver call
  const auto until = deadlineAfter(std::chrono::steady_clock::now(),
                                   std::chrono::duration_cast<std::chrono::milliseconds>(settle));
  while (!allIdleLocked(api, generation)) {
    if (std::chrono::steady_clock::now() >= until) {
      closed_ = false;
      lock.unlock();
      cv_.notify_all();
      return std::nullopt;
    }
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    lock.lock();
  }
  return QuietSection(*this, std::move(order));
}

void DeviceActivity::noteDrainHold(std::chrono::milliseconds hold) noexcept {
  int64_t cur = drainHoldMs_.load();
  while (cur < hold.count() && !drainHoldMs_.compare_exchange_weak(cur, hold.count())) {
  }
}

std::optional<DeviceActivity::QuietSection>
DeviceActivity::tryDrain(const cuda::DriverApi &api, uint64_t generation) {
  using namespace std::chrono;
  std::unique_lock order(order_);
  const auto begin = steady_clock::now();
  if (begin < nextDrain_)
    return std::nullopt; // rate limit
  drains_++;
  std::unique_lock lock(mutex_);
  closed_ = true; // no kernel starts: every busy period now only ends
  cv_.wait(lock, [&] { return launching_ == 0; });
  const auto until = deadlineAfter(begin, drainHold());
  bool quiet;
  while (!(quiet = allIdleLocked(api, generation)) && steady_clock::now() < until &&
         !Reclaimer::instance().exiting()) {
    lock.unlock();
    std::this_thread::sleep_for(microseconds(200));
    lock.lock();
  }
  const auto end = steady_clock::now();
  nextDrain_ = end + std::max<steady_clock::duration>(kDrainGap, 4 * (end - begin));
  if (quiet)
    return QuietSection(*this, std::move(order));
  closed_ = false;
  lock.unlock();
  cv_.notify_all();
  return std::nullopt;
}

// --- Reclaimer ---------------------------------------------------------------------

Reclaimer &Reclaimer::instance() {
  static Reclaimer *r = [] {
    auto *p = new Reclaimer; // never destroyed (see the header)
    std::atexit(&Reclaimer::atExit);
    return p;
  }();
  return *r;
}

bool Reclaimer::exiting() const noexcept { return exiting_.load(); }

void Reclaimer::atExit() {
  Reclaimer &r = instance();
  // Bounded: the thread may be inside a driver call; then the process exits anyway.
  if (r.driver_.try_lock_for(std::chrono::milliseconds(200))) {
    r.exiting_.store(true);
    r.driver_.unlock();
  } else {
    r.exiting_.store(true);
  }
  r.cv_.notify_all();
}

bool Reclaimer::dead(const Task &t) const noexcept {
  return (t.inert && t.inert->load()) || DeviceRegistry::lost[t.ordinal].load() ||
         DeviceRegistry::generation[t.ordinal].load() != t.generation;
}

void Reclaimer::post(Task task) noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= limit_.load() || exiting_.load()) {
      leaked_++;
      return;
    }
    if (!started_) {
      std::thread t(&Reclaimer::loop, this);
      pthread_setname_np(t.native_handle(), "atoll-reclaim");
      t.detach();
      started_ = true;
    }
    queue_.push_back(std::move(task));
    queued_.store(queue_.size());
    cv_.notify_all();
  } catch (...) {
    leaked_++; // no memory or no thread: the resource stays allocated, which is safe
  }
}

void Reclaimer::loop() {
  using namespace std::chrono;
  auto backoff = microseconds(500);
  auto busySince = steady_clock::time_point::max();
  std::unique_lock lock(mutex_);
  while (true) {
    cv_.wait(lock, [&] { return !queue_.empty() || exiting_.load(); });
    if (exiting_.load())
      return;
    // Dropped tasks first: their runtime is gone for good (lost or abandoned).
    while (!queue_.empty() && dead(queue_.front())) {
      queue_.pop_front();
      leaked_++;
    }
    queued_.store(queue_.size());
    if (queue_.empty())
      continue;
    const Task head = queue_.front(); // the device and context of this batch
    lock.unlock();
    bool ran = false;
    {
      std::unique_lock driver(driver_);
      if (exiting_.load())
        return;
      if (head.api->cuCtxSetCurrent(head.ctx) == CUDA_SUCCESS) {
        const auto now = steady_clock::now();
        busySince = std::min(busySince, now);
        // Starved (kernels back to back for a while): hold launches for a moment so
        // short kernels drain. Never-ending ones make this fail each time.
        const auto settle = now - busySince > milliseconds(500) ? DeviceActivity::kMaxSettle
                                                                 : microseconds(0);
        DeviceActivity &device = DeviceActivity::of(head.ordinal);
        // Starved for long: drain (bounded, rate-limited; see tryDrain).
        auto quiet = [&]() -> std::optional<DeviceActivity::QuietSection> {
          if (now - busySince > DeviceActivity::kStarveAfter)
            if (auto q = device.tryDrain(*head.api, head.generation))
              return q;
          return device.tryQuiet(*head.api, head.generation, settle);
        }();
        if (quiet) {
          ran = true;
          const auto until = now + kQuietBudget;
          for (size_t n = 0; n < kMaxQuietBatch && steady_clock::now() < until; ++n) {
            Task t;
            {
              std::lock_guard l(mutex_);
              if (queue_.empty() || queue_.front().ordinal != head.ordinal ||
                  queue_.front().generation != head.generation ||
                  queue_.front().ctx != head.ctx)
                break;
              t = std::move(queue_.front());
              queue_.pop_front();
              queued_.store(queue_.size());
            }
            if (dead(t))
              leaked_++;
            else
              t.fn(); // waits for nothing that runs long: no kernel runs
          }
        }
      } else {
        ran = true; // the context is gone: drop this batch's head
        std::lock_guard l(mutex_);
        if (!queue_.empty()) {
          queue_.pop_front();
          leaked_++;
        }
      }
    }
    lock.lock();
    if (ran) {
      backoff = microseconds(500);
      busySince = steady_clock::time_point::max();
    } else {
      cv_.wait_for(lock, backoff, [&] { return exiting_.load(); });
      backoff = std::min<microseconds>(backoff * 2, milliseconds(10));
    }
  }
}

} // namespace Atoll::detail
