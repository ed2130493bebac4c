// Shared by the GPU tests: skip (visibly, with the reason) when there is no
// CUDA driver or device; any other driver error fails the test.
#pragma once

#include "cuda/DriverApi.h"

#include <gtest/gtest.h>

#define ATOLL_REQUIRE_GPU()                                                          \
  do {                                                                               \
    auto driver_ = ::Atoll::cuda::loadDriver();                                      \
    if (!driver_.ok()) {                                                             \
      auto code_ = driver_.error().code();                                           \
      if (code_ == ::Atoll::ErrorCode::NoDriver || code_ == ::Atoll::ErrorCode::NoDevice) \
        GTEST_SKIP() << "no CUDA driver/device: " << driver_.error().describe();     \
      FAIL() << "the CUDA driver is broken: " << driver_.error().describe();         \
    }                                                                                \
  } while (0)
