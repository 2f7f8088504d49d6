// Differential fuzz target for the Pod decoded straight from protobuf (protobuf_pod.hpp): the input
// is an enveloped object, and whenever the direct path gives a Pod, the JSON path it replaces
// (decodeProtobufObject, then decodePodForCache / decodePodForNode) must give an equal one.
// Anything the direct path refuses goes to the JSON path in the product, so only its Pods can
// differ; a difference aborts with both Pods' JSON.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "koord/k8s/protobuf_object.hpp"
#include "koord/k8s/protobuf_pod.hpp"
#include "koord/k8s/transforms.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using koord::k8s::PodFields;
  const std::string_view envelope(reinterpret_cast<const char*>(data), size);
  for (PodFields fields : {PodFields::kCache, PodFields::kNode}) {
    auto direct = koord::k8s::decodeProtobufPodDirect(envelope, fields);
    if (!direct) {
      continue;
    }
    auto object = koord::k8s::decodeProtobufObject(envelope);
    if (!object.ok()) {
      std::fprintf(stderr, "direct path gave a Pod, JSON path: %s\n",
                   object.status().message().c_str());
      std::abort();
    }
    auto expected = fields == PodFields::kCache
                        ? koord::k8s::decodePodForCache(std::move(object).value())
                        : koord::k8s::decodePodForNode(std::move(object).value());
    if (!expected.ok()) {
      std::fprintf(stderr, "direct path gave a Pod, JSON path: %s\n",
                   expected.status().message().c_str());
      std::abort();
    }
    if (!(*expected == *direct)) {
      std::fprintf(stderr, "direct:\n%s\nthrough JSON:\n%s\n",
                   koord::api::core::toJson(*direct).dump(2).c_str(),
                   koord::api::core::toJson(*expected).dump(2).c_str());
      std::abort();
    }
  }
  return 0;
}
