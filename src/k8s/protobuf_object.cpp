#include "koord/k8s/protobuf_object.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "protobuf_wire.hpp"

namespace koord::k8s {
namespace {

using api::Json;
using protobuf_wire::forEachBytesField;
using protobuf_wire::formatTime;
using protobuf_wire::jsonString;
using protobuf_wire::kLength;
using protobuf_wire::kVarint;
using protobuf_wire::Reader;

// ---- The schemas: field number -> JSON name and shape (k8s.io/api generated.proto) ----

enum class Kind {
  kString,       // string; left out when empty
  kInt,          // int32/int64 varint, written as a number
  kBool,         // varint 0/1
  kTime,         // meta/v1 Time {seconds = 1}: RFC 3339 in UTC; an empty message is no time
  kMessage,      // a nested message (FieldSpec::message)
  kStrings,      // repeated string
  kMessages,     // repeated message
  kStringMap,    // map<string, string>
  kQuantityMap,  // map<string, resource.Quantity {string = 1}>
};

struct MessageSpec;

struct FieldSpec {
  uint32_t number;
  std::string_view json;
  Kind kind;
  const MessageSpec* message = nullptr;
};

struct MessageSpec {
  std::span<const FieldSpec> fields;
};

constexpr std::array kNameOnly{FieldSpec{1, "name", Kind::kString},
                               FieldSpec{2, "request", Kind::kString}};
constexpr MessageSpec kResourceClaim{kNameOnly};

constexpr std::array kResourceRequirementsFields{
    FieldSpec{1, "limits", Kind::kQuantityMap}, FieldSpec{2, "requests", Kind::kQuantityMap},
    FieldSpec{3, "claims", Kind::kMessages, &kResourceClaim}};
constexpr MessageSpec kResourceRequirements{kResourceRequirementsFields};

constexpr std::array kContainerFields{
    FieldSpec{1, "name", Kind::kString},
    FieldSpec{8, "resources", Kind::kMessage, &kResourceRequirements},
    FieldSpec{24, "restartPolicy", Kind::kString}};
constexpr MessageSpec kContainer{kContainerFields};

// NodeSelectorRequirement and LabelSelectorRequirement have the same fields.
constexpr std::array kRequirementFields{FieldSpec{1, "key", Kind::kString},
                                        FieldSpec{2, "operator", Kind::kString},
                                        FieldSpec{3, "values", Kind::kStrings}};
constexpr MessageSpec kRequirement{kRequirementFields};

constexpr std::array kNodeSelectorTermFields{
    FieldSpec{1, "matchExpressions", Kind::kMessages, &kRequirement},
    FieldSpec{2, "matchFields", Kind::kMessages, &kRequirement}};
constexpr MessageSpec kNodeSelectorTerm{kNodeSelectorTermFields};

constexpr std::array kNodeSelectorFields{
    FieldSpec{1, "nodeSelectorTerms", Kind::kMessages, &kNodeSelectorTerm}};
constexpr MessageSpec kNodeSelector{kNodeSelectorFields};

constexpr std::array kPreferredSchedulingTermFields{
    FieldSpec{1, "weight", Kind::kInt},
    FieldSpec{2, "preference", Kind::kMessage, &kNodeSelectorTerm}};
constexpr MessageSpec kPreferredSchedulingTerm{kPreferredSchedulingTermFields};

constexpr std::array kNodeAffinityFields{
    FieldSpec{1, "requiredDuringSchedulingIgnoredDuringExecution", Kind::kMessage, &kNodeSelector},
    FieldSpec{2, "preferredDuringSchedulingIgnoredDuringExecution", Kind::kMessages,
              &kPreferredSchedulingTerm}};
constexpr MessageSpec kNodeAffinity{kNodeAffinityFields};

constexpr std::array kLabelSelectorFields{
    FieldSpec{1, "matchLabels", Kind::kStringMap},
    FieldSpec{2, "matchExpressions", Kind::kMessages, &kRequirement}};
constexpr MessageSpec kLabelSelector{kLabelSelectorFields};

constexpr std::array kPodAffinityTermFields{
    FieldSpec{1, "labelSelector", Kind::kMessage, &kLabelSelector},
    FieldSpec{2, "namespaces", Kind::kStrings},
    FieldSpec{3, "topologyKey", Kind::kString},
    FieldSpec{4, "namespaceSelector", Kind::kMessage, &kLabelSelector},
    FieldSpec{5, "matchLabelKeys", Kind::kStrings},
    FieldSpec{6, "mismatchLabelKeys", Kind::kStrings}};
constexpr MessageSpec kPodAffinityTerm{kPodAffinityTermFields};

constexpr std::array kWeightedPodAffinityTermFields{
    FieldSpec{1, "weight", Kind::kInt},
    FieldSpec{2, "podAffinityTerm", Kind::kMessage, &kPodAffinityTerm}};
constexpr MessageSpec kWeightedPodAffinityTerm{kWeightedPodAffinityTermFields};

// PodAffinity and PodAntiAffinity have the same fields.
constexpr std::array kPodAffinityFields{
    FieldSpec{1, "requiredDuringSchedulingIgnoredDuringExecution", Kind::kMessages,
              &kPodAffinityTerm},
    FieldSpec{2, "preferredDuringSchedulingIgnoredDuringExecution", Kind::kMessages,
              &kWeightedPodAffinityTerm}};
constexpr MessageSpec kPodAffinity{kPodAffinityFields};

constexpr std::array kAffinityFields{
    FieldSpec{1, "nodeAffinity", Kind::kMessage, &kNodeAffinity},
    FieldSpec{2, "podAffinity", Kind::kMessage, &kPodAffinity},
    FieldSpec{3, "podAntiAffinity", Kind::kMessage, &kPodAffinity}};
constexpr MessageSpec kAffinity{kAffinityFields};

constexpr std::array kTolerationFields{
    FieldSpec{1, "key", Kind::kString}, FieldSpec{2, "operator", Kind::kString},
    FieldSpec{3, "value", Kind::kString}, FieldSpec{4, "effect", Kind::kString},
    FieldSpec{5, "tolerationSeconds", Kind::kInt}};
constexpr MessageSpec kToleration{kTolerationFields};

constexpr std::array kTopologySpreadConstraintFields{
    FieldSpec{1, "maxSkew", Kind::kInt},
    FieldSpec{2, "topologyKey", Kind::kString},
    FieldSpec{3, "whenUnsatisfiable", Kind::kString},
    FieldSpec{4, "labelSelector", Kind::kMessage, &kLabelSelector},
    FieldSpec{5, "minDomains", Kind::kInt},
    FieldSpec{6, "nodeAffinityPolicy", Kind::kString},
    FieldSpec{7, "nodeTaintsPolicy", Kind::kString},
    FieldSpec{8, "matchLabelKeys", Kind::kStrings}};
constexpr MessageSpec kTopologySpreadConstraint{kTopologySpreadConstraintFields};

constexpr std::array kPodSpecFields{
    FieldSpec{2, "containers", Kind::kMessages, &kContainer},
    FieldSpec{7, "nodeSelector", Kind::kStringMap},
    FieldSpec{10, "nodeName", Kind::kString},
    FieldSpec{11, "hostNetwork", Kind::kBool},
    FieldSpec{18, "affinity", Kind::kMessage, &kAffinity},
    FieldSpec{19, "schedulerName", Kind::kString},
    FieldSpec{20, "initContainers", Kind::kMessages, &kContainer},
    FieldSpec{22, "tolerations", Kind::kMessages, &kToleration},
    FieldSpec{24, "priorityClassName", Kind::kString},
    FieldSpec{25, "priority", Kind::kInt},
    FieldSpec{29, "runtimeClassName", Kind::kString},
    FieldSpec{31, "preemptionPolicy", Kind::kString},
    FieldSpec{32, "overhead", Kind::kQuantityMap},
    FieldSpec{33, "topologySpreadConstraints", Kind::kMessages, &kTopologySpreadConstraint},
    FieldSpec{40, "resources", Kind::kMessage, &kResourceRequirements}};
constexpr MessageSpec kPodSpec{kPodSpecFields};

constexpr std::array kPodConditionFields{
    FieldSpec{1, "type", Kind::kString}, FieldSpec{2, "status", Kind::kString},
    FieldSpec{4, "lastTransitionTime", Kind::kTime}, FieldSpec{5, "reason", Kind::kString}};
constexpr MessageSpec kPodCondition{kPodConditionFields};

constexpr std::array kContainerStatusFields{
    FieldSpec{1, "name", Kind::kString}, FieldSpec{4, "ready", Kind::kBool},
    FieldSpec{5, "restartCount", Kind::kInt}, FieldSpec{8, "containerID", Kind::kString}};
constexpr MessageSpec kContainerStatus{kContainerStatusFields};

constexpr std::array kPodStatusFields{
    FieldSpec{1, "phase", Kind::kString},
    FieldSpec{2, "conditions", Kind::kMessages, &kPodCondition},
    FieldSpec{3, "message", Kind::kString},
    FieldSpec{4, "reason", Kind::kString},
    FieldSpec{5, "hostIP", Kind::kString},
    FieldSpec{6, "podIP", Kind::kString},
    FieldSpec{7, "startTime", Kind::kTime},
    FieldSpec{8, "containerStatuses", Kind::kMessages, &kContainerStatus},
    FieldSpec{9, "qosClass", Kind::kString},
    FieldSpec{11, "nominatedNodeName", Kind::kString}};
constexpr MessageSpec kPodStatus{kPodStatusFields};

constexpr std::array kOwnerReferenceFields{
    FieldSpec{1, "kind", Kind::kString},     FieldSpec{3, "name", Kind::kString},
    FieldSpec{4, "uid", Kind::kString},      FieldSpec{5, "apiVersion", Kind::kString},
    FieldSpec{6, "controller", Kind::kBool}, FieldSpec{7, "blockOwnerDeletion", Kind::kBool}};
constexpr MessageSpec kOwnerReference{kOwnerReferenceFields};

constexpr std::array kObjectMetaFields{
    FieldSpec{1, "name", Kind::kString},
    FieldSpec{2, "generateName", Kind::kString},
    FieldSpec{3, "namespace", Kind::kString},
    FieldSpec{5, "uid", Kind::kString},
    FieldSpec{6, "resourceVersion", Kind::kString},
    FieldSpec{7, "generation", Kind::kInt},
    FieldSpec{8, "creationTimestamp", Kind::kTime},
    FieldSpec{9, "deletionTimestamp", Kind::kTime},
    FieldSpec{10, "deletionGracePeriodSeconds", Kind::kInt},
    FieldSpec{11, "labels", Kind::kStringMap},
    FieldSpec{12, "annotations", Kind::kStringMap},
    FieldSpec{13, "ownerReferences", Kind::kMessages, &kOwnerReference},
    FieldSpec{14, "finalizers", Kind::kStrings}};
constexpr MessageSpec kObjectMeta{kObjectMetaFields};

constexpr std::array kPodFields{FieldSpec{1, "metadata", Kind::kMessage, &kObjectMeta},
                                FieldSpec{2, "spec", Kind::kMessage, &kPodSpec},
                                FieldSpec{3, "status", Kind::kMessage, &kPodStatus}};
constexpr MessageSpec kPod{kPodFields};

constexpr std::array kStatusDetailsFields{
    FieldSpec{1, "name", Kind::kString}, FieldSpec{2, "group", Kind::kString},
    FieldSpec{3, "kind", Kind::kString}, FieldSpec{5, "retryAfterSeconds", Kind::kInt},
    FieldSpec{6, "uid", Kind::kString}};
constexpr MessageSpec kStatusDetails{kStatusDetailsFields};

constexpr std::array kStatusFields{
    FieldSpec{2, "status", Kind::kString}, FieldSpec{3, "message", Kind::kString},
    FieldSpec{4, "reason", Kind::kString}, FieldSpec{5, "details", Kind::kMessage, &kStatusDetails},
    FieldSpec{6, "code", Kind::kInt}};
constexpr MessageSpec kStatus{kStatusFields};

// ---- Decoding ----

const FieldSpec* findField(const MessageSpec& spec, uint32_t number) {
  for (const FieldSpec& f : spec.fields) {
    if (f.number == number) {
      return &f;
    }
  }
  return nullptr;
}

Status malformed(std::string_view what) {
  return Status::invalidArgument("malformed protobuf object: " + std::string(what));
}

Status decodeMessage(std::string_view data, const MessageSpec& spec, Json& out);

// One map<string, V> entry {key = 1, value = 2}; for a Quantity value, its string = 1.
Status decodeMapEntry(std::string_view data, bool quantity, Json& map) {
  std::string key;
  std::string value;
  const bool ok = protobuf_wire::readMapEntry(data, quantity, key, value);
  if (!ok) {
    return malformed("a map entry");
  }
  if (!map.is_object()) {
    map = Json::object();
  }
  map[key] = std::move(value);
  return Status::ok();
}

Status decodeField(Reader& r, const FieldSpec& f, uint32_t wire, Json& out) {
  const std::string key(f.json);
  if (f.kind == Kind::kInt || f.kind == Kind::kBool) {
    uint64_t v = 0;
    if (wire != kVarint || !r.varint(v)) {
      return malformed(key + " is not a varint");
    }
    if (f.kind == Kind::kBool) {
      out[key] = v != 0;
    } else {
      out[key] = static_cast<int64_t>(v);  // int32 negatives arrive sign-extended to 64 bits
    }
    return Status::ok();
  }
  std::string_view bytes;
  if (wire != kLength || !r.bytes(bytes)) {
    return malformed(key + " is not length-delimited");
  }
  switch (f.kind) {
    case Kind::kString:
      if (!bytes.empty()) {
        out[key] = jsonString(bytes);
      }
      return Status::ok();
    case Kind::kStrings:
      out[key].push_back(jsonString(bytes));
      return Status::ok();
    case Kind::kTime: {
      Reader t(bytes);
      uint32_t number = 0;
      uint32_t tw = 0;
      bool has_seconds = false;
      uint64_t seconds = 0;
      while (t.next(number, tw)) {
        if (number == 1 && tw == kVarint) {
          has_seconds = t.varint(seconds);
        } else if (!t.skip(tw)) {
          break;
        }
      }
      if (!t.ok()) {
        return malformed(key);
      }
      if (bytes.empty()) {
        return Status::ok();  // a zero time: JSON's null, which koord reads as absent
      }
      std::string text;
      if (!formatTime(has_seconds ? static_cast<int64_t>(seconds) : 0, text)) {
        return malformed(key + " is out of range");
      }
      out[key] = std::move(text);
      return Status::ok();
    }
    case Kind::kMessage: {
      Json& child = out[key];
      if (!child.is_object()) {
        child = Json::object();
      }
      return decodeMessage(bytes, *f.message, child);
    }
    case Kind::kMessages: {
      Json child = Json::object();
      if (Status s = decodeMessage(bytes, *f.message, child); !s.isOk()) {
        return s;
      }
      out[key].push_back(std::move(child));
      return Status::ok();
    }
    case Kind::kStringMap:
    case Kind::kQuantityMap:
      return decodeMapEntry(bytes, f.kind == Kind::kQuantityMap, out[key]);
    case Kind::kInt:
    case Kind::kBool:
      break;
  }
  return Status::ok();
}

Status decodeMessage(std::string_view data, const MessageSpec& spec, Json& out) {
  Reader r(data);
  uint32_t number = 0;
  uint32_t wire = 0;
  while (r.next(number, wire)) {
    const FieldSpec* f = findField(spec, number);
    if (f == nullptr) {
      if (!r.skip(wire)) {
        break;
      }
      continue;
    }
    if (Status s = decodeField(r, *f, wire, out); !s.isOk()) {
      return s;
    }
  }
  return r.ok() ? Status::ok() : malformed("a truncated or invalid field");
}

}  // namespace

Result<Json> decodeProtobufObject(std::string_view envelope) {
  if (!envelope.starts_with(protobuf_wire::kEnvelopeMagic)) {
    return Status::invalidArgument("not a Kubernetes protobuf object: no \"k8s\\0\" prefix");
  }
  protobuf_wire::Envelope read;
  if (!protobuf_wire::readEnvelope(envelope.substr(protobuf_wire::kEnvelopeMagic.size()), read)) {
    return malformed("the envelope");
  }
  if (!read.encoding.empty()) {
    return Status::invalidArgument("protobuf object with content encoding '" + read.encoding +
                                   "': not supported");
  }
  const std::string& api_version = read.api_version;
  const std::string& kind = read.kind;
  const std::string_view raw = read.raw;
  const MessageSpec* spec = nullptr;
  if (kind == "Pod" && api_version == "v1") {
    spec = &kPod;
  } else if (kind == "Status" && api_version == "v1") {
    spec = &kStatus;
  } else {
    return Status::invalidArgument("no protobuf schema for '" + api_version + "' kind '" + kind +
                                   "'");
  }
  Json out = Json::object();
  out["apiVersion"] = api_version;
  out["kind"] = kind;
  if (Status s = decodeMessage(raw, *spec, out); !s.isOk()) {
    return s.withPrefix(kind);
  }
  return out;
}

Result<std::string> protobufObjectResourceVersion(std::string_view envelope) {
  if (!envelope.starts_with(protobuf_wire::kEnvelopeMagic)) {
    return Status::invalidArgument("not a Kubernetes protobuf object: no \"k8s\\0\" prefix");
  }
  protobuf_wire::Envelope read;
  std::string version;
  // As decodeProtobufObject reads it: every occurrence of metadata merges, the last non-empty
  // resourceVersion wins.
  const bool ok =
      protobuf_wire::readEnvelope(envelope.substr(protobuf_wire::kEnvelopeMagic.size()), read) &&
      forEachBytesField(read.raw, [&](uint32_t number, std::string_view meta) {
        return number != 1 || forEachBytesField(meta, [&](uint32_t n, std::string_view bytes) {
                 if (n == 6 && !bytes.empty()) {
                   version = jsonString(bytes);
                 }
                 return true;
               });
      });
  if (!ok) {
    return malformed("the envelope, the object or its metadata");
  }
  return version;
}

namespace protobuf_wire {

Status decodeMessageAsJson(std::string_view message, JsonSchema schema, Json& out) {
  // In the order of JsonSchema's enumerators.
  constexpr std::array<const MessageSpec*, 4> kSchemas{
      &kResourceClaim, &kPodAffinity, &kTopologySpreadConstraint, &kContainerStatus};
  const MessageSpec* spec = kSchemas.at(static_cast<size_t>(schema));
  if (!out.is_object()) {
    out = Json::object();
  }
  return decodeMessage(message, *spec, out);
}

}  // namespace protobuf_wire
}  // namespace koord::k8s
