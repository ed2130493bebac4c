// The hostile compile corpus (test/hostile-compile) on a GPU while another tenant
// runs: every input ends as a typed error inside a compile worker (crash, limits,
// refusals; on a device also the assemble request for PTX only the assembler can
// refuse), the service never loses its context, and the concurrent tenant's vector
// adds stay exact throughout. Skipped without a GPU.
//
// Three inputs compile and assemble (huge-alloca.ll: a 1 TiB alloca;
// huge-alignment.ll: align 2^32; many-shared-globals.ll: 4096 x 48 KiB of shared
// arrays) because -O2 deletes the object: they must load and RUN on the device,
// harmlessly, while the tenant stays exact (LaunchesWhatOptimisationMadeHarmless).
// Their *-used variants, which keep the object, are in the MANIFEST: refused by the
// service's PTX validator (sizes), so they never reach the driver.
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
    o.keepPtx = true; // the test reads the hardened PTX (Application::ptx())
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

// The three inputs whose hostile object -O2 deletes: each loads (its PTX declares no
// local or shared memory: checked, so a change that keeps the object fails here
// rather than on the device), and each launch completes without an error, writes
// what the IR says, and the concurrent tenant stays exact and the context alive.
TEST_F(HostileCompileGpu, LaunchesWhatOptimisationMadeHarmless) {
  auto app = load("runtime_kernels.bc", {.name = "steady-tenant"});
  ASSERT_TRUE(app);
  Kernel vadd = kernel(app, "vadd");
  auto p = pipeline({.arenaBytes = 64ull << 20, .name = "steady-tenant"});
  auto h = pipeline({.arenaBytes = 8ull << 20, .name = "hostile-tenant"});
  ASSERT_TRUE(p && h);
  std::atomic<bool> stop{false};
  std::atomic<int> rounds{0}, wrong{0};
  std::string firstFailure;
  std::thread tenant([&] {
    for (uint32_t seed = 1; !stop.load(); ++seed) {
      auto r = runVadd(*p, vadd, 1 << 18, seed);
      if (!r && wrong++ == 0)
        firstFailure = r.message();
      rounds++;
    }
  });
  struct Case {
    const char *file;
    const char *why;
  };
  const Case cases[] = {
      {"huge-alloca.ll", "the 1 TiB alloca's store is forwarded to its load: out[0] = 1"},
      {"huge-alignment.ll", "the 2^32-aligned alloca is only stored to: deleted, empty kernel"},
      {"many-shared-globals.ll", "no kernel uses the 4096 shared arrays: deleted"},
  };
  auto out = h->allocate(4096);
  ASSERT_TRUE(out) << out.error().describe();
  for (const Case &c : cases) {
    SCOPED_TRACE(c.file);
    std::string input = slurp(hostileDir() + "/" + c.file);
    ASSERT_FALSE(input.empty());
    auto a = rt->loadApplication({reinterpret_cast<const uint8_t *>(input.data()), input.size()},
                                 {.name = std::string("hostile-") + c.file});
    ASSERT_TRUE(a.ok()) << "expected to load (" << c.why << "): " << a.error().describe();
    const std::string &ptx = (*a)->ptx();
    EXPECT_EQ(ptx.find(".local"), std::string::npos) << "the object survived -O2:\n" << ptx;
    EXPECT_EQ(ptx.find(".shared .align 1 .b8 s"), std::string::npos) << "the arrays survived";
    auto k = (*a)->kernel("k");
    ASSERT_TRUE(k.ok()) << k.error().describe();
    std::vector<uint8_t> zero(4096, 0), got(4096, 0xee);
    ASSERT_TRUE(h->copyToDevice(*out, zero));
    LaunchConfig shape{Dim3(132), Dim3(256)};
    Status s;
    if (std::string(c.file) == "huge-alloca.ll")
      s = h->launch(*k, shape, *out, uint64_t(1) << 39);
    else if (std::string(c.file) == "huge-alignment.ll")
      s = h->launch(*k, shape, *out);
    else
      s = h->launch(*k, shape, *out, int32_t(1));
    ASSERT_TRUE(s) << s.error().describe();
    Status sync = h->synchronize();
    ASSERT_TRUE(sync) << sync.error().describe();
    ASSERT_TRUE(h->copyToHost(got, *out));
    EXPECT_EQ(got[0], std::string(c.file) == "huge-alloca.ll" ? 1 : 0) << c.why;
    for (size_t i = 1; i < got.size(); ++i)
      ASSERT_EQ(got[i], 0) << "byte " << i;
    std::printf("[hostile-gpu] %-28s loaded and ran: %s; tenant rounds %d\n", c.file, c.why,
                rounds.load());
    ASSERT_FALSE(rt->lost()) << "after " << c.file;
  }
  stop = true;
  tenant.join();
  EXPECT_EQ(wrong.load(), 0) << firstFailure;
  EXPECT_GT(rounds.load(), 3);
  EXPECT_TRUE(runVadd(*p, vadd, 1000, 7));
}
