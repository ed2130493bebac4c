// The set-up shared by the tests on the stand-in driver (bench/mock) in hold +
// waiting mode (test/unit/HostStallMockTest.cpp, WatchdogMockTest.cpp): the mock's
// controls looked up in libcuda.so.1, waiting mode on for the test and everything
// back off after it. Without a device or with the real driver the tests skip, unless
// ATOLL_EXPECT_MOCK is set (ctest sets it with LD_LIBRARY_PATH): then they fail.
#pragma once

#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>

namespace atoll_test {

/// The stand-in driver's test controls (bench/mock/MockCuda.cpp).
struct MockDriver {
  void (*hold)(int) = nullptr;       // launched kernels run until hold(0)
  void (*waiting)(int) = nullptr;    // module loads etc. wait for running kernels
  unsigned long (*waited)() = nullptr; // calls that waited so far
  void (*defer)(int) = nullptr;      // cancel-word sets stay queued until defer(0)
  void (*holdCopies)(int) = nullptr; // with hold: copies and byte fills held too
  void (*completeHeld)(int) = nullptr; // the first n held operations of each stream end
};

class MockDriverTest : public ::testing::Test {
protected:
  /// `deferredSets`: the tests also need atollMockDeferCancelSets.
  explicit MockDriverTest(bool deferredSets = false) : needsDefer(deferredSets) {}

  void SetUp() override {
    const bool expectMock = std::getenv("ATOLL_EXPECT_MOCK") != nullptr;
    auto probe = Atoll::Runtime::create();
    if (!probe && expectMock)
      FAIL() << "the stand-in driver did not load: " << probe.error().describe();
    if (!probe)
      GTEST_SKIP() << "no device: " << probe.error().describe();
    if (void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      mock.hold = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockHoldKernels"));
      mock.waiting = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockWaitingCalls"));
      mock.waited = reinterpret_cast<unsigned long (*)()>(dlsym(h, "atollMockWaitedCalls"));
      mock.defer = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockDeferCancelSets"));
      mock.holdCopies = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockHoldCopies"));
      mock.completeHeld = reinterpret_cast<void (*)(int)>(dlsym(h, "atollMockCompleteHeld"));
    }
    const bool complete =
        mock.hold && mock.waiting && mock.waited && (!needsDefer || mock.defer);
    if (!complete && expectMock)
      FAIL() << "libcuda.so.1 is not the stand-in driver (bench/mock) with waiting mode"
             << (needsDefer ? " and deferred sets" : "");
    if (!complete)
      GTEST_SKIP() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    mock.waiting(1);
    armed = true;
  }

  void TearDown() override {
    if (!armed) // skipped or failed: nothing was switched on
      return;
    if (needsDefer)
      mock.defer(0);
    if (mock.holdCopies)
      mock.holdCopies(0);
    mock.hold(0);
    mock.waiting(0);
  }

  MockDriver mock;

private:
  bool needsDefer;
  bool armed = false;
};

} // namespace atoll_test
