#include "ModuleCache.h"

#include <vector>

namespace Atoll::detail {

std::shared_ptr<const LoadedModule> ModuleCache::find(const std::string &key) {
  std::lock_guard lock(mutex_);
  auto it = map_.find(key);
  if (it == map_.end())
    return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return it->second.module;
}

std::shared_ptr<const LoadedModule>
ModuleCache::insert(std::shared_ptr<const LoadedModule> module) {
  std::lock_guard lock(mutex_);
  auto it = map_.find(module->key);
  if (it != map_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.module;
  }
  lru_.push_front(module->key);
  map_.emplace(module->key, Node{module, lru_.begin()});
  evictLocked();
  return module;
}

void ModuleCache::evictLocked() {
  auto it = lru_.end();
  while (map_.size() > capacity_ && it != lru_.begin()) {
    --it;
    auto node = map_.find(*it);
    if (node->second.module.use_count() > 1)
      continue; // in use by an Application or a running batch
    map_.erase(node);
    it = lru_.erase(it);
  }
}

size_t ModuleCache::size() const {
  std::lock_guard lock(mutex_);
  return map_.size();
}

size_t ModuleCache::trim() {
  std::vector<std::shared_ptr<const LoadedModule>> doomed;
  {
    std::lock_guard lock(mutex_);
    for (auto it = lru_.begin(); it != lru_.end();) {
      auto node = map_.find(*it);
      if (node->second.module.use_count() > 1) {
        ++it;
        continue;
      }
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
  }
  // Modules unload outside the lock.
}

} // namespace Atoll::detail
