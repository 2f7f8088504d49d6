// PodCollector: CPU and memory usage of every pod and container the provider lists, read through
// a CgroupReader and appended to the cache as PodCpu/PodMemory (by pod UID) and
// ContainerCpu/ContainerMemory (by container id).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/metricsadvisor/collect_stats.hpp"

namespace koord::agent::metricsadvisor {

struct ContainerCgroup {
  std::string id;    // container id (the runtime's, without "containerd://"); "" = not started
  std::string name;  // container name in the pod spec
  std::string cgroup_dir;  // relative to the hierarchy root, see CgroupReader
};

struct PodCgroup {
  std::string uid;
  std::string pod_namespace;
  std::string name;
  std::string cgroup_dir;  // relative to the hierarchy root: "kubepods/burstable/pod<uid>"
  std::vector<ContainerCgroup> containers;
};

// The pods to collect, as a snapshot the provider does not change after returning it (it may
// return the same snapshot until its pods change). nullptr means no pods. Called once per cycle,
// on the collector's thread.
using PodProvider = std::function<std::shared_ptr<const std::vector<PodCgroup>>()>;

// The sums over the pods measured in one cycle (for system = node - pods).
struct PodsUsage {
  double cpu_cores = 0;     // over the pods that got a CPU sample this cycle
  double memory_bytes = 0;  // over the pods that got a memory sample this cycle
  uint64_t cpu_pods = 0;
  uint64_t memory_pods = 0;
};

// Not thread-safe: one collector thread calls collect(). The constructor does no I/O.
class PodCollector {
 public:
  static constexpr std::string_view kName = "PodResourceCollector";

  // `reader` and `cache` must outlive the collector.
  PodCollector(const CgroupReader& reader, PodProvider provider, metriccache::MetricCache& cache);

  // One cycle at `now`:
  //  - CPU cores = delta cpuUsageNanos / delta `now` since the previous cycle that read the same
  //    pod or container; its first cycle, and a cycle where the counter or the time went
  //    backwards (a re-created cgroup, a stepped clock), only store the counter;
  //  - memory = the working set, every cycle;
  //  - a pod whose cgroup is gone (kNotFound) is skipped with its containers and counted in
  //    missing_pods (a container alone in missing_containers); other errors are counted per
  //    kind and do not stop the cycle;
  //  - pods and containers no longer listed lose their counters and their cache series.
  // Pods with an empty uid or cgroup_dir and containers with an empty id or cgroup_dir (not
  // started yet) are skipped without a count.
  PodsUsage collect(metriccache::TimePoint now, CollectStats& stats);

  // Pods and containers whose counters are kept (those listed at the last cycle).
  [[nodiscard]] size_t trackedPods() const { return pods_.size(); }
  [[nodiscard]] size_t trackedContainers() const { return containers_.size(); }

 private:
  struct CpuState {
    uint64_t usage_nanos = 0;
    int64_t time_ns = 0;
    bool primed = false;  // usage_nanos and time_ns hold a reading
    uint64_t cycle = 0;   // the last cycle that listed it
  };
  struct IdHash {
    using is_transparent = void;
    size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };
  using StateMap = std::unordered_map<std::string, CpuState, IdHash, std::equal_to<>>;

  // The entry of `id`, created when new, marked as listed in this cycle.
  CpuState& touch(StateMap& map, std::string_view id);
  // Cores since the last reading, or nullopt when this reading only primes the state.
  static std::optional<double> cpuCores(CpuState& state, uint64_t usage_nanos, int64_t now_ns);
  struct Reading {
    bool gone = false;  // the cgroup does not exist (any more)
    std::optional<double> cpu_cores;
    std::optional<double> memory_bytes;
  };
  // Reads one cgroup and appends its samples; errors other than kNotFound go to `stats`.
  Reading collectOne(std::string_view id, std::string_view dir, CpuState& state,
                     metriccache::MetricKind cpu_kind, metriccache::MetricKind memory_kind,
                     metriccache::TimePoint now, CollectStats& stats);
  // Appends one sample; false (and counted) when the cache refuses it.
  bool record(metriccache::MetricKind kind, std::string_view id, metriccache::TimePoint now,
              double value, CollectStats& stats);
  // Forgets pods and containers not listed in this cycle, in the state and in the cache.
  void dropUnlisted();

  const CgroupReader& reader_;
  PodProvider provider_;
  metriccache::MetricCache& cache_;
  StateMap pods_;
  StateMap containers_;
  uint64_t cycle_ = 0;
};

}  // namespace koord::agent::metricsadvisor
