// The on-disk cache of compiled modules (PTX, cubin, signatures). Whoever can write
// its directory could otherwise get an unhardened module loaded, so: the directory must be ours and writable by nobody else
// (checked on the open descriptor, which every later access goes through, so a
// renamed or replaced path does not matter); files are opened O_NOFOLLOW and must be
// regular files of ours; new files get a random name, O_EXCL; and every entry
// carries a keyed BLAKE3 MAC with a key only the service holds.
#include "DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"

#include <fmt/format.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace Atoll::detail {
namespace {

constexpr const char *kKeyFile = ".atoll-cache-key";
constexpr uint64_t kMaxEntryBytes = 1ull << 30;

std::string errnoText(int e) { return std::error_code(e, std::generic_category()).message(); }

bool randomBytes(uint8_t *out, size_t n) {
  while (n) {
    ssize_t got = ::getrandom(out, n, 0);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    out += got;
    n -= size_t(got);
  }
  return true;
}

bool writeAll(int fd, const void *data, size_t n) {
  auto *p = static_cast<const char *>(data);
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    p += w;
    n -= size_t(w);
  }
  return true;
}

/// Reads a whole regular file of ours (not group/other-writable) through `fd`.
std::optional<std::string> readOwnFile(int fd, uint64_t limit) {
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
      (st.st_mode & (S_IWGRP | S_IWOTH)) || uint64_t(st.st_size) > limit)
    return std::nullopt;
  std::string out(size_t(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t r = ::read(fd, out.data() + done, out.size() - done);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return std::nullopt;
    done += size_t(r);
  }
  return out;
}

std::string randomName(std::string_view prefix) {
  uint8_t bytes[16];
  if (!randomBytes(bytes, sizeof bytes))
    return {};
  return std::string(prefix) + llvm::toHex(llvm::ArrayRef<uint8_t>(bytes), true);
}

bool isCacheKey(std::string_view key) {
  if (key.size() != 64)
    return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

/// Disk space of a file: its allocated blocks, at least its size in 4 KiB blocks
/// (a just-written file may not have its blocks allocated yet).
uint64_t diskBytes(const struct stat &st) {
  return std::max<uint64_t>(uint64_t(st.st_blocks) * 512, (uint64_t(st.st_size) + 4095) / 4096 * 4096);
}

/// A file of the cache directory that counts against its bound.
struct Stored {
  std::string name;
  uint64_t bytes = 0;
  struct timespec mtime {};
  bool temporary = false; // ".tmp-*": a write in progress, or left by a crash
};

/// The directory's entries and temporary files (regular files only).
std::vector<Stored> listStored(int dirFd) {
  std::vector<Stored> out;
  int fd = ::openat(dirFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return out;
  DIR *d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return out;
  }
  while (const dirent *e = ::readdir(d)) {
    std::string_view n = e->d_name;
    const bool entry = n.size() == 64 + 5 && n.ends_with(".ptxc");
    const bool temporary = n.starts_with(".tmp-");
    if (!entry && !temporary)
      continue;
    struct stat st{};
    if (::fstatat(dirFd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    out.push_back({std::string(n), diskBytes(st), st.st_mtim, temporary});
  }
  ::closedir(d);
  return out;
}

/// flock on the directory for the duration: writers of other processes take turns.
class DirectoryLock {
public:
  explicit DirectoryLock(int fd) : fd_(fd) {
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~DirectoryLock() { ::flock(fd_, LOCK_UN); }

private:
  int fd_;
};

Error refuse(const std::string &dir, std::string why) {
  return Error(ErrorCode::IoError,
               fmt::format("refusing the PTX cache directory '{}': {}", dir, why),
               "the directory must be owned by the service's user and writable by nobody "
               "else: whoever can write it could get unhardened code loaded");
}

/// The key file: created (random, 0600) if missing; else it must be ours, 0600.
Result<std::array<uint8_t, 32>> keyFromFile(int dirFd, const std::string &dir) {
  std::array<uint8_t, 32> key{};
  int fd = ::openat(dirFd, kKeyFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    if (!randomBytes(key.data(), key.size()))
      return Error(ErrorCode::IoError, "no random bytes for the PTX cache key", errnoText(errno));
    std::string tmp = randomName(".atoll-key-tmp-");
    int w = tmp.empty() ? -1
                        : ::openat(dirFd, tmp.c_str(),
                                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (w < 0)
      return Error(ErrorCode::IoError,
                   fmt::format("cannot create the PTX cache key in '{}'", dir), errnoText(errno));
    bool ok = writeAll(w, key.data(), key.size()) && ::fsync(w) == 0;
    ::close(w);
    // linkat fails if another process created the key meanwhile: then use theirs.
    if (ok && ::linkat(dirFd, tmp.c_str(), dirFd, kKeyFile, 0) != 0 && errno != EEXIST)
      ok = false;
    int saved = errno;
    ::unlinkat(dirFd, tmp.c_str(), 0);
    if (!ok)
      return Error(ErrorCode::IoError,
                   fmt::format("cannot create the PTX cache key in '{}'", dir), errnoText(saved));
    fd = ::openat(dirFd, kKeyFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (fd < 0)
    return refuse(dir, fmt::format("its key file {} cannot be opened (a symlink?): {}", kKeyFile,
                                   errnoText(errno)));
  struct stat st{};
  bool statOk = ::fstat(fd, &st) == 0;
  if (!statOk || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) ||
      st.st_size != 32) {
    ::close(fd);
    return refuse(dir, fmt::format("its key file {} must be a 32-byte regular file of uid {} "
                                   "with mode 0600 (found uid {}, mode 0{:o}, {} bytes)",
                                   kKeyFile, ::geteuid(), st.st_uid, st.st_mode & 07777,
                                   int64_t(st.st_size)));
  }
  auto bytes = readOwnFile(fd, 32);
  ::close(fd);
  if (!bytes || bytes->size() != 32)
    return Error(ErrorCode::IoError, fmt::format("cannot read the PTX cache key in '{}'", dir));
  std::memcpy(key.data(), bytes->data(), 32);
  return key;
}

} // namespace

Result<std::unique_ptr<DiskCache>> DiskCache::open(const std::string &dir, std::string_view key,
                                                   uint64_t maxBytes) {
  namespace fs = std::filesystem;
  if (maxBytes == 0)
    return Error(ErrorCode::InvalidArgument, "RuntimeOptions::ptxCacheMaxBytes must be positive");
  if (!key.empty() && key.size() < 32)
    return Error(ErrorCode::InvalidArgument,
                 fmt::format("RuntimeOptions::ptxCacheKey has {} bytes; at least 32 are needed",
                             key.size()));
  std::error_code ec;
  fs::path path(dir);
  if (path.has_parent_path())
    fs::create_directories(path.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return Error(ErrorCode::IoError, fmt::format("cannot create the PTX cache directory '{}'", dir),
                 errnoText(errno));
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (e == ELOOP || e == ENOTDIR)
      return refuse(dir, "it is a symbolic link or not a directory");
    return Error(ErrorCode::IoError, fmt::format("cannot open the PTX cache directory '{}'", dir),
                 errnoText(e));
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return Error(ErrorCode::IoError, fmt::format("cannot stat '{}'", dir), errnoText(e));
  }
  if (st.st_uid != ::geteuid()) {
    ::close(fd);
    return refuse(dir, fmt::format("it is owned by uid {}, not by the service's uid {}",
                                   st.st_uid, ::geteuid()));
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    ::close(fd);
    return refuse(dir, fmt::format("it is writable by group or others (mode 0{:o})",
                                   st.st_mode & 07777));
  }
  std::array<uint8_t, 32> macKey{};
  if (!key.empty()) {
    macKey = llvm::BLAKE3::hash<32>(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(key.data()), key.size()));
  } else {
    auto fromFile = keyFromFile(fd, dir);
    if (!fromFile) {
      ::close(fd);
      return std::move(fromFile).error();
    }
    macKey = *fromFile;
  }
  return std::unique_ptr<DiskCache>(new DiskCache(dir, fd, macKey, maxBytes));
}

DiskCache::~DiskCache() { ::close(fd_); }

std::optional<CompiledEntry> DiskCache::read(std::string_view key) const {
  if (!isCacheKey(key))
    return std::nullopt;
  std::string name = std::string(key) + ".ptxc";
  int fd = ::openat(fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return std::nullopt;
  auto bytes = readOwnFile(fd, kMaxEntryBytes);
  std::optional<CompiledEntry> entry;
  if (bytes)
    entry = parseEntry(key, *bytes, macKey_);
  if (entry)
    ::futimens(fd, nullptr); // the access record: recently used, evicted last
  ::close(fd);
  return entry;
}

uint64_t DiskCache::usedBytes() const {
  uint64_t total = 0;
  for (const Stored &s : listStored(fd_))
    total += s.bytes;
  return total;
}

uint64_t DiskCache::makeRoom(const std::string &replaced) const {
  std::vector<Stored> stored = listStored(fd_);
  struct timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  uint64_t total = 0;
  std::vector<const Stored *> entries;
  for (const Stored &s : stored) {
    if (s.name == replaced)
      continue; // the rename replaces it
    if (s.temporary) {
      if (now.tv_sec - s.mtime.tv_sec >
              std::chrono::duration_cast<std::chrono::seconds>(kStaleTemporary).count() &&
          ::unlinkat(fd_, s.name.c_str(), 0) == 0)
        continue; // left by a crash
      total += s.bytes;
      continue;
    }
    total += s.bytes;
    entries.push_back(&s);
  }
  // Least recently used first (a hit refreshes the time), then by name.
  std::sort(entries.begin(), entries.end(), [](const Stored *a, const Stored *b) {
    if (a->mtime.tv_sec != b->mtime.tv_sec)
      return a->mtime.tv_sec < b->mtime.tv_sec;
    if (a->mtime.tv_nsec != b->mtime.tv_nsec)
      return a->mtime.tv_nsec < b->mtime.tv_nsec;
    return a->name < b->name;
  });
  // An entry in use by a loaded module may go: nothing reads it again.
  for (const Stored *e : entries) {
    if (total <= maxBytes_)
      break;
    if (::unlinkat(fd_, e->name.c_str(), 0) == 0 || errno == ENOENT)
      total -= e->bytes;
  }
  return total;
}

Status DiskCache::write(std::string_view key, const CompiledEntry &entry) const {
  if (!isCacheKey(key))
    return Error(ErrorCode::InvalidArgument, "not a cache key");
  std::string data = serializeEntry(key, entry, macKey_);
  auto tooLarge = [&](uint64_t bytes) {
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the PTX cache entry takes {} bytes of disk, more than the cache's "
                             "bound (RuntimeOptions::ptxCacheMaxBytes = {})",
                             bytes, maxBytes_));
  };
  if ((uint64_t(data.size()) + 4095) / 4096 * 4096 > maxBytes_)
    return tooLarge((uint64_t(data.size()) + 4095) / 4096 * 4096);
  std::string tmp = randomName(".tmp-");
  if (tmp.empty())
    return Error(ErrorCode::IoError, "no random bytes for a temporary name", errnoText(errno));
  int fd = ::openat(fd_, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return Error(ErrorCode::IoError,
                 fmt::format("cannot create a file in the PTX cache directory '{}'", dir_),
                 errnoText(errno));
  bool ok = writeAll(fd, data.data(), data.size());
  struct stat st{};
  ok = ok && ::fstat(fd, &st) == 0;
  ok = (::close(fd) == 0) && ok;
  std::string name = std::string(key) + ".ptxc";
  if (ok) {
    std::lock_guard lock(writeMutex_);
    DirectoryLock dirLock(fd_);
    // The temporary file is on disk already: it counts as the incoming entry.
    if (makeRoom(name) > maxBytes_) {
      ::unlinkat(fd_, tmp.c_str(), 0);
      return tooLarge(diskBytes(st));
    }
    if (::renameat(fd_, tmp.c_str(), fd_, name.c_str()) == 0)
      return {};
  }
  int e = errno;
  ::unlinkat(fd_, tmp.c_str(), 0);
  return Error(ErrorCode::IoError,
               fmt::format("cannot write the PTX cache entry '{}' in '{}'", name, dir_),
               errnoText(e));
}

} // namespace Atoll::detail
