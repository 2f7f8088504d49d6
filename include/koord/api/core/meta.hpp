// meta/v1 models shared by every object: ObjectMeta, ListMeta, owner and object references, label
// selectors and conditions.
//
// Conventions for every model in koord::api::core (see koord/api/codec.hpp):
// - Members carry the JSON names (`namespace_` and `operator_` for the C++ keywords); keys the
// model
//   does not know are kept in `extra` and written back on encode.
// - Go pointers are std::optional; Go strings and numbers with `omitempty` are plain values omitted
//   when empty or zero; Go structs are always written (as `{}` when empty), as encoding/json does.
// - Times (RFC 3339), MicroTimes and durations are kept as their text. A non-pointer Go time field
//   (creationTimestamp, lastTransitionTime, ...) is written as `null` when empty, as Go writes a
//   zero metav1.Time.
// - fromJson never throws; errors are kInvalidArgument and name the field path.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/fields.hpp"

namespace koord::api::core {

using StringMap = std::map<std::string, std::string>;

struct OwnerReference {
  std::string apiVersion;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> blockOwnerDeletion;
  Json extra;

  bool operator==(const OwnerReference&) const = default;
};

struct ObjectMeta {
  std::string name;
  std::string generateName;
  std::string namespace_;  // JSON "namespace"
  std::string uid;
  std::string resourceVersion;
  int64_t generation = 0;
  std::string creationTimestamp;
  std::string deletionTimestamp;
  std::optional<int64_t> deletionGracePeriodSeconds;
  StringMap labels;
  StringMap annotations;
  std::vector<OwnerReference> ownerReferences;
  std::vector<std::string> finalizers;
  // Everything else, `managedFields` and `selfLink` included.
  Json extra;

  bool operator==(const ObjectMeta&) const = default;
};

struct ListMeta {
  std::string resourceVersion;
  std::string continue_;  // JSON "continue"
  std::optional<int64_t> remainingItemCount;
  Json extra;

  bool operator==(const ListMeta&) const = default;
};

struct ObjectReference {
  std::string kind;
  std::string namespace_;  // JSON "namespace"
  std::string name;
  std::string uid;
  std::string apiVersion;
  std::string resourceVersion;
  std::string fieldPath;
  Json extra;

  bool operator==(const ObjectReference&) const = default;
};

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // JSON "operator": In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;
  Json extra;

  bool operator==(const LabelSelectorRequirement&) const = default;
};

// An empty selector selects everything; a missing one (std::nullopt where a model holds an
// optional selector) selects nothing. Matching lives in selectors.hpp.
struct LabelSelector {
  StringMap matchLabels;
  std::vector<LabelSelectorRequirement> matchExpressions;
  Json extra;

  bool operator==(const LabelSelector&) const = default;
};

// metav1.Condition.
struct Condition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  int64_t observedGeneration = 0;
  std::string lastTransitionTime;
  std::string reason;
  std::string message;
  Json extra;

  bool operator==(const Condition&) const = default;
};

Status fromJson(const Json& j, OwnerReference& out, const std::string& path);
Status fromJson(const Json& j, ObjectMeta& out, const std::string& path);
Status fromJson(const Json& j, ListMeta& out, const std::string& path);
Status fromJson(const Json& j, ObjectReference& out, const std::string& path);
Status fromJson(const Json& j, LabelSelectorRequirement& out, const std::string& path);
Status fromJson(const Json& j, LabelSelector& out, const std::string& path);
Status fromJson(const Json& j, Condition& out, const std::string& path);

Json toJson(const OwnerReference& v);
Json toJson(const ObjectMeta& v);
Json toJson(const ListMeta& v);
Json toJson(const ObjectReference& v);
Json toJson(const LabelSelectorRequirement& v);
Json toJson(const LabelSelector& v);
Json toJson(const Condition& v);

// The controller owner reference (controller: true), or nullptr.
[[nodiscard]] const OwnerReference* controllerOf(const ObjectMeta& meta);

// A list of objects (PodList, NodeList, ...): apiVersion, kind, metadata and items.
template <typename T>
struct List {
  std::string apiVersion;
  std::string kind;
  ListMeta metadata;
  std::vector<T> items;
  Json extra;

  bool operator==(const List&) const = default;
};

template <typename T>
inline constexpr auto kListFields = std::tuple{
    field("apiVersion", &List<T>::apiVersion),
    field("kind", &List<T>::kind),
    field("metadata", &List<T>::metadata).always(),
    field("items", &List<T>::items).always(),
};

template <typename T>
Status fromJson(const Json& j, List<T>& out, const std::string& path) {
  return decodeFields(j, out, path, kListFields<T>);
}

template <typename T>
Json toJson(const List<T>& v) {
  return encodeFields(v, kListFields<T>);
}

}  // namespace koord::api::core
