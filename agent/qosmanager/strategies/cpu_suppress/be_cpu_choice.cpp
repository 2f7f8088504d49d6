#include "agent/qosmanager/strategies/cpu_suppress/be_cpu_choice.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

struct Cpu {
  int32_t id = 0;
  int64_t core = 0;  // unique across the node; unknown CPUs get a negative core of their own
};

using Bucket = std::vector<Cpu>;

std::vector<Bucket> buckets(const cpuset::CpuSet& candidates, const system::CpuTopology& topology) {
  std::map<int32_t, const system::CpuInfo*> info;
  for (const system::CpuInfo& cpu : topology.cpus) {
    info[cpu.id] = &cpu;
  }
  std::map<std::pair<int32_t, int32_t>, Bucket> by_zone;  // (node, socket)
  for (int id : candidates.cpus()) {
    auto it = info.find(id);
    if (it == info.end()) {
      // A negative core of its own, in id order, below every real core.
      by_zone[{0, 0}].push_back(Cpu{id, static_cast<int64_t>(id) - cpuset::CpuSet::kMaxCpus});
    } else {
      by_zone[{it->second->node, it->second->socket}].push_back(Cpu{id, it->second->core});
    }
  }
  std::vector<Bucket> out;
  for (auto& [zone, bucket] : by_zone) {
    std::sort(bucket.begin(), bucket.end(), [](const Cpu& a, const Cpu& b) {
      return std::tie(a.core, a.id) < std::tie(b.core, b.id);
    });
    out.push_back(std::move(bucket));
  }
  std::sort(out.begin(), out.end(), [](const Bucket& a, const Bucket& b) {
    if (a.size() != b.size()) {
      return a.size() > b.size();
    }
    return a.front().id < b.front().id;
  });
  return out;
}

}  // namespace

cpuset::CpuSet chooseBeCpus(int64_t count, const cpuset::CpuSet& candidates,
                            const system::CpuTopology& topology) {
  if (count <= 0 || candidates.empty()) {
    return {};
  }
  if (count >= static_cast<int64_t>(candidates.size())) {
    return candidates;
  }
  const std::vector<Bucket> all = buckets(candidates, topology);
  const size_t n = all.size();
  std::set<int> used;
  int64_t need = count;

  // 1. Whole HT pairs, one per bucket per round.
  size_t i = 0;
  while (need > 1) {
    bool picked = false;
    for (size_t step = 0; step < n && need > 1; ++step, i = (i + 1) % n) {
      const Bucket& bucket = all[i];
      for (size_t j = 0; j + 1 < bucket.size(); ++j) {
        if (used.count(bucket[j].id) != 0 || used.count(bucket[j + 1].id) != 0) {
          continue;
        }
        if (bucket[j].core == bucket[j + 1].core) {
          used.insert(bucket[j].id);
          used.insert(bucket[j + 1].id);
          need -= 2;
          picked = true;
          break;
        }
      }
    }
    if (!picked) {
      break;
    }
  }

  // 2. Single CPUs, continuing the round-robin where the pairs stopped.
  while (need > 0) {
    bool picked = false;
    for (size_t step = 0; step < n && need > 0; ++step, i = (i + 1) % n) {
      for (const Cpu& cpu : all[i]) {
        if (used.insert(cpu.id).second) {
          --need;
          picked = true;
          break;
        }
      }
    }
    if (!picked) {
      break;
    }
  }
  return cpuset::CpuSet(std::set<int>(used.begin(), used.end()));
}

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
