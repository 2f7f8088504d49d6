// What Reservations cost a pod that owns none of them (issue 5's target: with 1,000 Available
// reservations in a 1,000-node cluster, filter plus prioritize p99 for a non-owner grows by at most
// 20%; Koordinator issue #1696 reported reservation slowness).
//
// Two clusters built the same way, one with a reservation on every node (2 CPUs, owned by app=web
// through a labelSelector) and one without, each with 10 pods per node. The pod is a non-owner
// (app=batch); the candidates are the 420 names kube-scheduler sends for 1,000 nodes
// (percentageOfNodesToScore 42%). The plugins are koord-extender's defaults (NodeReservation,
// PriorityQoS, BatchResources, Reservation) through FrameworkService, as the extender runs them.
//   BM_NonOwnerFilterPrioritize/reservations:0     the baseline
//   BM_NonOwnerFilterPrioritize/reservations:1000  with reservations
//   BM_OwnerFilterPrioritize/reservations:1000     an owner (app=web), for reference
//   BM_NonOwnerPair/reservations:0_vs_1000         both clusters alternating in one loop:
//                                                  p99_ratio is the figure to quote
//   BM_NonOwnerFilterPrioritize/reservations:0/cache:cold
//                                                  the baseline with the CPU caches cold: 8 MiB
//                                                  written between pods (untimed), as when
//                                                  kube-scheduler shares the core and runs its own
//                                                  plugins between koord-extender's calls
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/server/framework_service.hpp"
#include "koord/api/extender/types.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/clock.hpp"

namespace koord::extender::framework {
namespace {

using server::FrameworkService;

constexpr int kNodes = 1000;
constexpr int kPodsPerNode = 10;
constexpr int kCandidates = 420;

resource::Quantity q(const std::string& text) {
  return resource::Quantity::parse(text).value();
}

std::string nodeName(int i) {
  return "node-" + std::to_string(i);
}

std::shared_ptr<api::core::Pod> pod(const std::string& name, const std::string& app,
                                    const std::string& cpu, const std::string& node) {
  auto p = std::make_shared<api::core::Pod>();
  p->metadata.namespace_ = "default";
  p->metadata.name = name;
  p->metadata.uid = "uid-" + name;
  p->metadata.labels["app"] = app;
  p->spec.nodeName = node;
  p->spec.priority = 9500;
  api::core::Container c;
  c.name = "main";
  c.resources.requests["cpu"] = q(cpu);
  c.resources.requests["memory"] = q("1Gi");
  p->spec.containers.push_back(std::move(c));
  return p;
}

std::shared_ptr<api::scheduling::Reservation> reservation(int i) {
  auto r = std::make_shared<api::scheduling::Reservation>();
  r->metadata.name = "r-" + std::to_string(i);
  r->metadata.uid = "uid-r-" + std::to_string(i);
  api::core::PodTemplateSpec tmpl;
  api::core::Container c;
  c.name = "main";
  c.resources.requests["cpu"] = q("2");
  c.resources.requests["memory"] = q("4Gi");
  tmpl.spec.containers.push_back(std::move(c));
  r->spec.template_ = std::move(tmpl);
  api::scheduling::ReservationOwner owner;
  owner.labelSelector.emplace();
  owner.labelSelector->matchLabels["app"] = "web";
  r->spec.owners.push_back(std::move(owner));
  r->status.phase = "Available";
  r->status.nodeName = nodeName(i);
  r->status.allocatable = {{"cpu", q("2")}, {"memory", q("4Gi")}};
  return r;
}

class NoBinder final : public Binder {
 public:
  Status patchPod(const PodInfo&, const BindPatch&, BindDeadline) override { return Status::ok(); }
  Status bindPod(const PodInfo&, const std::string&, BindDeadline) override { return Status::ok(); }
};

struct World {
  RealClock clock;
  ClusterState cluster{clock};
  BasicHandle handle{cluster, clock};
  std::vector<std::string> candidates;
  std::unique_ptr<Runtime> runtime;

  explicit World(bool with_reservations) {
    for (int i = 0; i < kNodes; ++i) {
      auto node = std::make_shared<api::core::Node>();
      node->metadata.name = nodeName(i);
      node->status.allocatable = {{"cpu", q("32")}, {"memory", q("128Gi")}, {"pods", q("110")}};
      cluster.upsertNode(node);
      for (int k = 0; k < kPodsPerNode; ++k) {
        (void)cluster.upsertPod(pod("p-" + std::to_string(i) + "-" + std::to_string(k), "other",
                                    std::to_string(100 + (i * 37 + k) % 900) + "m", nodeName(i)));
      }
      if (with_reservations)
        (void)plugins::common::ReservationState::install(cluster).upsert(reservation(i));
    }
    for (int i = 0; i < kCandidates; ++i)
      candidates.push_back(nodeName(i * kNodes / kCandidates));
    RuntimeOptions options;
    options.parallelism = 1;
    for (const char* name : {"NodeReservation", "PriorityQoS", "BatchResources", "Reservation"})
      options.plugins.push_back({name, nullptr, 1});
    plugins::installNodeData({"NodeReservation", "PriorityQoS", "BatchResources", "Reservation"},
                             cluster);
    runtime = Runtime::create(plugins::builtinPlugins(), handle, std::move(options)).value();
  }
};

// Writes `bytes` of memory so that what the last call touched is no longer in L1 or L2.
void evictCaches(std::vector<char>& scratch) {
  for (size_t i = 0; i < scratch.size(); i += 64)
    scratch[i] = static_cast<char>(scratch[i] + 1);
  benchmark::ClobberMemory();
}

void filterPrioritize(benchmark::State& state, World& w, const std::string& app,
                      bool cold = false) {
  NoBinder binder;
  FrameworkService service(*w.runtime, w.cluster, binder, nullptr);
  api::extender::ExtenderArgs args;
  args.pod = *pod("pending", app, "2", "");
  args.nodeNames = w.candidates;
  api::extender::ExtenderArgs score_args;
  score_args.pod = args.pod;
  std::vector<double> micros;
  size_t feasible = 0;
  size_t scored = 0;
  std::vector<char> scratch(cold ? size_t{8} << 20 : 0);
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      evictCaches(scratch);
      state.ResumeTiming();
    }
    const auto start = std::chrono::steady_clock::now();
    auto filtered = service.filter(args);
    feasible = filtered.nodeNames ? filtered.nodeNames->size() : 0;
    score_args.nodeNames = std::move(filtered.nodeNames);
    auto priorities = service.prioritize(score_args);
    scored = priorities.size();
    benchmark::DoNotOptimize(priorities.data());
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(micros.begin(), micros.end());
  auto at = [&](double p) {
    return micros[std::min(micros.size() - 1, static_cast<size_t>(p * micros.size()))];
  };
  if (!micros.empty()) {
    state.counters["p50_us"] = at(0.50);
    state.counters["p99_us"] = at(0.99);
  }
  state.counters["feasible"] = static_cast<double>(feasible);
  state.counters["scored"] = static_cast<double>(scored);
}

// Both clusters in one loop, alternating every iteration, so that the machine's noise falls on
// both alike: p50/p99 of each and their ratios (with / without).
void nonOwnerPair(benchmark::State& state, World& without, World& with) {
  NoBinder binder;
  FrameworkService base(*without.runtime, without.cluster, binder, nullptr);
  FrameworkService loaded(*with.runtime, with.cluster, binder, nullptr);
  api::extender::ExtenderArgs args;
  args.pod = *pod("pending", "batch", "2", "");
  args.nodeNames = without.candidates;
  std::vector<double> base_us;
  std::vector<double> loaded_us;
  auto once = [&args](FrameworkService& service, std::vector<double>& out) {
    const auto start = std::chrono::steady_clock::now();
    auto filtered = service.filter(args);
    api::extender::ExtenderArgs score_args;
    score_args.pod = args.pod;
    score_args.nodeNames = std::move(filtered.nodeNames);
    auto priorities = service.prioritize(score_args);
    benchmark::DoNotOptimize(priorities.data());
    out.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  };
  for (auto _ : state) {
    once(base, base_us);
    once(loaded, loaded_us);
  }
  auto at = [](std::vector<double>& v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
  };
  if (base_us.empty())
    return;
  state.counters["base_p50_us"] = at(base_us, 0.50);
  state.counters["base_p99_us"] = at(base_us, 0.99);
  state.counters["with_p50_us"] = at(loaded_us, 0.50);
  state.counters["with_p99_us"] = at(loaded_us, 0.99);
  state.counters["p50_ratio"] = at(loaded_us, 0.50) / at(base_us, 0.50);
  state.counters["p99_ratio"] = at(loaded_us, 0.99) / at(base_us, 0.99);
}

}  // namespace
}  // namespace koord::extender::framework

int main(int argc, char** argv) {
  using koord::extender::framework::World;
  benchmark::Initialize(&argc, argv);
  World without(false);
  World with(true);
  auto run = [](World& w, const char* app) {
    return [&w, app](benchmark::State& state) {
      koord::extender::framework::filterPrioritize(state, w, app);
    };
  };
  benchmark::RegisterBenchmark("BM_NonOwnerFilterPrioritize/reservations:0", run(without, "batch"))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_NonOwnerFilterPrioritize/reservations:1000", run(with, "batch"))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_OwnerFilterPrioritize/reservations:1000", run(with, "web"))
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_NonOwnerFilterPrioritize/reservations:0/cache:cold",
                               [&without](benchmark::State& state) {
                                 koord::extender::framework::filterPrioritize(state, without,
                                                                              "batch", true);
                               })
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_NonOwnerPair/reservations:0_vs_1000",
                               [&without, &with](benchmark::State& state) {
                                 koord::extender::framework::nonOwnerPair(state, without, with);
                               })
      ->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
