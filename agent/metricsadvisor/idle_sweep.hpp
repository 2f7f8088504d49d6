// IdleSweep: how the agent's per-cgroup caches forget cgroups that are gone. Each cache entry has a
// `used` flag its reads set. Once the reads since the last sweep reach twice the entry count plus
// 64, every entry not read since then is erased (after `on_erase`) and the others' flags cleared:
// an entry survives while it is read at least once a period, whatever the number of cgroups.
//
// Not thread-safe: call it under the lock that guards the cache.
#pragma once

#include <cstdint>

namespace koord::agent::metricsadvisor {

class IdleSweep {
 public:
  static constexpr uint64_t kMinPeriod = 64;

  // Counts one read of `entries` (a map whose values have a `bool used`), sweeping when due.
  template <class Map, class OnErase>
  void countRead(Map& entries, OnErase on_erase) {
    ++reads_since_sweep_;
    if (reads_since_sweep_ < 2 * entries.size() + kMinPeriod) {
      return;
    }
    reads_since_sweep_ = 0;
    for (auto it = entries.begin(); it != entries.end();) {
      if (!it->second.used) {
        on_erase(it->second);
        it = entries.erase(it);
      } else {
        it->second.used = false;
        ++it;
      }
    }
  }

 private:
  uint64_t reads_since_sweep_ = 0;
};

}  // namespace koord::agent::metricsadvisor
