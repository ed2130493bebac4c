// The in-memory cache of loaded modules (LRU), keyed by the content hash of
// CacheKey.h. Its neighbours: CompiledEntry.h (a compiled module), DiskCache.h (the
// on-disk cache), ModuleValidation.h (the checks before every load).
#pragma once

#include "CompiledEntry.h"
#include "LoadedModule.h"

#include "atoll/error.h"

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace Atoll::detail {

/// What the service keeps for one loaded module, in bytes (review R7-F10): its cubin
/// (the device's copy of its code and constants is about that size, outside every
/// arena budget), the PTX when it is kept (`keepPtx`), and the host memory of its
/// signatures and per-kernel handles. Charged to ModuleCache's byte budget from
/// before the driver load until the module is evicted.
uint64_t moduleFootprint(const CompiledEntry &entry, bool keepPtx);

/// In-memory cache of loaded modules, LRU, under two bounds: `capacity` modules and
/// `byteBudget` bytes of module footprints (moduleFootprint). Every loaded module is
/// in it (those in use by an Application or a running batch are never evicted), so
/// the byte budget bounds what the service keeps for all of them. Beyond either
/// bound, modules that nothing else references are evicted, least recently used
/// first; a load whose footprint does not fit beside the modules in use is refused
/// (reserve). Thread-safe.
class ModuleCache {
public:
  /// Bytes held for a module between reserve() and insert(); given back when
  /// destroyed unless insert() took them over.
  class Reservation {
  public:
    Reservation() = default;
    Reservation(Reservation &&o) noexcept : cache_(o.cache_), bytes_(o.bytes_) {
      o.cache_ = nullptr;
      o.bytes_ = 0;
    }
    Reservation &operator=(Reservation &&o) noexcept;
    Reservation(const Reservation &) = delete;
    Reservation &operator=(const Reservation &) = delete;
    ~Reservation() { release(); }
    uint64_t bytes() const { return bytes_; }
    void release();

  private:
    friend class ModuleCache;
    Reservation(ModuleCache *c, uint64_t bytes) : cache_(c), bytes_(bytes) {}
    ModuleCache *cache_ = nullptr;
    uint64_t bytes_ = 0;
  };

  /// `optionName` is named in the refusals.
  ModuleCache(size_t capacity, uint64_t byteBudget,
              std::string optionName = "RuntimeOptions::moduleMemoryBudget");
  std::shared_ptr<const LoadedModule> find(const std::string &key);
  /// Charges `bytes` for a module about to be loaded, first evicting unused modules
  /// (least recently used first) as far as needed. CapacityExceeded, evicting
  /// nothing, when `bytes` is more than the whole budget or more than what the
  /// modules in use leave free; the message names the bytes, the budget and the
  /// option (the caller adds the application).
  Result<Reservation> reserve(uint64_t bytes);
  /// Inserts unless the key is present; returns the cached module either way. The
  /// module is charged `reservation`'s bytes (moved into the cache; given back when
  /// the key was present). Without a reservation it is charged its `footprint` as
  /// is, evicting unused modules as far as possible (tests; never refused).
  std::shared_ptr<const LoadedModule> insert(std::shared_ptr<const LoadedModule> module,
                                             Reservation reservation);
  std::shared_ptr<const LoadedModule> insert(std::shared_ptr<const LoadedModule> module);
  size_t size() const;
  /// Bytes charged now: cached modules (in use or not) and reservations.
  uint64_t bytes() const;
  uint64_t byteBudget() const { return budget_; }
  /// Loads refused by reserve().
  uint64_t refusals() const;
  void clear();
  /// Evicts every module nothing else references; returns how many. Their unloads
  /// happen outside the lock (queued on the reclaim thread by the runtime).
  size_t trim();

private:
  struct Node {
    std::shared_ptr<const LoadedModule> module;
    std::list<std::string>::iterator lru;
    uint64_t bytes = 0;
  };
  using Doomed = std::vector<std::shared_ptr<const LoadedModule>>;
  /// Evicts unused modules, least recently used first, while there are more than
  /// `capacity_` or more than `budget_ - want` bytes are charged; the evicted modules
  /// go to `doomed` (destroyed by the caller outside the lock).
  void evictLocked(uint64_t want, Doomed &doomed);
  void give(uint64_t bytes);
  const size_t capacity_;
  const uint64_t budget_;
  const std::string optionName_;
  mutable std::mutex mutex_;
  std::list<std::string> lru_; // most recent first
  std::unordered_map<std::string, Node> map_;
  uint64_t bytes_ = 0; // modules in map_ and reservations
  uint64_t refusals_ = 0;
};

} // namespace Atoll::detail
