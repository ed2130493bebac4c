// Checks support/GtestMain.cpp through its exit status (test/CMakeLists.txt runs
// the disabled cases one at a time): all skipped -> 77, a failure -> 1.
#include <gtest/gtest.h>

TEST(GtestMain, DISABLED_Skips) { GTEST_SKIP() << "the reason of the skip"; }
TEST(GtestMain, DISABLED_Passes) { SUCCEED(); }
TEST(GtestMain, DISABLED_FailsThenSkips) {
  ADD_FAILURE() << "a failure before the skip";
  GTEST_SKIP() << "must not hide the failure";
}
