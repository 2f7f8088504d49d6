// Informer sync benchmark against a real kube-apiserver (docs/performance.md, "Informer cache").
//
//   informer_sync_bench populate --kubeconfig F --namespace NS --nodes N --pods M [--threads T]
//       creates N Nodes and M Pods (test/testdata/typical-pod.json, bound round-robin to the
//       nodes, with a Running status written through the status subresource)
//   informer_sync_bench measure --kubeconfig F --namespace NS [--updates-per-second R]
//       [--seconds S] [--threads T]
//       syncs a Node informer and a Pod informer (decodePodForCache), prints the time to
//       hasSynced and resident memory per cached Pod, then patches pods at R per second for S
//       seconds and prints how many updates the informer received and their delivery lag.
//
// Figures are printed as "name: value" lines. Exit status 1 when a step fails.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/flags.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/informer.hpp"
#include "koord/k8s/store_keys.hpp"
#include "koord/k8s/transforms.hpp"

namespace koord::k8s {
namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string kubeconfig;
  std::string ns = "bench";
  int nodes = 5000;
  int pods = 50000;
  int threads = 8;
  int updates_per_second = 1000;
  int seconds = 20;
};

std::unique_ptr<RestApiClient> connect(const std::string& kubeconfig, int threads) {
  auto cfg = loadKubeconfig(kubeconfig);
  if (!cfg.ok()) {
    std::cerr << cfg.status().toString() << "\n";
    return nullptr;
  }
  cfg->qps = 0;  // no client-side limit: the benchmark measures the server and the cache
  cfg->burst = 0;
  RestClientOptions options;
  options.max_idle_handles = threads + 2;
  auto rest = RestClient::create(*cfg, options);
  if (!rest.ok()) {
    std::cerr << rest.status().toString() << "\n";
    return nullptr;
  }
  return std::make_unique<RestApiClient>(std::shared_ptr<RestClient>(std::move(rest).value()));
}

// Resident set size of this process, in bytes.
int64_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0;
  int64_t resident = 0;
  statm >> size >> resident;
  return resident * 4096;
}

Json templatePod() {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/typical-pod.json");
  std::stringstream text;
  text << in.rdbuf();
  Json pod = Json::parse(text.str());
  pod["metadata"].erase("managedFields");
  pod["metadata"].erase("resourceVersion");
  pod["metadata"].erase("uid");
  pod["metadata"].erase("creationTimestamp");
  pod["metadata"].erase("ownerReferences");  // no such ReplicaSet here
  return pod;
}

Json nodeObject(int i) {
  return Json{{"apiVersion", "v1"},
              {"kind", "Node"},
              {"metadata",
               {{"name", "bench-node-" + std::to_string(i)},
                {"labels",
                 {{"kubernetes.io/hostname", "bench-node-" + std::to_string(i)},
                  {"kubernetes.io/os", "linux"},
                  {"topology.kubernetes.io/zone", "zone-" + std::to_string(i % 3)},
                  {"koord.bench/node", "true"}}}}},
              {"spec", {{"podCIDR", "10.244.0.0/24"}}},
              {"status",
               {{"capacity", {{"cpu", "32"}, {"memory", "128Gi"}, {"pods", "110"}}},
                {"allocatable", {{"cpu", "31500m"}, {"memory", "125Gi"}, {"pods", "110"}}}}}};
}

// Runs fn(i) for i in [0, n) over `threads` threads; false when any call failed.
template <typename F>
bool parallelFor(int n, int threads, F fn) {
  std::atomic<int> next{0};
  std::atomic<bool> ok{true};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      for (int i = next++; i < n && ok.load(); i = next++) {
        if (!fn(i)) {
          ok = false;
        }
      }
    });
  }
  for (auto& w : workers) {
    w.join();
  }
  return ok.load();
}

int populate(const Args& args) {
  auto client = connect(args.kubeconfig, args.threads);
  if (!client) {
    return 1;
  }
  auto ns = client->create(kNamespaces, "", {{"metadata", {{"name", args.ns}}}});
  if (!ns.ok() && !isAlreadyExists(ns.status())) {
    std::cerr << ns.status().toString() << "\n";
    return 1;
  }
  // The template pod runs at koord-prod (priority 9000, as the chart's PriorityClass).
  auto priority_class =
      client->create(GroupVersionResource{"scheduling.k8s.io", "v1", "priorityclasses", false}, "",
                     {{"apiVersion", "scheduling.k8s.io/v1"},
                      {"kind", "PriorityClass"},
                      {"metadata", {{"name", "koord-prod"}}},
                      {"value", 9000}});
  if (!priority_class.ok() && !isAlreadyExists(priority_class.status())) {
    std::cerr << priority_class.status().toString() << "\n";
    return 1;
  }
  const auto start = Clock::now();
  const bool nodes_ok = parallelFor(args.nodes, args.threads, [&](int i) {
    auto created = client->create(kNodes, "", nodeObject(i));
    if (!created.ok() && !isAlreadyExists(created.status())) {
      std::cerr << created.status().toString() << "\n";
      return false;
    }
    return true;
  });
  if (!nodes_ok) {
    return 1;
  }
  const Json pod_template = templatePod();
  const bool pods_ok = parallelFor(args.pods, args.threads, [&](int i) {
    Json pod = pod_template;
    const std::string name = "web-" + std::to_string(i);
    pod["metadata"]["name"] = name;
    pod["metadata"].erase("generateName");
    pod["metadata"]["namespace"] = args.ns;
    pod["metadata"]["labels"]["app"] = "web-" + std::to_string(i % 100);
    pod["spec"]["nodeName"] = "bench-node-" + std::to_string(i % std::max(args.nodes, 1));
    Json status = pod["status"];
    pod.erase("status");
    auto created = client->create(kPods, args.ns, pod);
    if (!created.ok()) {
      if (isAlreadyExists(created.status())) {
        return true;
      }
      std::cerr << created.status().toString() << "\n";
      return false;
    }
    status["podIP"] = "10.244." + std::to_string((i / 250) % 256) + "." + std::to_string(i % 250);
    PatchOptions status_patch;
    status_patch.subresource = "status";
    auto patched = client->patch(kPods, args.ns, name, PatchType::kMerge,
                                 Json{{"status", status}}.dump(), status_patch);
    if (!patched.ok()) {
      std::cerr << patched.status().toString() << "\n";
      return false;
    }
    return true;
  });
  if (!pods_ok) {
    return 1;
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("populated_nodes: %d\npopulated_pods: %d\npopulate_seconds: %.1f\n", args.nodes,
              args.pods, secs);
  return 0;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) {
    return 0;
  }
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

int measure(const Args& args) {
  auto client = connect(args.kubeconfig, args.threads);
  if (!client) {
    return 1;
  }
  malloc_trim(0);
  const int64_t rss_start = residentBytes();
  const auto heap_start = static_cast<int64_t>(mallinfo2().uordblks);

  ReflectorOptions node_options;
  node_options.gvr = kNodes;
  Informer<api::core::Node> nodes(*client, node_options);
  const auto t0 = Clock::now();
  nodes.start();
  if (!nodes.waitForSync(std::chrono::seconds(300))) {
    std::cerr << "node informer did not sync\n";
    return 1;
  }
  const double node_sync = std::chrono::duration<double>(Clock::now() - t0).count();
  malloc_trim(0);
  const int64_t rss_nodes = residentBytes();
  const auto heap_nodes = static_cast<int64_t>(mallinfo2().uordblks);

  ReflectorOptions pod_options;
  pod_options.gvr = kPods;
  Informer<api::core::Pod> pods(*client, pod_options, &decodePodForCache);
  if (!pods.store().addIndexer(kNodeNameIndex, podNodeNameIndexFunc).isOk()) {
    return 1;
  }
  std::mutex lag_mu;
  std::vector<double> lags_ms;
  std::atomic<int64_t> updates_seen{0};
  pods.addHandlers({.onAdd = {},
                    .onUpdate =
                        [&](const auto&, const auto& pod) {
                          auto sent = pod->metadata.annotations.find("bench/sent-ns");
                          if (sent == pod->metadata.annotations.end()) {
                            return;
                          }
                          const int64_t now_ns =
                              std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  Clock::now().time_since_epoch())
                                  .count();
                          const double lag =
                              static_cast<double>(now_ns - std::stoll(sent->second)) / 1e6;
                          ++updates_seen;
                          std::lock_guard lock(lag_mu);
                          lags_ms.push_back(lag);
                        },
                    .onDelete = {}});
  const auto t1 = Clock::now();
  pods.start();
  if (!pods.waitForSync(std::chrono::seconds(300))) {
    std::cerr << "pod informer did not sync\n";
    return 1;
  }
  const double pod_sync = std::chrono::duration<double>(Clock::now() - t1).count();
  const double total_sync = std::chrono::duration<double>(Clock::now() - t0).count();
  malloc_trim(0);
  const int64_t rss_pods = residentBytes();
  const auto heap_pods = static_cast<int64_t>(mallinfo2().uordblks);
  const size_t pod_count = pods.store().size();
  std::printf("nodes_cached: %zu\npods_cached: %zu\n", nodes.store().size(), pod_count);
  std::printf("node_sync_seconds: %.2f\npod_sync_seconds: %.2f\ntotal_sync_seconds: %.2f\n",
              node_sync, pod_sync, total_sync);
  std::printf("rss_start_mib: %.1f\nrss_after_nodes_mib: %.1f\nrss_after_pods_mib: %.1f\n",
              static_cast<double>(rss_start) / 1048576.0,
              static_cast<double>(rss_nodes) / 1048576.0,
              static_cast<double>(rss_pods) / 1048576.0);
  if (pod_count > 0) {
    std::printf("rss_per_pod_bytes: %.0f\nheap_in_use_per_pod_bytes: %.0f\n",
                static_cast<double>(rss_pods - rss_nodes) / static_cast<double>(pod_count),
                static_cast<double>(heap_pods - heap_nodes) / static_cast<double>(pod_count));
    std::printf("heap_in_use_per_node_bytes: %.0f\n",
                static_cast<double>(heap_nodes - heap_start) /
                    static_cast<double>(std::max<size_t>(nodes.store().size(), 1)));
  }
  if (args.seconds <= 0 || pod_count == 0) {
    return 0;
  }

  // Update phase: writers patch an annotation carrying the send time, paced to the target rate.
  const std::vector<std::string> keys = pods.store().listKeys();
  const int64_t total = static_cast<int64_t>(args.updates_per_second) * args.seconds;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> failed{0};
  const auto phase_start = Clock::now();
  std::vector<std::thread> writers;
  for (int t = 0; t < args.threads; ++t) {
    writers.emplace_back([&] {
      for (int64_t i = next++; i < total; i = next++) {
        const auto due =
            phase_start + std::chrono::nanoseconds(i * 1000000000LL / args.updates_per_second);
        std::this_thread::sleep_until(due);
        const std::string& key = keys[static_cast<size_t>(i) % keys.size()];
        auto split = splitMetaNamespaceKey(key);
        const int64_t now_ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
                .count();
        const std::string body =
            R"({"metadata":{"annotations":{"bench/sent-ns":")" + std::to_string(now_ns) + "\"}}}";
        auto patched =
            client->patch(kPods, split->first, split->second, PatchType::kMerge, body, {});
        if (!patched.ok()) {
          ++failed;
        }
      }
    });
  }
  for (auto& w : writers) {
    w.join();
  }
  const double write_secs = std::chrono::duration<double>(Clock::now() - phase_start).count();
  const int64_t written = total - failed.load();
  // Lets the informer drain what is in flight (at most 30 s).
  const auto drain_deadline = Clock::now() + std::chrono::seconds(30);
  while (updates_seen.load() < written && Clock::now() < drain_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double phase_secs = std::chrono::duration<double>(Clock::now() - phase_start).count();
  std::vector<double> lags;
  {
    std::lock_guard lock(lag_mu);
    lags = lags_ms;
  }
  std::printf("updates_written: %lld\nupdates_failed: %lld\nwrite_rate_per_second: %.0f\n",
              static_cast<long long>(written), static_cast<long long>(failed.load()),
              static_cast<double>(written) / write_secs);
  std::printf("updates_received: %lld\nreceive_rate_per_second: %.0f\n",
              static_cast<long long>(updates_seen.load()),
              static_cast<double>(updates_seen.load()) / phase_secs);
  std::printf("update_lag_p50_ms: %.1f\nupdate_lag_p99_ms: %.1f\nupdate_lag_max_ms: %.1f\n",
              percentile(lags, 0.5), percentile(lags, 0.99), percentile(lags, 1.0));
  // Falling behind shows as a lag that grows through the run: compare the last tenth with the
  // first tenth of deliveries.
  if (lags.size() >= 20) {
    const size_t tenth = lags.size() / 10;
    std::vector<double> first(lags.begin(), lags.begin() + static_cast<ptrdiff_t>(tenth));
    std::vector<double> last(lags.end() - static_cast<ptrdiff_t>(tenth), lags.end());
    std::printf("update_lag_p50_first_tenth_ms: %.1f\nupdate_lag_p50_last_tenth_ms: %.1f\n",
                percentile(first, 0.5), percentile(last, 0.5));
  }
  nodes.stop();
  pods.stop();
  return updates_seen.load() >= written ? 0 : 1;
}

}  // namespace
}  // namespace koord::k8s

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: informer_sync_bench populate|measure --kubeconfig FILE [...]\n";
    return 2;
  }
  koord::k8s::Args args;
  const std::string mode = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--kubeconfig") {
      args.kubeconfig = value;
    } else if (flag == "--namespace") {
      args.ns = value;
    } else if (flag == "--nodes") {
      args.nodes = std::stoi(value);
    } else if (flag == "--pods") {
      args.pods = std::stoi(value);
    } else if (flag == "--threads") {
      args.threads = std::stoi(value);
    } else if (flag == "--updates-per-second") {
      args.updates_per_second = std::max(1, std::stoi(value));
    } else if (flag == "--seconds") {
      args.seconds = std::stoi(value);
    } else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  if (args.kubeconfig.empty()) {
    std::cerr << "--kubeconfig is required\n";
    return 2;
  }
  if (mode == "populate") {
    return koord::k8s::populate(args);
  }
  if (mode == "measure") {
    return koord::k8s::measure(args);
  }
  std::cerr << "unknown mode " << mode << "\n";
  return 2;
}
