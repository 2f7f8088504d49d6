// PodMigrationJob (scheduling.koordinator.sh/v1alpha1, cluster-scoped, shortName pmj): moves one
// pod, by reserving first or by evicting directly. Mode, phase, condition types and reasons are
// kept as strings (the controller tolerates unknown ones); the constants below spell them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/api/scheduling/register.hpp"
#include "koord/api/scheduling/reservation.hpp"

namespace koord::api::scheduling {

inline constexpr std::string_view kPodMigrationJobKind = "PodMigrationJob";
inline constexpr std::string_view kPodMigrationJobListKind = "PodMigrationJobList";
inline constexpr std::string_view kPodMigrationJobPlural = "podmigrationjobs";
inline constexpr std::string_view kPodMigrationJobShortName = "pmj";

inline constexpr std::string_view kPodMigrationJobModeReservationFirst = "ReservationFirst";
inline constexpr std::string_view kPodMigrationJobModeEvictDirectly = "EvictDirectly";

inline constexpr std::string_view kPodMigrationJobPending = "Pending";
inline constexpr std::string_view kPodMigrationJobRunning = "Running";
inline constexpr std::string_view kPodMigrationJobSucceeded = "Succeeded";
inline constexpr std::string_view kPodMigrationJobFailed = "Failed";
inline constexpr std::string_view kPodMigrationJobAborted = "Aborted";

inline constexpr std::string_view kPodMigrationJobConditionReservationCreated =
    "ReservationCreated";
inline constexpr std::string_view kPodMigrationJobConditionReservationScheduled =
    "ReservationScheduled";
inline constexpr std::string_view kPodMigrationJobConditionPreemption = "Preemption";
inline constexpr std::string_view kPodMigrationJobConditionEviction = "Eviction";
inline constexpr std::string_view kPodMigrationJobConditionPodScheduled = "PodScheduled";
inline constexpr std::string_view kPodMigrationJobConditionPodBoundReservation =
    "PodBoundReservation";
inline constexpr std::string_view kPodMigrationJobConditionBoundPodReady = "BoundPodReady";
inline constexpr std::string_view kPodMigrationJobConditionReservationBound = "ReservationBound";

inline constexpr std::string_view kPodMigrationJobReasonTimeout = "Timeout";
inline constexpr std::string_view kPodMigrationJobReasonFailedCreateReservation =
    "FailedCreateReservation";
inline constexpr std::string_view kPodMigrationJobReasonReservationExpired = "ReservationExpired";
inline constexpr std::string_view kPodMigrationJobReasonUnschedulable = "Unschedulable";
inline constexpr std::string_view kPodMigrationJobReasonForbiddenMigratePod = "ForbiddenMigratePod";
inline constexpr std::string_view kPodMigrationJobReasonMissingPod = "MissingPod";
inline constexpr std::string_view kPodMigrationJobReasonMissingReservation = "MissingReservation";
inline constexpr std::string_view kPodMigrationJobReasonPreempting = "Preempting";
inline constexpr std::string_view kPodMigrationJobReasonPreemptComplete = "PreemptComplete";
inline constexpr std::string_view kPodMigrationJobReasonEvicting = "Evicting";
inline constexpr std::string_view kPodMigrationJobReasonFailedEvict = "FailedEvict";
inline constexpr std::string_view kPodMigrationJobReasonEvictComplete = "EvictComplete";
inline constexpr std::string_view kPodMigrationJobReasonWaitForPodBindReservation =
    "WaitForPodBindReservation";
inline constexpr std::string_view kPodMigrationJobReasonWaitForBoundPodReady =
    "WaitForBoundPodReady";
inline constexpr std::string_view kPodMigrationJobReasonInvalidPodRef = "InvalidPodRef";

// The Reservation a job creates when no reservationRef is given.
struct ReservationTemplateSpec {
  core::ObjectMeta metadata;
  ReservationSpec spec;
  Json extra;

  bool operator==(const ReservationTemplateSpec&) const = default;
};

struct PodMigrateReservationOptions {
  std::optional<core::ObjectReference> reservationRef;
  std::optional<ReservationTemplateSpec> template_;  // JSON "template"
  // An empty object today; its presence enables preemption.
  std::optional<Json> preemptionOptions;
  Json extra;

  bool operator==(const PodMigrateReservationOptions&) const = default;
};

struct PodMigrationJobSpec {
  bool paused = false;
  std::optional<std::string> ttl;               // Go duration text
  std::string mode;                             // "" reads as ReservationFirst
  std::optional<core::ObjectReference> podRef;  // required: decoding fails without it
  std::optional<PodMigrateReservationOptions> reservationOptions;
  std::optional<core::DeleteOptions> deleteOptions;
  Json extra;

  bool operator==(const PodMigrationJobSpec&) const = default;
};

struct PodMigrationJobCondition {
  std::string type;
  std::string status;  // True, False, Unknown
  std::string lastProbeTime;
  std::string lastTransitionTime;
  std::string reason;
  std::string message;
  Json extra;

  bool operator==(const PodMigrationJobCondition&) const = default;
};

struct PodMigrationJobPreemptedReservation {
  std::string namespace_;  // JSON "namespace"
  std::string name;
  std::string nodeName;
  std::string phase;
  std::optional<core::ObjectReference> preemptedPodRef;
  std::vector<core::ObjectReference> podsRef;
  Json extra;

  bool operator==(const PodMigrationJobPreemptedReservation&) const = default;
};

struct PodMigrationJobStatus {
  std::string phase;
  std::string status;
  std::string reason;
  std::string message;
  std::vector<PodMigrationJobCondition> conditions;
  std::string nodeName;
  std::optional<core::ObjectReference> podRef;  // the new pod
  std::vector<core::ObjectReference> preemptedPodsRef;
  // JSON "preemptedPodsReservation".
  std::vector<PodMigrationJobPreemptedReservation> preemptedPodsReservation;
  Json extra;

  bool operator==(const PodMigrationJobStatus&) const = default;
};

struct PodMigrationJob {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  PodMigrationJobSpec spec;
  PodMigrationJobStatus status;
  Json extra;

  bool operator==(const PodMigrationJob&) const = default;
};

using PodMigrationJobList = core::List<PodMigrationJob>;

Status fromJson(const Json& j, ReservationTemplateSpec& out, const std::string& path);
Status fromJson(const Json& j, PodMigrateReservationOptions& out, const std::string& path);
Status fromJson(const Json& j, PodMigrationJobSpec& out, const std::string& path);
Status fromJson(const Json& j, PodMigrationJobCondition& out, const std::string& path);
Status fromJson(const Json& j, PodMigrationJobPreemptedReservation& out, const std::string& path);
Status fromJson(const Json& j, PodMigrationJobStatus& out, const std::string& path);
Status fromJson(const Json& j, PodMigrationJob& out, const std::string& path);
Json toJson(const ReservationTemplateSpec& v);
Json toJson(const PodMigrateReservationOptions& v);
Json toJson(const PodMigrationJobSpec& v);
Json toJson(const PodMigrationJobCondition& v);
Json toJson(const PodMigrationJobPreemptedReservation& v);
Json toJson(const PodMigrationJobStatus& v);
Json toJson(const PodMigrationJob& v);

}  // namespace koord::api::scheduling
