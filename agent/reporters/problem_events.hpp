// Problems koord-agent finds in what others wrote (a pod's resource-status cpuset, the NodeMetric's
// collect policy), told to the object's owner as Warning Events, once.
//
// The reporters find the same problems again on every loop; ProblemEvents turns each round of
// problems into Events for the problems that were not in the previous round of the same source,
// so an unchanged bad object gets one Event (and one log line), not one every loop. A problem that
// goes away and comes back is emitted again. Memory is bounded by the last round of each source.
//
// Thread-compatible: one caller (the daemon's loop).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::reporters {

// Event reasons.
inline constexpr std::string_view kReasonInvalidCPUSet = "InvalidCPUSet";
inline constexpr std::string_view kReasonInvalidMetricCollectPolicy = "InvalidMetricCollectPolicy";

// One problem in one object: Warning <reason> <message> on <object>.
struct ObjectProblem {
  api::core::ObjectReference object;  // kind, apiVersion, namespace (pods), name, uid
  std::string reason;                 // "InvalidCPUSet", "InvalidMetricCollectPolicy", ...
  std::string message;                // what is wrong and what the agent did instead

  bool operator==(const ObjectProblem&) const = default;
};

// The reference of a Pod or a cluster-scoped object for an Event.
[[nodiscard]] api::core::ObjectReference objectReference(std::string kind, std::string api_version,
                                                         const api::core::ObjectMeta& meta);

class ProblemEvents {
 public:
  // Where an Event goes (EventRecorder::event in the daemon, a recording fake in tests).
  using Sink = std::function<void(const api::core::ObjectReference&, k8s::EventType,
                                  std::string reason, std::string message)>;

  ProblemEvents(Sink sink, log::Logger logger)
      : sink_(std::move(sink)), logger_(std::move(logger)) {}

  // The problems `source` finds in this round. Emits (and logs) those not in its previous round;
  // returns how many.
  size_t report(std::string_view source, const std::vector<ObjectProblem>& problems);

 private:
  Sink sink_;
  log::Logger logger_;
  std::map<std::string, std::set<std::string>, std::less<>> last_;  // source -> problem keys
};

}  // namespace koord::agent::reporters
