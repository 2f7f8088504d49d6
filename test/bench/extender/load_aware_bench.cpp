// What LoadAwareScheduling costs (issue 37's target: filter plus prioritize within +20% p99 of the
// same cluster without it).
//
// One cluster: 5,000 nodes of 128 CPUs and 512Gi, each with a NodeMetric (node usage, a podsMetric
// entry per pod, updated now) in a lister shaped like the informer's (a std::map under a
// shared_mutex), and 10 LS pods of 100m..999m per node, 3 of them placed after the report (so the
// plugin estimates them). The candidates are 500 names spread over the cluster; the pending pod is
// an LS pod of 500m. Plugins: koord-extender's defaults (config::defaultPlugins()) through
// FrameworkService, parallelism 1.
//   BM_LoadAwarePair/default_vs_without     the default profile (LoadAwareScheduling scoring
//                                           only) against the same plugins without it,
//                                           alternating in one loop: p99_ratio is the figure
//   BM_LoadAwarePair/thresholds_vs_without  the same with usageThresholds cpu 65 / memory 95
//                                           (filter on, expired NodeMetrics filtered)
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
#include "koord/api/slo/node_metric.hpp"
#include "koord/common/clock.hpp"

namespace koord::extender::framework {
namespace {

using server::FrameworkService;

constexpr int kNodes = 5000;
constexpr int kPodsPerNode = 10;
constexpr int kRecentPodsPerNode = 3;
constexpr int kCandidates = 500;
constexpr const char* kLoadAware = "LoadAwareScheduling";

resource::Quantity q(const std::string& text) {
  return resource::Quantity::parse(text).value();
}

std::string nodeName(int i) {
  return "node-" + std::to_string(i);
}

std::string rfc3339(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::shared_ptr<api::core::Pod> pod(const std::string& name, const std::string& cpu,
                                    const std::string& node, const std::string& scheduled_at) {
  auto p = std::make_shared<api::core::Pod>();
  p->metadata.namespace_ = "default";
  p->metadata.name = name;
  p->metadata.uid = "uid-" + name;
  p->metadata.labels["koordinator.sh/qosClass"] = "LS";
  p->spec.nodeName = node;
  p->spec.priority = 9500;
  p->status.phase = node.empty() ? "Pending" : "Running";
  if (!scheduled_at.empty()) {
    api::core::PodCondition scheduled;
    scheduled.type = "PodScheduled";
    scheduled.status = "True";
    scheduled.lastTransitionTime = scheduled_at;
    p->status.conditions.push_back(std::move(scheduled));
  }
  api::core::Container c;
  c.name = "main";
  c.resources.requests["cpu"] = q(cpu);
  c.resources.requests["memory"] = q("1Gi");
  p->spec.containers.push_back(std::move(c));
  return p;
}

// NodeMetrics by name, as the informer's store keeps them (std::map, shared_mutex).
class MetricLister final : public Lister<api::slo::NodeMetric> {
 public:
  void set(std::shared_ptr<const api::slo::NodeMetric> object) {
    std::unique_lock lock(mu_);
    by_name_[object->metadata.name] = std::move(object);
  }
  [[nodiscard]] std::shared_ptr<const api::slo::NodeMetric> get(
      const std::string& key) const override {
    std::shared_lock lock(mu_);
    auto it = by_name_.find(key);
    return it == by_name_.end() ? nullptr : it->second;
  }
  [[nodiscard]] std::vector<std::shared_ptr<const api::slo::NodeMetric>> list() const override {
    std::shared_lock lock(mu_);
    std::vector<std::shared_ptr<const api::slo::NodeMetric>> out;
    for (const auto& [name, object] : by_name_)
      out.push_back(object);
    return out;
  }

 private:
  mutable std::shared_mutex mu_;
  std::map<std::string, std::shared_ptr<const api::slo::NodeMetric>> by_name_;
};

class NoBinder final : public Binder {
 public:
  Status patchPod(const PodInfo&, const BindPatch&, BindDeadline) override { return Status::ok(); }
  Status bindPod(const PodInfo&, const std::string&, BindDeadline) override { return Status::ok(); }
};

enum class LoadAware { kWithout, kDefault, kThresholds };

std::unique_ptr<Runtime> makeRuntime(const Handle& handle, LoadAware load_aware) {
  RuntimeOptions options;
  options.parallelism = 1;
  for (const config::PluginConfiguration& plugin : config::defaultPlugins()) {
    if (plugin.name != kLoadAware) {
      options.plugins.push_back({plugin.name, plugin.args, plugin.weight});
    } else if (load_aware == LoadAware::kDefault) {
      options.plugins.push_back({plugin.name, plugin.args, plugin.weight});
    } else if (load_aware == LoadAware::kThresholds) {
      options.plugins.push_back(
          {plugin.name, api::Json{{"usageThresholds", {{"cpu", 65}, {"memory", 95}}}}, 1});
    }
  }
  return Runtime::create(plugins::builtinPlugins(), handle, std::move(options)).value();
}

// The cluster as `koord-extender serve` wires it: the AllocationCache shared by the ClusterState
// and the Handle, the default plugins' node data, the NodeMetric lister in the ObjectStore.
struct World {
  RealClock clock;
  AllocationCache allocations{clock};
  ClusterState cluster{clock, std::chrono::seconds(30), &allocations};
  std::shared_ptr<MetricLister> metrics = std::make_shared<MetricLister>();
  ObjectStore objects;
  BasicHandle handle{cluster, clock, log::Logger{}, &objects, &allocations};
  std::vector<std::string> candidates;
  std::unique_ptr<Runtime> without;
  std::unique_ptr<Runtime> with_default;
  std::unique_ptr<Runtime> with_thresholds;

  World() {
    objects.set<api::slo::NodeMetric>(metrics);
    plugins::installNodeData(plugins::defaultPluginNames(), cluster);
    const auto now = std::chrono::system_clock::now();
    const std::string reported = rfc3339(now - std::chrono::seconds(5));
    const std::string before = rfc3339(now - std::chrono::minutes(10));
    const std::string after = rfc3339(now);
    for (int i = 0; i < kNodes; ++i) {
      auto node = std::make_shared<api::core::Node>();
      node->metadata.name = nodeName(i);
      node->status.allocatable = {{"cpu", q("128")}, {"memory", q("512Gi")}, {"pods", q("110")}};
      cluster.upsertNode(node);
      auto metric = std::make_shared<api::slo::NodeMetric>();
      metric->metadata.name = nodeName(i);
      metric->status.updateTime = reported;
      api::slo::NodeMetricInfo info;
      info.nodeUsage.resources = {{"cpu", q(std::to_string(10 + i % 60))},
                                  {"memory", q(std::to_string(64 + i % 256) + "Gi")}};
      metric->status.nodeMetric = info;
      for (int k = 0; k < kPodsPerNode; ++k) {
        const std::string name = "ls-" + std::to_string(i) + "-" + std::to_string(k);
        const bool recent = k < kRecentPodsPerNode;
        (void)cluster.upsertPod(pod(name, std::to_string(100 + (i * 37 + k) % 900) + "m",
                                    nodeName(i), recent ? after : before));
        if (recent)
          continue;
        api::slo::PodMetricInfo pod_metric;
        pod_metric.namespace_ = "default";
        pod_metric.name = name;
        pod_metric.podUsage.resources = {{"cpu", q("200m")}, {"memory", q("512Mi")}};
        metric->status.podsMetric.push_back(std::move(pod_metric));
      }
      metrics->set(metric);
    }
    for (int i = 0; i < kCandidates; ++i)
      candidates.push_back(nodeName(i * kNodes / kCandidates));
    without = makeRuntime(handle, LoadAware::kWithout);
    with_default = makeRuntime(handle, LoadAware::kDefault);
    with_thresholds = makeRuntime(handle, LoadAware::kThresholds);
  }
};

double percentile(std::vector<double>& v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// One filter then prioritize with the names filter kept; microseconds, appended to `out`.
void once(FrameworkService& service, const api::extender::ExtenderArgs& args,
          std::vector<double>& out, size_t& feasible) {
  const auto start = std::chrono::steady_clock::now();
  auto filtered = service.filter(args);
  feasible = filtered.nodeNames ? filtered.nodeNames->size() : 0;
  api::extender::ExtenderArgs score_args;
  score_args.pod = args.pod;
  score_args.nodeNames = std::move(filtered.nodeNames);
  auto priorities = service.prioritize(score_args);
  benchmark::DoNotOptimize(priorities.data());
  out.push_back(
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
}

// Both runtimes alternating every iteration, so that the machine's noise falls on both alike.
void pair(benchmark::State& state, World& w, Runtime& loaded_runtime) {
  NoBinder binder;
  FrameworkService base(*w.without, w.cluster, binder, nullptr);
  FrameworkService loaded(loaded_runtime, w.cluster, binder, nullptr);
  api::extender::ExtenderArgs args;
  args.pod = *pod("pending", "500m", "", "");
  args.nodeNames = w.candidates;
  std::vector<double> base_us;
  std::vector<double> loaded_us;
  size_t base_feasible = 0;
  size_t loaded_feasible = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores)
    once(base, args, base_us, base_feasible);
    once(loaded, args, loaded_us, loaded_feasible);
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
  state.counters["feasible_without"] = static_cast<double>(base_feasible);
  state.counters["feasible_with"] = static_cast<double>(loaded_feasible);
}

}  // namespace
}  // namespace koord::extender::framework

int main(int argc, char** argv) {
  using koord::extender::framework::World;
  benchmark::Initialize(&argc, argv);
  World world;
  benchmark::RegisterBenchmark("BM_LoadAwarePair/default_vs_without", [&world](
                                                                          benchmark::State& state) {
    koord::extender::framework::pair(state, world, *world.with_default);
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LoadAwarePair/thresholds_vs_without", [&world](benchmark::State&
                                                                                      state) {
    koord::extender::framework::pair(state, world, *world.with_thresholds);
  })->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
