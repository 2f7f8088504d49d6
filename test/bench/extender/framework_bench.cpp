// The extender's hot path in process: filter plus prioritize for one pod over 500 candidate node
// names in a 5,000-node cluster (issue 4's target: p99 <= 0.5 ms on a 2-core machine). Two
// representative plugins live here: a resource-fit filter and a least-allocated score.
//
// Each benchmark times every iteration by hand and reports p50_us / p99_us counters.
//   BM_RuntimeFilterScore: ClusterState lookup + Runtime::filter + Runtime::score.
//   BM_ServiceFilterPrioritize: the same through FrameworkService (wire structs in and out,
//     PodInfo decoding included; no JSON, no HTTP).
//   BM_HttpFilterPrioritize: the whole of it as kube-scheduler sees it: POST filter with the pod
//     (managedFields included) and the 500 names, then POST prioritize with the names filter kept,
//     over one keep-alive loopback connection to ExtenderServer and FrameworkService; JSON both
//     ways. Its third argument, informer: 0, the pod is not in the cluster state, so filter
//     decodes it from the body; 1, the cluster state holds the same version of it (as
//     koord-extender's Pod informer does for a pod kube-scheduler asks about), so filter takes
//     the informer's and reads only the key and the names from the body.
// Arguments: the runtime's parallelism and min_parallel_work (0: the default threshold, under
// which 500 nodes run inline; 1: always split across the pool).
#include <benchmark/benchmark.h>
#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/registry.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/server/extender_server.hpp"
#include "extender/server/framework_service.hpp"
#include "koord/api/extender/types.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"
#include "support/post_client.hpp"

namespace koord::extender::framework {
namespace {

using server::FrameworkService;

constexpr int kNodes = 5000;
constexpr int kPodsPerNode = 10;
constexpr int kCandidates = 500;

class ResourceFit final : public FilterPlugin {
 public:
  std::string_view name() const override { return "ResourceFit"; }
  PluginStatus filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    const Resource& want = pod.requests;
    const Resource& used = node.requested();
    const Resource& alloc = node.allocatable();
    if (used.pods + 1 > alloc.pods)
      return PluginStatus::unschedulable("Too many pods");
    if (want.milli_cpu > alloc.milli_cpu - used.milli_cpu) {
      return PluginStatus::unschedulable("Insufficient cpu");
    }
    if (want.memory > alloc.memory - used.memory) {
      return PluginStatus::unschedulable("Insufficient memory");
    }
    for (const auto& [name, amount] : want.scalar) {
      if (amount > alloc.get(name) - used.get(name)) {
        return PluginStatus::unschedulable("Insufficient " + name);
      }
    }
    return PluginStatus::success();
  }
};

class LeastAllocated final : public ScorePlugin {
 public:
  std::string_view name() const override { return "LeastAllocated"; }
  int64_t score(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    auto free_share = [](int64_t alloc, int64_t used) -> int64_t {
      if (alloc <= 0 || used >= alloc)
        return 0;
      return (alloc - used) * 100 / alloc;
    };
    const Resource& used = node.requested();
    const Resource& alloc = node.allocatable();
    return (free_share(alloc.milli_cpu, used.milli_cpu + pod.requests.milli_cpu) +
            free_share(alloc.memory, used.memory + pod.requests.memory)) /
           2;
  }
};

class NoBinder final : public Binder {
 public:
  Status patchPod(const PodInfo&, const BindPatch&, BindDeadline) override { return Status::ok(); }
  Status bindPod(const PodInfo&, const std::string&, BindDeadline) override { return Status::ok(); }
};

resource::Quantity q(const std::string& text) {
  return resource::Quantity::parse(text).value();
}

std::string nodeName(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "node-%05d", i);
  return buf;
}

std::shared_ptr<api::core::Pod> pod(const std::string& name, const std::string& cpu,
                                    const std::string& memory, const std::string& node) {
  auto p = std::make_shared<api::core::Pod>();
  p->metadata.namespace_ = "default";
  p->metadata.name = name;
  p->metadata.uid = "uid-" + name;
  p->metadata.labels["app"] = "bench";
  p->spec.nodeName = node;
  p->spec.priority = 9500;
  api::core::Container c;
  c.name = "main";
  c.resources.requests["cpu"] = q(cpu);
  c.resources.requests["memory"] = q(memory);
  p->spec.containers.push_back(std::move(c));
  return p;
}

std::shared_ptr<api::core::Pod> withVersion(std::shared_ptr<api::core::Pod> p,
                                            const std::string& resource_version) {
  p->metadata.resourceVersion = resource_version;
  return p;
}

struct World {
  RealClock clock;
  ClusterState cluster{clock};
  BasicHandle handle{cluster, clock};
  Registry registry;
  std::vector<std::string> candidates;
  std::shared_ptr<api::core::Pod> pending = withVersion(pod("pending", "2", "4Gi", ""), "42");
  std::shared_ptr<const PodInfo> pending_info = PodInfo::create(pending).value();

  World() {
    for (int i = 0; i < kNodes; ++i) {
      auto node = std::make_shared<api::core::Node>();
      node->metadata.name = nodeName(i);
      node->metadata.labels["kubernetes.io/hostname"] = node->metadata.name;
      node->status.allocatable = {{"cpu", q("32")}, {"memory", q("128Gi")}, {"pods", q("110")}};
      cluster.upsertNode(node);
      // Every 7th node is nearly full, so filter rejects about one candidate in seven.
      const std::string cpu = i % 7 == 0 ? "3100m" : std::to_string(100 + (i * 37) % 900) + "m";
      for (int k = 0; k < kPodsPerNode; ++k) {
        (void)cluster.upsertPod(pod("p-" + std::to_string(i) + "-" + std::to_string(k), cpu,
                                    std::to_string(1 + (i + k) % 4) + "Gi", nodeName(i)));
      }
    }
    for (int i = 0; i < kCandidates; ++i)
      candidates.push_back(nodeName(i * (kNodes / kCandidates)));
    (void)registry.add("ResourceFit", [](const api::Json&, const Handle&) {
      return Result<std::unique_ptr<Plugin>>(std::make_unique<ResourceFit>());
    });
    (void)registry.add("LeastAllocated", [](const api::Json&, const Handle&) {
      return Result<std::unique_ptr<Plugin>>(std::make_unique<LeastAllocated>());
    });
  }

  std::unique_ptr<Runtime> runtime(const benchmark::State& state,
                                   metrics::MetricsRegistry* metrics) const {
    RuntimeOptions options;
    options.parallelism = static_cast<int>(state.range(0));
    options.min_parallel_work = state.range(1);
    options.plugins = {{"ResourceFit", {}, 1}, {"LeastAllocated", {}, 1}};
    return Runtime::create(registry, handle, std::move(options), metrics).value();
  }
};

void reportPercentiles(benchmark::State& state, std::vector<double>& micros) {
  if (micros.empty())
    return;
  std::sort(micros.begin(), micros.end());
  auto at = [&](double p) {
    return micros[std::min(micros.size() - 1, static_cast<size_t>(p * micros.size()))];
  };
  state.counters["p50_us"] = at(0.50);
  state.counters["p99_us"] = at(0.99);
  state.counters["max_us"] = micros.back();
}

void runtimeFilterScore(benchmark::State& state, const World& w) {
  metrics::MetricsRegistry metrics;
  auto runtime = w.runtime(state, &metrics);
  std::vector<std::shared_ptr<const NodeInfo>> infos;
  std::vector<std::shared_ptr<const NodeInfo>> feasible;
  std::vector<double> micros;
  size_t passed = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    w.cluster.lookupNodes(w.candidates, infos);
    auto result = runtime->filter(*w.pending_info, infos);
    feasible.clear();
    size_t next = 0;
    for (const auto& info : infos) {
      if (next < result.feasible.size() && info->name() == result.feasible[next]) {
        feasible.push_back(info);
        ++next;
      }
    }
    auto scores = runtime->score(*w.pending_info, feasible);
    benchmark::DoNotOptimize(scores.data());
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    passed = feasible.size();
  }
  state.counters["feasible"] = static_cast<double>(passed);
  reportPercentiles(state, micros);
}

// PodInfo::create, which every decoded filter request pays: a pod whose containers set cpu and
// memory requests (the non-zero requests are the requests) against one that sets none (its
// non-zero requests are summed again with kube-scheduler's 100m / 200Mi defaults).
void podInfoCreate(benchmark::State& state) {
  auto with_requests = pod("with", "2", "4Gi", "");
  auto without = pod("without", "2", "4Gi", "");
  without->spec.containers[0].resources.requests.clear();
  const auto& chosen = state.range(0) == 1 ? with_requests : without;
  for (auto _ : state) {
    auto info = PodInfo::create(chosen);
    benchmark::DoNotOptimize(info);
  }
}

void serviceFilterPrioritize(benchmark::State& state, World& w) {
  metrics::MetricsRegistry metrics;
  auto runtime = w.runtime(state, &metrics);
  NoBinder binder;
  FrameworkService service(*runtime, w.cluster, binder, nullptr);
  api::extender::ExtenderArgs args;
  args.pod = *w.pending;
  args.nodeNames = w.candidates;
  api::extender::ExtenderArgs score_args;
  score_args.pod = *w.pending;
  std::vector<double> micros;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto filtered = service.filter(args);
    score_args.nodeNames = std::move(filtered.nodeNames);
    auto priorities = service.prioritize(score_args);
    benchmark::DoNotOptimize(priorities.data());
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  reportPercentiles(state, micros);
}

// The pending pod as kube-scheduler sends it: with the managedFields kubectl leaves.
std::string podJson(const api::core::Pod& pod) {
  api::Json j = api::core::toJson(pod);
  j["metadata"]["managedFields"] = api::Json::parse(R"([{"manager": "kubectl-create",
      "operation": "Update", "apiVersion": "v1", "time": "2026-11-26T07:00:00Z",
      "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
      "f:spec": {"f:containers": {"k:{\"name\":\"main\"}": {".": {}, "f:image": {}, "f:name": {},
      "f:resources": {".": {}, "f:requests": {".": {}, "f:cpu": {}, "f:memory": {}}}}},
      "f:priority": {}, "f:schedulerName": {}, "f:terminationGracePeriodSeconds": {}}}}])");
  return j.dump();
}

void httpFilterPrioritize(benchmark::State& state, World& w) {
  metrics::MetricsRegistry metrics;
  auto runtime = w.runtime(state, &metrics);
  NoBinder binder;
  FrameworkService service(*runtime, w.cluster, binder, nullptr);
  server::ServerOptions options;
  options.port = 0;
  auto server = server::ExtenderServer::create(service, metrics, options);
  if (!server.ok() || !(*server)->start().isOk()) {
    state.SkipWithError("failed to start the extender server");
    return;
  }
  const bool informer = state.range(2) == 1;
  if (informer && !w.cluster.upsertPod(w.pending).isOk()) {
    state.SkipWithError("the cluster state refused the pending pod");
    return;
  }
  const std::string pod = podJson(*w.pending);
  const std::string filter_body =
      R"({"Pod":)" + pod + R"(,"Nodes":null,"NodeNames":)" + api::Json(w.candidates).dump() + "}";
  bench::PostClient client((*server)->port());
  std::vector<double> micros;
  size_t feasible = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const long filtered = client.post("/scheduler/filter", filter_body);
    // kube-scheduler sends prioritize the names filter kept.
    auto reply = api::parseJson(client.reply());
    const std::string score_body = R"({"Pod":)" + pod + R"(,"Nodes":null,"NodeNames":)" +
                                   (reply.ok() ? (*reply)["NodeNames"].dump() : "null") + "}";
    const long prioritized = client.post("/scheduler/prioritize", score_body);
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    if (filtered != 200 || prioritized != 200 || !reply.ok()) {
      state.SkipWithError("a request failed");
      break;
    }
    feasible = (*reply)["NodeNames"].size();
  }
  state.counters["feasible"] = static_cast<double>(feasible);
  state.counters["request_bytes"] = static_cast<double>(filter_body.size());
  reportPercentiles(state, micros);
  (*server)->stop(std::chrono::seconds(1));
  if (informer) {
    w.cluster.removePod("default/pending");
  }
}

}  // namespace
}  // namespace koord::extender::framework

int main(int argc, char** argv) {
  using koord::extender::framework::World;
  benchmark::Initialize(&argc, argv);
  curl_global_init(CURL_GLOBAL_ALL);
  World world;  // built once, shared by every benchmark below
  benchmark::RegisterBenchmark("BM_RuntimeFilterScore",
                               [&world](benchmark::State& state) {
                                 koord::extender::framework::runtimeFilterScore(state, world);
                               })
      ->ArgNames({"threads", "min_parallel_work"})
      ->Args({1, 0})
      ->Args({2, 0})
      ->Args({2, 1})
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_ServiceFilterPrioritize",
                               [&world](benchmark::State& state) {
                                 koord::extender::framework::serviceFilterPrioritize(state, world);
                               })
      ->ArgNames({"threads", "min_parallel_work"})
      ->Args({1, 0})
      ->Args({2, 0})
      ->Args({2, 1})
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_HttpFilterPrioritize",
                               [&world](benchmark::State& state) {
                                 koord::extender::framework::httpFilterPrioritize(state, world);
                               })
      ->ArgNames({"threads", "min_parallel_work", "informer"})
      ->Args({1, 0, 0})
      ->Args({1, 0, 1})
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_PodInfoCreate", koord::extender::framework::podInfoCreate)
      ->ArgName("requests")
      ->Arg(1)
      ->Arg(0)
      ->Unit(benchmark::kNanosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
