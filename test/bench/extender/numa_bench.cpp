// What NodeNUMAResource costs (issue 36's targets: filter plus prioritize for an LSR pod over 500
// names of a 5,000-node cluster of 128-CPU, 2-socket nodes, p99 at most 1 ms in process; a pod
// that needs no cpuset keeps today's cost, at most +5%).
//
// One cluster: 5,000 nodes of 128 CPUs (2 sockets x 32 cores x 2 threads, one NUMA node per
// socket, 512Gi), each with its NodeResourceTopology (node.koordinator.sh/cpu-topology and two
// NUMA zones) in a lister shaped like the informer's (a std::map under a shared_mutex), and 10
// pods per node: 3 LSR pods holding 4-CPU cpusets through scheduling.koordinator.sh/resource-status
// and 7 LS pods of 100m..999m. The candidates are 500 names spread over the cluster. The plugins
// are koord-extender's defaults (config::defaultPlugins(), NodeNUMAResource included) through
// FrameworkService, as the extender runs them, with parallelism 1.
//   BM_LSRFilterPrioritize/plugins:default       an LSR koord-prod pod asking for 4 CPUs: the
//                                                figure for the 1 ms target (p99_us)
//   BM_LSRNUMAFilterPrioritize/plugins:default   the same pod with numa-topology-spec
//                                                SingleNUMANode (reference)
//   BM_LSFilterPrioritize/plugins:default        an LS pod (500m) that needs no cpuset
//   BM_LSFilterPrioritize/plugins:default-numa   the same without NodeNUMAResource
//   BM_LSPair/default-numa_vs_default            both runtimes alternating in one loop over the
//                                                same cluster: p99_ratio is the figure for +5%
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "extender/config/extender_config.hpp"
#include "extender/framework/allocation_cache.hpp"
#include "extender/framework/cluster_state.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/object_store.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/server/framework_service.hpp"
#include "koord/api/extender/types.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"

namespace koord::extender::framework {
namespace {

using server::FrameworkService;

constexpr int kNodes = 5000;
constexpr int kLSRPodsPerNode = 3;
constexpr int kLSPodsPerNode = 7;
constexpr int kCandidates = 500;
constexpr int kSockets = 2;
constexpr int kCoresPerSocket = 32;
constexpr int kThreads = 2;
constexpr int kCPUs = kSockets * kCoresPerSocket * kThreads;
constexpr const char* kNUMAPlugin = "NodeNUMAResource";

resource::Quantity q(const std::string& text) {
  return resource::Quantity::parse(text).value();
}

std::string nodeName(int i) {
  return "node-" + std::to_string(i);
}

// CPU id = thread * 64 + socket * 32 + core, as Linux numbers a 2-socket SMT machine; NUMA node =
// socket.
std::shared_ptr<api::topology::NodeResourceTopology> nrt(const std::string& node) {
  auto out = std::make_shared<api::topology::NodeResourceTopology>();
  out->metadata.name = node;
  out->topologyPolicies = {"None"};
  api::extension::CPUTopology topology;
  for (int t = 0; t < kThreads; ++t) {
    for (int s = 0; s < kSockets; ++s) {
      for (int c = 0; c < kCoresPerSocket; ++c) {
        api::extension::CPUInfo cpu;
        cpu.id = t * kSockets * kCoresPerSocket + s * kCoresPerSocket + c;
        cpu.core = s * kCoresPerSocket + c;
        cpu.socket = s;
        cpu.node = s;
        topology.detail.push_back(cpu);
      }
    }
  }
  out->metadata.annotations[std::string(api::kAnnotationNodeCPUTopology)] =
      api::extension::formatCPUTopology(topology);
  for (int s = 0; s < kSockets; ++s) {
    api::topology::Zone zone;
    zone.name = "node-" + std::to_string(s);
    zone.type = "Node";
    api::topology::ResourceInfo cpu;
    cpu.name = "cpu";
    cpu.capacity = resource::Quantity::fromInt(kCPUs / kSockets);
    cpu.allocatable = cpu.capacity;
    cpu.available = cpu.capacity;
    api::topology::ResourceInfo memory;
    memory.name = "memory";
    memory.capacity = q("256Gi");
    memory.allocatable = memory.capacity;
    memory.available = memory.capacity;
    zone.resources = {cpu, memory};
    out->zones.push_back(std::move(zone));
  }
  return out;
}

std::shared_ptr<api::core::Pod> pod(const std::string& name, const std::string& qos,
                                    const std::string& cpu, const std::string& node) {
  auto p = std::make_shared<api::core::Pod>();
  p->metadata.namespace_ = "default";
  p->metadata.name = name;
  p->metadata.uid = "uid-" + name;
  p->metadata.labels["app"] = "app-" + qos;
  p->metadata.labels[std::string(api::kLabelPodQoS)] = qos;
  p->metadata.labels[std::string(api::kLabelPodPriorityClass)] = "koord-prod";
  p->spec.nodeName = node;
  p->spec.priority = 9500;
  p->status.phase = node.empty() ? "Pending" : "Running";
  api::core::Container c;
  c.name = "main";
  c.resources.requests["cpu"] = q(cpu);
  c.resources.requests["memory"] = q("1Gi");
  p->spec.containers.push_back(std::move(c));
  return p;
}

// An LSR pod bound to node i holding 4 CPUs (two whole cores), placed differently on each node.
std::shared_ptr<api::core::Pod> lsrHolder(int i, int k) {
  auto p = pod("lsr-" + std::to_string(i) + "-" + std::to_string(k), "LSR", "4", nodeName(i));
  const int core = (i * 7 + k * 11) % (kSockets * kCoresPerSocket - 1);
  const int sibling = kSockets * kCoresPerSocket;
  api::extension::ResourceStatus status;
  status.cpuset = std::to_string(core) + "-" + std::to_string(core + 1) + "," +
                  std::to_string(core + sibling) + "-" + std::to_string(core + sibling + 1);
  p->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      api::extension::formatResourceStatus(status);
  return p;
}

// NodeResourceTopologies by name, as the informer's store keeps them (std::map, shared_mutex).
class NRTLister final : public Lister<api::topology::NodeResourceTopology> {
 public:
  void set(std::shared_ptr<const api::topology::NodeResourceTopology> object) {
    std::unique_lock lock(mu_);
    by_name_[object->metadata.name] = std::move(object);
  }
  [[nodiscard]] std::shared_ptr<const api::topology::NodeResourceTopology> get(
      const std::string& key) const override {
    std::shared_lock lock(mu_);
    auto it = by_name_.find(key);
    return it == by_name_.end() ? nullptr : it->second;
  }
  [[nodiscard]] std::vector<std::shared_ptr<const api::topology::NodeResourceTopology>> list()
      const override {
    std::shared_lock lock(mu_);
    std::vector<std::shared_ptr<const api::topology::NodeResourceTopology>> out;
    for (const auto& [name, object] : by_name_)
      out.push_back(object);
    return out;
  }

 private:
  mutable std::shared_mutex mu_;
  std::map<std::string, std::shared_ptr<const api::topology::NodeResourceTopology>> by_name_;
};

class NoBinder final : public Binder {
 public:
  Status patchPod(const PodInfo&, const BindPatch&, BindDeadline) override { return Status::ok(); }
  Status bindPod(const PodInfo&, const std::string&, BindDeadline) override { return Status::ok(); }
};

std::unique_ptr<Runtime> makeRuntime(const Handle& handle, bool with_numa) {
  RuntimeOptions options;
  options.parallelism = 1;
  for (const config::PluginConfiguration& plugin : config::defaultPlugins()) {
    if (with_numa || plugin.name != kNUMAPlugin)
      options.plugins.push_back({plugin.name, plugin.args, plugin.weight});
  }
  return Runtime::create(plugins::builtinPlugins(), handle, std::move(options)).value();
}

// The cluster as `koord-extender serve` wires it (serve.cpp): the AllocationCache shared by the
// ClusterState and the Handle, the default plugins' node data, the NRT lister in the ObjectStore.
struct World {
  RealClock clock;
  AllocationCache allocations{clock};
  ClusterState cluster{clock, std::chrono::seconds(30), &allocations};
  std::shared_ptr<NRTLister> nrts = std::make_shared<NRTLister>();
  ObjectStore objects;
  BasicHandle handle{cluster, clock, log::Logger{}, &objects, &allocations};
  std::vector<std::string> candidates;
  std::unique_ptr<Runtime> with_numa;
  std::unique_ptr<Runtime> without_numa;

  World() {
    objects.set<api::topology::NodeResourceTopology>(nrts);
    plugins::installNodeData(plugins::defaultPluginNames(), cluster);
    for (int i = 0; i < kNodes; ++i) {
      auto node = std::make_shared<api::core::Node>();
      node->metadata.name = nodeName(i);
      node->status.allocatable = {
          {"cpu", q(std::to_string(kCPUs))}, {"memory", q("512Gi")}, {"pods", q("110")}};
      cluster.upsertNode(node);
      nrts->set(nrt(nodeName(i)));
      for (int k = 0; k < kLSRPodsPerNode; ++k)
        (void)cluster.upsertPod(lsrHolder(i, k));
      for (int k = 0; k < kLSPodsPerNode; ++k) {
        (void)cluster.upsertPod(pod("ls-" + std::to_string(i) + "-" + std::to_string(k), "LS",
                                    std::to_string(100 + (i * 37 + k) % 900) + "m", nodeName(i)));
      }
    }
    for (int i = 0; i < kCandidates; ++i)
      candidates.push_back(nodeName(i * kNodes / kCandidates));
    with_numa = makeRuntime(handle, true);
    without_numa = makeRuntime(handle, false);
  }
};

std::shared_ptr<api::core::Pod> pendingPod(const std::string& kind) {
  if (kind == "LS")
    return pod("pending-ls", "LS", "500m", "");
  auto p = pod("pending-" + kind, "LSR", "4", "");
  if (kind == "LSR-NUMA") {
    p->metadata.annotations[std::string(api::kAnnotationNUMATopologySpec)] =
        R"({"numaTopologyPolicy":"SingleNUMANode"})";
  }
  return p;
}

double percentile(std::vector<double>& v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// One filter then prioritize with the names filter kept; microseconds, appended to `out`.
void once(FrameworkService& service, const api::extender::ExtenderArgs& args,
          std::vector<double>& out, size_t& feasible, size_t& scored) {
  const auto start = std::chrono::steady_clock::now();
  auto filtered = service.filter(args);
  feasible = filtered.nodeNames ? filtered.nodeNames->size() : 0;
  api::extender::ExtenderArgs score_args;
  score_args.pod = args.pod;
  score_args.nodeNames = std::move(filtered.nodeNames);
  auto priorities = service.prioritize(score_args);
  scored = priorities.size();
  benchmark::DoNotOptimize(priorities.data());
  out.push_back(
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
}

void filterPrioritize(benchmark::State& state, World& w, const std::string& kind, bool with_numa) {
  NoBinder binder;
  FrameworkService service(with_numa ? *w.with_numa : *w.without_numa, w.cluster, binder, nullptr);
  api::extender::ExtenderArgs args;
  args.pod = *pendingPod(kind);
  args.nodeNames = w.candidates;
  std::vector<double> micros;
  size_t feasible = 0;
  size_t scored = 0;
  for (auto _ : state)  // NOLINT(clang-analyzer-deadcode.DeadStores)
    once(service, args, micros, feasible, scored);
  if (!micros.empty()) {
    state.counters["p50_us"] = percentile(micros, 0.50);
    state.counters["p99_us"] = percentile(micros, 0.99);
  }
  state.counters["feasible"] = static_cast<double>(feasible);
  state.counters["scored"] = static_cast<double>(scored);
}

// The LS pod through both runtimes, alternating every iteration, so that the machine's noise falls
// on both alike: p50/p99 of each and their ratios (with NodeNUMAResource / without).
void lsPair(benchmark::State& state, World& w) {
  NoBinder binder;
  FrameworkService base(*w.without_numa, w.cluster, binder, nullptr);
  FrameworkService loaded(*w.with_numa, w.cluster, binder, nullptr);
  api::extender::ExtenderArgs args;
  args.pod = *pendingPod("LS");
  args.nodeNames = w.candidates;
  std::vector<double> base_us;
  std::vector<double> loaded_us;
  size_t feasible = 0;
  size_t scored = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores)
    once(base, args, base_us, feasible, scored);
    once(loaded, args, loaded_us, feasible, scored);
  }
  if (base_us.empty())
    return;
  const double base50 = percentile(base_us, 0.50);
  const double base99 = percentile(base_us, 0.99);
  const double with50 = percentile(loaded_us, 0.50);
  const double with99 = percentile(loaded_us, 0.99);
  state.counters["base_p50_us"] = base50;
  state.counters["base_p99_us"] = base99;
  state.counters["with_p50_us"] = with50;
  state.counters["with_p99_us"] = with99;
  state.counters["p50_ratio"] = with50 / base50;
  state.counters["p99_ratio"] = with99 / base99;
  state.counters["feasible"] = static_cast<double>(feasible);
}

}  // namespace
}  // namespace koord::extender::framework

int main(int argc, char** argv) {
  using koord::extender::framework::World;
  benchmark::Initialize(&argc, argv);
  World world;
  auto run = [&world](const char* kind, bool with_numa) {
    return [&world, kind, with_numa](benchmark::State& state) {
      koord::extender::framework::filterPrioritize(state, world, kind, with_numa);
    };
  };
  benchmark::RegisterBenchmark("BM_LSRFilterPrioritize/plugins:default", run("LSR", true))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LSRNUMAFilterPrioritize/plugins:default", run("LSR-NUMA", true))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LSFilterPrioritize/plugins:default", run("LS", true))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LSFilterPrioritize/plugins:default-numa", run("LS", false))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LSPair/default-numa_vs_default", [&world](
                                                                        benchmark::State& state) {
    koord::extender::framework::lsPair(state, world);
  })->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
