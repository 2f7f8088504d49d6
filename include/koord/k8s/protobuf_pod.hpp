// Pods in the apiserver's protobuf encoding, decoded straight into api::core::Pod for an informer
// cache: the same Pod that decodeProtobufObject (protobuf_object.hpp) followed by
// decodePodForCache or decodePodForNode (transforms.hpp) gives, without the JSON tree between
// them, which was most of what a Pod watch event cost koord-extender
// (docs/extender-throughput-log.md, "A Pod watch event without JSON").
//
// The direct path takes the usual Pod and hands anything unusual to the JSON path, so results and
// errors are the JSON path's by construction: a malformed message, a kind other than v1 Pod, a
// content encoding, a quantity that does not parse, an int32 out of range. Pure; thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"

namespace koord::k8s {

// Which trimmed Pod to build (transforms.hpp).
enum class PodFields {
  kCache,  // decodePodForCache: no conditions, no container statuses
  kNode,   // decodePodForNode: conditions and container statuses kept
};

// `envelope` is an enveloped object ("k8s\0" and a runtime.Unknown), as a protobuf watch event
// carries it. The result equals decodePodFor...(decodeProtobufObject(envelope)), errors included.
[[nodiscard]] Result<api::core::Pod> decodeProtobufPodForCache(std::string_view envelope);
[[nodiscard]] Result<api::core::Pod> decodeProtobufPodForNode(std::string_view envelope);

// The direct path alone: the Pod, or nullopt for anything it leaves to the JSON path (see above).
// Exposed for the tests and the differential fuzz target, which check that whenever it gives a
// Pod, the JSON path gives an equal one.
[[nodiscard]] std::optional<api::core::Pod> decodeProtobufPodDirect(std::string_view envelope,
                                                                    PodFields fields);

}  // namespace koord::k8s
