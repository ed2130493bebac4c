// The driver-side module check (runtime/cuda/ModuleCheck.h) and cubin-only
// loading, on the stand-in driver (bench/mock): the mock reads the real cubin that
// nvJitLink assembled (entry symbols, EIATTR_KPARAM_INFO), so the expected layout
// is checked against what ptxas actually wrote, and it can report the faults a
// tampered module would show (an extra function, a wrong parameter size, ...).
// Runs only with the mock as libcuda.so.1 (ctest sets LD_LIBRARY_PATH).
#include "DiskCache.h"
#include "cuda/ModuleCheck.h"

#include "atoll/abi.h"
#include "atoll/atoll.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdlib>
#include <string>
#include <thread>

using namespace Atoll;
using namespace std::chrono_literals;

namespace {

ParamInfo param(ParamKind kind, uint32_t size, uint32_t align) {
  ParamInfo p;
  p.kind = kind;
  p.size = size;
  p.align = align;
  return p;
}

std::vector<std::pair<uint64_t, uint64_t>> slots(const KernelInfo &k) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const cuda::ParamSlot &s : cuda::expectedParamLayout(k))
    out.push_back({s.offset, s.size});
  return out;
}

} // namespace

TEST(ParamLayout, HiddenParametersFollowTheTenantsAt8ByteSlots) {
  KernelInfo k;
  k.params = {param(ParamKind::Pointer, 8, 8), param(ParamKind::Pointer, 8, 8),
              param(ParamKind::Pointer, 8, 8), param(ParamKind::Scalar, 4, 4)};
  static_assert(ATOLL_HIDDEN_PARAM_COUNT == 3, "update the expected layout");
  EXPECT_EQ(slots(k), (std::vector<std::pair<uint64_t, uint64_t>>{
                          {0, 8}, {8, 8}, {16, 8}, {24, 4}, {32, 8}, {40, 8}, {48, 8}}));
  KernelInfo none;
  EXPECT_EQ(slots(none), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 8}, {8, 8}, {16, 8}}));
}

// The layout ptxas (nvJitLink 13) wrote for
//   k(i8, ptr byval(%struct.S{i8,i64}), <3 x i32>, i16, ptr, i128, half)
// (EIATTR_KPARAM_INFO of the cubin, read with readelf): the rule reproduces it.
TEST(ParamLayout, MatchesWhatPtxasWroteForMixedParameters) {
  KernelInfo k;
  k.params = {param(ParamKind::Scalar, 1, 1),  param(ParamKind::ByVal, 16, 8),
              param(ParamKind::Scalar, 16, 16), param(ParamKind::Scalar, 2, 2),
              param(ParamKind::Pointer, 8, 8), param(ParamKind::Scalar, 16, 16),
              param(ParamKind::Scalar, 2, 2)};
  EXPECT_EQ(slots(k), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 1},
                                                                   {8, 16},
                                                                   {32, 16},
                                                                   {48, 2},
                                                                   {56, 8},
                                                                   {64, 16},
                                                                   {80, 2},
                                                                   {88, 8},
                                                                   {96, 8},
                                                                   {104, 8}}));
}

namespace {

struct Mock {
  void (*loads)(unsigned long *, unsigned long *, long *) = nullptr;
  void (*fault)(int) = nullptr;
};

class CubinLoading : public ::testing::Test {
protected:
  void SetUp() override {
    const bool expectMock = std::getenv("ATOLL_EXPECT_MOCK") != nullptr;
    auto rt = Runtime::create();
    if (!rt && expectMock)
      FAIL() << "the stand-in driver did not load: " << rt.error().describe();
    if (!rt)
      GTEST_SKIP() << "no device: " << rt.error().describe();
    if (void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      mock.loads = reinterpret_cast<decltype(mock.loads)>(dlsym(h, "atollMockModuleLoads"));
      mock.fault = reinterpret_cast<decltype(mock.fault)>(dlsym(h, "atollMockModuleFault"));
    }
    if ((!mock.loads || !mock.fault) && expectMock)
      FAIL() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    if (!mock.loads || !mock.fault)
      GTEST_SKIP() << "libcuda.so.1 is not the stand-in driver (bench/mock)";
    runtime = std::move(*rt);
    // Modules of the previous test's runtime unload on its reclaim thread: let
    // them go first, so that the counts below are this test's alone.
    ASSERT_EQ(liveAfterReclaim(0), 0) << "modules of an earlier runtime stayed loaded";
  }
  void TearDown() override {
    if (mock.fault)
      mock.fault(0);
  }
  struct Counts {
    unsigned long ptx = 0, cubin = 0;
    long live = 0;
  };
  Counts counts() const {
    Counts c;
    mock.loads(&c.ptx, &c.cubin, &c.live);
    return c;
  }
  Result<std::shared_ptr<Application>> load() {
    return runtime->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                        "/runtime_kernels.bc");
  }
  /// Module unloads run on the reclaim thread: wait (bounded) for them.
  long liveAfterReclaim(long want) const {
    long live = counts().live;
    for (int i = 0; i < 200 && live != want; ++i) {
      std::this_thread::sleep_for(10ms);
      live = counts().live;
    }
    return live;
  }
  Mock mock;
  std::unique_ptr<Runtime> runtime;
};

} // namespace

// The runtime hands the driver a cubin, never PTX text, and the driver-side check
// passes for real modules (byval struct, pointers, scalars of every size).
TEST_F(CubinLoading, LoadsCubinsNeverPtxAndTheCheckPasses) {
  Counts before = counts();
  auto app = load();
  ASSERT_TRUE(app) << app.error().describe();
  Counts after = counts();
  EXPECT_EQ(after.ptx, before.ptx) << "the runtime passed PTX text to the driver";
  EXPECT_EQ(after.cubin, before.cubin + 1);
  EXPECT_EQ(after.live, before.live + 1);
  EXPECT_TRUE((*app)->kernel("affine"));
  EXPECT_TRUE((*app)->kernel("vadd"));
}

struct FaultCase {
  int fault;
  const char *what;
  const char *message; // a substring of the refusal
};

class CubinLoadingFaults : public CubinLoading,
                           public ::testing::WithParamInterface<FaultCase> {};

// What a module that is not the hardened one would make the driver report: the
// load is refused (Refused, naming the function and parameter), the module is
// unloaded, nothing is cached, and the same bitcode loads once the driver tells
// the truth again.
TEST_P(CubinLoadingFaults, IsRefusedAndUnloaded) {
  const FaultCase &c = GetParam();
  Counts before = counts();
  mock.fault(c.fault);
  auto app = load();
  mock.fault(0);
  ASSERT_FALSE(app) << c.what << ": the load was accepted";
  EXPECT_EQ(app.error().code(), ErrorCode::Refused) << app.error().describe();
  EXPECT_NE(app.error().message().find("refused by the driver-side module check: "),
            std::string::npos)
      << app.error().message();
  EXPECT_NE(app.error().message().find(c.message), std::string::npos)
      << c.what << ": " << app.error().message();
  EXPECT_EQ(counts().cubin, before.cubin + 1);
  EXPECT_EQ(liveAfterReclaim(before.live), before.live) << "the refused module stayed loaded";
  auto again = load();
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ((*again)->origin(), Application::Origin::Compiled) << "a refused module was cached";
}

INSTANTIATE_TEST_SUITE_P(
    Faults, CubinLoadingFaults,
    ::testing::Values(
        FaultCase{1, "an extra function",
                  "function 'atoll_mock_extra' is not one of the module's hardened kernels"},
        // affine(Affine p (byval, 12 bytes), const float *, float *): 3 + 3
        // parameters at 0, 16, 24 and the hidden ones at 32, 40, 48.
        FaultCase{2, "a hidden parameter of 4 bytes",
                  "kernel 'affine' parameter 5 (hidden) is 4 bytes at offset 48, expected 8 "
                  "bytes at offset 48"},
        FaultCase{3, "a parameter missing", "kernel 'affine' has 5 parameters, expected 6"},
        FaultCase{4, "a parameter more", "kernel 'affine' has more than 6 parameters"},
        FaultCase{5, "a hidden parameter moved",
                  "kernel 'affine' parameter 5 (hidden) is 8 bytes at offset 56, expected 8 "
                  "bytes at offset 48"}),
    [](const ::testing::TestParamInfo<FaultCase> &i) { return "Fault" + std::to_string(i.param.fault); });

// The disk cache stores the cubin: a second runtime loads it from there (no
// compile), as a cubin. An entry without a cubin (a compile-only runtime without
// an assembler wrote it) is no hit for a runtime with a device: it compiles afresh
// and rewrites the entry with the cubin.
TEST_F(CubinLoading, DiskCacheHitsLoadTheStoredCubin) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("atoll-cubin-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  RuntimeOptions o;
  o.ptxCacheDir = dir.string(); // the key file <dir>/.atoll-cache-key: the raw MAC key
  auto loadWith = [&](Application::Origin want) {
    auto rt = Runtime::create(o);
    ASSERT_TRUE(rt) << rt.error().describe();
    Counts before = counts();
    auto app = (*rt)->loadApplicationFile(std::string(ATOLL_GPU_TEST_BITCODE_DIR) +
                                          "/runtime_kernels.bc");
    ASSERT_TRUE(app) << app.error().describe();
    EXPECT_EQ((*app)->origin(), want);
    Counts after = counts();
    EXPECT_EQ(after.ptx, before.ptx);
    EXPECT_EQ(after.cubin, before.cubin + 1);
  };
  loadWith(Application::Origin::Compiled);
  loadWith(Application::Origin::DiskCache);
  std::vector<fs::path> entries;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".ptxc")
      entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  std::string bytes;
  {
    std::ifstream in(entries[0], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  EXPECT_EQ(bytes.rfind("ATOLL-PTXC 3\n", 0), 0u);
  std::array<uint8_t, 32> macKey{};
  {
    std::ifstream in(dir / ".atoll-cache-key", std::ios::binary);
    in.read(reinterpret_cast<char *>(macKey.data()), macKey.size());
    ASSERT_EQ(in.gcount(), 32);
  }
  const std::string key = entries[0].stem().string();
  auto entry = detail::parseEntry(key, bytes, macKey);
  ASSERT_TRUE(entry) << "the runtime's entry parses with its key";
  ASSERT_EQ(entry->cubin.compare(0, 4, "\x7f" "ELF"), 0);
  entry->cubin.clear();
  {
    std::ofstream out(entries[0], std::ios::binary | std::ios::trunc);
    out << detail::serializeEntry(key, *entry, macKey);
  }
  loadWith(Application::Origin::Compiled); // the cubin-less entry is no hit
  {
    std::ifstream in(entries[0], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto rewritten = detail::parseEntry(key, bytes, macKey);
  ASSERT_TRUE(rewritten);
  EXPECT_FALSE(rewritten->cubin.empty()) << "the entry was rewritten with its cubin";
  loadWith(Application::Origin::DiskCache);
  fs::remove_all(dir);
}

// Without a PTX assembler a runtime with a device cannot load anything (it never
// falls back to loading PTX): a typed CompileError naming what was tried. Run by
// its own ctest entry with ATOLL_CUDA_PATH pointing at no toolkit (the assembler is
// looked for once per process); skipped in the normal run.
TEST_F(CubinLoading, WithoutAnAssemblerNothingLoads) {
  if (!std::getenv("ATOLL_TEST_NO_ASSEMBLER"))
    GTEST_SKIP() << "run by atoll-unit-module-check-no-assembler";
  Counts before = counts();
  auto app = load();
  ASSERT_FALSE(app) << "a module loaded without an assembler";
  EXPECT_EQ(app.error().code(), ErrorCode::CompileError) << app.error().describe();
  EXPECT_NE(app.error().message().find("no PTX assembler: libnvJitLink could not be loaded "
                                       "from the CUDA toolkit"),
            std::string::npos)
      << app.error().message();
  EXPECT_NE(app.error().detail().find("tried: "), std::string::npos) << app.error().detail();
  Counts after = counts();
  EXPECT_EQ(after.ptx, before.ptx) << "PTX was loaded instead";
  EXPECT_EQ(after.cubin, before.cubin);
}
