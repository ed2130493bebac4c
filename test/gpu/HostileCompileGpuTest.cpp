// The hostile compile corpus (test/hostile-compile) on a GPU while another tenant
// runs: every input ends as a typed error inside a compile worker (crash, limits,
// refusals; on a device also the assemble request for PTX only the assembler can
// refuse), the service never loses its context, and the concurrent tenant's vector
// adds stay exact throughout. Skipped without a GPU.
#include "RuntimeGpuUtil.h"

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

using namespace Atoll;
using namespace atoll_test;

namespace {

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// $ATOLL_HOSTILE_DIR overrides the build directory's corpus (bundles elsewhere).
std::string hostileDir() {
  if (const char *d = std::getenv("ATOLL_HOSTILE_DIR"))
    return d;
  return ATOLL_HOSTILE_DIR;
}

class HostileCompileGpu : public RuntimeGpu {
protected:
  RuntimeOptions options() override {
    RuntimeOptions o;
    o.compileWorkers.memoryLimit = 768ull << 20;
    o.compileWorkers.cpuLimitSeconds = 4;
    o.compileWorkers.timeout = std::chrono::seconds(40);
    o.compileWorkers.maxOutputBytes = 16u << 20;
    return o;
  }
};

} // namespace

TEST_F(HostileCompileGpu, CorpusGivesTypedErrorsWhileATenantRunsExactly) {
  auto app = load("runtime_kernels.bc", {.name = "steady-tenant"});
  ASSERT_TRUE(app);
  Kernel k = kernel(app, "vadd");
  auto p = pipeline({.arenaBytes = 64ull << 20, .name = "steady-tenant"});
  ASSERT_TRUE(p);

  std::atomic<bool> stop{false};
  std::atomic<int> rounds{0}, wrong{0};
  std::string firstFailure;
  std::thread tenant([&] {
    for (uint32_t seed = 1; !stop.load(); ++seed) {
      auto r = runVadd(*p, k, 1 << 18, seed);
      if (!r) {
        if (wrong++ == 0)
          firstFailure = r.message();
      }
      rounds++;
    }
  });

  std::ifstream manifest(hostileDir() + "/MANIFEST");
  ASSERT_TRUE(manifest.good()) << hostileDir();
  int cases = 0;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ls(line);
    std::string file, code;
    ls >> file >> code;
    std::string input = slurp(hostileDir() + "/" + file);
    ASSERT_FALSE(input.empty()) << file;
    ++cases;
    std::string name = "hostile-" + file;
    auto start = std::chrono::steady_clock::now();
    auto r = rt->loadApplication(
        {reinterpret_cast<const uint8_t *>(input.data()), input.size()}, {.name = name});
    long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    ASSERT_FALSE(r.ok()) << file << " loaded on the device";
    std::string got(to_string(r.error().code()));
    if (code == "assembler") // refused by the assembler (worker) or, at worst, the driver
      EXPECT_TRUE(got == "compile-error" || got == "jit-error" || got == "compile-resources")
          << file << ": " << r.error().describe();
    else
      EXPECT_EQ(got, code) << file << ": " << r.error().describe();
    EXPECT_NE(r.error().message().find("application '" + name + "'"), std::string::npos);
    std::printf("[hostile-gpu] %-32s %-18s %6lld ms  tenant rounds %d  %s\n", file.c_str(),
                got.c_str(), ms, rounds.load(), r.error().message().substr(0, 100).c_str());
    ASSERT_FALSE(rt->lost()) << "after " << file;
  }
  EXPECT_GE(cases, 20);
  stop = true;
  tenant.join();
  EXPECT_EQ(wrong.load(), 0) << firstFailure;
  EXPECT_GT(rounds.load(), cases) << "the tenant did not keep running";
  // The service goes on: a fresh tenant loads and runs.
  auto again = rt->loadApplicationFile(bitcodePath("runtime_kernels.bc"), {.name = "after"});
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_TRUE(runVadd(*p, kernel(*again, "vadd"), 1000, 99));
  std::printf("tenant: %d exact rounds during the corpus\n", rounds.load());
}
