// The node resource controller's recompute over a cluster held in memory: 5,000 nodes with 30
// pods each (two thirds prod, one third batch, every pod with a metric) and a fresh NodeMetric per
// node. Each iteration recomputes every node:
//   BM_PlanNodes            planNode (strategy, CPU normalization, batch, mid, amplification)
//   BM_PlanAndExplainNodes  planNode + explainPlan joined (what a write carries)
//   BM_ReconcileNodesSteady NodeResourceReconciler::reconcile from informer stores (pods by the
//                           spec.nodeName index), in the steady state where nothing needs writing
// Run by hand from an optimized build:
//   build/<dir>/test/unit/manager/noderesource/manager_noderesource_bench --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "fake_client.hpp"
#include "fixture.hpp"
#include "manager/noderesource/node_plan.hpp"
#include "manager/noderesource/node_resource_reconciler.hpp"

namespace koord::manager::noderesource {
namespace {

constexpr int kNodes = 5000;
constexpr int kPodsPerNode = 30;

struct Cluster {
  std::vector<api::core::Node> nodes;
  std::vector<std::vector<api::core::Pod>> pods;
  std::vector<api::slo::NodeMetric> metrics;
  sloconfig::SloControllerConfig config;
  TimePoint now = fixture::at(fixture::kNowText);
};

const Cluster& cluster() {
  static const Cluster* built = [] {
    auto* c = new Cluster;
    c->config.colocation.cluster.enable = true;
    for (int n = 0; n < kNodes; ++n) {
      api::core::Node node = fixture::baseNode();
      node.metadata.name = "node-" + std::to_string(n);
      node.status.capacity = fixture::cpuMem("64", "256Gi");
      node.status.allocatable = fixture::cpuMem("62", "250Gi");
      api::slo::NodeMetric metric = fixture::baseMetric();
      metric.metadata.name = node.metadata.name;
      metric.status.podsMetric.clear();
      std::vector<api::core::Pod> pods;
      for (int p = 0; p < kPodsPerNode; ++p) {
        const bool batch = p % 3 == 0;
        std::string name = node.metadata.name + "-pod-" + std::to_string(p);
        api::core::Pod pod = batch ? fixture::makePod(name, "Running", 5500, "", "")
                                   : fixture::makePod(name, "Running", 9500, "1", "2Gi");
        pod.spec.nodeName = node.metadata.name;
        pods.push_back(pod);
        metric.status.podsMetric.push_back(fixture::podMetric(
            name, batch ? "koord-batch" : "koord-prod", batch ? "700m" : "500m", "1Gi"));
      }
      c->nodes.push_back(std::move(node));
      c->pods.push_back(std::move(pods));
      c->metrics.push_back(std::move(metric));
    }
    return c;
  }();
  return *built;
}

void BM_PlanNodes(benchmark::State& state) {
  const Cluster& c = cluster();
  std::vector<PodRefs> refs;
  for (const auto& pods : c.pods) {
    refs.push_back(podRefs(pods));
  }
  for (auto _ : state) {
    int64_t total = 0;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      NodePlan plan = planNode({c.nodes[i], refs[i], &c.metrics[i], nullptr, c.config, c.now});
      total += plan.batch.cpu.value;
    }
    benchmark::DoNotOptimize(total);
  }
  state.counters["nodes"] = kNodes;
}
BENCHMARK(BM_PlanNodes)->Unit(benchmark::kMillisecond);

void BM_PlanAndExplainNodes(benchmark::State& state) {
  const Cluster& c = cluster();
  std::vector<PodRefs> refs;
  for (const auto& pods : c.pods) {
    refs.push_back(podRefs(pods));
  }
  for (auto _ : state) {
    size_t bytes = 0;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      NodePlan plan = planNode({c.nodes[i], refs[i], &c.metrics[i], nullptr, c.config, c.now});
      for (const auto& line : explainPlan(plan, c.now)) {
        bytes += line.size() + 1;
      }
    }
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["nodes"] = kNodes;
}
BENCHMARK(BM_PlanAndExplainNodes)->Unit(benchmark::kMillisecond);

void BM_ReconcileNodesSteady(benchmark::State& state) {
  const Cluster& c = cluster();
  k8s::Store<api::core::Node> nodes;
  k8s::Store<api::core::Pod> pods;
  k8s::Store<api::slo::NodeMetric> metrics;
  (void)pods.addIndexer(std::string(kPodNodeNameIndex), &podNodeNameIndex);
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    api::core::Node node = c.nodes[i];
    NodePlan plan = planNode({node, podRefs(c.pods[i]), &c.metrics[i], nullptr, c.config, c.now});
    for (const auto& [name, q] : plan.resources()) {  // as written by an earlier round
      node.status.capacity[name] = q;
      node.status.allocatable[name] = q;
    }
    node.metadata.annotations["node.koordinator.sh/cpu-normalization-ratio"] = "1.00";
    (void)nodes.add(std::make_shared<const api::core::Node>(std::move(node)));
    (void)metrics.add(std::make_shared<const api::slo::NodeMetric>(c.metrics[i]));
    for (const auto& pod : c.pods[i]) {
      (void)pods.add(std::make_shared<const api::core::Pod>(pod));
    }
  }
  fake::FakeClient client;
  auto config = std::make_shared<const sloconfig::SloControllerConfig>(c.config);
  NodeResourceReconcilerOptions options;
  options.caches = {&nodes, &pods, &metrics, nullptr};
  options.client = &client;
  options.config = [config] { return config; };
  options.wall_clock = [&c] { return c.now; };
  auto reconciler = NodeResourceReconciler::create(std::move(options)).value();
  const std::vector<std::string> names = nodes.listKeys();
  for (const auto& name : names) {  // the first round writes (and remembers) every node
    (void)reconciler->reconcile(name);
  }
  client.calls.clear();
  for (auto _ : state) {
    for (const auto& name : names) {
      benchmark::DoNotOptimize(reconciler->reconcile(name));
    }
  }
  if (!client.calls.empty()) {
    state.SkipWithError("the steady state wrote");
  }
  state.counters["nodes"] = kNodes;
}
BENCHMARK(BM_ReconcileNodesSteady)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koord::manager::noderesource

BENCHMARK_MAIN();
