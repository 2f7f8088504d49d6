// PodGroup (scheduling.sigs.k8s.io/v1alpha1, namespaced): a gang. Pods join it with the label
// pod-group.scheduling.sigs.k8s.io: <name>. The phase is kept as a string.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/sigs/register.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::sigs {

inline constexpr std::string_view kPodGroupKind = "PodGroup";
inline constexpr std::string_view kPodGroupListKind = "PodGroupList";
inline constexpr std::string_view kPodGroupPlural = "podgroups";

inline constexpr std::string_view kPodGroupPending = "Pending";
inline constexpr std::string_view kPodGroupPreScheduling = "PreScheduling";
inline constexpr std::string_view kPodGroupScheduling = "Scheduling";
inline constexpr std::string_view kPodGroupScheduled = "Scheduled";
inline constexpr std::string_view kPodGroupRunning = "Running";
inline constexpr std::string_view kPodGroupUnknown = "Unknown";
inline constexpr std::string_view kPodGroupFinished = "Finished";
inline constexpr std::string_view kPodGroupFailed = "Failed";

struct PodGroupSpec {
  int32_t minMember = 0;  // omitted when 0
  resource::ResourceList minResources;
  std::optional<int32_t> scheduleTimeoutSeconds;
  Json extra;

  bool operator==(const PodGroupSpec&) const = default;
};

struct PodGroupStatus {
  std::string phase;
  std::string occupiedBy;
  int32_t scheduled = 0;  // the counters are omitted when 0
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  std::string scheduleStartTime;  // RFC 3339
  Json extra;

  bool operator==(const PodGroupStatus&) const = default;
};

struct PodGroup {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  PodGroupSpec spec;
  PodGroupStatus status;
  Json extra;

  bool operator==(const PodGroup&) const = default;
};

using PodGroupList = core::List<PodGroup>;

Status fromJson(const Json& j, PodGroupSpec& out, const std::string& path);
Status fromJson(const Json& j, PodGroupStatus& out, const std::string& path);
Status fromJson(const Json& j, PodGroup& out, const std::string& path);
Json toJson(const PodGroupSpec& v);
Json toJson(const PodGroupStatus& v);
Json toJson(const PodGroup& v);

}  // namespace koord::api::sigs
