#include "GpuTest.h"

TEST(Driver, LoadsAndSeesADevice) {
  ATOLL_REQUIRE_GPU();
  const Atoll::cuda::DriverApi &api = **Atoll::cuda::loadDriver();
  EXPECT_GE(api.driverVersion, 12000);
  CUdevice dev;
  ASSERT_EQ(api.cuDeviceGet(&dev, 0), CUDA_SUCCESS);
  char name[256] = {};
  ASSERT_EQ(api.cuDeviceGetName(name, sizeof name, dev), CUDA_SUCCESS);
  int major = 0;
  api.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  EXPECT_GE(major, 7) << name;
}

TEST(Driver, MissingDriverIsATypedError) {
  // Either we have a driver, or the error says plainly that there is none.
  auto driver = Atoll::cuda::loadDriver();
  if (driver.ok())
    GTEST_SKIP() << "a CUDA driver is present; nothing to check";
  EXPECT_TRUE(driver.error().code() == Atoll::ErrorCode::NoDriver ||
              driver.error().code() == Atoll::ErrorCode::NoDevice);
  EXPECT_NE(driver.error().message().find("no "), std::string::npos);
}
