// How many watch events per second the informer's cache path absorbs on one core: framing by
// WatchDecoder, trimming and decoding by decodePodForCache, and the indexed Store update. This is
// the ceiling of what an informer keeps up with, whatever the apiserver can send
// (docs/performance.md, "Informer cache").
#include <benchmark/benchmark.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "koord/api/core/pod.hpp"
#include "koord/k8s/store.hpp"
#include "koord/k8s/store_keys.hpp"
#include "koord/k8s/transforms.hpp"
#include "koord/k8s/watch_decoder.hpp"

namespace koord::k8s {
namespace {

Json typicalPod() {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/typical-pod.json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

// A stream of `n` MODIFIED events over 1,000 distinct pods, as the apiserver sends it.
std::string stream(int n) {
  const Json pod = typicalPod();
  std::string out;
  for (int i = 0; i < n; ++i) {
    Json p = pod;
    p["metadata"]["name"] = "web-" + std::to_string(i % 1000);
    p["metadata"]["resourceVersion"] = std::to_string(1000 + i);
    out += Json{{"type", "MODIFIED"}, {"object", std::move(p)}}.dump();
    out += '\n';
  }
  return out;
}

void BM_PodWatchEventsIntoCache(benchmark::State& state) {
  const int events = 2000;
  const std::string bytes = stream(events);
  Store<api::core::Pod> store;
  (void)store.addIndexer(kNodeNameIndex, podNodeNameIndexFunc);
  (void)store.addIndexer(kNamespaceIndex, namespaceIndexFunc<api::core::Pod>);
  for (auto _ : state) {
    WatchDecoder decoder;
    Status fed = decoder.feed(bytes, [&](WatchEvent&& event) {
      auto pod = decodePodForCache(std::move(event.object));
      if (pod.ok()) {
        (void)store.update(std::make_shared<const api::core::Pod>(std::move(pod).value()));
      }
    });
    benchmark::DoNotOptimize(fed);
  }
  state.SetItemsProcessed(state.iterations() * events);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}
BENCHMARK(BM_PodWatchEventsIntoCache)->Unit(benchmark::kMillisecond);

void BM_PodWatchEventsFullDecode(benchmark::State& state) {
  const int events = 2000;
  const std::string bytes = stream(events);
  Store<api::core::Pod> store;
  for (auto _ : state) {
    WatchDecoder decoder;
    Status fed = decoder.feed(bytes, [&](WatchEvent&& event) {
      auto pod = decodeObject<api::core::Pod>(std::move(event.object));
      if (pod.ok()) {
        (void)store.update(std::make_shared<const api::core::Pod>(std::move(pod).value()));
      }
    });
    benchmark::DoNotOptimize(fed);
  }
  state.SetItemsProcessed(state.iterations() * events);
}
BENCHMARK(BM_PodWatchEventsFullDecode)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koord::k8s

BENCHMARK_MAIN();
