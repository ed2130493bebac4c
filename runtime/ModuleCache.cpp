#include "ModuleCache.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace Atoll::detail {

uint64_t moduleFootprint(const CompiledEntry &entry, bool keepPtx) {
  // The cubin: its code and constants go to device memory when loaded; the host
  // copy is dropped after the load.
  uint64_t bytes = entry.cubin.size();
  if (keepPtx)
    bytes += entry.ptx.size();
  // The host side: the module object, its key, and per kernel its signature and
  // handles (function, limits, the dynamic shared memory limit).
  bytes += sizeof(LoadedModule) + 64;
  for (const KernelInfo &k : entry.kernels) {
    bytes += sizeof(KernelInfo) + k.name.size() + sizeof(void *) + sizeof(KernelLimits) +
             sizeof(uint32_t);
    for (const ParamInfo &p : k.params)
      bytes += sizeof(ParamInfo) + p.type.size();
  }
  return bytes;
}

ModuleCache::Reservation &ModuleCache::Reservation::operator=(Reservation &&o) noexcept {
  if (this != &o) {
    release();
    cache_ = o.cache_;
    bytes_ = o.bytes_;
    o.cache_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void ModuleCache::Reservation::release() {
  if (cache_ && bytes_)
    cache_->give(bytes_);
  cache_ = nullptr;
  bytes_ = 0;
}

ModuleCache::ModuleCache(size_t capacity, uint64_t byteBudget, std::string optionName)
    : capacity_(capacity ? capacity : 1), budget_(byteBudget ? byteBudget : 1),
      optionName_(std::move(optionName)) {}

void ModuleCache::give(uint64_t bytes) {
  std::lock_guard lock(mutex_);
  bytes_ -= std::min(bytes, bytes_);
}

std::shared_ptr<const LoadedModule> ModuleCache::find(const std::string &key) {
  std::lock_guard lock(mutex_);
  auto it = map_.find(key);
  if (it == map_.end())
    return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return it->second.module;
}

Result<ModuleCache::Reservation> ModuleCache::reserve(uint64_t bytes) {
  Doomed doomed; // destroyed after the lock (their unloads are queued)
  std::lock_guard lock(mutex_);
  if (bytes > budget_) {
    refusals_++;
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the module needs {} bytes of service memory (its cubin, its "
                             "signatures, its PTX when kept), more than the whole module memory "
                             "budget of {} bytes ({})",
                             bytes, budget_, optionName_));
  }
  // What eviction could free: the modules nothing else uses.
  uint64_t unused = 0;
  for (const auto &[key, node] : map_)
    if (node.module.use_count() == 1)
      unused += node.bytes;
  if (bytes_ - unused + bytes > budget_) {
    refusals_++;
    return Error(ErrorCode::CapacityExceeded,
                 fmt::format("the module needs {} bytes of service memory, but the modules in use "
                             "(and loads in progress) hold {} of the {}-byte module memory budget "
                             "({}): release applications, or load this one later",
                             bytes, bytes_ - unused, budget_, optionName_));
  }
  evictLocked(bytes, doomed);
  bytes_ += bytes;
  return Reservation(this, bytes);
}

std::shared_ptr<const LoadedModule>
ModuleCache::insert(std::shared_ptr<const LoadedModule> module, Reservation reservation) {
  Doomed doomed;
  std::lock_guard lock(mutex_);
  auto it = map_.find(module->key);
  if (it != map_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.module; // `reservation` is given back (after the lock)
  }
  uint64_t charged = reservation.bytes();
  if (reservation.cache_ == this) {
    reservation.cache_ = nullptr; // taken over: stays in bytes_
    reservation.bytes_ = 0;
  } else {
    charged = module->footprint;
    bytes_ += charged;
  }
  lru_.push_front(module->key);
  map_.emplace(module->key, Node{module, lru_.begin(), charged});
  evictLocked(0, doomed);
  return module;
}

std::shared_ptr<const LoadedModule>
ModuleCache::insert(std::shared_ptr<const LoadedModule> module) {
  return insert(std::move(module), Reservation());
}

void ModuleCache::evictLocked(uint64_t want, Doomed &doomed) {
  auto it = lru_.end();
  while ((map_.size() > capacity_ || bytes_ + want > budget_) && it != lru_.begin()) {
    --it;
    auto node = map_.find(*it);
    if (node->second.module.use_count() > 1)
      continue; // in use by an Application or a running batch
    bytes_ -= std::min(node->second.bytes, bytes_);
    doomed.push_back(std::move(node->second.module));
    map_.erase(node);
    it = lru_.erase(it);
  }
}

size_t ModuleCache::size() const {
  std::lock_guard lock(mutex_);
  return map_.size();
}

uint64_t ModuleCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

uint64_t ModuleCache::refusals() const {
  std::lock_guard lock(mutex_);
  return refusals_;
}

size_t ModuleCache::trim() {
  Doomed doomed;
  {
    std::lock_guard lock(mutex_);
    for (auto it = lru_.begin(); it != lru_.end();) {
      auto node = map_.find(*it);
      if (node->second.module.use_count() > 1) {
        ++it;
        continue;
      }
      bytes_ -= std::min(node->second.bytes, bytes_);
      doomed.push_back(std::move(node->second.module));
      map_.erase(node);
      it = lru_.erase(it);
    }
  }
  return doomed.size(); // destroyed here, outside the lock
}

void ModuleCache::clear() {
  std::unordered_map<std::string, Node> doomed;
  {
    std::lock_guard lock(mutex_);
    doomed.swap(map_);
    lru_.clear();
    for (const auto &[key, node] : doomed)
      bytes_ -= std::min(node.bytes, bytes_);
  }
  // Modules unload outside the lock.
}

} // namespace Atoll::detail
