// koord-extender's HTTP path over loopback, the way kube-scheduler drives it: one keep-alive
// connection, POST filter then POST prioritize for one pod with 500 node names (nodeCacheCapable),
// JSON both ways, against a stub ExtenderService that answers at once. What is measured is ours:
// HTTP server, routing, JSON decode of ExtenderArgs and encode of the replies (plus libcurl's
// client side). Reports the p50 and p99 of one filter+prioritize pair (target p99 <= 2 ms with the
// framework's own time added later).
#include <benchmark/benchmark.h>
#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "extender/server/extender_server.hpp"
#include "extender/server/wire/args_decoder.hpp"
#include "extender/server/wire/reply_writer.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/extender/types.hpp"
#include "support/post_client.hpp"

namespace koord::extender::server {
namespace {

namespace ext = api::extender;

class StubService final : public ExtenderService {
 public:
  ext::ExtenderFilterResult filter(const ext::ExtenderArgs& args) override {
    ext::ExtenderFilterResult result;
    result.nodeNames = args.nodeNames;
    return result;
  }
  ext::HostPriorityList prioritize(const ext::ExtenderArgs& args) override {
    ext::HostPriorityList list;
    for (const std::string& name : args.nodeNames.value_or(std::vector<std::string>{})) {
      list.push_back({name, 5});
    }
    return list;
  }
  ext::ExtenderBindingResult bind(const ext::ExtenderBindingArgs&) override { return {}; }
  ext::ExtenderPreemptionResult preempt(const ext::ExtenderPreemptionArgs&) override { return {}; }
  bool ready() const override { return true; }
};

// A typical pod as kube-scheduler sends it (requests, labels, affinity, tolerations, managedFields)
// and 500 node names: about 18 KB.
std::string requestBody(int nodes) {
  api::Json names = api::Json::array();
  for (int i = 0; i < nodes; ++i) {
    names.push_back("node-" + std::to_string(i) + ".cluster.example.com");
  }
  const api::Json pod = api::Json::parse(R"({
    "metadata": {"name": "web-7d9f8c-x2k4p", "namespace": "shop", "uid": "4f0c2a8e-1b6d-4d0e-9a57-3c1f2b7e9d10",
                 "labels": {"app": "web", "pod-template-hash": "7d9f8c", "koordinator.sh/qosClass": "LS"},
                 "annotations": {"scheduling.koordinator.sh/resource-spec": "{\"preferredCPUBindPolicy\":\"FullPCPUs\"}"},
                 "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f8c",
                                      "uid": "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d", "controller": true}],
                 "managedFields": [{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
                   "time": "2026-11-26T07:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {
                   "f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:pod-template-hash": {}, "f:koordinator.sh/qosClass": {}},
                                  "f:ownerReferences": {".": {}, "k:{\"uid\":\"0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d\"}": {}}},
                   "f:spec": {"f:affinity": {".": {}, "f:nodeAffinity": {".": {}, "f:requiredDuringSchedulingIgnoredDuringExecution": {}}},
                              "f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {},
                                "f:resources": {".": {}, "f:limits": {".": {}, "f:cpu": {}, "f:memory": {}},
                                                "f:requests": {".": {}, "f:cpu": {}, "f:memory": {}}},
                                "f:terminationMessagePath": {}, "f:terminationMessagePolicy": {}}},
                              "f:dnsPolicy": {}, "f:enableServiceLinks": {}, "f:nodeSelector": {}, "f:priorityClassName": {},
                              "f:restartPolicy": {}, "f:schedulerName": {}, "f:securityContext": {},
                              "f:terminationGracePeriodSeconds": {}, "f:tolerations": {}}}}]},
    "spec": {"schedulerName": "default-scheduler", "priority": 9000, "priorityClassName": "koord-prod",
             "nodeSelector": {"kubernetes.io/os": "linux"},
             "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
             "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                 {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a", "b"]}]}]}}},
             "containers": [{"name": "web", "image": "nginx:1.25",
                             "resources": {"requests": {"cpu": "4", "memory": "8Gi"}, "limits": {"cpu": "4", "memory": "8Gi"}}}]},
    "status": {"phase": "Pending", "qosClass": "Guaranteed"}})");
  return api::Json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", names}}.dump();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) {
    return 0;
  }
  std::sort(values.begin(), values.end());
  const auto index = static_cast<size_t>(p * static_cast<double>(values.size() - 1));
  return values[index];
}

void BM_FilterAndPrioritize500Nodes(benchmark::State& state) {
  curl_global_init(CURL_GLOBAL_ALL);
  StubService service;
  metrics::MetricsRegistry metrics;
  ServerOptions options;
  options.port = 0;
  auto server = ExtenderServer::create(service, metrics, options);
  if (!server.ok() || !(*server)->start().isOk()) {
    state.SkipWithError("failed to start the extender server");
    return;
  }
  const std::string body = requestBody(static_cast<int>(state.range(0)));
  bench::PostClient client((*server)->port());
  std::vector<double> micros;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const long filtered = client.post("/scheduler/filter", body);
    const long prioritized = client.post("/scheduler/prioritize", body);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (filtered != 200 || prioritized != 200) {
      state.SkipWithError("a request failed");
      break;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(elapsed).count());
  }
  const double p50 = percentile(micros, 0.50);
  const double p99 = percentile(micros, 0.99);
  state.counters["p50_us"] = p50;
  state.counters["p99_us"] = p99;
  state.counters["request_bytes"] = static_cast<double>(body.size());
  std::printf("filter+prioritize, %lld node names, %zu pairs: p50 %.0f us, p99 %.0f us\n",
              static_cast<long long>(state.range(0)), micros.size(), p50, p99);
  (*server)->stop(std::chrono::seconds(1));
}
BENCHMARK(BM_FilterAndPrioritize500Nodes)->Arg(500)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Decoding one filter/prioritize body (500 node names): the tree decoder (parse to a JSON tree,
// then the typed decoders; Arg 0) against the streaming one the server uses (Arg 1).
void BM_DecodeExtenderArgs(benchmark::State& state) {
  const std::string body = requestBody(500);
  const bool streaming = state.range(0) == 1;
  for (auto _ : state) {
    if (streaming) {
      auto args = wire::decodeExtenderArgs(body);
      benchmark::DoNotOptimize(args);
    } else {
      auto parsed = api::parseJson(body);
      ext::ExtenderArgs args;
      benchmark::DoNotOptimize(ext::fromJson(*parsed, args, ""));
      benchmark::DoNotOptimize(args);
    }
  }
  state.SetLabel(streaming ? "streaming" : "tree");
}
BENCHMARK(BM_DecodeExtenderArgs)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Encoding the replies for 500 nodes, the filter result (names) and the priority list: through a
// JSON tree (Arg 0) against the direct writers the server uses (Arg 1).
void BM_EncodeReplies(benchmark::State& state) {
  const bool direct = state.range(0) == 1;
  ext::ExtenderFilterResult filtered;
  filtered.nodeNames.emplace();
  ext::HostPriorityList priorities;
  for (int i = 0; i < 500; ++i) {
    filtered.nodeNames->push_back("node-" + std::to_string(i) + ".cluster.example.com");
    priorities.push_back({filtered.nodeNames->back(), i % 11});
  }
  for (auto _ : state) {
    std::string a = direct ? wire::writeJson(filtered) : ext::toJson(filtered).dump();
    std::string b = direct ? wire::writeJson(priorities) : ext::toJson(priorities).dump();
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
  }
  state.SetLabel(direct ? "direct" : "tree");
}
BENCHMARK(BM_EncodeReplies)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace koord::extender::server

BENCHMARK_MAIN();
