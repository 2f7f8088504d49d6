// What koord-agent's QoS strategies cost per pass with every strategy on, and what one second of
// the agent's loop costs in all (issue #35's target: <= 2% of one core of process CPU per second
// of wall time, <= 32 MiB resident, at 200 pods of 2 containers).
//
// The node: 100 LS pods (label koordinator.sh/qosClass LS, kube Burstable, containers cpu
// 500m/1, memory 256Mi/512Mi) and 100 BE pods (label BE, BestEffort, kubernetes.io/batch-cpu 5/500
// and batch-memory 16Mi/64Mi per container), 2 containers each, Running, as real cgroups in the
// host's cgroup v1 hierarchies cpu, cpuacct, cpuset and memory, with cgroupfs naming under the
// kubelet cgroup root /koord-bench-<pid> (<hierarchy>/koord-bench-<pid>/kubepods/{burstable,
// besteffort}/pod<uid>/<container id>; every cpuset folder gets its parent's cpuset.cpus and
// cpuset.mems, LS pods the kubelet's quotas and memory limits). Removed at the end (rmdir,
// deepest first), also when making it failed half-way.
//
// The agent: the parts of Daemon::create / runStrategies (agent/app/daemon.cpp) over that tree:
// a CgroupResourceExecutor over newCgroupWriter(kV1) confined to the tree's kubepods, the
// MetricsAdvisor and MetricCache collecting from it (and the host's /proc), a second cgroup reader
// (64 open files) for NodeFacts, the host's CPU topology (its pools as a topology pass with no
// LSE/LSR pod makes them), PodCgroups::resolve of the fake informer's pods each pass, and
// the Scheduler over every builtin strategy, none disabled (RuntimeReconcile, MemoryQOS and
// SystemConfig every 10 s, the others every 1 s). The NodeSLO turns every strategy on without
// evicting: resourceUsedThresholdWithBE {enable, cpuSuppressThresholdPercent 65, policy cpuset,
// memoryEvictThresholdPercent 99, cpuEvictBESatisfaction lower 10 / upper 20}, cpuBurstStrategy
// {policy auto}, resourceQOSStrategy lsClass/beClass memoryQOS enable (cgroup v1: unsupported,
// nothing written, still run), systemStrategy {watermarkScaleFactor 150} with no system config
// executor (the real /proc/sys is never written). The evictor's client fails every call.
// The scheduler, executor and evictor run on a FakeClock advanced 1 s per pass, so every 1 s
// strategy is due at every pass; the metric cache's wall-clock times advance 1 s per pass too.
// Logs go to a counting sink at info level (as the daemon's default).
//
//   BM_StrategiesPass/cache_age_s:60, :0
//                       process CPU time (CLOCK_PROCESS_CPUTIME_ID, system time included) of one
//                       Scheduler::runDue pass, after KOORD_BENCH_WARMUP_PASSES (20) passes, so
//                       the executor's cache skips the unchanged writes; each pass's collection
//                       runs too, outside the measured time. cache_age_s is the executor's
//                       cache_max_age: 60 as the daemon (every value is written again once a
//                       minute: the mean includes those passes), 0 never expires (the pure
//                       steady state: every update skipped). Counters: max_ms (slowest pass),
//                       ms_<strategy> (the process CPU time of its runs per pass, by
//                       a timing wrapper around each strategy, amortised over every pass: the 10 s
//                       strategies count a tenth), ms_debugState (every strategy's debugState(),
//                       which the scheduler calls after each run), writes/skipped/failed_writes
//                       (executor updates per pass), failed_runs, evictions, log_lines (per pass),
//                       rss_mib (VmRSS after every pass). KOORD_BENCH_DEBUG=1 prints every
//                       strategy's last decision (Scheduler::debugJson) to stderr.
//   BM_AgentSecond      one second of the loop (the daemon's cache age): PodCgroups::resolve + one
//   collection cycle + one
//                       strategies pass, all measured. Counters: resolve_ms, collect_ms,
//                       strategies_ms (means per pass), agent_cpu_percent_of_one_core =
//                       (their sum in ms per 1 s of wall time) * 100 / 1000, rss_mib.
// KOORD_BENCH_PASSES (300) is the measured passes per run; KOORD_BENCH_QOS_READER_FILES (64, as
// the daemon) the open files of the strategies' cgroup reader. Needs root and writable cgroup v1
// cpu, cpuacct, cpuset and memory hierarchies, else reports "needs root and cgroup v1". Run with
// --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians, under
// `flock /tmp/koord-root.lock` so that no other busy test shares the CPUs.
#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "agent/app/collected_pods.hpp"
#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/metricsadvisor/metrics_advisor.hpp"
#include "agent/qosmanager/framework/evictor.hpp"
#include "agent/qosmanager/framework/metric_windows.hpp"
#include "agent/qosmanager/framework/scheduler.hpp"
#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/qosmanager/strategies/builtin.hpp"
#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "agent/resourceexecutor/cgroup_resource_executor.hpp"
#include "agent/resourceexecutor/cgroup_writer.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "agent/statesinformer/states_informer.hpp"
#include "agent/system/cpu_pools.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::agent::qosmanager {
namespace {

namespace fs = std::filesystem;
using resource::Quantity;

constexpr int kPodsPerClass = 100;  // LS and BE each
constexpr int kContainersPerPod = 2;
constexpr int64_t kMiB = int64_t{1} << 20;
constexpr const char* kNeeds = "needs root and cgroup v1";
constexpr std::array<const char*, 4> kHierarchies = {"cpu", "cpuacct", "cpuset", "memory"};
constexpr uint64_t kCgroupMagic = 0x27e0eb;  // linux/magic.h CGROUP_SUPER_MAGIC

uint64_t envOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::strtoull(value, nullptr, 10) : fallback;
}

double processCpuSeconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// VmRSS of this process in MiB, from /proc/self/status.
double residentMiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      return std::stod(line.substr(6)) / 1024.0;  // "VmRSS:   12345 kB"
    }
  }
  return -1;
}

// MemTotal of /proc/meminfo in bytes (the Node's memory capacity); 16 GiB when unreadable.
int64_t memTotalBytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemTotal:", 0) == 0) {
      return std::stoll(line.substr(9)) * 1024;
    }
  }
  return 16 * 1024 * kMiB;
}

std::string readFirstLine(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

bool writeValue(const fs::path& path, const std::string& value) {
  std::ofstream out(path);
  out << value;
  out.flush();
  return static_cast<bool>(out);
}

// The sum of the samples of `metric` in the registry's text whose labels contain `labels`
// (e.g. `result="ok"`; "" for all).
double metricSum(const std::string& text, std::string_view metric, std::string_view labels) {
  double sum = 0;
  std::istringstream lines(text);
  const std::string prefix = std::string(metric) + "{";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0 || line.find(labels) == std::string::npos) {
      continue;
    }
    const size_t space = line.rfind(' ');
    if (space != std::string::npos) {
      sum += std::strtod(line.c_str() + space + 1, nullptr);
    }
  }
  return sum;
}

// The informer: a fixed Node, pods and NodeSLO, synced.
class FakeStates final : public statesinformer::StatesInformer {
 public:
  FakeStates(std::shared_ptr<const api::core::Node> node,
             std::vector<std::shared_ptr<const api::core::Pod>> pods,
             std::shared_ptr<const api::slo::NodeSLO> slo)
      : node_(std::move(node)), pods_(std::move(pods)), slo_(std::move(slo)) {}

  std::shared_ptr<const api::core::Node> node() const override { return node_; }
  std::vector<std::shared_ptr<const api::core::Pod>> pods() const override { return pods_; }
  std::shared_ptr<const api::slo::NodeSLO> nodeSLO() const override { return slo_; }
  std::shared_ptr<const api::slo::NodeMetric> nodeMetric() const override { return nullptr; }
  bool hasSynced() const override { return true; }
  void onChange(Callback) override {}

 private:
  std::shared_ptr<const api::core::Node> node_;
  std::vector<std::shared_ptr<const api::core::Pod>> pods_;
  std::shared_ptr<const api::slo::NodeSLO> slo_;
};

// An API server that answers nothing: every call is kUnavailable (and counted).
class FailingClient final : public k8s::Client {
 public:
  Result<k8s::Json> get(const k8s::GroupVersionResource&, const std::string&,
                        const std::string&) override {
    return fail();
  }
  Result<k8s::ObjectList> list(const k8s::GroupVersionResource&, const std::string&,
                               const k8s::ListOptions&) override {
    return fail();
  }
  Result<k8s::Json> create(const k8s::GroupVersionResource&, const std::string&,
                           const k8s::Json&) override {
    return fail();
  }
  Result<k8s::Json> update(const k8s::GroupVersionResource&, const std::string&,
                           const k8s::Json&) override {
    return fail();
  }
  Result<k8s::Json> updateStatus(const k8s::GroupVersionResource&, const std::string&,
                                 const k8s::Json&) override {
    return fail();
  }
  Status remove(const k8s::GroupVersionResource&, const std::string&, const std::string&,
                const api::core::DeleteOptions&) override {
    return fail();
  }
  Result<k8s::Json> patch(const k8s::GroupVersionResource&, const std::string&, const std::string&,
                          k8s::PatchType, const std::string&, const k8s::PatchOptions&) override {
    return fail();
  }
  Status bind(const std::string&, const std::string&, const std::string&,
              const std::string&) override {
    return fail();
  }
  Status evict(const std::string&, const std::string&, const api::core::DeleteOptions&) override {
    return fail();
  }
  Result<k8s::Json> createEvent(const std::string&, const api::core::Event&) override {
    return fail();
  }
  Status watch(const k8s::GroupVersionResource&, const std::string&, const k8s::ListOptions&,
               const std::function<bool(std::string_view)>&, const k8s::StreamOptions&) override {
    return fail();
  }

  [[nodiscard]] uint64_t calls() const { return calls_.load(); }

 private:
  Status fail() {
    ++calls_;
    return Status::unavailable("koord-bench: no API server");
  }
  std::atomic<uint64_t> calls_{0};
};

std::shared_ptr<const api::core::Pod> makePod(int index, bool be) {
  auto pod = std::make_shared<api::core::Pod>();
  char uid[40];
  std::snprintf(uid, sizeof(uid), "6f1e2d3c-%s-4bbb-8ccc-%012d", be ? "bbbb" : "aaaa", index);
  pod->metadata.namespace_ = "default";
  pod->metadata.name = std::string(be ? "be-" : "ls-") + std::to_string(index);
  pod->metadata.uid = uid;
  pod->metadata.labels[std::string(api::kLabelPodQoS)] = be ? "BE" : "LS";
  pod->status.phase = "Running";
  pod->status.qosClass = be ? "BestEffort" : "Burstable";
  pod->status.containerStatuses = api::Json::array();
  for (int c = 0; c < kContainersPerPod; ++c) {
    api::core::Container container;
    container.name = "app" + std::to_string(c);
    auto& requests = container.resources.requests;
    auto& limits = container.resources.limits;
    if (be) {
      requests[std::string(api::kResourceBatchCPU)] = Quantity::fromInt(5);
      limits[std::string(api::kResourceBatchCPU)] = Quantity::fromInt(500);
      requests[std::string(api::kResourceBatchMemory)] = Quantity::fromInt(16 * kMiB);
      limits[std::string(api::kResourceBatchMemory)] = Quantity::fromInt(64 * kMiB);
    } else {
      requests[std::string(api::kResourceCPU)] = Quantity::fromMilli(500);
      limits[std::string(api::kResourceCPU)] = Quantity::fromInt(1);
      requests[std::string(api::kResourceMemory)] = Quantity::fromInt(256 * kMiB);
      limits[std::string(api::kResourceMemory)] = Quantity::fromInt(512 * kMiB);
    }
    pod->spec.containers.push_back(container);
    char id[72];
    std::snprintf(id, sizeof(id), "%032x%016x%016x", index, be ? 2 : 1, c + 1);
    pod->status.containerStatuses.push_back(
        {{"name", container.name},
         {"containerID", std::string("containerd://") + id},
         {"ready", true},
         {"started", true},
         {"state", {{"running", {{"startedAt", "2026-01-01T00:00:00Z"}}}}}});
  }
  return pod;
}

std::shared_ptr<const api::core::Node> makeNode(size_t cpus) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "koord-bench-node";
  const int64_t memory = memTotalBytes();
  for (auto* list : {&node->status.capacity, &node->status.allocatable}) {
    (*list)[std::string(api::kResourceCPU)] = Quantity::fromInt(static_cast<int64_t>(cpus));
    (*list)[std::string(api::kResourceMemory)] = Quantity::fromInt(memory);
    (*list)[std::string(api::kResourceBatchCPU)] =
        Quantity::fromInt(static_cast<int64_t>(cpus) * 1000);
    (*list)[std::string(api::kResourceBatchMemory)] = Quantity::fromInt(memory / 2);
  }
  return node;
}

// Every strategy on, none evicting (see the header comment).
std::shared_ptr<const api::slo::NodeSLO> makeSlo() {
  auto slo = std::make_shared<api::slo::NodeSLO>();
  slo->metadata.name = "koord-bench-node";
  api::slo::ResourceThresholdStrategy threshold;
  threshold.enable = true;
  threshold.cpuSuppressThresholdPercent = 65;
  threshold.cpuSuppressPolicy = api::slo::CPUSuppressPolicy::kCPUSet;
  threshold.memoryEvictThresholdPercent = 99;
  threshold.cpuEvictBESatisfactionLowerPercent = 10;
  threshold.cpuEvictBESatisfactionUpperPercent = 20;
  slo->spec.resourceUsedThresholdWithBE = threshold;
  api::slo::CPUBurstStrategy burst;
  burst.policy = api::slo::CPUBurstPolicy::kAuto;
  slo->spec.cpuBurstStrategy = burst;
  api::slo::ResourceQOS memory_on;
  memory_on.memoryQOS = api::slo::MemoryQOSCfg{};
  memory_on.memoryQOS->enable = true;
  api::slo::ResourceQOSStrategy qos;
  qos.lsClass = memory_on;
  qos.beClass = memory_on;
  slo->spec.resourceQOSStrategy = qos;
  api::slo::SystemStrategy system;
  system.watermarkScaleFactor = 150;
  slo->spec.systemStrategy = system;
  return slo;
}

// The pods as real cgroups in the host's v1 hierarchies (see the header comment); removed by
// the destructor, deepest first.
class BenchTree {
 public:
  BenchTree() : prefix_("koord-bench-" + std::to_string(::getpid())) {
    naming_.driver = system::CgroupDriver::kCgroupfs;
    naming_.cgroup_root = "/" + prefix_;
    for (int i = 0; i < kPodsPerClass; ++i) {
      pods_.push_back(makePod(i, false));
    }
    for (int i = 0; i < kPodsPerClass; ++i) {
      pods_.push_back(makePod(i, true));
    }
  }
  ~BenchTree() {
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
      if (::rmdir(it->c_str()) != 0) {
        std::fprintf(stderr, "failed to remove '%s': %s\n", it->c_str(), std::strerror(errno));
      }
    }
  }
  BenchTree(const BenchTree&) = delete;
  BenchTree& operator=(const BenchTree&) = delete;

  [[nodiscard]] bool usable() const {
    if (::geteuid() != 0) {
      return false;
    }
    for (const char* hierarchy : kHierarchies) {
      const std::string dir = (paths_.cgroup_root / hierarchy).string();
      struct statfs fs {};
      if (::statfs(dir.c_str(), &fs) != 0 || static_cast<uint64_t>(fs.f_type) != kCgroupMagic ||
          ::access(dir.c_str(), W_OK) != 0) {
        return false;
      }
    }
    return true;
  }

  // Makes every folder with the kubelet's values; "" when done, else what failed.
  [[nodiscard]] std::string make() {
    const fs::path kubepods = resourceexecutor::kubepodsDir(naming_);
    std::vector<fs::path> dirs = {
        prefix_, kubepods, resourceexecutor::qosDir(naming_, api::core::QosClass::kBurstable),
        resourceexecutor::qosDir(naming_, api::core::QosClass::kBestEffort)};
    for (const auto& pod : pods_) {
      const auto qos = *resourceexecutor::parseKubeQosClass(pod->status.qosClass);
      auto dir = resourceexecutor::podDir(naming_, qos, pod->metadata.uid);
      if (!dir.ok()) {
        return dir.status().toString();
      }
      dirs.push_back(*dir);
      for (const auto& status : pod->status.containerStatuses) {
        auto container = resourceexecutor::containerDir(naming_, qos, pod->metadata.uid,
                                                        status["containerID"].get<std::string>());
        if (!container.ok()) {
          return container.status().toString();
        }
        dirs.push_back(*container);
      }
    }
    for (const char* hierarchy : kHierarchies) {
      for (const fs::path& dir : dirs) {
        if (std::string error = makeDir(std::string(hierarchy), dir); !error.empty()) {
          return error;
        }
      }
    }
    return kubeletValues();
  }

  [[nodiscard]] const resourceexecutor::KubeletCgroupNaming& naming() const { return naming_; }
  [[nodiscard]] const system::SysPaths& paths() const { return paths_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const api::core::Pod>>& pods() const {
    return pods_;
  }

 private:
  std::string makeDir(const std::string& hierarchy, const fs::path& relative) {
    const fs::path dir = paths_.cgroup_root / hierarchy / relative;
    if (::mkdir(dir.c_str(), 0755) != 0) {
      return "failed to create '" + dir.string() + "': " + std::strerror(errno);
    }
    made_.push_back(dir.string());
    if (hierarchy == "cpuset") {
      for (const char* file : {"cpuset.cpus", "cpuset.mems"}) {
        if (!writeValue(dir / file, readFirstLine(dir.parent_path() / file))) {
          return "failed to copy '" + (dir / file).string() + "' from its parent";
        }
      }
    }
    return "";
  }

  // LS pods: the kubelet's CFS quota (pod first: a v1 child's quota may not exceed its
  // parent's), cpu.shares and memory limits; BE pods: cpu.shares 2.
  std::string kubeletValues() {
    const fs::path cpu = paths_.cgroup_root / "cpu";
    const fs::path memory = paths_.cgroup_root / "memory";
    for (const auto& pod : pods_) {
      const bool be = pod->status.qosClass == "BestEffort";
      const auto qos = be ? api::core::QosClass::kBestEffort : api::core::QosClass::kBurstable;
      const fs::path pod_dir = *resourceexecutor::podDir(naming_, qos, pod->metadata.uid);
      std::vector<std::pair<fs::path, std::string>> writes;
      if (be) {
        writes.emplace_back(cpu / pod_dir / "cpu.shares", "2");
      } else {
        writes.emplace_back(cpu / pod_dir / "cpu.cfs_quota_us", "200000");
        writes.emplace_back(cpu / pod_dir / "cpu.shares", "1024");
        writes.emplace_back(memory / pod_dir / "memory.limit_in_bytes",
                            std::to_string(2 * 512 * kMiB));
      }
      for (const auto& status : pod->status.containerStatuses) {
        const fs::path dir = *resourceexecutor::containerDir(
            naming_, qos, pod->metadata.uid, status["containerID"].get<std::string>());
        if (be) {
          writes.emplace_back(cpu / dir / "cpu.shares", "2");
        } else {
          writes.emplace_back(cpu / dir / "cpu.cfs_quota_us", "100000");
          writes.emplace_back(cpu / dir / "cpu.shares", "512");
          writes.emplace_back(memory / dir / "memory.limit_in_bytes", std::to_string(512 * kMiB));
        }
      }
      for (const auto& [path, value] : writes) {
        if (!writeValue(path, value)) {
          return "failed to write " + value + " to '" + path.string() + "'";
        }
      }
    }
    return "";
  }

  system::SysPaths paths_;  // the host's
  std::string prefix_;
  resourceexecutor::KubeletCgroupNaming naming_;
  std::vector<std::shared_ptr<const api::core::Pod>> pods_;
  std::vector<std::string> made_;  // in the order made
};

// A strategy that adds the process CPU time of each of its runs to `seconds` (the scheduler's own
// duration histogram reads the FakeClock, which stands still during a pass).
class TimedStrategy final : public framework::Strategy {
 public:
  TimedStrategy(std::unique_ptr<framework::Strategy> inner, double& seconds, double& debug_seconds)
      : inner_(std::move(inner)), seconds_(seconds), debug_seconds_(debug_seconds) {}

  std::string_view name() const override { return inner_->name(); }
  Clock::Duration interval() const override { return inner_->interval(); }
  bool runsOnStateChange() const override { return inner_->runsOnStateChange(); }
  bool enabled(const api::slo::NodeSLO* node_slo) const override {
    return inner_->enabled(node_slo);
  }
  Status run(const framework::StrategyContext& context) override {
    const double start = processCpuSeconds();
    Status status = inner_->run(context);
    seconds_ += processCpuSeconds() - start;
    return status;
  }
  // Called by the scheduler right after each run (outside run's time): counted apart.
  api::Json debugState() const override {
    const double start = processCpuSeconds();
    api::Json state = inner_->debugState();
    debug_seconds_ += processCpuSeconds() - start;
    return state;
  }

 private:
  std::unique_ptr<framework::Strategy> inner_;
  double& seconds_;
  double& debug_seconds_;
};

// The agent's parts over a BenchTree, wired as Daemon::create and Daemon::runStrategies do.
class BenchAgent {
 public:
  // "" when every part was made, else why not.
  std::string create(const BenchTree& tree, Clock::Duration cache_max_age) {
    tree_ = &tree;
    logger_ = log::Logger(log::LogSink::toCallback([this](log::LogLevel level, std::string_view) {
                            ++log_lines_;
                            if (level >= log::LogLevel::kWarn) {
                              ++warn_lines_;
                            }
                          }),
                          log::LogOptions{}, "koord-bench");
    auto topology = system::discoverCpuTopology(tree.paths().sys_root.parent_path());
    if (!topology.ok()) {
      return topology.status().toString();
    }
    topology_ = std::move(*topology);
    cpus_ = system::makeCpuPools(topology_, {}, {});
    states_ = std::make_unique<FakeStates>(makeNode(topology_.cpus.size()), tree.pods(), makeSlo());

    resourceexecutor::ResourceExecutorOptions executor_options;
    executor_options.kubepods_dir = resourceexecutor::kubepodsDir(tree.naming());
    executor_options.cache_max_age = cache_max_age;
    auto executor = resourceexecutor::CgroupResourceExecutor::create(
        resourceexecutor::newCgroupWriter(system::CgroupVersion::kV1, tree.paths()), clock_,
        std::move(executor_options), &logger_, &registry_);
    if (!executor.ok()) {
      return executor.status().toString();
    }
    executor_ = std::move(*executor);
    auto evictor = framework::Evictor::create(
        client_, clock_,
        [](const api::core::ObjectReference&, k8s::EventType, std::string, std::string) {}, {},
        logger_, &registry_);
    if (!evictor.ok()) {
      return evictor.status().toString();
    }
    evictor_ = std::move(*evictor);
    strategies::StrategyArgs args;
    args.reconcile_interval = std::chrono::seconds(10);
    args.logger = logger_;
    args.registry = &registry_;
    framework::SchedulerOptions scheduler_options;
    scheduler_options.logger = logger_;
    std::vector<std::unique_ptr<framework::Strategy>> timed;
    for (auto& strategy : strategies::builtinStrategies(args)) {
      double& seconds = cpu_seconds_[std::string(strategy->name())];
      timed.push_back(
          std::make_unique<TimedStrategy>(std::move(strategy), seconds, debug_seconds_));
    }
    auto scheduler = framework::Scheduler::create(std::move(timed), clock_,
                                                  std::move(scheduler_options), &registry_);
    if (!scheduler.ok()) {
      return scheduler.status().toString();
    }
    scheduler_ = std::move(*scheduler);

    cache_ = std::make_shared<metriccache::MetricCache>();
    advisor_ = std::make_unique<metricsadvisor::MetricsAdvisor>(
        tree.paths(), metricsadvisor::newCgroupReader(tree.paths(), system::CgroupVersion::kV1),
        [this] { return app::collectedPods(pods_); }, cache_);
    // The daemon's 64 open files (agent/app/daemon.cpp); KOORD_BENCH_QOS_READER_FILES to compare.
    qos_reader_ = metricsadvisor::newCgroupReader(tree.paths(), system::CgroupVersion::kV1,
                                                  envOr("KOORD_BENCH_QOS_READER_FILES", 64));
    // cpu.cfs_burst_us in the tree's kubepods folder: what detectCfsBurst() looks for.
    cfs_burst_ = fs::exists(tree.paths().cgroup_root / "cpu" /
                            resourceexecutor::kubepodsDir(tree.naming()) / "cpu.cfs_burst_us");
    return "";
  }

  // The start of a pass: 1 s later on both clocks, the pods resolved again (as the daemon's loop
  // does at each pass).
  void beginPass() {
    ++pass_;
    clock_.advance(std::chrono::seconds(1));
    wall_ = metriccache::TimePoint(std::chrono::seconds(1700000000 + pass_));
    pods_ = resourceexecutor::PodCgroups::resolve(tree_->naming(), states_->pods());
  }

  metricsadvisor::CollectStats collect() { return advisor_->collect(wall_); }

  // One pass of the strategies (Daemon::runStrategies).
  framework::SchedulerPass runStrategies() {
    const framework::MetricWindows windows(*cache_, wall_);
    const framework::NodeFacts facts{topology_, tree_->naming(), system::CgroupVersion::kV1,
                                     cfs_burst_, *qos_reader_};
    const framework::StrategyContext context{*states_, windows, *executor_, *evictor_, pods_,
                                             cpus_,    clock_,  facts,      shared_};
    const bool first = pass_ == 1;
    return scheduler_->runDue(context, first);
  }

  [[nodiscard]] std::string metricsText() const { return registry_.serialize(); }
  [[nodiscard]] uint64_t logLines() const { return log_lines_; }
  [[nodiscard]] uint64_t warnLines() const { return warn_lines_; }
  [[nodiscard]] uint64_t apiCalls() const { return client_.calls(); }
  // Process CPU seconds of every strategy's debugState() calls so far.
  [[nodiscard]] double debugSeconds() const { return debug_seconds_; }
  // Process CPU seconds of every strategy's runs so far, by name.
  [[nodiscard]] const std::map<std::string, double>& strategySeconds() const {
    return cpu_seconds_;
  }
  [[nodiscard]] api::Json debugJson() const { return scheduler_->debugJson(); }

 private:
  const BenchTree* tree_ = nullptr;
  FakeClock clock_;
  metrics::MetricsRegistry registry_;
  log::Logger logger_;
  uint64_t log_lines_ = 0;
  uint64_t warn_lines_ = 0;
  FailingClient client_;
  system::CpuTopology topology_;
  system::CpuPools cpus_;
  std::unique_ptr<FakeStates> states_;
  std::unique_ptr<resourceexecutor::CgroupResourceExecutor> executor_;
  std::unique_ptr<framework::Evictor> evictor_;
  std::unique_ptr<framework::Scheduler> scheduler_;
  std::shared_ptr<metriccache::MetricCache> cache_;
  std::unique_ptr<metricsadvisor::MetricsAdvisor> advisor_;
  std::unique_ptr<metricsadvisor::CgroupReader> qos_reader_;
  bool cfs_burst_ = false;
  framework::SharedDecisions shared_;
  resourceexecutor::PodCgroups pods_;
  uint64_t pass_ = 0;
  metriccache::TimePoint wall_{};
  std::map<std::string, double> cpu_seconds_;  // by strategy; the map's nodes do not move
  double debug_seconds_ = 0;                   // every strategy's debugState()
};

// What the executor, evictor, scheduler and logs did between two snapshots.
struct Activity {
  double writes = 0, skipped = 0, failed_writes = 0, failed_runs = 0, evictions = 0, logs = 0,
         warns = 0;
  std::map<std::string, double> strategy_seconds;
  double debug_seconds = 0;

  static Activity of(const BenchAgent& agent) {
    const std::string text = agent.metricsText();
    Activity out;
    out.writes = metricSum(text, "koord_agent_executor_writes_total", "result=\"ok\"");
    out.skipped = metricSum(text, "koord_agent_executor_writes_total", "result=\"skipped\"");
    out.failed_writes = metricSum(text, "koord_agent_executor_writes_total", "result=\"failed\"") +
                        metricSum(text, "koord_agent_executor_writes_total", "result=\"refused\"");
    out.failed_runs = metricSum(text, framework::kStrategyRunsMetric, "result=\"failed\"") +
                      metricSum(text, framework::kStrategyRunsMetric, "result=\"exception\"");
    out.evictions = metricSum(text, framework::kEvictionsMetric, "");
    out.logs = static_cast<double>(agent.logLines());
    out.warns = static_cast<double>(agent.warnLines());
    out.strategy_seconds = agent.strategySeconds();
    out.debug_seconds = agent.debugSeconds();
    return out;
  }

  // Per-pass counters of `after` minus `before` over `passes`.
  static void report(benchmark::State& state, const Activity& before, const Activity& after,
                     double passes, double api_calls) {
    state.counters["writes"] = (after.writes - before.writes) / passes;
    state.counters["skipped"] = (after.skipped - before.skipped) / passes;
    state.counters["failed_writes"] = (after.failed_writes - before.failed_writes) / passes;
    state.counters["failed_runs"] = (after.failed_runs - before.failed_runs) / passes;
    state.counters["writes_since_start"] = after.writes;  // the warm-up's first writes included
    state.counters["evictions"] = after.evictions;        // any result, since the start
    state.counters["api_calls"] = api_calls;  // since the start; 0 when nothing was evicted
    state.counters["log_lines"] = (after.logs - before.logs) / passes;
    state.counters["warn_lines"] = (after.warns - before.warns) / passes;
    state.counters["ms_debugState"] = (after.debug_seconds - before.debug_seconds) * 1e3 / passes;
    for (const auto& [name, seconds] : after.strategy_seconds) {
      state.counters["ms_" + name] = (seconds - before.strategy_seconds.at(name)) * 1e3 / passes;
    }
  }
};

// Makes the tree and the agent and runs the warm-up passes; false (with the error reported) when
// the host cannot.
bool setUp(benchmark::State& state, BenchTree& tree, BenchAgent& agent,
           Clock::Duration cache_max_age) {
  if (!tree.usable()) {
    state.SkipWithError(kNeeds);
    return false;
  }
  if (const std::string error = tree.make(); !error.empty()) {
    state.SkipWithError(error.c_str());
    return false;
  }
  if (const std::string error = agent.create(tree, cache_max_age); !error.empty()) {
    state.SkipWithError(error.c_str());
    return false;
  }
  for (uint64_t i = envOr("KOORD_BENCH_WARMUP_PASSES", 20); i > 0; --i) {
    agent.beginPass();
    (void)agent.collect();
    (void)agent.runStrategies();
  }
  return true;
}

// The daemon's executor cache age (agent/app/daemon.cpp): every cached value is written again
// once a minute.
constexpr Clock::Duration kDaemonCacheMaxAge = std::chrono::minutes(1);

const int64_t kPasses =
    static_cast<int64_t>(std::max<uint64_t>(1, envOr("KOORD_BENCH_PASSES", 300)));

// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark's naming.
void BM_StrategiesPass(benchmark::State& state) {
  BenchTree tree;
  BenchAgent agent;
  if (!setUp(state, tree, agent, std::chrono::seconds(state.range(0)))) {
    return;
  }
  const Activity before = Activity::of(agent);
  double slowest = 0;
  double ran = 0;
  uint64_t collect_errors = 0;
  for (auto _ : state) {
    (void)_;
    agent.beginPass();
    const metricsadvisor::CollectStats stats = agent.collect();
    collect_errors += stats.errorCount() + stats.missing_pods + stats.missing_containers;
    const double start = processCpuSeconds();
    const framework::SchedulerPass pass = agent.runStrategies();
    const double seconds = processCpuSeconds() - start;
    state.SetIterationTime(seconds);
    slowest = std::max(slowest, seconds);
    ran += static_cast<double>(pass.ran.size());
  }
  const double passes = static_cast<double>(state.iterations());
  Activity::report(state, before, Activity::of(agent), passes,
                   static_cast<double>(agent.apiCalls()));
  state.counters["max_ms"] = slowest * 1e3;
  state.counters["ran"] = ran / passes;  // strategies run per pass: 4 + 3 every 10th pass
  state.counters["collect_errors"] = static_cast<double>(collect_errors);
  state.counters["rss_mib"] = residentMiB();
}
BENCHMARK(BM_StrategiesPass)
    ->ArgName("cache_age_s")
    ->Arg(std::chrono::duration_cast<std::chrono::seconds>(kDaemonCacheMaxAge).count())
    ->Arg(0)
    ->Iterations(kPasses)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark's naming.
void BM_AgentSecond(benchmark::State& state) {
  BenchTree tree;
  BenchAgent agent;
  if (!setUp(state, tree, agent, kDaemonCacheMaxAge)) {
    return;
  }
  const Activity before = Activity::of(agent);
  double resolve = 0;
  double collect = 0;
  double strategies = 0;
  double slowest = 0;
  for (auto _ : state) {
    (void)_;
    const double t0 = processCpuSeconds();
    agent.beginPass();
    const double t1 = processCpuSeconds();
    (void)agent.collect();
    const double t2 = processCpuSeconds();
    (void)agent.runStrategies();
    const double t3 = processCpuSeconds();
    state.SetIterationTime(t3 - t0);
    slowest = std::max(slowest, t3 - t0);
    resolve += t1 - t0;
    collect += t2 - t1;
    strategies += t3 - t2;
  }
  const double passes = static_cast<double>(state.iterations());
  Activity::report(state, before, Activity::of(agent), passes,
                   static_cast<double>(agent.apiCalls()));
  state.counters["resolve_ms"] = resolve * 1e3 / passes;
  state.counters["collect_ms"] = collect * 1e3 / passes;
  state.counters["strategies_ms"] = strategies * 1e3 / passes;
  // ms of CPU per 1,000 ms of wall time, in percent of one core.
  state.counters["agent_cpu_percent_of_one_core"] =
      (resolve + collect + strategies) * 1e3 / passes * 100.0 / 1000.0;
  state.counters["max_ms"] = slowest * 1e3;
  state.counters["rss_mib"] = residentMiB();
  if (envOr("KOORD_BENCH_DEBUG", 0) != 0) {  // every strategy's last decision, for a look
    std::fprintf(stderr, "%s\n", agent.debugJson().dump(1).c_str());
  }
}
BENCHMARK(BM_AgentSecond)->Iterations(kPasses)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koord::agent::qosmanager

BENCHMARK_MAIN();
