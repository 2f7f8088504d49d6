// What the pod lifecycle plugins read off a pod: which namespaces and labels a plugin looks at
// (the community's podutil.Options filter), the container statuses kept raw in PodStatus,
// ages measured from RFC 3339 timestamps, and owner kinds.
//
// Contract: pure functions of their arguments; thread-safe. A status entry that is not an object
// is skipped; a missing field reads as Go's zero value.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/args_decode.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

// The namespace and label part of a plugin's pod filter. A pod matches when its namespace is in
// `include` (when set), not in `exclude`, and its labels match the selector (when set).
class PodScope {
 public:
  // kInvalidArgument when the selector is invalid (validation catches that first).
  [[nodiscard]] static Result<PodScope> create(
      const std::optional<Namespaces>& namespaces,
      const std::optional<api::core::LabelSelector>& selector);
  [[nodiscard]] bool matches(const api::core::Pod& pod) const;

 private:
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
  std::optional<api::core::LabelSelector> selector_;
};

// One entry of status.containerStatuses / initContainerStatuses / ephemeralContainerStatuses.
struct ContainerStatusFacts {
  bool waiting = false;  // state.waiting is set
  std::string waiting_reason;
  bool terminated = false;  // state.terminated is set
  std::string terminated_reason;
  int32_t exit_code = 0;
  int32_t restart_count = 0;
};

enum class ContainerKind { kRegular, kInit, kEphemeral };

[[nodiscard]] std::vector<ContainerStatusFacts> containerStatuses(const api::core::Pod& pod,
                                                                  ContainerKind kind);

// Whether some status is waiting, or (for the second) terminated, with a reason in `states`
// (podutil.HasMatchingContainerWaitingState / HasMatchingContainerTerminatedState).
[[nodiscard]] bool hasWaitingReasonIn(const std::vector<ContainerStatusFacts>& statuses,
                                      const std::vector<std::string>& states);
[[nodiscard]] bool hasTerminatedReasonIn(const std::vector<ContainerStatusFacts>& statuses,
                                         const std::vector<std::string>& states);

[[nodiscard]] bool contains(const std::vector<std::string>& items, std::string_view item);

// now - timestamp, as Go's time.Time.Sub computes it: saturated at the int64 nanosecond range.
// An empty or unreadable timestamp is Go's zero time (year 1), so the result saturates high.
[[nodiscard]] std::chrono::nanoseconds elapsedSince(const std::string& timestamp,
                                                    std::chrono::system_clock::time_point now);

// Go's uint(d.Seconds()) on amd64: whole seconds truncated toward zero, a negative count wrapping
// to a huge value (CVTTSD2SQ then reinterpretation), which the community code relies on.
[[nodiscard]] uint64_t goUintSeconds(std::chrono::nanoseconds d);

// creationTimestamp as a time point for ordering; an empty or unreadable one sorts first (Go's
// zero time).
[[nodiscard]] std::chrono::system_clock::time_point creationTime(const api::core::Pod& pod);

}  // namespace koord::manager::descheduler::pod_lifecycle
