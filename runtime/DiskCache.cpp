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

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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

Result<std::unique_ptr<DiskCache>> DiskCache::open(const std::string &dir, std::string_view key) {
  namespace fs = std::filesystem;
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
  return std::unique_ptr<DiskCache>(new DiskCache(dir, fd, macKey));
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
  ::close(fd);
  if (!bytes)
    return std::nullopt;
  return parseEntry(key, *bytes, macKey_);
}

Status DiskCache::write(std::string_view key, const CompiledEntry &entry) const {
  if (!isCacheKey(key))
    return Error(ErrorCode::InvalidArgument, "not a cache key");
  std::string tmp = randomName(".tmp-");
  if (tmp.empty())
    return Error(ErrorCode::IoError, "no random bytes for a temporary name", errnoText(errno));
  int fd = ::openat(fd_, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return Error(ErrorCode::IoError,
                 fmt::format("cannot create a file in the PTX cache directory '{}'", dir_),
                 errnoText(errno));
  std::string data = serializeEntry(key, entry, macKey_);
  bool ok = writeAll(fd, data.data(), data.size());
  ok = (::close(fd) == 0) && ok;
  std::string name = std::string(key) + ".ptxc";
  if (!ok || ::renameat(fd_, tmp.c_str(), fd_, name.c_str()) != 0) {
    int e = errno;
    ::unlinkat(fd_, tmp.c_str(), 0);
    return Error(ErrorCode::IoError,
                 fmt::format("cannot write the PTX cache entry '{}' in '{}'", name, dir_),
                 errnoText(e));
  }
  return {};
}

} // namespace Atoll::detail
