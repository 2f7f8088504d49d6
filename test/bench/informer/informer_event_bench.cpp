// How many watch events per second the informer's cache path absorbs on one core: framing by
// WatchDecoder, trimming and decoding by decodePodForCache, and the indexed Store update. This is
// the ceiling of what an informer keeps up with, whatever the apiserver can send
// (docs/performance.md, "Informer cache").
#include <benchmark/benchmark.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "koord/api/core/pod.hpp"
#include "koord/k8s/protobuf_pod.hpp"
#include "koord/k8s/protobuf_watch_decoder.hpp"
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

// The same pod change in both watch formats: the MODIFIED event captured from kube-apiserver
// v1.36.3 in protobuf (test/testdata/k8s/protobuf/pod_watch_stream.bin, its second frame) and
// the JSON kube-apiserver gives for that pod (pod.json, managedFields included, as a JSON watch
// sends it), each repeated 2,000 times into the pod cache. Arg 0: JSON, 1: protobuf through JSON,
// 2: protobuf decoded straight into the Pod (decodeProtobufPodForCache, what koord-extender runs).
std::string testdata(const std::string& name) {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/k8s/protobuf/" + name,
                   std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string capturedStream(bool protobuf, int n) {
  std::string one;
  if (protobuf) {
    const std::string frames = testdata("pod_watch_stream.bin");
    size_t first = 4;
    for (size_t i = 0; i < 4; ++i) {
      first += static_cast<size_t>(static_cast<uint8_t>(frames[i])) << (8 * (3 - i));
    }
    one = frames.substr(first);
  } else {
    one = Json{{"type", "MODIFIED"}, {"object", Json::parse(testdata("pod.json"))}}.dump() + "\n";
  }
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += one;
  }
  return out;
}

template <class Decoder>
Status feedInto(Store<api::core::Pod>& store, const std::string& bytes) {
  Decoder decoder;
  return decoder.feed(bytes, [&](WatchEvent&& event) {
    auto pod = decodePodForCache(std::move(event.object));
    if (pod.ok()) {
      (void)store.update(std::make_shared<const api::core::Pod>(std::move(pod).value()));
    }
  });
}

// The protobuf watch as koord-extender's Pod informer reads it: each object straight to a Pod.
Status feedDirect(Store<api::core::Pod>& store, const std::string& bytes) {
  ProtobufWatchDecoder decoder(WatchDecoder::kDefaultMaxEventBytes, ProtobufObjects::kRaw);
  return decoder.feed(bytes, [&](WatchEvent&& event) {
    auto pod = decodeProtobufPodForCache(event.protobuf_object);
    if (pod.ok()) {
      (void)store.update(std::make_shared<const api::core::Pod>(std::move(pod).value()));
    }
  });
}

void BM_CapturedPodEventIntoCache(benchmark::State& state) {
  const int events = 2000;
  const bool protobuf = state.range(0) >= 1;
  const std::string bytes = capturedStream(protobuf, events);
  Store<api::core::Pod> store;
  for (auto _ : state) {
    Status fed = state.range(0) == 2 ? feedDirect(store, bytes)
                 : protobuf          ? feedInto<ProtobufWatchDecoder>(store, bytes)
                                     : feedInto<WatchDecoder>(store, bytes);
    if (!fed.isOk() || store.size() != 1) {
      state.SkipWithError("the captured stream did not decode");
      break;
    }
  }
  state.SetLabel(state.range(0) == 2 ? "protobuf, direct" : protobuf ? "protobuf" : "json");
  state.SetItemsProcessed(state.iterations() * events);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}
BENCHMARK(BM_CapturedPodEventIntoCache)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koord::k8s

BENCHMARK_MAIN();
