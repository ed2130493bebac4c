// The module cache: content-hash keys, the on-disk PTX cache format, the PTX check
// that every kernel carries the hidden ABI parameters, and the in-memory LRU of
// loaded modules. Keys are BLAKE3 (cryptographic): a tenant must not be able to
// craft bitcode whose key collides with another tenant's module.
#pragma once

#include "LoadedModule.h"

#include "atoll/application.h"
#include "atoll/error.h"

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Atoll::detail {

/// Everything besides the bitcode that decides the PTX.
struct CacheKeyInput {
  Clamping clamping = Clamping::MaskBased;
  unsigned optLevel = 2;
  std::string targetArch;
  std::string ptxVersion;
  std::string libdevicePath;
  std::string toolchainId; // identity of the compiler build (see toolchainIdentity)
};

/// 64 hex digits: BLAKE3 over (format version, ABI version, LLVM version, options,
/// target, toolchain identity, BLAKE3 of the bitcode).
std::string computeCacheKey(std::span<const uint8_t> bitcode, const CacheKeyInput &input);

/// Identifies the code that compiles (path, size and mtime of the library holding the
/// passes), so that an on-disk cache is not reused across builds.
std::string toolchainIdentity();

/// What the disk cache stores per key.
struct CompiledEntry {
  std::string ptx;   // validated before every load (ptx/PtxValidator.h)
  std::string cubin; // assembled from ptx after validation; what the driver loads
  std::vector<KernelInfo> kernels; // signatures only
};

/// The entry's authentication: keyed BLAKE3 (a MAC) over the cache key and body.
std::array<uint8_t, 32> entryMac(std::span<const uint8_t, 32> macKey, std::string_view key,
                                 std::string_view body);
std::string serializeEntry(std::string_view key, const CompiledEntry &entry,
                           std::span<const uint8_t, 32> macKey);
/// nullopt for anything malformed, truncated, of another key, or failing its MAC
/// (written with another key, or altered).
std::optional<CompiledEntry> parseEntry(std::string_view key, std::string_view bytes,
                                        std::span<const uint8_t, 32> macKey);

/// The on-disk PTX cache (DiskCache.cpp): a directory owned by the service user and
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

/// The parameter declarations of `.entry <kernel>(...)` in the PTX, or nullopt when
/// there is no such entry.
std::optional<std::vector<std::string>> ptxEntryParams(std::string_view ptx,
                                                       std::string_view kernel);
/// Every kernel must be a PTX entry with its tenant parameters plus the
/// ATOLL_HIDDEN_PARAM_COUNT 64-bit hidden ones; CompileError otherwise (the module
/// was not hardened and must never be launched).
Status checkHardenedEntries(std::string_view ptx, const std::vector<KernelInfo> &kernels);

/// In-memory cache of loaded modules, LRU; beyond `capacity` entries, modules that
/// nothing else references are evicted. Thread-safe.
class ModuleCache {
public:
  explicit ModuleCache(size_t capacity) : capacity_(capacity ? capacity : 1) {}
  std::shared_ptr<const LoadedModule> find(const std::string &key);
  /// Inserts unless the key is present; returns the cached module either way.
  std::shared_ptr<const LoadedModule> insert(std::shared_ptr<const LoadedModule> module);
  size_t size() const;
  void clear();
  /// Evicts every module nothing else references; returns how many. Their unloads
  /// happen outside the lock (queued on the reclaim thread by the runtime).
  size_t trim();

private:
  struct Node {
    std::shared_ptr<const LoadedModule> module;
    std::list<std::string>::iterator lru;
  };
  void evictLocked();
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<std::string> lru_; // most recent first
  std::unordered_map<std::string, Node> map_;
};

} // namespace Atoll::detail
