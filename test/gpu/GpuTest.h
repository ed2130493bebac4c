// Shared by the GPU tests: skip (visibly, with the reason) only when there is no
// CUDA driver library or no device; any other driver error fails the test, and so
// does a skip under ATOLL_REQUIRE_GPU=1 (test/support/GpuGate.h).
#pragma once

#include "GpuGate.h"
#include "cuda/DriverApi.h"

#include <gtest/gtest.h>

#include <string>

#define ATOLL_REQUIRE_GPU()                                                          \
  do {                                                                               \
    std::string why_;                                                                \
    switch (::atoll_test::gpuVerdict(why_)) {                                        \
    case ::atoll_test::GpuVerdict::Skip:                                             \
      GTEST_SKIP() << why_;                                                          \
    case ::atoll_test::GpuVerdict::Fail:                                             \
      FAIL() << why_;                                                                \
    case ::atoll_test::GpuVerdict::Run:                                              \
      break;                                                                         \
    }                                                                                \
    auto driver_ = ::Atoll::cuda::loadDriver();                                      \
    if (!driver_.ok())                                                               \
      FAIL() << "the CUDA driver is broken: " << driver_.error().describe();         \
  } while (0)
