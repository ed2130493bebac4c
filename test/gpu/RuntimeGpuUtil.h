// Shared by the runtime's GPU tests: where the tenant bitcode is, a fixture that
// skips without a GPU and creates a Runtime, and an exact vector-add check.
#pragma once

#include "GpuTest.h"

#include "atoll/atoll.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

/// Expects `status` to be an error of code `errcode` (and never touches error() of a
/// success).
#define EXPECT_ATOLL_ERROR(status, errcode)                                            \
  do {                                                                                 \
    const auto &s_ = (status);                                                         \
    EXPECT_FALSE(s_.ok()) << "expected " << ::Atoll::to_string(errcode);               \
    if (!s_.ok()) {                                                                    \
      EXPECT_EQ(s_.error().code(), errcode) << s_.error().describe();                  \
    }                                                                                  \
  } while (0)

namespace atoll_test {

/// The bitcode built from test/gpu/kernels/*.cu; $ATOLL_TEST_BITCODE_DIR overrides
/// the build directory's path (e.g. when the tests run from a bundle elsewhere).
inline std::string bitcodePath(const std::string &file) {
  if (const char *dir = std::getenv("ATOLL_TEST_BITCODE_DIR"))
    return std::string(dir) + "/" + file;
  return std::string(ATOLL_TEST_BITCODE_DIR) + "/" + file;
}

class RuntimeGpu : public ::testing::Test {
protected:
  void SetUp() override {
    ATOLL_REQUIRE_GPU();
    auto r = Atoll::Runtime::create(options());
    ASSERT_TRUE(r) << r.error().describe();
    rt = std::move(*r);
  }
  virtual Atoll::RuntimeOptions options() { return {}; }

  std::shared_ptr<Atoll::Application> load(const std::string &file, Atoll::AppOptions o = {}) {
    auto a = rt->loadApplicationFile(bitcodePath(file), o);
    EXPECT_TRUE(a) << a.error().describe();
    return a ? *a : nullptr;
  }
  Atoll::Kernel kernel(const std::shared_ptr<Atoll::Application> &app, const char *name) {
    if (!app)
      return {};
    auto k = app->kernel(name);
    EXPECT_TRUE(k) << k.error().describe();
    return k ? *k : Atoll::Kernel();
  }
  std::unique_ptr<Atoll::Pipeline> pipeline(Atoll::PipelineOptions o = {}) {
    auto p = rt->createPipeline(o);
    EXPECT_TRUE(p) << p.error().describe();
    return p ? std::move(*p) : nullptr;
  }

  std::unique_ptr<Atoll::Runtime> rt;
};

/// Input values that make every float sum exact and distinct per seed.
inline float inputA(int i, uint32_t seed) { return float((i * 7 + seed * 13) % 100003) * 0.5f; }
inline float inputB(int i, uint32_t seed) { return float((i % 977) + seed % 1000) * 0.25f; }

/// Allocates, uploads, launches vadd(a, b, c, n), synchronises, downloads and
/// compares exactly; frees its buffers.
inline ::testing::AssertionResult runVadd(Atoll::Pipeline &p, const Atoll::Kernel &k, int n,
                                          uint32_t seed) {
  using ::testing::AssertionFailure;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = inputA(i, seed);
    b[i] = inputB(i, seed);
  }
  const uint64_t bytes = uint64_t(n) * sizeof(float);
  auto A = p.allocate(bytes), B = p.allocate(bytes), C = p.allocate(bytes);
  if (!A || !B || !C)
    return AssertionFailure() << "allocate: "
                              << (!A ? A.error() : !B ? B.error() : C.error()).describe();
  auto cleanup = [&] {
    (void)p.free(*A);
    (void)p.free(*B);
    (void)p.free(*C);
  };
  Atoll::Status s = p.copyToDevice(*A, a);
  if (s)
    s = p.copyToDevice(*B, b);
  if (s)
    s = p.launch(k, {Atoll::Dim3((n + 255) / 256), Atoll::Dim3(256)}, *A, *B, *C, n);
  if (s)
    s = p.synchronize();
  if (s)
    s = p.copyToHost(c, *C);
  if (!s) {
    cleanup();
    return AssertionFailure() << s.error().describe();
  }
  cleanup();
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i])
      return AssertionFailure() << "pipeline '" << p.name() << "' c[" << i << "] = " << c[i]
                                << ", expected " << a[i] + b[i];
  return ::testing::AssertionSuccess();
}

} // namespace atoll_test
