#include "atoll/error.h"

#include <gtest/gtest.h>

using namespace Atoll;

TEST(Error, DescribeNamesCodeMessageAndDetail) {
  Error e(ErrorCode::OutOfArena, "copy of 64 bytes at offset 4096 leaves buffer 3",
          "buffer size 1024");
  e.within("pipeline 'tenant-a'");
  EXPECT_EQ(e.code(), ErrorCode::OutOfArena);
  EXPECT_EQ(e.describe(), "out-of-arena: pipeline 'tenant-a': copy of 64 bytes at offset "
                          "4096 leaves buffer 3\nbuffer size 1024");
}

TEST(Error, ResultHoldsValueOrError) {
  Result<int> good = 42;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 42);
  Result<int> bad = Error(ErrorCode::Timeout, "pipeline 'p' timed out");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), ErrorCode::Timeout);
  Status fine;
  EXPECT_TRUE(fine.ok());
  Status failed = Error(ErrorCode::NoDevice, "no CUDA device");
  EXPECT_EQ(failed.error().message(), "no CUDA device");
}

TEST(Error, EveryCodeHasAName) {
  for (int c = int(ErrorCode::NoDriver); c <= int(ErrorCode::Unsupported); ++c)
    EXPECT_NE(to_string(ErrorCode(c)), "unknown") << c;
}
