// ClusterColocationProfile (config.koordinator.sh/v1alpha1, cluster-scoped): what the pod webhook
// injects into the pods a profile selects (QoS class, priority, labels, scheduler, patch).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"

namespace koord::api::config {

inline constexpr std::string_view kGroup = "config.koordinator.sh";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kGroupVersion = "config.koordinator.sh/v1alpha1";
inline constexpr std::string_view kClusterColocationProfileKind = "ClusterColocationProfile";
inline constexpr std::string_view kClusterColocationProfileListKind =
    "ClusterColocationProfileList";
inline constexpr std::string_view kClusterColocationProfilePlural = "clustercolocationprofiles";

struct ClusterColocationProfileSpec {
  std::optional<core::LabelSelector> namespaceSelector;  // unset matches every namespace
  std::optional<core::LabelSelector> selector;           // unset matches every pod
  // IntOrString: an integer percent (50) or a percentage ("50%"); raw JSON, null when absent,
  // until core offers an IntOrString model. See probabilityPercent().
  Json probability;
  // "", LSE, LSR, LS, BE or SYSTEM (the CRD enum; decoding rejects anything else).
  std::string qosClass;
  // "", koord-prod, koord-mid, koord-batch or koord-free (the CRD enum, checked the same way).
  std::string priorityClassName;
  std::optional<int32_t> koordinatorPriority;  // -> label koordinator.sh/priority
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> labelKeysMapping;       // src pod label -> dst label
  std::map<std::string, std::string> annotationKeysMapping;  // src annotation -> dst
  std::map<std::string, std::string> labelSuffixes;          // label -> suffix to append
  std::string schedulerName;
  Json patch;  // strategic-merge patch for the pod; raw, null when absent
  Json extra;

  bool operator==(const ClusterColocationProfileSpec&) const = default;
};

struct ClusterColocationProfileStatus {
  Json extra;

  bool operator==(const ClusterColocationProfileStatus&) const = default;
};

struct ClusterColocationProfile {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  ClusterColocationProfileSpec spec;
  ClusterColocationProfileStatus status;
  Json extra;

  bool operator==(const ClusterColocationProfile&) const = default;
};

using ClusterColocationProfileList = core::List<ClusterColocationProfile>;

// The probability in percent that the profile applies: 100 when unset, N for an integer N or
// for "N%". kInvalidArgument for any other string, or a value outside 0..100.
[[nodiscard]] Result<int32_t> probabilityPercent(const ClusterColocationProfileSpec& spec);

Status fromJson(const Json& j, ClusterColocationProfileSpec& out, const std::string& path);
Status fromJson(const Json& j, ClusterColocationProfileStatus& out, const std::string& path);
Status fromJson(const Json& j, ClusterColocationProfile& out, const std::string& path);
Json toJson(const ClusterColocationProfileSpec& v);
Json toJson(const ClusterColocationProfileStatus& v);
Json toJson(const ClusterColocationProfile& v);

}  // namespace koord::api::config
