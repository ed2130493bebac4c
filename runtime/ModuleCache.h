// The in-memory cache of loaded modules (LRU), keyed by the content hash of
// CacheKey.h. Its neighbours: CompiledEntry.h (a compiled module), DiskCache.h (the
// on-disk cache), ModuleValidation.h (the checks before every load).
#pragma once

#include "LoadedModule.h"

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace Atoll::detail {

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
