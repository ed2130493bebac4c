// The public Runtime API without a GPU: a typed error when there is no device, and a
// compile-only runtime (explicit target) that compiles, caches and refuses exactly
// like the real one. Inputs are IR strings in this file.
#include "atoll/atoll.h"

#include "DiskCache.h"
#include "TestKernels.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace Atoll;
namespace fs = std::filesystem;

namespace {

const char *Header = atoll_test::NvptxHeader;

std::string withHeader(const std::string &body) { return Header + body; }

const std::string VecAdd = withHeader(std::string(atoll_test::VecAddKernel) +
                                      atoll_test::TidDeclaration);

const std::string AsmStore = withHeader(R"(
define ptx_kernel void @evil(ptr %p) {
  call void asm sideeffect "st.global.u32 [$0], 1;", "l,~{memory}"(ptr %p)
  ret void
}
)");

const std::string X86 = R"(
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  ret void
}
)";

std::span<const uint8_t> span(const std::string &s) {
  return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

RuntimeOptions compileOnly() {
  RuntimeOptions o;
  o.compileOnly = true;
  o.targetArch = "sm_90";
  return o;
}

std::unique_ptr<Runtime> makeCompileOnly(RuntimeOptions o = compileOnly()) {
  auto rt = Runtime::create(o);
  EXPECT_TRUE(rt) << rt.error().describe();
  return rt ? std::move(*rt) : nullptr;
}

/// The PTX entry of k has its tenant parameters plus the hidden ones.
[[maybe_unused]] bool detail_hasHiddenParams(const std::string &ptx, const KernelInfo &k) {
  size_t at = ptx.find(".entry " + k.name + "(");
  if (at == std::string::npos)
    return false;
  size_t close = ptx.find(')', at);
  std::string list = ptx.substr(at, close - at);
  size_t params = 0;
  for (size_t p = list.find(".param"); p != std::string::npos; p = list.find(".param", p + 1))
    ++params;
  return params == k.params.size() + ATOLL_HIDDEN_PARAM_COUNT;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("atoll-runtime-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

} // namespace

TEST(Runtime, WithoutAGpuCreationIsATypedError) {
  auto rt = Runtime::create();
  if (rt)
    GTEST_SKIP() << "a CUDA device is present (" << (*rt)->device().name << ")";
  EXPECT_TRUE(rt.error().code() == ErrorCode::NoDriver || rt.error().code() == ErrorCode::NoDevice)
      << rt.error().describe();
  EXPECT_EQ(rt.error().message().rfind("no ", 0), 0u) << rt.error().message();
}

TEST(Runtime, ExplicitTargetWithoutAGpuIsCompileOnly) {
  RuntimeOptions o;
  o.targetArch = "sm_90";
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt) << rt.error().describe();
  if ((*rt)->hasDevice())
    GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE((*rt)->device().present);
  EXPECT_EQ((*rt)->device().targetArch, "sm_90");
}

TEST(Runtime, MaxBlocksPerLaunchIsValidated) {
  for (uint64_t bad : {uint64_t(0), (uint64_t(1) << 63) + 1}) {
    RuntimeOptions o = compileOnly();
    o.maxBlocksPerLaunch = bad;
    auto rt = Runtime::create(o);
    ASSERT_FALSE(rt);
    EXPECT_EQ(rt.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(rt.error().message().find("maxBlocksPerLaunch"), std::string::npos);
  }
  RuntimeOptions o = compileOnly();
  o.maxBlocksPerLaunch = 1000;
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt) << rt.error().describe();
  EXPECT_EQ((*rt)->device().limits.maxBlocksPerLaunch, 1000u);
}

TEST(Runtime, CompileOnlyRefusesDeviceOperations) {
  auto rt = Runtime::create(compileOnly());
  ASSERT_TRUE(rt) << rt.error().describe();
  EXPECT_FALSE((*rt)->hasDevice());
  EXPECT_FALSE((*rt)->lost());
  auto p = (*rt)->createPipeline();
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code(), ErrorCode::NoDevice);
  EXPECT_NE(p.error().message().find("compile-only"), std::string::npos);
  auto h = (*rt)->allocateHost(4096);
  ASSERT_FALSE(h);
  EXPECT_EQ(h.error().code(), ErrorCode::NoDevice);
}

TEST(Runtime, InvalidOptionsAreRefused) {
  RuntimeOptions o = compileOnly();
  o.defaultTimeout = std::chrono::milliseconds(0);
  auto rt = Runtime::create(o);
  ASSERT_FALSE(rt);
  EXPECT_EQ(rt.error().code(), ErrorCode::InvalidArgument);
}

TEST(Application, CompilesHardenedPtxWithSignatures) {
  auto rt = makeCompileOnly();
  auto app = rt->loadApplication(span(VecAdd), {.name = "vector-add"});
  ASSERT_TRUE(app) << app.error().describe();
  const Application &a = **app;
  EXPECT_EQ(a.name(), "vector-add");
  EXPECT_EQ(a.origin(), Application::Origin::Compiled);
  EXPECT_FALSE(a.loaded());
  EXPECT_EQ(a.clamping(), Clamping::MaskBased);
  ASSERT_EQ(a.kernels().size(), 1u);
  const KernelInfo &k = a.kernels()[0];
  EXPECT_EQ(k.name, "vadd");
  ASSERT_EQ(k.params.size(), 4u); // the hidden parameters are not tenant-visible
  EXPECT_EQ(k.params[0].kind, ParamKind::Pointer);
  EXPECT_EQ(k.params[3].kind, ParamKind::Scalar);
  EXPECT_EQ(k.params[3].size, 4u);
  EXPECT_FALSE(k.params[3].isFloat);
  EXPECT_NE(a.ptx().find(".entry vadd("), std::string::npos);
  EXPECT_NE(a.ptx().find(".target sm_90"), std::string::npos);
  EXPECT_EQ(a.cacheKey().size(), 64u);
  auto kernel = a.kernel("vadd");
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->name(), "vadd");
  EXPECT_EQ(a.findKernel("vadd"), 0);
  auto missing = a.kernel("vsub");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::NotFound);
  EXPECT_NE(missing.error().message().find("(it has: vadd)"), std::string::npos);
}

TEST(Application, DefaultNameIsDerivedFromTheHash) {
  auto rt = makeCompileOnly();
  auto app = rt->loadApplication(span(VecAdd));
  ASSERT_TRUE(app);
  EXPECT_EQ((*app)->name(), "app-" + (*app)->cacheKey().substr(0, 12));
}

TEST(Application, SecondLoadComesFromTheMemoryCacheInMicroseconds) {
  auto rt = makeCompileOnly();
  auto first = rt->loadApplication(span(VecAdd));
  ASSERT_TRUE(first);
  auto t0 = std::chrono::steady_clock::now();
  auto second = rt->loadApplication(span(VecAdd), {.name = "again"});
  auto dt = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(second);
  EXPECT_EQ((*second)->origin(), Application::Origin::MemoryCache);
  EXPECT_EQ((*second)->cacheKey(), (*first)->cacheKey());
  EXPECT_EQ(&(*second)->module(), &(*first)->module()) << "one module, shared";
  EXPECT_EQ((*second)->name(), "again");
  RuntimeStats s = rt->stats();
  EXPECT_EQ(s.compilations, 1u);
  EXPECT_EQ(s.memoryCacheHits, 1u);
  EXPECT_EQ(s.cachedModules, 1u);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(dt).count();
  std::printf("cached load: %lld us\n", (long long)us);
  EXPECT_LT(us, 5000) << "a cached load must not run LLVM";
}

TEST(Application, OptionsThatChangeCodeChangeTheKey) {
  auto rt = makeCompileOnly();
  auto mask = rt->loadApplication(span(VecAdd));
  auto modulo = rt->loadApplication(span(VecAdd), {.clamping = Clamping::ModuloBased});
  auto o1 = rt->loadApplication(span(VecAdd), {.optLevel = 1});
  ASSERT_TRUE(mask && modulo && o1);
  EXPECT_NE((*mask)->cacheKey(), (*modulo)->cacheKey());
  EXPECT_NE((*mask)->cacheKey(), (*o1)->cacheKey());
  EXPECT_EQ((*modulo)->clamping(), Clamping::ModuloBased);
  EXPECT_EQ(rt->stats().compilations, 3u);
  // Name and timeout do not change the code: same key.
  auto named = rt->loadApplication(
      span(VecAdd), {.name = "x", .timeout = std::chrono::milliseconds(5)});
  ASSERT_TRUE(named);
  EXPECT_EQ((*named)->cacheKey(), (*mask)->cacheKey());
  EXPECT_EQ((*named)->timeout(), std::chrono::milliseconds(5));
}

TEST(Application, BadInputIsATypedErrorNamingTheApplication) {
  auto rt = makeCompileOnly();
  std::string garbage("\x01\x02garbage\x00\xff", 12);
  auto a = rt->loadApplication(span(garbage), {.name = "tenant-x"});
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code(), ErrorCode::InvalidBitcode);
  EXPECT_EQ(a.error().message().rfind("application 'tenant-x': ", 0), 0u) << a.error().message();
  auto empty = rt->loadApplication(nullptr, 0);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code(), ErrorCode::InvalidBitcode);
  auto x86 = rt->loadApplication(span(X86));
  ASSERT_FALSE(x86);
  EXPECT_EQ(x86.error().code(), ErrorCode::WrongTarget);
  auto opt = rt->loadApplication(span(VecAdd), {.optLevel = 9});
  ASSERT_FALSE(opt);
  EXPECT_EQ(opt.error().code(), ErrorCode::InvalidArgument);
  auto file = rt->loadApplicationFile("/nonexistent/app.bc");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code(), ErrorCode::IoError);
}

TEST(Application, RefusalCarriesThePassDiagnosticsAndChangesNothing) {
  auto rt = makeCompileOnly();
  auto good = rt->loadApplication(span(VecAdd));
  ASSERT_TRUE(good);
  auto bad = rt->loadApplication(span(AsmStore), {.name = "attacker"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::Refused) << bad.error().describe();
  EXPECT_NE(bad.error().message().find("application 'attacker'"), std::string::npos);
  EXPECT_NE(bad.error().detail().find("atoll-mem"), std::string::npos) << bad.error().detail();
  EXPECT_NE(bad.error().detail().find("evil"), std::string::npos) << bad.error().detail();
  // Nothing was cached for the refused module; the good one is still there.
  EXPECT_EQ(rt->stats().cachedModules, 1u);
  auto again = rt->loadApplication(span(VecAdd));
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)->origin(), Application::Origin::MemoryCache);
}

TEST(Application, LoadsFromAFile) {
  TempDir dir;
  fs::create_directories(dir.path);
  std::string path = (dir.path / "vadd.ll").string();
  std::ofstream(path) << VecAdd;
  auto rt = makeCompileOnly();
  auto app = rt->loadApplicationFile(path);
  ASSERT_TRUE(app) << app.error().describe();
  EXPECT_EQ((*app)->kernels().size(), 1u);
}

TEST(Application, DiskCacheSurvivesTheRuntime) {
  TempDir dir;
  RuntimeOptions o = compileOnly();
  o.ptxCacheDir = (dir.path / "ptx").string();
  std::string key, ptx;
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app);
    EXPECT_EQ((*app)->origin(), Application::Origin::Compiled);
    key = (*app)->cacheKey();
    ptx = (*app)->ptx();
    EXPECT_TRUE(fs::exists(fs::path(o.ptxCacheDir) / (key + ".ptxc")));
  }
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app);
    EXPECT_EQ((*app)->origin(), Application::Origin::DiskCache);
    EXPECT_EQ((*app)->ptx(), ptx);
    EXPECT_EQ((*app)->kernels()[0].params.size(), 4u);
    EXPECT_EQ(rt->stats().compilations, 0u);
    EXPECT_EQ(rt->stats().diskCacheHits, 1u);
  }
  // A damaged entry is ignored and replaced.
  std::ofstream(fs::path(o.ptxCacheDir) / (key + ".ptxc"), std::ios::trunc) << "garbage";
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app);
    EXPECT_EQ((*app)->origin(), Application::Origin::Compiled);
  }
}

TEST(Application, ConcurrentLoadsAgree) {
  auto rt = makeCompileOnly();
  std::vector<std::thread> ts;
  std::vector<std::string> keys(8);
  for (int i = 0; i < 8; ++i)
    ts.emplace_back([&, i] {
      auto app = rt->loadApplication(span(VecAdd));
      ASSERT_TRUE(app) << app.error().describe();
      keys[i] = (*app)->cacheKey();
    });
  for (auto &t : ts)
    t.join();
  for (auto &k : keys)
    EXPECT_EQ(k, keys[0]);
  EXPECT_EQ(rt->stats().cachedModules, 1u);
}

TEST(Application, OutlivesItsRuntimeObject) {
  std::shared_ptr<Application> app;
  {
    auto rt = makeCompileOnly();
    auto a = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(a);
    app = *a;
  }
  EXPECT_EQ(app->kernels()[0].name, "vadd");
  auto k = app->kernel("vadd");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->info().params.size(), 4u);
}

TEST(Clamping, NamesMatchTheAbi) {
  EXPECT_EQ(to_string(Clamping::MaskBased), ATOLL_MODE_MASK);
  EXPECT_EQ(to_string(Clamping::ModuloBased), ATOLL_MODE_MODULO);
}

#ifdef ATOLL_GPU_TEST_BITCODE_DIR
// The tenant bitcode of the GPU tests goes through the same toolchain here, so that
// a hardening refusal shows up without a GPU: everything is accepted except the
// module that must be refused.
TEST(Application, GpuTestKernelsCompileWithoutAGpu) {
  auto rt = makeCompileOnly();
  auto path = [](const char *f) { return std::string(ATOLL_GPU_TEST_BITCODE_DIR) + "/" + f; };
  for (const char *f : {"runtime_kernels.bc", "math_kernels.bc", "math_prelinked.bc"}) {
    for (Clamping mode : {Clamping::MaskBased, Clamping::ModuloBased}) {
      auto app = rt->loadApplicationFile(path(f), {.clamping = mode});
      ASSERT_TRUE(app) << f << ": " << app.error().describe();
      for (const KernelInfo &k : (*app)->kernels())
        EXPECT_TRUE(detail_hasHiddenParams((*app)->ptx(), k)) << f << " " << k.name;
    }
  }
  auto kernels = rt->loadApplicationFile(path("runtime_kernels.bc"));
  ASSERT_TRUE(kernels);
  for (const char *name : {"vadd", "fill_u32", "spin", "reverse_blocks", "affine"})
    EXPECT_GE((*kernels)->findKernel(name), 0) << name;
  auto affine = (*kernels)->kernel("affine");
  ASSERT_TRUE(affine);
  EXPECT_EQ(affine->info().params[0].kind, ParamKind::ByVal);
  EXPECT_EQ(affine->info().params[0].size, 12u);
  auto math = rt->loadApplicationFile(path("math_kernels.bc"));
  ASSERT_TRUE(math);
  EXPECT_EQ((*math)->ptx().find("__nv_"), std::string::npos) << "libdevice was not linked";
  auto refused = rt->loadApplicationFile(path("refused_kernels.bc"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::Refused) << refused.error().describe();
}
#endif

namespace {

// A disk-cache entry is checked like a fresh compilation before it is loaded: an
// entry with a valid MAC (written with the service's own key) but forged PTX (here
// a trap before the ret) is never loaded; the runtime compiles afresh and replaces it.
TEST(Application, ForgedDiskEntryIsValidatedAndReplaced) {
  TempDir dir;
  RuntimeOptions o = compileOnly();
  o.ptxCacheDir = (dir.path / "ptx").string();
  o.ptxCacheKey = std::string(32, 'k');
  std::string key;
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app);
    key = (*app)->cacheKey();
  }
  auto disk = detail::DiskCache::open(o.ptxCacheDir, o.ptxCacheKey);
  ASSERT_TRUE(disk) << disk.error().message();
  auto entry = (*disk)->read(key);
  ASSERT_TRUE(entry);
  size_t ret = entry->ptx.rfind("\tret;");
  ASSERT_NE(ret, std::string::npos);
  entry->ptx.insert(ret, "\ttrap;\n");
  ASSERT_TRUE((*disk)->write(key, *entry));
  ASSERT_TRUE((*disk)->read(key)); // the MAC is fine
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app) << app.error().message();
    EXPECT_EQ((*app)->origin(), Application::Origin::Compiled);
    EXPECT_EQ(rt->stats().diskCacheHits, 0u);
    EXPECT_EQ((*app)->ptx().find("trap"), std::string::npos);
  }
  auto replaced = (*disk)->read(key);
  ASSERT_TRUE(replaced);
  EXPECT_EQ(replaced->ptx.find("trap"), std::string::npos);
}

// R10-F1: a disk-cache entry over the module caps (here 16,001 kernels, MAC valid) is
// refused when it is read, from its size alone: no scan of its PTX (which lacks
// 16,000 of the entries), no compile. Under a cap that admits it, its validation
// (linear) fails and the runtime compiles afresh and replaces it.
TEST(Application, DiskEntryOverTheKernelCapIsRefusedWhenRead) {
  TempDir dir;
  RuntimeOptions o = compileOnly();
  o.ptxCacheDir = (dir.path / "ptx").string();
  o.ptxCacheKey = std::string(32, 'k');
  std::string key;
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app);
    key = (*app)->cacheKey();
  }
  auto disk = detail::DiskCache::open(o.ptxCacheDir, o.ptxCacheKey);
  ASSERT_TRUE(disk) << disk.error().message();
  auto entry = (*disk)->read(key);
  ASSERT_TRUE(entry);
  for (int i = 0; i < 16000; ++i)
    entry->kernels.push_back(KernelInfo{.name = "k" + std::to_string(i)});
  ASSERT_TRUE((*disk)->write(key, *entry));
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_FALSE(app);
    EXPECT_EQ(app.error().code(), ErrorCode::CapacityExceeded);
    EXPECT_NE(app.error().message().find("the module has 16001 kernels; at most 512 are loaded "
                                         "(RuntimeOptions::maxKernelsPerModule)"),
              std::string::npos)
        << app.error().message();
    EXPECT_EQ(rt->stats().compilations, 0u);
  }
  o.maxKernelsPerModule = 20000;
  {
    auto rt = makeCompileOnly(o);
    auto app = rt->loadApplication(span(VecAdd));
    ASSERT_TRUE(app) << app.error().message();
    EXPECT_EQ((*app)->origin(), Application::Origin::Compiled);
    EXPECT_EQ(rt->stats().diskCacheHits, 0u);
  }
  auto replaced = (*disk)->read(key);
  ASSERT_TRUE(replaced);
  EXPECT_EQ(replaced->kernels.size(), 1u);
}

// The validator's refusal reaches the host as a typed Refused error naming the line.
TEST(Application, PtxValidatorRefusalIsTyped) {
  auto rt = makeCompileOnly();
  auto app = rt->loadApplication(span(withHeader(R"(
define ptx_kernel void @k(ptr %p) "nvvm.cluster_dim"="2,1,1" {
  store i32 1, ptr %p
  ret void
}
)")));
  ASSERT_FALSE(app);
  EXPECT_EQ(app.error().code(), ErrorCode::Refused);
  EXPECT_NE(app.error().message().find("refused by the PTX validator: PTX line "),
            std::string::npos)
      << app.error().message();
  EXPECT_NE(app.error().message().find("'.explicitcluster'"), std::string::npos);
}

} // namespace
TEST(Runtime, UnsafeDiskCacheDirectoryIsRefusedAtCreation) {
  TempDir dir;
  RuntimeOptions o = compileOnly();
  o.ptxCacheDir = (dir.path / "ptx").string();
  fs::create_directories(o.ptxCacheDir);
  fs::permissions(o.ptxCacheDir, fs::perms::owner_all | fs::perms::others_write);
  auto rt = Runtime::create(o);
  ASSERT_FALSE(rt);
  EXPECT_EQ(rt.error().code(), ErrorCode::IoError);
  EXPECT_NE(rt.error().message().find("writable by group or others"), std::string::npos)
      << rt.error().message();
  o.ptxCacheDir.clear();
  o.ptxCacheKey = std::string(32, 'k');
  auto noDir = Runtime::create(o);
  ASSERT_FALSE(noDir);
  EXPECT_EQ(noDir.error().code(), ErrorCode::InvalidArgument);
  o.ptxCacheKey.clear();
  o.loadTimeout = std::chrono::milliseconds(0);
  auto badTimeout = Runtime::create(o);
  ASSERT_FALSE(badTimeout);
  EXPECT_EQ(badTimeout.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(badTimeout.error().message().find("loadTimeout"), std::string::npos);
}

TEST(Application, AsyncLoadGivesTheSameApplication) {
  auto rt = makeCompileOnly();
  PendingApplication pending = rt->loadApplicationAsync(span(VecAdd));
  auto app = pending.wait(std::chrono::milliseconds::max()); // saturated, not overflowed
  ASSERT_TRUE(app) << app.error().describe();
  EXPECT_TRUE(pending.ready());
  EXPECT_EQ((*app)->kernels().size(), 1u);
  auto bad = rt->loadApplicationAsync(std::span<const uint8_t>());
  auto err = bad.wait(std::chrono::milliseconds(0));
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().code(), ErrorCode::InvalidBitcode);
  PendingApplication empty;
  auto none = empty.wait(std::chrono::milliseconds(1));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code(), ErrorCode::InvalidArgument);
}

// --- The module memory budget (review R7-F10) ------------------------------------------

namespace {

/// Distinct modules of one size: vadd renamed vadd_NNN.
std::string vaddNumbered(int i) {
  char name[16];
  std::snprintf(name, sizeof name, "vadd_%03d", i);
  std::string ir = VecAdd;
  ir.replace(ir.find("@vadd("), 5, std::string("@") + name);
  return ir;
}

} // namespace

// A tenant's many distinct loads: what the runtime keeps for its modules (here the
// PTX, which a compile-only runtime keeps, and the signatures) stays under
// RuntimeOptions::moduleMemoryBudget: unused modules are evicted least recently used
// first; past the modules in use a load is CapacityExceeded naming the application,
// and loads go on once an application is released. By count alone (1024) all ten
// would stay.
TEST(Application, ModuleMemoryBudgetBoundsWhatTheRuntimeKeeps) {
  uint64_t one = 0;
  {
    auto probe = makeCompileOnly();
    auto app = probe->loadApplication(span(vaddNumbered(999)));
    ASSERT_TRUE(app) << app.error().describe();
    one = probe->stats().moduleBytes;
    EXPECT_GT(one, (*app)->ptx().size()) << "the kept PTX and the signatures";
    EXPECT_EQ(probe->stats().moduleMemoryBudget, uint64_t(1) << 30) << "the default";
  }
  RuntimeOptions o = compileOnly();
  o.moduleMemoryBudget = 4 * one + one / 2; // four modules fit
  auto rt = makeCompileOnly(o);
  for (int i = 0; i < 10; ++i) {
    auto app = rt->loadApplication(span(vaddNumbered(i)));
    ASSERT_TRUE(app) << i << ": " << app.error().describe();
    EXPECT_FALSE((*app)->ptx().empty()) << "a compile-only runtime keeps the PTX";
    EXPECT_LE(rt->stats().moduleBytes, o.moduleMemoryBudget) << i;
  }
  EXPECT_EQ(rt->stats().cachedModules, 4u);
  EXPECT_EQ(rt->stats().moduleBytes, 4 * one);
  // The most recent stay (a memory hit), the first went (compiled again).
  auto recent = rt->loadApplication(span(vaddNumbered(9)));
  ASSERT_TRUE(recent);
  EXPECT_EQ((*recent)->origin(), Application::Origin::MemoryCache);
  recent = rt->loadApplication(span(vaddNumbered(0)));
  ASSERT_TRUE(recent);
  EXPECT_EQ((*recent)->origin(), Application::Origin::Compiled);
  recent->reset();

  // Held applications: four fit, the fifth is refused and named.
  std::vector<std::shared_ptr<Application>> held;
  for (int i = 10; i < 14; ++i) {
    auto app = rt->loadApplication(span(vaddNumbered(i)));
    ASSERT_TRUE(app) << i << ": " << app.error().describe();
    held.push_back(*app);
  }
  auto refused = rt->loadApplication(span(vaddNumbered(14)), {.name = "hog-5"});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::CapacityExceeded) << refused.error().describe();
  EXPECT_EQ(refused.error().message().rfind("application 'hog-5': the module needs ", 0), 0u)
      << refused.error().message();
  EXPECT_NE(refused.error().message().find(
                "but the modules in use (and loads in progress) hold " + std::to_string(4 * one) +
                " of the " + std::to_string(o.moduleMemoryBudget) +
                "-byte module memory budget (RuntimeOptions::moduleMemoryBudget)"),
            std::string::npos)
      << refused.error().message();
  EXPECT_EQ(rt->stats().moduleRefusals, 1u);
  EXPECT_LE(rt->stats().moduleBytes, o.moduleMemoryBudget);
  // The loaded applications go on (a memory hit needs no room); one released, the
  // refused load fits.
  auto again = rt->loadApplication(span(vaddNumbered(10)));
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ((*again)->origin(), Application::Origin::MemoryCache);
  held.pop_back();
  auto later = rt->loadApplication(span(vaddNumbered(14)), {.name = "hog-5"});
  EXPECT_TRUE(later) << later.error().describe();

  // A module larger than the whole budget, and a budget of 0.
  o.moduleMemoryBudget = one / 2;
  auto tiny = makeCompileOnly(o);
  auto big = tiny->loadApplication(span(vaddNumbered(0)), {.name = "big"});
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(big.error().message().find("application 'big': the module needs " +
                                       std::to_string(one) +
                                       " bytes of service memory (its cubin, its signatures, its "
                                       "PTX when kept), more than the whole module memory budget"),
            std::string::npos)
      << big.error().message();
  o.moduleMemoryBudget = 0;
  auto zero = Runtime::create(o);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(zero.error().message().find("RuntimeOptions::moduleMemoryBudget must be positive"),
            std::string::npos)
      << zero.error().message();
}
