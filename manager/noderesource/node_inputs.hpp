// The inputs batch and mid share (koordinator-reference §3(c)), read from a Node, its pods and its
// NodeMetric: capacity, the reservations, the system usage, the degrade check, and pod
// classification. Amounts are int64: CPU in milli-cores, memory in bytes. Pure functions;
// thread-safe. Problems with an input (an annotation that does not parse, a pod whose requests do
// not add up) never fail a calculation: the input counts as absent and a note says so.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/well_known.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/noderesource/strategy.hpp"

namespace koord::manager::noderesource {

using TimePoint = std::chrono::system_clock::time_point;

// The node's pods by reference (the controller hands its informer cache's objects in without
// copying them); every pointer non-null.
using PodRefs = std::vector<const api::core::Pod*>;

// Pointers to every element of `pods`.
[[nodiscard]] PodRefs podRefs(const std::vector<api::core::Pod>& pods);

enum class Resource { kCPU, kMemory };

// "cpu" or "memory".
[[nodiscard]] std::string_view resourceName(Resource r);
// list["cpu"] in milli-cores (rounded up) or list["memory"] in bytes (rounded up); 0 when absent.
[[nodiscard]] int64_t amountOf(const resource::ResourceList& list, Resource r);
// "9200m" for CPU; for memory the Kubernetes text of the byte count ("35Gi", "1500").
[[nodiscard]] std::string formatAmount(Resource r, int64_t amount);
// value * percent / 100, exact, rounded toward zero (percent may be negative or above 100).
[[nodiscard]] int64_t percentOf(int64_t value, int64_t percent);

// The node's reservations for one resource.
struct Reservations {
  int64_t kubeletReserved = 0;  // max(capacity - allocatable, 0)
  int64_t annoReserved = 0;     // node.koordinator.sh/reservation
  int64_t nodeReserved = 0;     // max(kubeletReserved, annoReserved)
};

// annoReserved: for CPU, the number of CPUs in reservedCPUs when set, otherwise the cpu quantity
// rounded up to whole cores (in milli-cores: "1500m" reads 2000); for memory, the memory quantity.
// An annotation that does not parse (or a reservedCPUs list that does not) reserves nothing and
// adds a note.
[[nodiscard]] Reservations reservationsOf(const api::core::Node& node, Resource r,
                                          std::vector<std::string>& notes);

// System usage for one resource: NodeMetric status.nodeMetric.systemUsage plus the usage of the
// host applications whose priority is higher than `lowest_excluded` (batch: every application but
// koord-batch and koord-free ones; mid: but koord-mid, koord-batch and koord-free ones).
struct SystemUsage {
  int64_t systemUsage = 0;
  int64_t hostAppUsed = 0;
  int64_t systemUsed = 0;  // systemUsage + hostAppUsed
};
[[nodiscard]] SystemUsage systemUsageOf(const api::slo::NodeMetric& metric, Resource r,
                                        api::PriorityClass lowest_excluded);

// Why batch and mid must be removed from the node right now, or nullopt when they can be
// computed. In order: "colocation disabled" (strategy.enable false); "NodeMetric missing" (no
// NodeMetric); "NodeMetric missing: status.updateTime is not set"; "NodeMetric updateTime \"x\"
// is not RFC 3339"; "NodeMetric stale: updated 20m ago, degradeTimeMinutes 15" when now -
// updateTime > degradeTimeMinutes (a future updateTime is not stale).
[[nodiscard]] std::optional<std::string> degradeReason(const api::slo::NodeMetric* metric,
                                                       const ColocationStrategy& strategy,
                                                       TimePoint now);

// A Go-style duration of whole seconds: "20m", "1h5m", "45s", "1h0m30s" is written "1h30s";
// "0s" for 0; negative values are written with a leading '-'.
[[nodiscard]] std::string formatDuration(int64_t seconds);

// One pod as the calculation sees it.
struct PodView {
  std::string key;                // "<namespace>/<name>"
  bool active = false;            // phase Running or Pending
  api::PriorityClass priority{};  // GetPodPriorityClassWithDefault
  api::QoSClass qos{};            // GetPodQoSClassWithDefault
  int64_t requestCPU = 0;         // podRequests, milli-cores
  int64_t requestMemory = 0;      // bytes
};

// Koordinator's GetPodPriorityClassWithDefault: the koordinator.sh/priority-class label, else the
// band of spec.priority, else from the QoS class (koordinator.sh/qosClass label, else the
// Kubernetes QoS: BE is koord-batch, every other class koord-prod). Requests that do not add up
// count as zero, with a note.
[[nodiscard]] PodView viewOf(const api::core::Pod& pod, std::vector<std::string>& notes);

[[nodiscard]] inline int64_t requestOf(const PodView& pod, Resource r) {
  return r == Resource::kCPU ? pod.requestCPU : pod.requestMemory;
}

// Visits every pod in phase Running or Pending with its view and its metric in NodeMetric
// status.podsMetric (matched by namespace/name; nullptr when none), and returns the pod metrics
// that matched no such pod ("dangling": deleted or finished pods), by "<namespace>/<name>".
using ActivePodVisitor = std::function<void(const api::core::Pod& pod, const PodView& view,
                                            const api::slo::PodMetricInfo* metric)>;
[[nodiscard]] std::map<std::string, const api::slo::PodMetricInfo*> visitActivePods(
    const PodRefs& pods, const api::slo::NodeMetric& metric, std::vector<std::string>& notes,
    const ActivePodVisitor& visit);

// Removes repeated notes (one bad annotation is read for both resources), keeping the first.
void dedupeNotes(std::vector<std::string>& notes);

// "<namespace>/<name>" of a pod metric.
[[nodiscard]] std::string metricKey(const api::slo::PodMetricInfo& metric);

}  // namespace koord::manager::noderesource
