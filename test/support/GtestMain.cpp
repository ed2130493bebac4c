// main() of every AToLL GoogleTest binary. A process in which every test that ran
// was skipped (and none failed) exits 77, CTest's SKIP_RETURN_CODE: a skip is then
// a decision of the test (GTEST_SKIP with its reason), never a pattern matched in
// the output of a process that may have failed.
#include <gtest/gtest.h>

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const auto *u = ::testing::UnitTest::GetInstance();
  if (rc == 0 && u->skipped_test_count() > 0 && u->successful_test_count() == 0 &&
      u->failed_test_count() == 0)
    return 77;
  return rc;
}
