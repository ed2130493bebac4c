// The on-disk cache of compiled modules: the entry format (DiskCacheEntry.cpp) and
// the directory (DiskCache.cpp).
#pragma once

#include "CompiledEntry.h"

#include "atoll/error.h"

#include <array>
#include <cstdint>
#include <memory>
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
  static Result<std::unique_ptr<DiskCache>> open(const std::string &dir, std::string_view key);
  ~DiskCache();
  /// nullopt for a missing, unreadable, foreign (symlink, not ours), tampered or
  /// malformed entry.
  std::optional<CompiledEntry> read(std::string_view key) const;
  /// A random temporary name created O_EXCL|O_NOFOLLOW, then renamed over the entry.
  Status write(std::string_view key, const CompiledEntry &entry) const;
  const std::string &directory() const { return dir_; }

private:
  DiskCache(std::string dir, int fd, std::array<uint8_t, 32> macKey)
      : dir_(std::move(dir)), fd_(fd), macKey_(macKey) {}
  std::string dir_;
  int fd_; // the directory, opened O_DIRECTORY|O_NOFOLLOW
  std::array<uint8_t, 32> macKey_;
};

} // namespace Atoll::detail
