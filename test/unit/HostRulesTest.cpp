// The host-side pieces that keep driver calls which wait for tenant kernels off
// request paths (docs/architecture.md): the worker threads (reclaim, loader) and
// saturated deadlines.
#include "Deadline.h"
#include "Worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>
#include <vector>

using namespace Atoll::detail;
using namespace std::chrono_literals;

TEST(Worker, RunsTasksInOrderOnItsOwnThread) {
  Worker w("test-worker");
  std::vector<int> order;
  std::mutex m;
  std::thread::id caller = std::this_thread::get_id(), ran;
  for (int i = 0; i < 5; ++i)
    w.post([&, i](bool run) {
      ASSERT_TRUE(run);
      std::lock_guard lock(m);
      order.push_back(i);
      ran = std::this_thread::get_id();
    });
  ASSERT_TRUE(w.drain(5s));
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_NE(ran, caller);
  EXPECT_TRUE(w.stop(true, 1s));
}

TEST(Worker, StopDropsQueuedTasksWhenAsked) {
  Worker w("test-worker");
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::atomic<int> ran{0}, dropped{0};
  w.post([&](bool run) {
    if (run)
      gate.wait();
    ran++;
  });
  for (int i = 0; i < 3; ++i)
    w.post([&](bool run) { (run ? ran : dropped)++; });
  release.set_value();
  EXPECT_TRUE(w.stop(false, 5s));
  EXPECT_EQ(ran + dropped, 4);
  // After stop, posting drops at once.
  bool sawFalse = false;
  w.post([&](bool run) { sawFalse = !run; });
  EXPECT_TRUE(sawFalse);
}

TEST(Worker, StopIsBoundedBehindAStuckTask) {
  // A task stuck in a driver call (a never-ending kernel) cannot be interrupted:
  // stop gives up at its limit, drops the rest (telling each) and detaches.
  auto w = std::make_unique<Worker>("test-worker");
  auto gate = std::make_shared<std::promise<void>>();
  std::shared_future<void> wait = gate->get_future().share();
  std::atomic<int> dropped{0};
  w->post([wait](bool run) {
    if (run)
      wait.wait();
  });
  w->post([&](bool run) { dropped += run ? 0 : 1; });
  while (w->pending() != 2)
    std::this_thread::yield(); // the first task is running
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(w->stop(true, 100ms));
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, 2s);
  EXPECT_EQ(dropped.load(), 1);
  w.reset(); // destroying the worker does not wait either
  gate->set_value(); // the detached thread finishes alone
}

TEST(Worker, CanBeStoppedFromItsOwnTask) {
  auto w = std::make_shared<Worker>("test-worker");
  std::promise<bool> result;
  w->post([&, w](bool) { result.set_value(w->stop(true, 1s)); });
  auto f = result.get_future();
  ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
  EXPECT_FALSE(f.get()); // it could not join itself: detached
}

TEST(Deadline, HugeTimeoutsSaturateInsteadOfOverflowing) {
  auto now = std::chrono::steady_clock::now();
  EXPECT_EQ(deadlineAfter(now, std::chrono::milliseconds::max()),
            std::chrono::steady_clock::time_point::max());
  EXPECT_EQ(deadlineAfter(now, std::chrono::milliseconds(INT64_MAX / 1000)),
            std::chrono::steady_clock::time_point::max());
  EXPECT_GT(deadlineAfter(now, std::chrono::hours(24 * 365 * 100)), now);
  EXPECT_EQ(deadlineAfter(now, 1500ms), now + 1500ms);
  EXPECT_EQ(deadlineAfter(now, 0ms), now);
  EXPECT_EQ(deadlineAfter(now, -5ms), now);
}

TEST(Worker, HugeLimitsSaturate) {
  // wait_for(milliseconds::max()) overflows inside the standard library and returns
  // at once; the worker's limits are saturated deadlines.
  Worker w("test-worker");
  std::atomic<bool> ran{false};
  w.post([&](bool run) {
    std::this_thread::sleep_for(20ms);
    ran = run;
  });
  EXPECT_TRUE(w.drain(std::chrono::milliseconds::max()));
  EXPECT_TRUE(ran);
  w.post([&](bool) { std::this_thread::sleep_for(20ms); });
  EXPECT_TRUE(w.stop(true, std::chrono::milliseconds::max()));
}
