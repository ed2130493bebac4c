#include "Worker.h"

#include "Deadline.h"

#include <pthread.h>

namespace Atoll::detail {

Worker::Worker(std::string name) : name_(std::move(name)), shared_(std::make_shared<Shared>()) {}

Worker::~Worker() { stop(false, std::chrono::milliseconds(0)); }

void Worker::loop(std::shared_ptr<Shared> s) {
  std::unique_lock lock(s->mutex);
  while (true) {
    s->cv.wait(lock, [&] { return !s->queue.empty() || s->stopping; });
    if (s->dropping) {
      std::deque<Task> dropped;
      dropped.swap(s->queue);
      lock.unlock();
      for (Task &t : dropped)
        t(false);
      lock.lock();
    }
    if (s->queue.empty()) {
      if (s->stopping)
        break;
      continue;
    }
    Task task = std::move(s->queue.front());
    s->queue.pop_front();
    s->running = true;
    lock.unlock();
    task(true); // no lock held: this may wait for a tenant's kernel
    task = nullptr;
    lock.lock();
    s->running = false;
    s->cv.notify_all();
  }
  s->exited = true;
  s->cv.notify_all();
}

void Worker::post(Task task) noexcept {
  try {
    {
      std::lock_guard start(startMutex_);
      if (!stopped_ && !thread_.joinable()) {
        thread_ = std::thread(&Worker::loop, shared_);
        pthread_setname_np(thread_.native_handle(), name_.substr(0, 15).c_str());
      }
    }
    std::lock_guard lock(shared_->mutex);
    if (!shared_->stopping) {
      shared_->queue.push_back(std::move(task));
      shared_->cv.notify_all();
      return;
    }
  } catch (...) {
  }
  if (task)
    task(false);
}

bool Worker::drain(std::chrono::milliseconds limit) {
  std::unique_lock lock(shared_->mutex);
  return shared_->cv.wait_until(lock, deadlineAfter(std::chrono::steady_clock::now(), limit),
                                [&] { return shared_->queue.empty() && !shared_->running; });
}

bool Worker::stop(bool runQueued, std::chrono::milliseconds limit) noexcept {
  bool started;
  {
    // Only decides; waiting happens without it, so a task that posts is not blocked.
    std::lock_guard start(startMutex_);
    if (stopped_)
      return true;
    stopped_ = true; // from now on post() never touches thread_
    started = thread_.joinable();
  }
  std::unique_lock lock(shared_->mutex);
  shared_->stopping = true;
  shared_->dropping = !runQueued;
  shared_->cv.notify_all();
  bool done = false;
  if (started && thread_.get_id() != std::this_thread::get_id())
    done = shared_->cv.wait_until(lock, deadlineAfter(std::chrono::steady_clock::now(), limit),
                                  [&] { return shared_->exited; });
  std::deque<Task> dropped;
  if (!done) {
    // Not started, stuck in a driver call, or stopped from one of its own tasks:
    // drop the rest now; a running task finishes alone.
    shared_->dropping = true;
    dropped.swap(shared_->queue);
  }
  lock.unlock();
  for (Task &t : dropped)
    t(false);
  if (!started)
    return true;
  if (done)
    thread_.join();
  else
    thread_.detach();
  return done;
}

size_t Worker::pending() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->queue.size() + (shared_->running ? 1 : 0);
}

} // namespace Atoll::detail
