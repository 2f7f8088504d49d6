// NameIndex<Entry>: a flat open-addressing index from a name to an entry stored elsewhere, for
// looking up many names at once. ClusterState keeps its nodes in an unordered_map (whose entries
// never move) and this index over them: a filter looks up every one of the hundreds of candidate
// names kube-scheduler sends, and on a core shared with kube-scheduler each lookup in the map costs
// two or three cache misses in a row (bucket, table node, NodeInfo). findAll() hashes the names
// first, then walks them with the slot, the entry and the entry's value of names further on
// already being fetched, so the misses overlap instead of adding up.
//
// `Entry` is the map's value_type (std::pair<const std::string, V>): the index stores pointers to
// entries and reads entry->first. The caller keeps the index in step with the map (insert after
// inserting an entry, erase before erasing one). Not thread-safe: the caller's lock guards it with
// the map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace koord::extender::framework {

template <class Entry>
class NameIndex {
 public:
  // Adds `entry`, whose name must not be in the index yet.
  void insert(Entry* entry) {
    if ((size_ + 1) * 2 > slots_.size()) {
      grow();
    }
    place(Slot{hashOf(entry->first), entry});
    ++size_;
  }

  // Removes the entry named `name`; no-op when absent.
  void erase(std::string_view name) {
    if (slots_.empty()) {
      return;
    }
    const uint64_t hash = hashOf(name);
    size_t i = hash & mask_;
    for (; slots_[i].entry != nullptr; i = (i + 1) & mask_) {
      if (slots_[i].hash == hash && slots_[i].entry->first == name) {
        break;
      }
    }
    if (slots_[i].entry == nullptr) {
      return;
    }
    // Backward-shift deletion: move up each later entry of the run that may sit in the hole.
    size_t hole = i;
    for (size_t j = (hole + 1) & mask_; slots_[j].entry != nullptr; j = (j + 1) & mask_) {
      const size_t home = slots_[j].hash & mask_;
      // j's entry may move to the hole when its home is not in (hole, j] (cyclically).
      const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
      if (!stays) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole] = Slot{};
    --size_;
  }

  // The entry named `name`, or nullptr.
  [[nodiscard]] Entry* find(std::string_view name) const {
    return slots_.empty() ? nullptr : findFrom(hashOf(name), name);
  }

  // Calls found(i, entry or nullptr) for each names[i], in order. `prefetch(const Entry&)` is
  // called a few names ahead of found() for an entry that is present, to start fetching what
  // found() will read of its value.
  template <class Found, class Prefetch>
  void findAll(const std::vector<std::string>& names, Found&& found, Prefetch&& prefetch) const {
    const size_t n = names.size();
    if (slots_.empty()) {
      for (size_t i = 0; i < n; ++i) {
        found(i, static_cast<Entry*>(nullptr));
      }
      return;
    }
    std::vector<uint64_t> hashes(n);
    for (size_t i = 0; i < n; ++i) {
      hashes[i] = hashOf(names[i]);
    }
    constexpr size_t kSlotAhead = 12;  // fetch the slot of name i + 12,
    constexpr size_t kEntryAhead = 6;  // the entry of name i + 6 (its slot has arrived),
    constexpr size_t kValueAhead = 3;  // and what the caller reads of name i + 3's entry
    for (size_t i = 0; i < n && i < kSlotAhead; ++i) {
      __builtin_prefetch(&slots_[hashes[i] & mask_]);
    }
    for (size_t i = 0; i < n; ++i) {
      if (i + kSlotAhead < n) {
        __builtin_prefetch(&slots_[hashes[i + kSlotAhead] & mask_]);
      }
      if (i + kEntryAhead < n) {
        if (const Entry* e = slots_[hashes[i + kEntryAhead] & mask_].entry; e != nullptr) {
          __builtin_prefetch(e);
          __builtin_prefetch(reinterpret_cast<const char*>(e) + sizeof(std::string));
        }
      }
      if (i + kValueAhead < n) {
        const Slot& s = slots_[hashes[i + kValueAhead] & mask_];
        if (s.entry != nullptr && s.hash == hashes[i + kValueAhead]) {
          prefetch(*s.entry);
        }
      }
      found(i, findFrom(hashes[i], names[i]));
    }
  }

  [[nodiscard]] size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t hash = 0;
    Entry* entry = nullptr;  // nullptr: empty
  };

  static uint64_t hashOf(std::string_view name) { return std::hash<std::string_view>{}(name); }

  Entry* findFrom(uint64_t hash, std::string_view name) const {
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.entry == nullptr) {
        return nullptr;
      }
      if (s.hash == hash && s.entry->first == name) {
        return s.entry;
      }
    }
  }

  void place(Slot slot) {
    size_t i = slot.hash & mask_;
    while (slots_[i].entry != nullptr) {
      i = (i + 1) & mask_;
    }
    slots_[i] = slot;
  }

  // Doubles the table (at least 16 slots) and places every entry again.
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.entry != nullptr) {
        place(s);
      }
    }
  }

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace koord::extender::framework
