// Store: the informer cache. A thread-safe map from an object's key ("namespace/name", or "name"
// for cluster-scoped objects) to an immutable std::shared_ptr<const T>, with named indexes that
// are kept up to date on every change, like client-go's cache.Indexer.
//
// Thread safety: every method is thread-safe (readers share a lock, writers take it alone). Key
// and index functions run under the writer lock: they must be pure, deterministic (an object
// always gives the same values) and must not call back into the store. Objects handed in are
// never mutated by the store; objects handed out must not be mutated by anyone.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "koord/common/result.hpp"
#include "koord/k8s/store_keys.hpp"

namespace koord::k8s {

template <class T>
class Store {
 public:
  using ObjectPtr = std::shared_ptr<const T>;
  using KeyFunc = std::function<Result<std::string>(const T&)>;
  using IndexFunc = std::function<std::vector<std::string>(const T&)>;

  // What replace() changed, for an informer to fire its handlers: keys new to the store, keys in
  // both (every one, changed or not: a relist is also a resync), and keys that disappeared. Each
  // list is sorted by key.
  struct ReplaceResult {
    std::vector<ObjectPtr> added;
    std::vector<std::pair<ObjectPtr, ObjectPtr>> updated;  // {old, new}
    std::vector<ObjectPtr> deleted;
  };

  // `key_func` defaults to metaNamespaceKey (T must have `metadata` with name and namespace_).
  explicit Store(KeyFunc key_func = [](const T& obj) { return metaNamespaceKey(obj.metadata); })
      : key_func_(std::move(key_func)) {}

  // Adds an index and fills it from the current content. kAlreadyExists when `name` is taken.
  [[nodiscard]] Status addIndexer(const std::string& name, IndexFunc fn) {
    std::unique_lock lock(mu_);
    if (indexes_.count(name) != 0) {
      return Status::alreadyExists("failed to add indexer '" + name + "': already exists");
    }
    Index& index = indexes_[name];
    index.fn = std::move(fn);
    for (const Entry& entry : items_) {
      addToIndex(index, &entry, *entry.second);
    }
    return Status::ok();
  }

  // Inserts or replaces the object under its key; returns the object it replaced (nullptr when
  // none). Fails (and changes nothing) when the key function fails or `obj` is null.
  Result<ObjectPtr> add(ObjectPtr obj) { return upsert(std::move(obj)); }
  // Same as add(): a store does not tell a create from an update.
  Result<ObjectPtr> update(ObjectPtr obj) { return upsert(std::move(obj)); }

  // Removes the object with `obj`'s key; returns the object removed (nullptr when absent).
  Result<ObjectPtr> remove(const T& obj) {
    KOORD_ASSIGN_OR_RETURN(std::string key, key_func_(obj));
    return removeKey(key);
  }
  ObjectPtr removeKey(const std::string& key) {
    std::unique_lock lock(mu_);
    auto it = items_.find(key);
    if (it == items_.end()) {
      return nullptr;
    }
    for (auto& [name, index] : indexes_) {
      removeFromIndex(index, &*it, *it->second);
    }
    ObjectPtr old = std::move(it->second);
    items_.erase(it);
    changes_.fetch_add(1, std::memory_order_acq_rel);
    return old;
  }

  // Replaces the whole content with `items` (the result of a list) and records the list's
  // resourceVersion. Fails without changing anything when an item is null, a key cannot be
  // computed or two items share a key.
  Result<ReplaceResult> replace(std::vector<ObjectPtr> items, std::string resource_version) {
    std::map<std::string, ObjectPtr> next;
    for (ObjectPtr& obj : items) {
      if (obj == nullptr) {
        return Status::invalidArgument("failed to replace store content: null object");
      }
      KOORD_ASSIGN_OR_RETURN(std::string key, key_func_(*obj));
      if (next.count(key) != 0) {
        return Status::invalidArgument("failed to replace store content: duplicate key '" + key +
                                       "'");
      }
      next.emplace(std::move(key), std::move(obj));
    }
    ReplaceResult result;
    std::unique_lock lock(mu_);
    for (const auto& [key, obj] : next) {
      auto old = items_.find(key);
      if (old == items_.end()) {
        result.added.push_back(obj);
      } else {
        result.updated.emplace_back(old->second, obj);
      }
    }
    for (const auto& [key, obj] : items_) {
      if (next.count(key) == 0) {
        result.deleted.push_back(obj);
      }
    }
    items_ = std::move(next);
    for (auto& [name, index] : indexes_) {
      index.values.clear();
      for (const Entry& entry : items_) {
        addToIndex(index, &entry, *entry.second);
      }
    }
    resource_version_ = std::move(resource_version);
    changes_.fetch_add(1, std::memory_order_acq_rel);
    return result;
  }

  // nullptr when absent.
  [[nodiscard]] ObjectPtr get(const std::string& key) const {
    std::shared_lock lock(mu_);
    auto it = items_.find(key);
    return it == items_.end() ? nullptr : it->second;
  }
  // Every object, sorted by key.
  [[nodiscard]] std::vector<ObjectPtr> list() const {
    std::shared_lock lock(mu_);
    std::vector<ObjectPtr> out;
    out.reserve(items_.size());
    for (const auto& [key, obj] : items_) {
      out.push_back(obj);
    }
    return out;
  }
  [[nodiscard]] std::vector<std::string> listKeys() const {
    std::shared_lock lock(mu_);
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const auto& [key, obj] : items_) {
      out.push_back(key);
    }
    return out;
  }
  [[nodiscard]] size_t size() const {
    std::shared_lock lock(mu_);
    return items_.size();
  }

  // The objects whose index function returned `value` for index `index_name`, sorted by key.
  // kNotFound when there is no such index.
  [[nodiscard]] Result<std::vector<ObjectPtr>> byIndex(const std::string& index_name,
                                                       const std::string& value) const {
    std::shared_lock lock(mu_);
    auto index = indexes_.find(index_name);
    if (index == indexes_.end()) {
      return Status::notFound("failed to look up index '" + index_name + "': no such index");
    }
    std::vector<ObjectPtr> out;
    auto keys = index->second.values.find(value);
    if (keys != index->second.values.end()) {
      out.reserve(keys->second.size());
      for (const Entry* entry : keys->second) {
        out.push_back(entry->second);
      }
    }
    return out;
  }
  // The values that index `index_name` holds now (each with at least one object), sorted.
  [[nodiscard]] Result<std::vector<std::string>> indexValues(const std::string& index_name) const {
    std::shared_lock lock(mu_);
    auto index = indexes_.find(index_name);
    if (index == indexes_.end()) {
      return Status::notFound("failed to look up index '" + index_name + "': no such index");
    }
    std::vector<std::string> out;
    for (const auto& [value, keys] : index->second.values) {
      out.push_back(value);
    }
    return out;
  }

  // A count that moves with every add, update, removal and replace (never with a read): a reader
  // that keeps a summary over list() scans again only when it has moved.
  [[nodiscard]] uint64_t changes() const { return changes_.load(std::memory_order_acquire); }

  // The resourceVersion passed to the last replace() ("" before the first).
  [[nodiscard]] std::string resourceVersion() const {
    std::shared_lock lock(mu_);
    return resource_version_;
  }

  // The key of `obj` under this store's key function.
  [[nodiscard]] Result<std::string> keyOf(const T& obj) const { return key_func_(obj); }

 private:
  using Entry = std::pair<const std::string, ObjectPtr>;
  // Orders index members by their key. Members point into items_ (std::map nodes do not move), so
  // an index costs a pointer per object, not a copy of its key.
  struct EntryLess {
    bool operator()(const Entry* a, const Entry* b) const { return a->first < b->first; }
  };
  struct Index {
    IndexFunc fn;
    std::map<std::string, std::set<const Entry*, EntryLess>> values;  // value -> entries
  };

  Result<ObjectPtr> upsert(ObjectPtr obj) {
    if (obj == nullptr) {
      return Status::invalidArgument("failed to add object to store: null object");
    }
    KOORD_ASSIGN_OR_RETURN(std::string key, key_func_(*obj));
    std::unique_lock lock(mu_);
    auto [it, inserted] = items_.try_emplace(std::move(key));
    ObjectPtr old = std::move(it->second);
    for (auto& [name, index] : indexes_) {
      if (old != nullptr) {
        removeFromIndex(index, &*it, *old);
      }
      addToIndex(index, &*it, *obj);
    }
    it->second = std::move(obj);
    changes_.fetch_add(1, std::memory_order_acq_rel);
    return old;
  }

  static void addToIndex(Index& index, const Entry* entry, const T& obj) {
    for (std::string& value : index.fn(obj)) {
      index.values[std::move(value)].insert(entry);
    }
  }
  static void removeFromIndex(Index& index, const Entry* entry, const T& obj) {
    for (const std::string& value : index.fn(obj)) {
      auto it = index.values.find(value);
      if (it == index.values.end()) {
        continue;
      }
      it->second.erase(entry);
      if (it->second.empty()) {
        index.values.erase(it);
      }
    }
  }

  KeyFunc key_func_;
  mutable std::shared_mutex mu_;
  std::map<std::string, ObjectPtr> items_;
  std::map<std::string, Index> indexes_;
  std::string resource_version_;
  std::atomic<uint64_t> changes_{0};
};

}  // namespace koord::k8s
