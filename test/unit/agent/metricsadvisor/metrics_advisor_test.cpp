#include "agent/metricsadvisor/metrics_advisor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test/unit/agent/metricsadvisor/fake_cgroups.hpp"

namespace koord::agent::metricsadvisor {
namespace {

using metriccache::MetricCache;
using metriccache::MetricKind;
using testing::at;
using testing::CgroupVersion;
using testing::FakeCgroups;
using testing::FakeRoot;
using ::testing::HasSubstr;
using testing::kGiB;
using testing::kMiB;
using testing::kNanosPerSecond;
using ::testing::UnorderedElementsAre;

std::string podDir(const std::string& uid) {
  return "kubepods/burstable/pod" + uid;
}
std::string containerDir(const std::string& uid, const std::string& id) {
  return podDir(uid) + "/" + id;
}

// A pod with containers "<uid>-c0", "<uid>-c1", ... in the cgroupfs layout.
PodCgroup pod(const std::string& uid, int containers) {
  PodCgroup p{.uid = uid,
              .pod_namespace = "default",
              .name = "pod-" + uid,
              .cgroup_dir = podDir(uid),
              .containers = {}};
  for (int i = 0; i < containers; ++i) {
    const std::string id = uid + "-c" + std::to_string(i);
    p.containers.push_back(
        {.id = id, .name = "app" + std::to_string(i), .cgroup_dir = containerDir(uid, id)});
  }
  return p;
}

// A node, its pods and a MetricsAdvisor over them; `pods` can be changed between cycles.
class Fixture {
 public:
  explicit Fixture(CgroupVersion version) : cgroups_(root_, version) {
    // 4 CPUs; MemTotal 16 GiB.
    setNodeTicks(0, 0);
    setNodeMemoryUsed(0);
    advisor_ = std::make_unique<MetricsAdvisor>(
        cgroups_.paths(), newCgroupReader(cgroups_.paths(), version),
        [this] { return std::shared_ptr<const std::vector<PodCgroup>>(pods_); }, cache_);
  }

  // /proc/stat with `busy` user ticks and `idle` idle ticks over 4 CPUs.
  void setNodeTicks(uint64_t busy, uint64_t idle) {
    std::string stat =
        "cpu  " + std::to_string(busy) + " 0 0 " + std::to_string(idle) + " 0 0 0 0 0 0\n";
    for (int i = 0; i < 4; ++i) {
      stat += "cpu" + std::to_string(i) + " 0 0 0 0 0 0 0 0 0 0\n";
    }
    root_.write("proc/stat", stat);
  }
  void setNodeMemoryUsed(uint64_t bytes) {
    const uint64_t total_kb = 16 * kGiB / 1024;
    root_.write("proc/meminfo", "MemTotal:       " + std::to_string(total_kb) +
                                    " kB\nMemFree:        1024 kB\nMemAvailable:   " +
                                    std::to_string(total_kb - bytes / 1024) + " kB\n");
  }
  void setPods(std::vector<PodCgroup> pods) {
    pods_ = std::make_shared<const std::vector<PodCgroup>>(std::move(pods));
  }
  // Writes cpu usage and memory for a pod and each of its containers (containers get equal
  // shares of the pod's values).
  void setPodUsage(const PodCgroup& p, uint64_t cpu_nanos, uint64_t memory, uint64_t inactive) {
    cgroups_.setCpuUsage(p.cgroup_dir, cpu_nanos);
    cgroups_.setMemory(p.cgroup_dir, memory, inactive);
    const auto n = static_cast<uint64_t>(p.containers.empty() ? 1 : p.containers.size());
    for (const ContainerCgroup& c : p.containers) {
      cgroups_.setCpuUsage(c.cgroup_dir, cpu_nanos / n);
      cgroups_.setMemory(c.cgroup_dir, memory / n, inactive / n);
    }
  }

  CollectStats collect(double seconds) { return advisor_->collect(at(seconds)); }
  std::optional<double> latest(MetricKind kind, const std::string& id = "") const {
    const auto sample = cache_->latest(kind, id);
    return sample ? std::optional<double>(sample->value) : std::nullopt;
  }

  FakeRoot root_;
  FakeCgroups cgroups_;
  std::shared_ptr<MetricCache> cache_ = std::make_shared<MetricCache>();
  std::shared_ptr<const std::vector<PodCgroup>> pods_;
  std::unique_ptr<MetricsAdvisor> advisor_;
};

constexpr std::array<CgroupVersion, 2> kVersions = {CgroupVersion::kV1, CgroupVersion::kV2};

const char* name(CgroupVersion v) {
  return v == CgroupVersion::kV1 ? "v1" : "v2";
}

TEST(MetricsAdvisorTest, PodCpuFromTwoSnapshotsTenSecondsApart) {
  struct Case {
    const char* name;
    uint64_t first_nanos;
    uint64_t second_nanos;
    double want_cores;
  };
  const std::vector<Case> cases = {
      {"2.5 cores", 1 * kNanosPerSecond, 26 * kNanosPerSecond, 2.5},
      {"idle", 7 * kNanosPerSecond, 7 * kNanosPerSecond, 0},
      {"a quarter core", 1000000, 1000000 + 2500000000, 0.25},
  };
  for (const CgroupVersion version : kVersions) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(name(version)) + ": " + c.name);
      Fixture f(version);
      const PodCgroup p = pod("uid-a", 2);
      f.setPods({p});
      f.setPodUsage(p, c.first_nanos, kGiB, 0);
      CollectStats first = f.collect(100);
      EXPECT_EQ(first.errorCount(), 0U) << first.last_error;
      EXPECT_FALSE(f.latest(MetricKind::kPodCpu, "uid-a").has_value());  // primes only
      f.setPodUsage(p, c.second_nanos, kGiB, 0);
      const CollectStats second = f.collect(110);
      EXPECT_EQ(second.errorCount(), 0U) << second.last_error;
      EXPECT_EQ(second.pods, 1U);
      EXPECT_EQ(second.containers, 2U);
      EXPECT_EQ(f.latest(MetricKind::kPodCpu, "uid-a"), c.want_cores);
      // Each container used half (v2 keeps microseconds, so halves stay exact here).
      EXPECT_EQ(f.latest(MetricKind::kContainerCpu, "uid-a-c0"), c.want_cores / 2);
      EXPECT_EQ(f.latest(MetricKind::kContainerCpu, "uid-a-c1"), c.want_cores / 2);
      const auto sample = f.cache_->latest(MetricKind::kPodCpu, "uid-a");
      ASSERT_TRUE(sample.has_value());
      EXPECT_EQ(sample->time, at(110));
    }
  }
}

TEST(MetricsAdvisorTest, PodMemoryIsWorkingSet) {
  for (const CgroupVersion version : kVersions) {
    SCOPED_TRACE(name(version));
    Fixture f(version);
    const PodCgroup p = pod("uid-a", 2);
    f.setPods({p});
    f.setPodUsage(p, 0, 2 * kGiB, 512 * kMiB);
    const CollectStats stats = f.collect(0);
    EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
    EXPECT_EQ(f.latest(MetricKind::kPodMemory, "uid-a"), static_cast<double>(1536 * kMiB));
    EXPECT_EQ(f.latest(MetricKind::kContainerMemory, "uid-a-c1"), static_cast<double>(768 * kMiB));
  }
}

TEST(MetricsAdvisorTest, SystemIsNodeMinusPodsFlooredAtZero) {
  struct Case {
    const char* name;
    uint64_t node_busy_ticks;  // of 400 ticks elapsed on 4 CPUs
    uint64_t node_memory;
    std::vector<uint64_t> pod_cpu_nanos;  // used in 10 s, per pod
    std::vector<uint64_t> pod_memory;     // working set, per pod
    double want_system_cpu;
    double want_system_memory;
  };
  const std::vector<Case> cases = {
      // node 3 cores (300 of 400 ticks on 4 CPUs); pods 1 + 0.5 cores.
      {"room for the system",
       300,
       8 * kGiB,
       {10 * kNanosPerSecond, 5 * kNanosPerSecond},
       {2 * kGiB, kGiB},
       1.5,
       static_cast<double>(5 * kGiB)},
      {"pods above the node", 100, kGiB, {30 * kNanosPerSecond}, {3 * kGiB}, 0, 0},
      {"no pods", 200, 3 * kGiB, {}, {}, 2, static_cast<double>(3 * kGiB)},
  };
  for (const CgroupVersion version : kVersions) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(name(version)) + ": " + c.name);
      Fixture f(version);
      std::vector<PodCgroup> pods;
      for (size_t i = 0; i < c.pod_cpu_nanos.size(); ++i) {
        pods.push_back(pod("uid-" + std::to_string(i), 1));
        f.setPodUsage(pods.back(), 0, c.pod_memory[i], 0);
      }
      f.setPods(pods);
      f.setNodeTicks(1000, 1000);
      f.setNodeMemoryUsed(c.node_memory);
      f.collect(0);
      // The first cycle primes cpu: system memory is already known, system cpu is not.
      EXPECT_FALSE(f.latest(MetricKind::kSystemCpu).has_value());
      EXPECT_EQ(f.latest(MetricKind::kSystemMemory), c.want_system_memory);
      for (size_t i = 0; i < pods.size(); ++i) {
        f.setPodUsage(pods[i], c.pod_cpu_nanos[i], c.pod_memory[i], 0);
      }
      f.setNodeTicks(1000 + c.node_busy_ticks, 1000 + 400 - c.node_busy_ticks);
      const CollectStats stats = f.collect(10);
      EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
      ASSERT_TRUE(f.latest(MetricKind::kSystemCpu).has_value());
      EXPECT_DOUBLE_EQ(*f.latest(MetricKind::kSystemCpu), c.want_system_cpu);
      EXPECT_EQ(f.latest(MetricKind::kSystemMemory), c.want_system_memory);
      EXPECT_EQ(f.latest(MetricKind::kNodeMemory), static_cast<double>(c.node_memory));
      // node cpu + node memory + system cpu + system memory + 4 per pod (pod and container).
      EXPECT_EQ(stats.samples, 4 + 4 * pods.size());
    }
  }
}

TEST(MetricsAdvisorTest, VanishedPodIsSkippedAndCounted) {
  for (const CgroupVersion version : kVersions) {
    SCOPED_TRACE(name(version));
    Fixture f(version);
    const PodCgroup a = pod("uid-a", 1);
    const PodCgroup b = pod("uid-b", 2);
    f.setPods({a, b});
    f.setPodUsage(a, 0, kGiB, 0);
    f.setPodUsage(b, 0, kGiB, 0);
    f.collect(0);
    // uid-b is deleted while still listed (the pod informer has not caught up).
    f.cgroups_.remove(b.cgroup_dir);
    f.setPodUsage(a, 10 * kNanosPerSecond, kGiB, 0);
    const CollectStats stats = f.collect(10);
    EXPECT_EQ(stats.missing_pods, 1U);
    EXPECT_EQ(stats.missing_containers, 0U);  // not read at all once the pod is gone
    EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
    EXPECT_EQ(f.latest(MetricKind::kPodCpu, "uid-a"), 1.0);
    // uid-b keeps its earlier samples while it is listed.
    EXPECT_EQ(f.latest(MetricKind::kPodMemory, "uid-b"), static_cast<double>(kGiB));
    EXPECT_FALSE(f.latest(MetricKind::kPodCpu, "uid-b").has_value());
    // System memory only subtracts what was measured in this cycle (uid-a).
    EXPECT_EQ(f.latest(MetricKind::kSystemMemory), 0.0);  // node memory 0 in this fixture

    // A container of a live pod that vanished is counted on its own.
    f.cgroups_.remove(a.containers[0].cgroup_dir);
    const CollectStats third = f.collect(20);
    EXPECT_EQ(third.missing_pods, 1U);
    EXPECT_EQ(third.missing_containers, 1U);
    EXPECT_EQ(third.errorCount(), 0U) << third.last_error;
  }
}

TEST(MetricsAdvisorTest, UnlistedPodsAreDroppedFromStateAndCache) {
  for (const CgroupVersion version : kVersions) {
    SCOPED_TRACE(name(version));
    Fixture f(version);
    const PodCgroup a = pod("uid-a", 1);
    const PodCgroup b = pod("uid-b", 2);
    f.setPods({a, b});
    f.setPodUsage(a, 0, kGiB, 0);
    f.setPodUsage(b, 0, kGiB, 0);
    f.collect(0);
    f.setPodUsage(a, kNanosPerSecond, kGiB, 0);
    f.setPodUsage(b, kNanosPerSecond, kGiB, 0);
    f.collect(1);
    EXPECT_THAT(f.cache_->ids(MetricKind::kPodCpu), UnorderedElementsAre("uid-a", "uid-b"));
    EXPECT_THAT(f.cache_->ids(MetricKind::kContainerMemory),
                UnorderedElementsAre("uid-a-c0", "uid-b-c0", "uid-b-c1"));

    f.setPods({a});
    f.setPodUsage(a, 2 * kNanosPerSecond, kGiB, 0);
    f.collect(2);
    for (const MetricKind kind : {MetricKind::kPodCpu, MetricKind::kPodMemory}) {
      EXPECT_THAT(f.cache_->ids(kind), UnorderedElementsAre("uid-a"));
    }
    for (const MetricKind kind : {MetricKind::kContainerCpu, MetricKind::kContainerMemory}) {
      EXPECT_THAT(f.cache_->ids(kind), UnorderedElementsAre("uid-a-c0"));
    }
    // Node and system memory (the fixture's cpu ticks never move) + uid-a's pod (2) and
    // container (2) series.
    EXPECT_EQ(f.cache_->seriesCount(), 6U);

    // Listed again (a restored pod with the same uid): its counters start over.
    f.setPods({a, b});
    f.setPodUsage(b, 50 * kNanosPerSecond, kGiB, 0);
    f.collect(3);
    EXPECT_FALSE(f.latest(MetricKind::kPodCpu, "uid-b").has_value());
    f.setPodUsage(b, 52 * kNanosPerSecond, kGiB, 0);
    f.collect(4);
    EXPECT_EQ(f.latest(MetricKind::kPodCpu, "uid-b"), 2.0);
  }
}

TEST(MetricsAdvisorTest, ReadErrorsAreCountedPerKind) {
  Fixture f(CgroupVersion::kV1);
  const PodCgroup a = pod("uid-a", 1);
  const PodCgroup b = pod("uid-b", 1);
  f.setPods({a, b});
  f.setPodUsage(a, 0, kGiB, 0);
  f.setPodUsage(b, 0, kGiB, 0);
  f.root_.write(FakeCgroups::v1("cpuacct", a.cgroup_dir, "cpuacct.usage"), "garbage\n");
  f.root_.write(FakeCgroups::v1("memory", b.containers[0].cgroup_dir, "memory.stat"), "cache 0\n");
  const CollectStats stats = f.collect(0);
  EXPECT_EQ(stats.errorsOf(MetricKind::kPodCpu), 1U);
  EXPECT_EQ(stats.errorsOf(MetricKind::kContainerMemory), 1U);
  EXPECT_EQ(stats.errorCount(), 2U);
  EXPECT_EQ(stats.missing_pods, 0U);
  EXPECT_THAT(stats.last_error.message(), HasSubstr("total_inactive_file"));
  // The rest of the cycle went on: uid-a's memory, its container and uid-b were collected.
  EXPECT_EQ(f.latest(MetricKind::kPodMemory, "uid-a"), static_cast<double>(kGiB));
  EXPECT_EQ(f.latest(MetricKind::kContainerMemory, "uid-a-c0"), static_cast<double>(kGiB));
  EXPECT_EQ(f.latest(MetricKind::kPodMemory, "uid-b"), static_cast<double>(kGiB));
  EXPECT_FALSE(f.latest(MetricKind::kContainerMemory, "uid-b-c0").has_value());
}

TEST(MetricsAdvisorTest, UnmountedHierarchyIsAnErrorNotMissingPods) {
  Fixture f(CgroupVersion::kV1);
  const PodCgroup a = pod("uid-a", 1);
  f.setPods({a});
  f.setPodUsage(a, 0, kGiB, 0);
  f.root_.remove("sys/fs/cgroup/cpuacct");
  const CollectStats stats = f.collect(0);
  EXPECT_EQ(stats.missing_pods, 0U);
  EXPECT_EQ(stats.errorsOf(MetricKind::kPodCpu), 1U);
  EXPECT_EQ(stats.errorsOf(MetricKind::kContainerCpu), 1U);
  EXPECT_EQ(stats.last_error.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(f.latest(MetricKind::kPodMemory, "uid-a"), static_cast<double>(kGiB));
}

TEST(MetricsAdvisorTest, CounterResetAndClockStepOnlyReprime) {
  struct Case {
    const char* name;
    uint64_t second_nanos;
    double second_time;
  };
  const std::vector<Case> cases = {
      {"counter went backwards (cgroup re-created)", 1 * kNanosPerSecond, 10},
      {"clock stepped back", 20 * kNanosPerSecond, -5},
      {"same instant", 20 * kNanosPerSecond, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Fixture f(CgroupVersion::kV2);
    const PodCgroup a = pod("uid-a", 0);
    f.setPods({a});
    f.setPodUsage(a, 10 * kNanosPerSecond, kGiB, 0);
    f.collect(0);
    f.setPodUsage(a, c.second_nanos, kGiB, 0);
    const CollectStats stats = f.collect(c.second_time);
    EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
    EXPECT_FALSE(f.latest(MetricKind::kPodCpu, "uid-a").has_value());
    // The next reading measures from the re-primed counter.
    f.setPodUsage(a, c.second_nanos + 3 * kNanosPerSecond, kGiB, 0);
    f.collect(c.second_time + 2);
    EXPECT_EQ(f.latest(MetricKind::kPodCpu, "uid-a"), 1.5);
  }
}

TEST(MetricsAdvisorTest, SkipsPodsAndContainersWithoutCgroup) {
  Fixture f(CgroupVersion::kV1);
  PodCgroup pending = pod("uid-pending", 0);
  pending.cgroup_dir.clear();
  PodCgroup starting = pod("uid-a", 2);
  starting.containers[1].id.clear();  // not started: no container id yet
  PodCgroup no_uid = pod("", 0);
  f.setPods({pending, starting, no_uid});
  f.setPodUsage(starting, 0, kGiB, 0);
  const CollectStats stats = f.collect(0);
  EXPECT_EQ(stats.pods, 1U);
  EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
  EXPECT_EQ(stats.missing_pods + stats.missing_containers, 0U);
  EXPECT_THAT(f.cache_->ids(MetricKind::kPodMemory), UnorderedElementsAre("uid-a"));
  EXPECT_THAT(f.cache_->ids(MetricKind::kContainerMemory), UnorderedElementsAre("uid-a-c0"));
}

TEST(MetricsAdvisorTest, NoProviderMeansNoPods) {
  FakeRoot root;
  root.write("proc/stat", "cpu  1 0 0 1 0 0 0 0\ncpu0 0\n");
  root.write("proc/meminfo", "MemTotal: 100 kB\nMemAvailable: 50 kB\n");
  const system::SysPaths paths = system::SysPaths::under(root.path());
  auto cache = std::make_shared<MetricCache>();
  MetricsAdvisor advisor(paths, newCgroupReader(paths, CgroupVersion::kV2), nullptr, cache);
  const CollectStats stats = advisor.collect(at(0));
  EXPECT_EQ(stats.errorCount(), 0U) << stats.last_error;
  EXPECT_EQ(stats.pods, 0U);
  EXPECT_EQ(cache->latest(MetricKind::kSystemMemory, "")->value, 50.0 * 1024);
  EXPECT_EQ(advisor.cache(), cache);
}

}  // namespace
}  // namespace koord::agent::metricsadvisor
