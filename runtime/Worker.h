// A thread that runs queued tasks one at a time, holding no lock of the runtime
// while it runs one. Each runtime has one: the loader (module loads, made in quiet
// sections of the device, DeviceActivity.h). A load waits for any tenant's running
// kernel (docs/architecture.md, "Driver calls that wait"), so it never runs on a
// request path or under a shared lock. (Unloads and frees go to the process-wide
// Reclaimer of DeviceActivity.h, which outlives the runtime.)
//
// Stopping is bounded: a task stuck in a driver call behind a never-ending kernel
// cannot be interrupted, so stop() gives up after its limit, drops what is still
// queued (each dropped task is told so: task(false)) and detaches the thread. The
// queue lives in a block shared with the thread, so a detached thread that wakes up
// later touches nothing that was freed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace Atoll::detail {

class Worker {
public:
  /// run == false: the task is dropped (stop without running it); release nothing
  /// that work on the device may still use.
  using Task = std::function<void(bool run)>;

  explicit Worker(std::string name);
  ~Worker(); // stop(false, 0) if not stopped yet
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  /// Queues a task (starting the thread on first use). After stop(), or when the
  /// queue cannot grow (bad_alloc), the task is dropped at once: task(false).
  void post(Task task) noexcept;
  /// Waits at most `limit` until the queue is empty and no task runs.
  bool drain(std::chrono::milliseconds limit);
  /// runQueued: finish the queue first (within `limit`), else drop it. Returns false
  /// when the thread was still busy at the limit (it is then detached: the task it
  /// runs may still complete later, the rest are dropped).
  bool stop(bool runQueued, std::chrono::milliseconds limit) noexcept;
  /// Tasks queued or running (tests, diagnostics).
  size_t pending() const;

private:
  struct Shared {
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<Task> queue;
    bool running = false;  // a task is executing
    bool stopping = false; // no new tasks; exit when the queue is empty
    bool dropping = false; // drop queued tasks instead of running them
    bool exited = false;
  };
  static void loop(std::shared_ptr<Shared> shared);
  std::string name_;
  std::shared_ptr<Shared> shared_;
  std::thread thread_;
  std::mutex startMutex_;
  bool stopped_ = false;
};

} // namespace Atoll::detail
