// What one descheduling pass costs (issue 37's target: one pass over 5,000 nodes and 50,000 pods
// with every strategy on, at most 2 s of CPU).
//
// The cluster is cluster.hpp's (5,000 nodes, 50,000 pods, a NodeMetric per node), built once, on
// first use, outside the timed loops. The plugins are all eleven koord-descheduler offers, made by
// their registries' factories with args that give each work to do (kPluginArgs), over one Handle:
// a framework::LimitedEvictor (DefaultEvictor with its defaults, no limits, a sink that only
// counts) and nodeFit's pod_fits_any_other_node. The evictions change nothing in the snapshot, so
// every pass sees the same cluster and chooses the same victims.
//   BM_Pass                  one pass: counters reset, every Deschedule plugin then every Balance
//                            plugin over all nodes (the figure for the 2 s target)
//   BM_Plugin/<plugin name>  that plugin alone over all nodes (the per-plugin breakdown)
// Counters: cpu_p50_ms (per-iteration CPU time from CLOCK_PROCESS_CPUTIME_ID, median over the
// iterations), victims (pods handed to the sink per pass), victims_digest (a hash of the victims
// in order; read it from --benchmark_format=json).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cluster.hpp"
#include "manager/descheduler/framework/limited_evictor.hpp"
#include "manager/descheduler/framework/node_fit.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/lownodeload/registry.hpp"
#include "manager/descheduler/plugins/node_rules/registry.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/registry.hpp"
#include "manager/descheduler/plugins/spreading/registry.hpp"
#include "manager/descheduler/plugins/utilization/registry.hpp"

namespace koord::manager::descheduler::bench {
namespace {

using nlohmann::json;

// Args per plugin name; a plugin not named here gets null (its defaults).
json pluginArgs() {
  const json usage_pair = {{"cpu", 20}, {"memory", 20}, {"pods", 20}};
  return {
      {"RemovePodsViolatingNodeAffinity",
       {{"nodeAffinityType", json::array({"requiredDuringSchedulingIgnoredDuringExecution",
                                          "preferredDuringSchedulingIgnoredDuringExecution"})}}},
      {"RemovePodsViolatingNodeTaints", {{"includePreferNoSchedule", true}}},
      {"RemoveFailedPods",
       {{"minPodLifetimeSeconds", 3600}, {"excludeOwnerKinds", json::array({"Job"})}}},
      {"PodLifeTime", {{"maxPodLifeTimeSeconds", 38 * 24 * 3600}}},
      {"RemovePodsHavingTooManyRestarts",
       {{"podRestartThreshold", 100}, {"includingInitContainers", true}}},
      {"RemoveDuplicates", json::object()},
      {"RemovePodsViolatingInterPodAntiAffinity", json::object()},
      {"RemovePodsViolatingTopologySpreadConstraint",
       {{"constraints", json::array({"DoNotSchedule", "ScheduleAnyway"})},
        {"topologyBalanceNodeFit", true}}},
      {"LowNodeUtilization",
       {{"thresholds", usage_pair},
        {"targetThresholds", {{"cpu", 50}, {"memory", 50}, {"pods", 50}}}}},
      {"HighNodeUtilization", {{"thresholds", {{"cpu", 20}, {"memory", 20}}}}},
      {"LowNodeLoad",
       {{"nodeFit", true},
        {"lowThresholds", {{"cpu", 30}, {"memory", 30}}},
        {"highThresholds", {{"cpu", 70}, {"memory", 70}}},
        {"anomalyCondition", {{"consecutiveAbnormalities", 1}}}}},
  };
}

std::vector<framework::RegisteredPlugin> allPlugins() {
  std::vector<framework::RegisteredPlugin> out;
  for (auto list : {plugins::node_rules::nodeRulesPlugins(), pod_lifecycle::podLifecyclePlugins(),
                    plugins::spreading::spreadingPlugins(), utilization::utilizationPlugins(),
                    lownodeload::lowNodeLoadPlugins()}) {
    out.insert(out.end(), list.begin(), list.end());
  }
  return out;
}

framework::LimitedEvictor makeEvictor(uint64_t& sunk) {
  Result<framework::DefaultEvictor> evictor =
      framework::DefaultEvictor::create(framework::DefaultEvictorOptions{});
  if (!evictor.ok()) {
    throw std::runtime_error(evictor.status().toString());
  }
  return framework::LimitedEvictor(
      std::move(evictor).value(), nullptr, framework::EvictionLimits{},
      [&sunk](const api::core::Pod&, const framework::EvictOptions&) {
        ++sunk;
        return true;
      },
      [] { return benchNow(); });
}

// The cluster, the evictor and the plugins, made once and kept for every benchmark.
class World {
 public:
  World()
      : snapshot_(framework::ClusterSnapshot::build(buildClusterInput())),
        nodes_(snapshot_.nodes().begin(), snapshot_.nodes().end()),
        evictor_(makeEvictor(sunk_)) {
    evictor_.setSnapshot(&snapshot_);
    handle_.snapshot = &snapshot_;
    handle_.evictor = &evictor_;
    handle_.pod_fits_any_other_node = framework::makePodFitsAnyOtherNode(snapshot_);
    handle_.now = benchNow();
    const json args = pluginArgs();
    for (const framework::RegisteredPlugin& registered : allPlugins()) {
      const auto found = args.find(registered.name);
      Result<std::unique_ptr<framework::Plugin>> plugin =
          registered.factory(found != args.end() ? *found : json(), handle_);
      if (!plugin.ok()) {
        throw std::runtime_error(registered.name + ": " + plugin.status().toString());
      }
      plugins_.push_back(std::move(plugin).value());
    }
  }
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // One pass of the plugins named `only` (all when empty): Deschedule ones first, then Balance
  // ones, each in registry order. Returns the victims of the pass; throws on a plugin error.
  size_t pass(const std::string& only) {
    evictor_.resetCounters();
    for (const auto& plugin : plugins_) {
      auto* deschedule = dynamic_cast<framework::DeschedulePlugin*>(plugin.get());
      if (deschedule != nullptr && (only.empty() || only == plugin->name())) {
        check(plugin->name(), deschedule->deschedule(nodes_));
      }
    }
    for (const auto& plugin : plugins_) {
      auto* balance = dynamic_cast<framework::BalancePlugin*>(plugin.get());
      if (balance != nullptr && (only.empty() || only == plugin->name())) {
        check(plugin->name(), balance->balance(nodes_));
      }
    }
    return evictor_.victims().size();
  }

  // FNV-1a over the victims in order (plugin, namespace/name, node, reason): equal digests mean the
  // same pods chosen in the same order, which is how a change to a plugin's speed is checked.
  [[nodiscard]] uint32_t victimsDigest() const {
    uint32_t hash = 2166136261U;
    auto mix = [&hash](std::string_view text) {
      for (const char c : text) {
        hash = (hash ^ static_cast<uint8_t>(c)) * 16777619U;
      }
      hash = (hash ^ 0xffU) * 16777619U;
    };
    for (const framework::Victim& victim : evictor_.victims()) {
      mix(victim.plugin);
      mix(victim.namespace_ + "/" + victim.name);
      mix(victim.node);
      mix(victim.reason);
    }
    return hash;
  }

 private:
  static void check(std::string_view name, const Status& status) {
    if (!status.isOk()) {
      throw std::runtime_error(std::string(name) + ": " + status.toString());
    }
  }

  framework::ClusterSnapshot snapshot_;
  framework::NodeList nodes_;
  uint64_t sunk_ = 0;
  framework::LimitedEvictor evictor_;
  framework::Handle handle_;
  std::vector<std::unique_ptr<framework::Plugin>> plugins_;
};

// Builds the World on first use, so that a filtered run that needs none builds none.
class LazyWorld {
 public:
  World& get() {
    if (!world_) {
      world_ = std::make_unique<World>();
    }
    return *world_;
  }

 private:
  std::unique_ptr<World> world_;
};

double processCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void runPasses(benchmark::State& state, LazyWorld& lazy, const std::string& only) {
  World& world = lazy.get();
  std::vector<double> cpu_ms;
  size_t victims = 0;
  for (auto _ : state) {
    const double start = processCpuMs();
    try {
      victims = world.pass(only);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
    cpu_ms.push_back(processCpuMs() - start);
  }
  std::sort(cpu_ms.begin(), cpu_ms.end());
  state.counters["cpu_p50_ms"] = cpu_ms.empty() ? 0.0 : cpu_ms[cpu_ms.size() / 2];
  state.counters["victims"] = static_cast<double>(victims);
  state.counters["victims_digest"] = static_cast<double>(world.victimsDigest());
}

}  // namespace
}  // namespace koord::manager::descheduler::bench

int main(int argc, char** argv) {
  namespace bench = koord::manager::descheduler::bench;
  benchmark::Initialize(&argc, argv);
  bench::LazyWorld world;
  benchmark::RegisterBenchmark("BM_Pass", [&world](benchmark::State& state) {
    bench::runPasses(state, world, "");
  })->Unit(benchmark::kMillisecond);
  // The names are the registries' (no World needed to list them).
  for (const auto& plugin : bench::allPlugins()) {
    const std::string name = plugin.name;
    benchmark::RegisterBenchmark(("BM_Plugin/" + name).c_str(), [&world,
                                                                 name](benchmark::State& state) {
      bench::runPasses(state, world, name);
    })->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
