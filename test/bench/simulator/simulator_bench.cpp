// Places a generated cluster with the simulator's scheduling loop (kube-scheduler's basic filters
// plus koord-extender's plugins, through the framework Runtime) and reports the wall time.
// Run: build/<dir>/test/bench/simulator/simulator_bench --benchmark_filter=10000
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "extender/simulator/simulator.hpp"

namespace koord::extender::simulator {
namespace {

resource::Quantity q(const char* text) {
  auto parsed = resource::Quantity::parse(text);
  return parsed.ok() ? *parsed : resource::Quantity();
}

// Nodes: 32 cpu, 128Gi, 110 pods, batch 16 cores / 64Gi; one in ten is tainted, one in twenty
// reserves 2 cpu by annotation. Pods: three in four are prod LS (1-4 cpu, 2-8Gi), the rest BE
// batch (1-2 batch cores, 2Gi); one in fifty selects zone "z1".
ClusterInput generate(int num_nodes, int num_pods) {
  ClusterInput input;
  for (int i = 0; i < num_nodes; ++i) {
    auto node = std::make_shared<api::core::Node>();
    char name[32];
    std::snprintf(name, sizeof(name), "node-%05d", i);
    node->metadata.name = name;
    node->metadata.labels["zone"] = "z" + std::to_string(i % 4);
    node->status.allocatable = {{"cpu", q("32")},
                                {"memory", q("128Gi")},
                                {"pods", q("110")},
                                {"kubernetes.io/batch-cpu", q("16000")},
                                {"kubernetes.io/batch-memory", q("64Gi")}};
    if (i % 10 == 9) {
      api::core::Taint taint;
      taint.key = "dedicated";
      taint.value = "gpu";
      taint.effect = "NoSchedule";
      node->spec.taints.push_back(taint);
    }
    if (i % 20 == 3) {
      node->metadata.annotations["node.koordinator.sh/reservation"] =
          R"({"resources":{"cpu":"2"}})";
    }
    input.nodes.push_back(std::move(node));
  }
  for (int i = 0; i < num_pods; ++i) {
    auto pod = std::make_shared<api::core::Pod>();
    pod->metadata.name = "pod-" + std::to_string(i);
    pod->metadata.namespace_ = "bench";
    api::core::Container c;
    c.name = "main";
    if (i % 4 == 3) {
      pod->metadata.labels["koordinator.sh/qosClass"] = "BE";
      pod->spec.priority = 5000;
      c.resources.requests = {{"kubernetes.io/batch-cpu", q(i % 8 == 3 ? "1000" : "2000")},
                              {"kubernetes.io/batch-memory", q("2Gi")}};
    } else {
      pod->metadata.labels["koordinator.sh/qosClass"] = "LS";
      pod->spec.priority = 9000;
      const int cpu = 1 + i % 4;
      c.resources.requests = {{"cpu", q(std::to_string(cpu).c_str())},
                              {"memory", q((std::to_string(cpu * 2) + "Gi").c_str())}};
    }
    if (i % 50 == 7) {
      pod->spec.nodeSelector["zone"] = "z1";
    }
    pod->spec.containers.push_back(std::move(c));
    input.pods.push_back(std::move(pod));
  }
  return input;
}

void BM_Simulate(benchmark::State& state) {
  const ClusterInput input =
      generate(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  size_t scheduled = 0;
  for (auto _ : state) {
    auto result = simulate(input, SimulationOptions{});
    if (!result.ok()) {
      state.SkipWithError(result.status().message().c_str());
      return;
    }
    scheduled = 0;
    for (const auto& placement : result->placements) {
      scheduled += placement.node.empty() ? 0 : 1;
    }
  }
  state.counters["scheduled"] = static_cast<double>(scheduled);
  state.counters["pods_per_second"] = benchmark::Counter(
      static_cast<double>(state.range(1)) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Simulate)
    ->ArgNames({"nodes", "pods"})
    ->Args({100, 200})
    ->Args({5000, 10000})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace koord::extender::simulator

BENCHMARK_MAIN();
