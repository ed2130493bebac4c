// Shared by the GPU tests: skip (visibly, with the reason) when there is no
// CUDA driver or device.
#pragma once

#include "cuda/DriverApi.h"

#include <gtest/gtest.h>

#define ATOLL_REQUIRE_GPU()                                                          \
  do {                                                                               \
    auto driver_ = ::Atoll::cuda::loadDriver();                                      \
    if (!driver_.ok())                                                               \
      GTEST_SKIP() << "no CUDA driver/device: " << driver_.error().describe();       \
  } while (0)
