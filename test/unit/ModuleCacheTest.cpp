// The module cache without a GPU: content-hash keys (stable, and different for any
// change of bytes or options), the on-disk entry format (round trip, corruption and
// truncation detection), atomic disk writes in a temp directory, the PTX check for
// the hidden parameters, and the in-memory LRU.
#include "ModuleCache.h"

#include "atoll/abi.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <unistd.h>
#include <fstream>
#include <thread>

using namespace Atoll;
using namespace Atoll::detail;
namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytes(std::string_view s) { return {s.begin(), s.end()}; }

CacheKeyInput baseInput() {
  CacheKeyInput in;
  in.clamping = Clamping::MaskBased;
  in.optLevel = 2;
  in.targetArch = "sm_90";
  in.ptxVersion = "";
  in.libdevicePath = "";
  in.toolchainId = "test-toolchain";
  return in;
}

CompiledEntry sampleEntry() {
  CompiledEntry e;
  KernelInfo k1;
  k1.name = "_Z4vaddPKfS0_Pfi";
  k1.params = {{ParamKind::Pointer, 8, 8, false, false, "ptr"},
               {ParamKind::Scalar, 4, 4, false, true, "i32"},
               {ParamKind::Scalar, 4, 4, true, false, "float"}};
  KernelInfo k2;
  k2.name = "weird";
  // Type names with spaces, newlines and digits must survive the format.
  k2.params = {{ParamKind::ByVal, 24, 8, false, false, "%\"struct.a b\"\np 1 2"}};
  KernelInfo k3;
  k3.name = "noparams";
  e.kernels = {k1, k2, k3};
  e.ptx = std::string("//\n.version 7.8\n.target sm_90\n") + std::string("\0binary\xff", 8);
  return e;
}

void expectSame(const CompiledEntry &a, const CompiledEntry &b) {
  EXPECT_EQ(a.ptx, b.ptx);
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    EXPECT_EQ(a.kernels[i].name, b.kernels[i].name);
    ASSERT_EQ(a.kernels[i].params.size(), b.kernels[i].params.size());
    for (size_t j = 0; j < a.kernels[i].params.size(); ++j) {
      const ParamInfo &x = a.kernels[i].params[j], &y = b.kernels[i].params[j];
      EXPECT_EQ(x.kind, y.kind);
      EXPECT_EQ(x.size, y.size);
      EXPECT_EQ(x.align, y.align);
      EXPECT_EQ(x.isFloat, y.isFloat);
      EXPECT_EQ(x.isSigned, y.isSigned);
      EXPECT_EQ(x.type, y.type);
    }
  }
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("atoll-cache-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

} // namespace

TEST(CacheKey, IsStableAndHex) {
  auto b = bytes("some bitcode");
  std::string k1 = computeCacheKey(b, baseInput());
  std::string k2 = computeCacheKey(b, baseInput());
  EXPECT_EQ(k1, k2);
  ASSERT_EQ(k1.size(), 64u);
  EXPECT_EQ(k1.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(CacheKey, ChangesWithEveryInput) {
  auto b = bytes("some bitcode");
  std::set<std::string> keys;
  keys.insert(computeCacheKey(b, baseInput()));
  auto flipped = b;
  flipped[3] ^= 1;
  keys.insert(computeCacheKey(flipped, baseInput()));
  auto longer = b;
  longer.push_back(0);
  keys.insert(computeCacheKey(longer, baseInput()));
  keys.insert(computeCacheKey({}, baseInput()));
  auto in = baseInput();
  in.clamping = Clamping::ModuloBased;
  keys.insert(computeCacheKey(b, in));
  in = baseInput();
  in.optLevel = 3;
  keys.insert(computeCacheKey(b, in));
  in = baseInput();
  in.targetArch = "sm_100";
  keys.insert(computeCacheKey(b, in));
  in = baseInput();
  in.ptxVersion = "+ptx80";
  keys.insert(computeCacheKey(b, in));
  in = baseInput();
  in.libdevicePath = "/other/libdevice.10.bc";
  keys.insert(computeCacheKey(b, in));
  in = baseInput();
  in.toolchainId = "another build";
  keys.insert(computeCacheKey(b, in));
  EXPECT_EQ(keys.size(), 10u);
}

TEST(CacheKey, ToolchainIdentityNamesLLVM) {
  std::string id = toolchainIdentity();
  EXPECT_EQ(id.rfind("llvm ", 0), 0u) << id;
  EXPECT_EQ(id, toolchainIdentity());
}

TEST(CacheEntry, RoundTrips) {
  CompiledEntry e = sampleEntry();
  std::string key(64, 'a');
  auto back = parseEntry(key, serializeEntry(key, e));
  ASSERT_TRUE(back);
  expectSame(e, *back);
}

TEST(CacheEntry, RejectsOtherKeysCorruptionAndTruncation) {
  CompiledEntry e = sampleEntry();
  std::string key(64, 'a');
  std::string data = serializeEntry(key, e);
  EXPECT_FALSE(parseEntry(std::string(64, 'b'), data));
  for (size_t n = 0; n < data.size(); ++n)
    ASSERT_FALSE(parseEntry(key, std::string_view(data).substr(0, n))) << "prefix " << n;
  EXPECT_FALSE(parseEntry(key, data + "x"));
  for (size_t i : {size_t(0), data.size() / 2, data.size() - 1}) {
    std::string bad = data;
    bad[i] ^= 0x20;
    EXPECT_FALSE(parseEntry(key, bad)) << "flipped byte " << i;
  }
}

TEST(DiskCache, WriteThenReadInATempDir) {
  TempDir dir;
  std::string key(64, 'c');
  CompiledEntry e = sampleEntry();
  EXPECT_FALSE(readDiskEntry(dir.path.string(), key)); // missing directory
  ASSERT_TRUE(writeDiskEntry((dir.path / "nested").string(), key, e));
  auto back = readDiskEntry((dir.path / "nested").string(), key);
  ASSERT_TRUE(back);
  expectSame(e, *back);
  // Nothing but the entry is left behind (no temp files).
  size_t files = 0;
  for (auto &f : fs::directory_iterator(dir.path / "nested")) {
    ++files;
    EXPECT_EQ(f.path().filename().string(), key + ".ptxc");
  }
  EXPECT_EQ(files, 1u);
}

TEST(DiskCache, CorruptFilesAreIgnored) {
  TempDir dir;
  std::string key(64, 'd');
  ASSERT_TRUE(writeDiskEntry(dir.path.string(), key, sampleEntry()));
  std::string path = diskEntryPath(dir.path.string(), key);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('#');
  }
  EXPECT_FALSE(readDiskEntry(dir.path.string(), key));
  fs::resize_file(path, 10);
  EXPECT_FALSE(readDiskEntry(dir.path.string(), key));
}

TEST(DiskCache, ConcurrentWritersLeaveAValidEntry) {
  TempDir dir;
  std::string key(64, 'e');
  CompiledEntry e = sampleEntry();
  std::vector<std::thread> ts;
  for (int i = 0; i < 8; ++i)
    ts.emplace_back([&] {
      for (int j = 0; j < 20; ++j) {
        EXPECT_TRUE(writeDiskEntry(dir.path.string(), key, e));
        auto r = readDiskEntry(dir.path.string(), key);
        EXPECT_TRUE(r); // a reader never sees a half-written file
      }
    });
  for (auto &t : ts)
    t.join();
  auto back = readDiskEntry(dir.path.string(), key);
  ASSERT_TRUE(back);
  expectSame(e, *back);
}

TEST(DiskCache, UnwritableDirectoryIsAnIoError) {
  Status s = writeDiskEntry("/proc/atoll-cannot-exist", std::string(64, 'f'), sampleEntry());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::IoError);
}

// --- PTX entry parameters ----------------------------------------------------------

namespace {
const char *kPtx = R"(
//
// Generated by LLVM NVPTX Back-End
//
.version 7.8
.target sm_90
.address_size 64

	// .globl	vadd
.visible .entry vadd(
	.param .u64 .ptr .align 1 vadd_param_0,
	.param .u64 .ptr .align 1 vadd_param_1,
	.param .u32 vadd_param_2,
	.param .u64 vadd_param_3,
	.param .u64 vadd_param_4,
	.param .u64 vadd_param_5
)
{
	ret;
}
.visible .entry vadd2(
	.param .align 8 .b8 vadd2_param_0[24],
	.param .u64 vadd2_param_1,
	.param .u32 vadd2_param_2
)
{
	ret;
}
.visible .entry empty()
{
	ret;
}
.visible .entry hidden_only(
	.param .u64 hidden_only_param_0,
	.param .u64 hidden_only_param_1,
	.param .u64 hidden_only_param_2
)
{
	ret;
}
)";

KernelInfo info(std::string name, size_t params) {
  KernelInfo k;
  k.name = std::move(name);
  k.params.resize(params);
  return k;
}
} // namespace

TEST(PtxEntries, ParamsOfEachEntry) {
  auto v = ptxEntryParams(kPtx, "vadd");
  ASSERT_TRUE(v);
  ASSERT_EQ(v->size(), 6u);
  EXPECT_EQ((*v)[0], ".param .u64 .ptr .align 1 vadd_param_0");
  EXPECT_EQ((*v)[4], ".param .u64 vadd_param_4");
  EXPECT_EQ((*v)[5], ".param .u64 vadd_param_5");
  auto v2 = ptxEntryParams(kPtx, "vadd2"); // not confused with the prefix "vadd"
  ASSERT_TRUE(v2);
  EXPECT_EQ(v2->size(), 3u);
  auto e = ptxEntryParams(kPtx, "empty");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->empty());
  EXPECT_FALSE(ptxEntryParams(kPtx, "vad"));
  EXPECT_FALSE(ptxEntryParams(kPtx, "missing"));
  EXPECT_FALSE(ptxEntryParams("", "vadd"));
}

TEST(PtxEntries, HardenedEntriesCarryTheHiddenParams) {
  EXPECT_TRUE(checkHardenedEntries(kPtx, {info("vadd", 3), info("hidden_only", 0)}));
  // vadd with 5 tenant params would need 8 in the PTX.
  Status s = checkHardenedEntries(kPtx, {info("vadd", 5)});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::CompileError);
  EXPECT_NE(s.error().message().find("not hardened"), std::string::npos);
  // vadd2's last parameter is 32-bit: not a hidden parameter.
  s = checkHardenedEntries(kPtx, {info("vadd2", 0)});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("not 64-bit"), std::string::npos);
  s = checkHardenedEntries(kPtx, {info("empty", 0)});
  EXPECT_FALSE(s);
  s = checkHardenedEntries(kPtx, {info("missing", 0)});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("not an entry"), std::string::npos);
}

// --- in-memory LRU -------------------------------------------------------------------

namespace {
std::shared_ptr<const LoadedModule> module(std::string key) {
  auto m = std::make_shared<LoadedModule>();
  m->key = std::move(key);
  return m;
}
} // namespace

TEST(ModuleCacheLru, FindInsertAndFirstWins) {
  ModuleCache c(4);
  EXPECT_EQ(c.find("a"), nullptr);
  auto a = c.insert(module("a"));
  EXPECT_EQ(c.find("a"), a);
  auto again = c.insert(module("a"));
  EXPECT_EQ(again, a) << "the module already cached must win";
  EXPECT_EQ(c.size(), 1u);
}

TEST(ModuleCacheLru, EvictsLeastRecentlyUsedUnusedModules) {
  ModuleCache c(2);
  c.insert(module("a"));
  c.insert(module("b"));
  c.find("a"); // a is now more recent than b
  c.insert(module("c"));
  EXPECT_EQ(c.size(), 2u);
  EXPECT_NE(c.find("a"), nullptr);
  EXPECT_EQ(c.find("b"), nullptr);
  EXPECT_NE(c.find("c"), nullptr);
}

TEST(ModuleCacheLru, ModulesInUseAreNotEvicted) {
  ModuleCache c(1);
  auto held = c.insert(module("a"));
  auto b = c.insert(module("b")); // over capacity, but "a" is held and "b" is returned
  EXPECT_NE(c.find("a"), nullptr);
  held.reset();
  b.reset();
  c.insert(module("c"));
  EXPECT_EQ(c.size(), 1u);
  EXPECT_NE(c.find("c"), nullptr);
}
