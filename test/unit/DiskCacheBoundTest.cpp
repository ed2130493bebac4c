// The disk cache's bound (RuntimeOptions::ptxCacheMaxBytes): a tenant loading many
// distinct modules must not fill the disk. Stores delete the least recently used
// entries (a hit refreshes an entry's modification time) and stale temporary files
// first; an entry larger than the bound is not stored.
#include "DiskCache.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

using namespace Atoll;
using namespace Atoll::detail;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("atoll-cache-bound-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// An entry of about `bytes` bytes (its PTX), distinct per `seed`.
CompiledEntry entryOf(size_t bytes, char seed) {
  CompiledEntry e;
  KernelInfo k;
  k.name = "k";
  e.kernels = {k};
  e.ptx = std::string("//\n.version 7.8\n.target sm_90\n") + std::string(bytes, seed);
  e.cubin = std::string("\x7f" "ELF", 4) + std::string(64, seed);
  return e;
}

std::string keyOf(char c) { return std::string(64, c); }

std::unique_ptr<DiskCache> open(const fs::path &dir, uint64_t maxBytes) {
  auto c = DiskCache::open(dir.string(), {}, maxBytes);
  EXPECT_TRUE(c) << (c ? "" : c.error().describe());
  return c ? std::move(*c) : nullptr;
}

/// Sets a file's modification time to `seconds` after the epoch (old: evicted first).
void age(const fs::path &file, time_t seconds) {
  struct timespec t[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), t, 0), 0) << file;
}

std::set<std::string> entriesIn(const fs::path &dir) {
  std::set<std::string> out;
  for (auto &f : fs::directory_iterator(dir))
    if (f.path().extension() == ".ptxc")
      out.insert(f.path().stem().string());
  return out;
}

} // namespace

TEST(DiskCacheBound, AZeroBoundIsRefused) {
  TempDir dir;
  auto c = DiskCache::open(dir.path.string(), {}, 0);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(c.error().message(), "RuntimeOptions::ptxCacheMaxBytes must be positive");
  EXPECT_EQ(DiskCache::kDefaultMaxBytes, uint64_t(1) << 30);
}

// Entries of 24 KiB on disk under a 64 KiB bound (two fit): storing the third
// deletes the least recently used one, which is B (A was older but read since).
TEST(DiskCacheBound, EvictsTheLeastRecentlyUsedEntry) {
  TempDir dir;
  auto cache = open(dir.path, 64 << 10);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->write(keyOf('a'), entryOf(24000, 'a')));
  ASSERT_TRUE(cache->write(keyOf('b'), entryOf(24000, 'b')));
  age(dir.path / (keyOf('a') + ".ptxc"), 1000);
  age(dir.path / (keyOf('b') + ".ptxc"), 2000);
  ASSERT_TRUE(cache->read(keyOf('a'))); // a hit: A is now the most recently used
  ASSERT_TRUE(cache->write(keyOf('c'), entryOf(24000, 'c')));
  EXPECT_EQ(entriesIn(dir.path), (std::set<std::string>{keyOf('a'), keyOf('c')}));
  EXPECT_LE(cache->usedBytes(), cache->maxBytes());
  EXPECT_TRUE(cache->read(keyOf('a')));
  EXPECT_FALSE(cache->read(keyOf('b')));
  EXPECT_TRUE(cache->read(keyOf('c')));
}

// Without a hit the order is the order of the stores (oldest first).
TEST(DiskCacheBound, WithoutHitsTheOldestStoreGoesFirst) {
  TempDir dir;
  auto cache = open(dir.path, 64 << 10);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->write(keyOf('a'), entryOf(24000, 'a')));
  age(dir.path / (keyOf('a') + ".ptxc"), 1000);
  ASSERT_TRUE(cache->write(keyOf('b'), entryOf(24000, 'b')));
  age(dir.path / (keyOf('b') + ".ptxc"), 2000);
  ASSERT_TRUE(cache->write(keyOf('c'), entryOf(24000, 'c')));
  EXPECT_EQ(entriesIn(dir.path), (std::set<std::string>{keyOf('b'), keyOf('c')}));
  age(dir.path / (keyOf('c') + ".ptxc"), 3000);
  ASSERT_TRUE(cache->write(keyOf('d'), entryOf(24000, 'd')));
  EXPECT_EQ(entriesIn(dir.path), (std::set<std::string>{keyOf('c'), keyOf('d')}));
}

// A hostile tenant loading many distinct modules: the directory never grows past
// the bound, and the latest entry is always there.
TEST(DiskCacheBound, ManyDistinctModulesNeverExceedTheBound) {
  TempDir dir;
  const uint64_t bound = 100 << 10;
  auto cache = open(dir.path, bound);
  ASSERT_TRUE(cache);
  const std::string hex = "0123456789abcdef";
  for (int i = 0; i < 200; ++i) {
    std::string key(64, '0');
    key[0] = hex[i % 16];
    key[1] = hex[(i / 16) % 16];
    ASSERT_TRUE(cache->write(key, entryOf(9000, char('a' + i % 26)))) << i;
    ASSERT_LE(cache->usedBytes(), bound) << "after store " << i;
    ASSERT_TRUE(cache->read(key)) << "the entry just stored was evicted, store " << i;
  }
  EXPECT_LE(entriesIn(dir.path).size(), size_t(bound / 8192));
  EXPECT_GE(entriesIn(dir.path).size(), 3u);
}

// An entry larger than the whole bound is not stored, and nothing is evicted for it.
TEST(DiskCacheBound, AnEntryLargerThanTheBoundIsNotStored) {
  TempDir dir;
  auto cache = open(dir.path, 16 << 10);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->write(keyOf('a'), entryOf(1000, 'a')));
  Status s = cache->write(keyOf('b'), entryOf(40000, 'b'));
  ASSERT_FALSE(s) << "an entry over the bound was stored";
  EXPECT_EQ(s.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(s.error().message().find(
                "bytes of disk, more than the cache's bound (RuntimeOptions::ptxCacheMaxBytes "
                "= 16384)"),
            std::string::npos)
      << s.error().message();
  EXPECT_EQ(entriesIn(dir.path), (std::set<std::string>{keyOf('a')}));
  for (auto &f : fs::directory_iterator(dir.path))
    EXPECT_FALSE(f.path().filename().string().starts_with(".tmp-")) << "a temporary file was left";
}

// Rewriting an entry (a cubin added) replaces it: its old file does not count.
TEST(DiskCacheBound, ReplacingAnEntryEvictsNothing) {
  TempDir dir;
  auto cache = open(dir.path, 48 << 10);
  ASSERT_TRUE(cache);
  ASSERT_TRUE(cache->write(keyOf('a'), entryOf(24000, 'a')));
  ASSERT_TRUE(cache->write(keyOf('b'), entryOf(24000, 'b')));
  age(dir.path / (keyOf('b') + ".ptxc"), 1000); // b is the oldest
  ASSERT_TRUE(cache->write(keyOf('a'), entryOf(24000, 'z')));
  EXPECT_EQ(entriesIn(dir.path), (std::set<std::string>{keyOf('a'), keyOf('b')}));
  auto a = cache->read(keyOf('a'));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->ptx.back(), 'z');
}

// Temporary files count: one left by a crash (older than kStaleTemporary) is
// deleted by the next store; a fresh one (a write in progress) is kept.
TEST(DiskCacheBound, StaleTemporaryFilesAreDeleted) {
  TempDir dir;
  auto cache = open(dir.path, 64 << 10);
  ASSERT_TRUE(cache);
  const fs::path stale = dir.path / ".tmp-left-by-a-crash", fresh = dir.path / ".tmp-in-progress";
  for (const fs::path &p : {stale, fresh}) {
    std::ofstream(p, std::ios::binary) << std::string(20000, 'x');
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write);
  }
  age(stale, 1000);
  EXPECT_GE(cache->usedBytes(), 40000u) << "temporary files are not counted";
  ASSERT_TRUE(cache->write(keyOf('a'), entryOf(24000, 'a')));
  EXPECT_FALSE(fs::exists(stale)) << "a stale temporary file was kept";
  EXPECT_TRUE(fs::exists(fresh)) << "a write in progress lost its file";
  EXPECT_LE(cache->usedBytes(), cache->maxBytes());
}
