// Reservation (scheduling.koordinator.sh, cluster-scoped): resources reserved on a node for the
// pods its owners select. Decoding accepts both apiVersions, v1alpha1 and v1, into this one
// type and keeps the apiVersion string as sent.
//
// Besides Koordinator's `spec.template`, the spec accepts the short form `spec.resources`
// ({requests, limits}) for a one-container reservation, with `owners` optional; this short form
// is a koord extension, not part of upstream Koordinator's v1alpha1 API.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/extension/enum_codec.hpp"
#include "koord/api/scheduling/register.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::scheduling {

using extension::EnumName;

inline constexpr std::string_view kReservationKind = "Reservation";
inline constexpr std::string_view kReservationListKind = "ReservationList";
inline constexpr std::string_view kReservationPlural = "reservations";
inline constexpr std::string_view kReservationSingular = "reservation";
// The name of the container effectiveTemplate() makes from the short form.
inline constexpr std::string_view kReservationContainerName = "reservation";
inline constexpr std::string_view kReservationDefaultTTL = "24h";

// Phases, condition types and reasons (status fields; kept as strings).
inline constexpr std::string_view kReservationPending = "Pending";
inline constexpr std::string_view kReservationAvailable = "Available";
inline constexpr std::string_view kReservationSucceeded = "Succeeded";
inline constexpr std::string_view kReservationWaiting = "Waiting";
inline constexpr std::string_view kReservationFailed = "Failed";
inline constexpr std::string_view kReservationConditionScheduled = "Scheduled";
inline constexpr std::string_view kReservationConditionReady = "Ready";
inline constexpr std::string_view kReasonReservationScheduled = "Scheduled";
inline constexpr std::string_view kReasonReservationUnschedulable = "Unschedulable";
inline constexpr std::string_view kReasonReservationAvailable = "Available";
inline constexpr std::string_view kReasonReservationSucceeded = "Succeeded";
inline constexpr std::string_view kReasonReservationExpired = "Expired";

// "" is the deprecated Default policy, treated like Aligned.
enum class ReservationAllocatePolicy { kDefault, kAligned, kRestricted };
constexpr std::array<EnumName<ReservationAllocatePolicy>, 3> enumNames(ReservationAllocatePolicy) {
  return {{{ReservationAllocatePolicy::kDefault, ""},
           {ReservationAllocatePolicy::kAligned, "Aligned"},
           {ReservationAllocatePolicy::kRestricted, "Restricted"}}};
}
KOORD_API_ENUM_CODEC(ReservationAllocatePolicy)

enum class PreAllocationMode { kDefault, kCluster };
constexpr std::array<EnumName<PreAllocationMode>, 2> enumNames(PreAllocationMode) {
  return {{{PreAllocationMode::kDefault, "Default"}, {PreAllocationMode::kCluster, "Cluster"}}};
}
KOORD_API_ENUM_CODEC(PreAllocationMode)

// metav1.OwnerReference inline plus a namespace.
struct ReservationControllerReference {
  core::OwnerReference reference;
  std::string namespace_;  // JSON "namespace"

  bool operator==(const ReservationControllerReference&) const = default;
};

// Owners are ORed; the fields inside one owner are ANDed. At least one must be set.
struct ReservationOwner {
  std::optional<core::ObjectReference> object;
  std::optional<ReservationControllerReference> controller;
  std::optional<core::LabelSelector> labelSelector;
  Json extra;

  bool operator==(const ReservationOwner&) const = default;
};

struct ReservationPreAllocationPolicy {
  std::optional<PreAllocationMode> mode;
  bool enableMultiple = false;
  Json extra;

  bool operator==(const ReservationPreAllocationPolicy&) const = default;
};

// The short form: the resources of a one-container reservation.
struct ReservationResources {
  resource::ResourceList requests;
  resource::ResourceList limits;
  Json extra;

  bool operator==(const ReservationResources&) const = default;
};

struct ReservationSpec {
  std::optional<core::PodTemplateSpec> template_;  // JSON "template"
  std::optional<ReservationResources> resources;
  std::vector<ReservationOwner> owners;
  std::optional<std::string> ttl;      // Go duration text; "0s" disables expiry
  std::optional<std::string> expires;  // RFC 3339; checked before ttl
  bool preAllocation = false;
  std::optional<ReservationPreAllocationPolicy> preAllocationPolicy;
  std::optional<bool> allocateOnce;  // unset reads as true
  ReservationAllocatePolicy allocatePolicy = ReservationAllocatePolicy::kDefault;
  bool unschedulable = false;
  std::vector<core::Taint> taints;
  Json extra;

  bool operator==(const ReservationSpec&) const = default;
};

struct ReservationCondition {
  std::string type;    // Scheduled, Ready
  std::string status;  // True, False, Unknown
  std::string reason;
  std::string message;
  std::string lastProbeTime;
  std::string lastTransitionTime;
  Json extra;

  bool operator==(const ReservationCondition&) const = default;
};

struct ReservationStatus {
  std::string phase;
  std::vector<ReservationCondition> conditions;
  std::vector<core::ObjectReference> currentOwners;
  std::string nodeName;
  resource::ResourceList allocatable;
  resource::ResourceList allocated;
  Json extra;

  bool operator==(const ReservationStatus&) const = default;
};

struct Reservation {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  ReservationSpec spec;
  ReservationStatus status;
  Json extra;

  bool operator==(const Reservation&) const = default;
};

using ReservationList = core::List<Reservation>;

// The pod template the reservation reserves for: spec.template when set, otherwise the short
// form expanded to one container named "reservation" carrying spec.resources; std::nullopt
// when neither is set.
[[nodiscard]] std::optional<core::PodTemplateSpec> effectiveTemplate(const Reservation& r);

// The CRD defaults: allocateOnce = true; ttl = "24h" when neither ttl nor expires is set (the
// API server also writes ttl next to expires, where it has no effect since expires wins).
void applyReservationDefaults(Reservation& r);

// Validates the object as it stands after applyReservationDefaults (a missing ttl is fine) and
// reports every problem at once, as kInvalidArgument:
//   failed to validate Reservation '<name>': <path>: <problem>; <path>: <problem>
// Checks: exactly one of spec.template and spec.resources (with requests, none negative); owners
// required unless the short form is used; each owner sets object, controller or labelSelector;
// ttl a non-negative Go duration; expires an RFC 3339 time; ttl and expires not both (a ttl of
// "24h", the schema's default, next to expires is accepted: the API server writes it).
[[nodiscard]] Status validateReservation(const Reservation& r);

// An update: validateReservation(updated) plus the fields that may not change (template,
// resources, owners, allocateOnce, allocatePolicy, preAllocation), all reported at once as
// kInvalidArgument "failed to validate the update of Reservation '<name>': <path>: field is
// immutable; ...". What koord-manager's admission webhook applies to UPDATE.
[[nodiscard]] Status validateReservationUpdate(const Reservation& old, const Reservation& updated);

Status fromJson(const Json& j, ReservationControllerReference& out, const std::string& path);
Status fromJson(const Json& j, ReservationOwner& out, const std::string& path);
Status fromJson(const Json& j, ReservationPreAllocationPolicy& out, const std::string& path);
Status fromJson(const Json& j, ReservationResources& out, const std::string& path);
Status fromJson(const Json& j, ReservationSpec& out, const std::string& path);
Status fromJson(const Json& j, ReservationCondition& out, const std::string& path);
Status fromJson(const Json& j, ReservationStatus& out, const std::string& path);
Status fromJson(const Json& j, Reservation& out, const std::string& path);
Json toJson(const ReservationControllerReference& v);
Json toJson(const ReservationOwner& v);
Json toJson(const ReservationPreAllocationPolicy& v);
Json toJson(const ReservationResources& v);
Json toJson(const ReservationSpec& v);
Json toJson(const ReservationCondition& v);
Json toJson(const ReservationStatus& v);
Json toJson(const Reservation& v);

}  // namespace koord::api::scheduling
