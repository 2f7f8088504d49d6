#include "koord/k8s/protobuf_pod.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "koord/k8s/protobuf_object.hpp"
#include "koord/k8s/transforms.hpp"
#include "protobuf_wire.hpp"

namespace koord::k8s {
namespace {

using api::Box;
using api::Json;
using api::core::Affinity;
using api::core::Container;
using api::core::NodeAffinity;
using api::core::NodeSelector;
using api::core::NodeSelectorRequirement;
using api::core::NodeSelectorTerm;
using api::core::ObjectMeta;
using api::core::OwnerReference;
using api::core::Pod;
using api::core::PodCondition;
using api::core::PodSpec;
using api::core::PodStatus;
using api::core::PreferredSchedulingTerm;
using api::core::ResourceRequirements;
using api::core::StringMap;
using api::core::Toleration;
using protobuf_wire::eachField;
using protobuf_wire::JsonSchema;
using protobuf_wire::kLength;
using protobuf_wire::kVarint;
using protobuf_wire::Reader;
using resource::Quantity;
using resource::ResourceList;

// Field numbers and shapes are those of protobuf_object.cpp's schemas (k8s.io/api
// generated.proto); the differential fuzz target (protobuf_pod_fuzz) holds the two together.
// Every function returns false for anything left to the JSON path (protobuf_pod.hpp).

constexpr std::string_view kKubectlLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

bool bytesOf(Reader& r, uint32_t wire, std::string_view& out) {
  return wire == kLength && r.bytes(out);
}

bool varintOf(Reader& r, uint32_t wire, uint64_t& out) {
  return wire == kVarint && r.varint(out);
}

// An empty string is no value (the JSON path leaves it out), so it keeps what `out` held.
bool readString(Reader& r, uint32_t wire, std::string& out) {
  std::string_view bytes;
  if (!bytesOf(r, wire, bytes)) {
    return false;
  }
  if (!bytes.empty()) {
    out = protobuf_wire::jsonString(bytes);
  }
  return true;
}

bool readString(Reader& r, uint32_t wire, std::optional<std::string>& out) {
  std::string v;
  if (!readString(r, wire, v)) {
    return false;
  }
  if (!v.empty()) {
    out = std::move(v);
  }
  return true;
}

bool appendString(Reader& r, uint32_t wire, std::vector<std::string>& out) {
  std::string_view bytes;
  if (!bytesOf(r, wire, bytes)) {
    return false;
  }
  out.push_back(protobuf_wire::jsonString(bytes));
  return true;
}

// int32 and int64 alike arrive as a varint, negatives sign-extended to 64 bits.
bool readScalar(Reader& r, uint32_t wire, int64_t& out) {
  uint64_t v = 0;
  if (!varintOf(r, wire, v)) {
    return false;
  }
  out = static_cast<int64_t>(v);
  return true;
}

bool readScalar(Reader& r, uint32_t wire, int32_t& out) {
  int64_t v = 0;
  if (!readScalar(r, wire, v) || v < std::numeric_limits<int32_t>::min() ||
      v > std::numeric_limits<int32_t>::max()) {
    return false;  // the JSON path's "integer out of range"
  }
  out = static_cast<int32_t>(v);
  return true;
}

bool readScalar(Reader& r, uint32_t wire, bool& out) {
  uint64_t v = 0;
  if (!varintOf(r, wire, v)) {
    return false;
  }
  out = v != 0;
  return true;
}

// A Go pointer to a number or a bool: set whenever the field is present.
template <class T>
bool readScalar(Reader& r, uint32_t wire, std::optional<T>& out) {
  T v{};
  if (!readScalar(r, wire, v)) {
    return false;
  }
  out = v;
  return true;
}

// meta/v1 Time {seconds = 1}; an empty message is no time and keeps what `out` held.
bool readTime(Reader& r, uint32_t wire, std::string& out) {
  std::string_view bytes;
  if (!bytesOf(r, wire, bytes)) {
    return false;
  }
  bool has_seconds = false;
  uint64_t seconds = 0;
  const bool ok = eachField(bytes, [&](Reader& t, uint32_t number, uint32_t tw) {
    if (number == 1 && tw == kVarint) {
      has_seconds = t.varint(seconds);
      return has_seconds;
    }
    return t.skip(tw);
  });
  if (!ok) {
    return false;
  }
  if (bytes.empty()) {
    return true;
  }
  return protobuf_wire::formatTime(has_seconds ? static_cast<int64_t>(seconds) : 0, out);
}

bool readStringMap(Reader& r, uint32_t wire, StringMap& out) {
  std::string_view bytes;
  std::string key;
  std::string value;
  if (!bytesOf(r, wire, bytes) || !protobuf_wire::readMapEntry(bytes, false, key, value)) {
    return false;
  }
  out.insert_or_assign(std::move(key), std::move(value));
  return true;
}

bool readQuantityMap(Reader& r, uint32_t wire, ResourceList& out) {
  std::string_view bytes;
  std::string key;
  std::string value;
  if (!bytesOf(r, wire, bytes) || !protobuf_wire::readMapEntry(bytes, true, key, value)) {
    return false;
  }
  // As the JSON path reads a quantity: surrounding whitespace trimmed first.
  std::string_view text = value;
  const size_t first = text.find_first_not_of(" \t\r\n");
  text = first == std::string_view::npos
             ? std::string_view()
             : text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  auto q = Quantity::parse(text);
  if (!q.ok()) {
    return false;
  }
  out.insert_or_assign(std::move(key), std::move(q).value());
  return true;
}

// A message the model keeps as raw JSON, merged into `out`.
bool readJsonMessage(Reader& r, uint32_t wire, JsonSchema schema, Json& out) {
  std::string_view bytes;
  return bytesOf(r, wire, bytes) && protobuf_wire::decodeMessageAsJson(bytes, schema, out).isOk();
}

// One more element of a repeated message the model keeps as a raw JSON array.
bool appendJsonMessage(Reader& r, uint32_t wire, JsonSchema schema, Json& array) {
  std::string_view bytes;
  Json item = Json::object();
  if (!bytesOf(r, wire, bytes) || !protobuf_wire::decodeMessageAsJson(bytes, schema, item).isOk()) {
    return false;
  }
  array.push_back(std::move(item));
  return true;
}

// Each message decodes into `out`, merging with what an earlier occurrence put there.
bool decode(std::string_view data, OwnerReference& out);
bool decode(std::string_view data, ObjectMeta& out);
bool decode(std::string_view data, ResourceRequirements& out);
bool decode(std::string_view data, Container& out);
bool decode(std::string_view data, Toleration& out);
bool decode(std::string_view data, NodeSelectorRequirement& out);
bool decode(std::string_view data, NodeSelectorTerm& out);
bool decode(std::string_view data, NodeSelector& out);
bool decode(std::string_view data, PreferredSchedulingTerm& out);
bool decode(std::string_view data, NodeAffinity& out);
bool decode(std::string_view data, Affinity& out);
bool decode(std::string_view data, PodSpec& out);
bool decode(std::string_view data, PodCondition& out);

template <class T>
bool readMessage(Reader& r, uint32_t wire, T& out) {
  std::string_view bytes;
  return bytesOf(r, wire, bytes) && decode(bytes, out);
}

template <class T>
bool readMessage(Reader& r, uint32_t wire, std::optional<T>& out) {
  if (!out) {
    out.emplace();
  }
  return readMessage(r, wire, *out);
}

template <class T>
bool readMessage(Reader& r, uint32_t wire, Box<T>& out) {
  if (!out) {
    out.emplace();
  }
  return readMessage(r, wire, *out);
}

template <class T>
bool appendMessage(Reader& r, uint32_t wire, std::vector<T>& out) {
  T item{};
  if (!readMessage(r, wire, item)) {
    return false;
  }
  out.push_back(std::move(item));
  return true;
}

bool decode(std::string_view data, OwnerReference& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.kind);
      case 3:
        return readString(r, wire, out.name);
      case 4:
        return readString(r, wire, out.uid);
      case 5:
        return readString(r, wire, out.apiVersion);
      case 6:
        return readScalar(r, wire, out.controller);
      case 7:
        return readScalar(r, wire, out.blockOwnerDeletion);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, ObjectMeta& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.name);
      case 2:
        return readString(r, wire, out.generateName);
      case 3:
        return readString(r, wire, out.namespace_);
      case 5:
        return readString(r, wire, out.uid);
      case 6:
        return readString(r, wire, out.resourceVersion);
      case 7:
        return readScalar(r, wire, out.generation);
      case 8:
        return readTime(r, wire, out.creationTimestamp);
      case 9:
        return readTime(r, wire, out.deletionTimestamp);
      case 10:
        return readScalar(r, wire, out.deletionGracePeriodSeconds);
      case 11:
        return readStringMap(r, wire, out.labels);
      case 12:
        return readStringMap(r, wire, out.annotations);
      case 13:
        return appendMessage(r, wire, out.ownerReferences);
      case 14:
        return appendString(r, wire, out.finalizers);
      default:  // managedFields (17) among others
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, ResourceRequirements& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readQuantityMap(r, wire, out.limits);
      case 2:
        return readQuantityMap(r, wire, out.requests);
      case 3:
        return appendJsonMessage(r, wire, JsonSchema::kResourceClaim, out.claims);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, Container& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.name);
      case 8:
        return readMessage(r, wire, out.resources);
      case 24:
        return readString(r, wire, out.restartPolicy);
      default:  // image, command, env, ports, probes, ...: not kept
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, Toleration& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.key);
      case 2:
        return readString(r, wire, out.operator_);
      case 3:
        return readString(r, wire, out.value);
      case 4:
        return readString(r, wire, out.effect);
      case 5:
        return readScalar(r, wire, out.tolerationSeconds);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, NodeSelectorRequirement& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.key);
      case 2:
        return readString(r, wire, out.operator_);
      case 3:
        return appendString(r, wire, out.values);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, NodeSelectorTerm& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return appendMessage(r, wire, out.matchExpressions);
      case 2:
        return appendMessage(r, wire, out.matchFields);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, NodeSelector& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    return number == 1 ? appendMessage(r, wire, out.nodeSelectorTerms) : r.skip(wire);
  });
}

bool decode(std::string_view data, PreferredSchedulingTerm& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readScalar(r, wire, out.weight);
      case 2:
        return readMessage(r, wire, out.preference);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, NodeAffinity& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readMessage(r, wire, out.required);
      case 2:
        return appendMessage(r, wire, out.preferred);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, Affinity& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readMessage(r, wire, out.nodeAffinity);
      case 2:
        return readJsonMessage(r, wire, JsonSchema::kPodAffinity, out.podAffinity);
      case 3:
        return readJsonMessage(r, wire, JsonSchema::kPodAffinity, out.podAntiAffinity);
      default:
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, PodSpec& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 2:
        return appendMessage(r, wire, out.containers);
      case 7:
        return readStringMap(r, wire, out.nodeSelector);
      case 10:
        return readString(r, wire, out.nodeName);
      case 11:
        return readScalar(r, wire, out.hostNetwork);
      case 18:
        return readMessage(r, wire, out.affinity);
      case 19:
        return readString(r, wire, out.schedulerName);
      case 20:
        return appendMessage(r, wire, out.initContainers);
      case 22:
        return appendMessage(r, wire, out.tolerations);
      case 24:
        return readString(r, wire, out.priorityClassName);
      case 25:
        return readScalar(r, wire, out.priority);
      case 29:
        return readString(r, wire, out.runtimeClassName);
      case 31:
        return readString(r, wire, out.preemptionPolicy);
      case 32:
        return readQuantityMap(r, wire, out.overhead);
      case 33:  // not a typed member: kept in extra, as the JSON decoder keeps it
        return appendJsonMessage(r, wire, JsonSchema::kTopologySpreadConstraint,
                                 out.extra["topologySpreadConstraints"]);
      case 40:
        return readMessage(r, wire, out.resources);
      default:  // volumes among others
        return r.skip(wire);
    }
  });
}

bool decode(std::string_view data, PodCondition& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.type);
      case 2:
        return readString(r, wire, out.status);
      case 4:
        return readTime(r, wire, out.lastTransitionTime);
      case 5:
        return readString(r, wire, out.reason);
      default:
        return r.skip(wire);
    }
  });
}

// A ContainerStatus checked as the JSON path would read it, for a cache that drops it.
bool checkContainerStatus(Reader& r, uint32_t wire) {
  std::string_view bytes;
  if (!bytesOf(r, wire, bytes)) {
    return false;
  }
  return eachField(bytes, [](Reader& s, uint32_t number, uint32_t w) {
    std::string_view text;
    uint64_t v = 0;
    switch (number) {
      case 1:  // name
      case 8:  // containerID
        return bytesOf(s, w, text);
      case 4:  // ready
      case 5:  // restartCount
        return varintOf(s, w, v);
      default:
        return s.skip(w);
    }
  });
}

bool decodeStatus(std::string_view data, PodFields fields, PodStatus& out) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    switch (number) {
      case 1:
        return readString(r, wire, out.phase);
      case 2:  // dropped at the end for a cache, but read: the JSON path refuses a bad one
        return appendMessage(r, wire, out.conditions);
      case 3:
        return readString(r, wire, out.message);
      case 4:
        return readString(r, wire, out.reason);
      case 5:
        return readString(r, wire, out.hostIP);
      case 6:
        return readString(r, wire, out.podIP);
      case 7:
        return readTime(r, wire, out.startTime);
      case 8:
        return fields == PodFields::kNode
                   ? appendJsonMessage(r, wire, JsonSchema::kContainerStatus, out.containerStatuses)
                   : checkContainerStatus(r, wire);
      case 9:
        return readString(r, wire, out.qosClass);
      case 11:
        return readString(r, wire, out.nominatedNodeName);
      default:
        return r.skip(wire);
    }
  });
}

bool decodePod(std::string_view data, PodFields fields, Pod& out) {
  const bool ok = eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    std::string_view bytes;
    switch (number) {
      case 1:
        return readMessage(r, wire, out.metadata);
      case 2:
        return readMessage(r, wire, out.spec);
      case 3:
        return bytesOf(r, wire, bytes) && decodeStatus(bytes, fields, out.status);
      default:
        return r.skip(wire);
    }
  });
  if (!ok) {
    return false;
  }
  out.metadata.annotations.erase(std::string(kKubectlLastApplied));
  if (fields == PodFields::kCache) {
    out.status.conditions = {};
  }
  return true;
}

Result<Pod> decodeThroughJson(std::string_view envelope, PodFields fields) {
  KOORD_ASSIGN_OR_RETURN(Json object, decodeProtobufObject(envelope));
  return fields == PodFields::kCache ? decodePodForCache(std::move(object))
                                     : decodePodForNode(std::move(object));
}

Result<Pod> decodeEnvelope(std::string_view envelope, PodFields fields) {
  if (auto pod = decodeProtobufPodDirect(envelope, fields)) {
    return std::move(*pod);
  }
  return decodeThroughJson(envelope, fields);
}

}  // namespace

std::optional<Pod> decodeProtobufPodDirect(std::string_view envelope, PodFields fields) {
  protobuf_wire::Envelope read;
  if (!envelope.starts_with(protobuf_wire::kEnvelopeMagic) ||
      !protobuf_wire::readEnvelope(envelope.substr(protobuf_wire::kEnvelopeMagic.size()), read) ||
      !read.encoding.empty() || read.kind != "Pod" || read.api_version != "v1") {
    return std::nullopt;
  }
  Pod pod;
  pod.apiVersion = std::move(read.api_version);
  pod.kind = std::move(read.kind);
  if (!decodePod(read.raw, fields, pod)) {
    return std::nullopt;
  }
  return pod;
}

Result<Pod> decodeProtobufPodForCache(std::string_view envelope) {
  return decodeEnvelope(envelope, PodFields::kCache);
}

Result<Pod> decodeProtobufPodForNode(std::string_view envelope) {
  return decodeEnvelope(envelope, PodFields::kNode);
}

}  // namespace koord::k8s
