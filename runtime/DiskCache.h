// The on-disk cache of compiled modules: the entry format (DiskCacheEntry.cpp) and
// the directory (DiskCache.cpp).
#pragma once

#include "CompiledEntry.h"

#include "atoll/error.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace Atoll::detail {

/// The entry's authentication: keyed BLAKE3 (a MAC) over the cache key and body.
std::array<uint8_t, 32> entryMac(std::span<const uint8_t, 32> macKey, std::string_view key,
                                 std::string_view body);
std::string serializeEntry(std::string_view key, const CompiledEntry &entry,
                           std::span<const uint8_t, 32> macKey);
/// nullopt for anything malformed, truncated, of another key, or failing its MAC
/// (written with another key, or altered).
std::optional<CompiledEntry> parseEntry(std::string_view key, std::string_view bytes,
                                        std::span<const uint8_t, 32> macKey);

/// The on-disk cache of compiled modules (DiskCache.cpp): a directory owned by the service user and
/// writable by nobody else, entries authenticated with a keyed BLAKE3 MAC.
class DiskCache {
public:
  /// Creates the directory (0700) if missing; refuses (IoError / InvalidArgument
  /// naming the reason) a directory that is a symlink, not owned by the effective
  /// user, or writable by group or others, and a key file that is not 0600 and ours.
  /// `key`: 32+ bytes from RuntimeOptions::ptxCacheKey, or empty for the key file
  /// `<dir>/.atoll-cache-key` (created at random, 0600, if missing).
  /// `maxBytes` (RuntimeOptions::ptxCacheMaxBytes, > 0): the bound on the disk space
  /// of the entries (see write).
  static Result<std::unique_ptr<DiskCache>> open(const std::string &dir, std::string_view key,
                                                 uint64_t maxBytes = kDefaultMaxBytes);
  ~DiskCache();
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(1) << 30;
  /// nullopt for a missing, unreadable, foreign (symlink, not ours), tampered or
  /// malformed entry. A hit refreshes the entry's modification time: the access
  /// record eviction goes by (atime is often not kept: noatime, relatime).
  std::optional<CompiledEntry> read(std::string_view key) const;
  /// A random temporary name created O_EXCL|O_NOFOLLOW, then renamed over the entry.
  /// Bounded: the entries' disk space (allocated blocks, the entry replaced not
  /// counted) stays within maxBytes: first the least recently used entries (oldest
  /// modification time) are deleted, and temporary files older than
  /// kStaleTemporary; an entry larger than maxBytes is not stored
  /// (CapacityExceeded). Writers of the directory (threads, and processes through
  /// flock on it) take turns, so the bound holds across them.
  Status write(std::string_view key, const CompiledEntry &entry) const;
  const std::string &directory() const { return dir_; }
  uint64_t maxBytes() const { return maxBytes_; }
  /// The disk space the entries take now (what write bounds): tests and stats.
  uint64_t usedBytes() const;
  static constexpr std::chrono::minutes kStaleTemporary{10};

private:
  DiskCache(std::string dir, int fd, std::array<uint8_t, 32> macKey, uint64_t maxBytes)
      : dir_(std::move(dir)), fd_(fd), macKey_(macKey), maxBytes_(maxBytes) {}
  /// Deletes stale temporary files, then entries (LRU) until the directory's files
  /// (the new entry's temporary file included; `replaced`, which the rename
  /// replaces, not) fit in maxBytes; returns what they take then. Under writeMutex_
  /// and the directory's flock.
  uint64_t makeRoom(const std::string &replaced) const;
  std::string dir_;
  int fd_; // the directory, opened O_DIRECTORY|O_NOFOLLOW
  std::array<uint8_t, 32> macKey_;
  uint64_t maxBytes_;
  mutable std::mutex writeMutex_;
};

} // namespace Atoll::detail
