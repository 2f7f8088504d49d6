// LoadAwareScheduling: filters out nodes whose estimated usage would pass a threshold and prefers
// the least used nodes, from the NodeMetrics koord-agent reports (Koordinator's loadaware plugin;
// koordinator-reference.md 3(d), 5.2; user manual docs/load-aware-scheduling.md).
//
// Estimated usage of a node for a pod = what the node uses (node_load.hpp: the NodeMetric's usage
// plus the estimates of its pods the metric does not show yet) + the pod's own estimate
// (estimator.hpp), against the node's allocatable (raw-allocatable annotation honoured).
//
// - preFilter: kSkip while no node has a NodeMetric (one look at the lister's change count);
//   otherwise estimates the pod once and notes the binds in flight.
// - filter, per node: a DaemonSet pod passes. The thresholds (usage_profile.hpp) are the node
//   annotation's or the args'; an unreadable annotation fails the node (unresolvable) with a
//   reason naming it. A prod pod is held to prodUsageThresholds when set, any other pod to the
//   aggregated thresholds when set, else to usageThresholds; no threshold: pass. No NodeMetric, or
//   one without status.nodeMetric: pass. With filterExpiredNodeMetrics, a NodeMetric not updated
//   for nodeMetricExpirationSeconds fails the node with "node(s) nodeMetric expired" (passes with
//   enableScheduleWhenNodeMetricsExpired). Then for each resource with threshold t > 0 and
//   allocatable a > 0: round(estimated / a * 100) > t fails with "node(s) <resource> usage exceed
//   threshold" ("... aggregated usage exceed threshold" for the aggregated thresholds).
// - score: 0 without a NodeMetric, with an expired one or one without status.nodeMetric;
//   otherwise, per resource r of weight w, s_r = (a - est) * 100 / a (0 when est > a or a = 0),
//   and score = (sum w * s_r + dominantResourceWeight * min_r s_r) / (sum w + dominant weight),
//   in integers. With scoreAccordingProdUsage a prod pod is scored on prod usage; with
//   aggregated.scoreAggregationType on that aggregated usage.
// - reserve: records the pod's estimate in the AllocationCache, so that until the informer shows
//   the pod on the node (ClusterState's assume cache also counts it there), every filter and score
//   adds it; unreserve releases it. Reserve pods of Reservations are not recorded.
//
// Kinds read: NodeMetric. Node data: none (node_load_cache.hpp keeps the plugin's own).
// Thread safety: filter and score are const and read the thread-safe caches; reserve and
// unreserve only touch the AllocationCache.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "extender/framework/registry.hpp"
#include "extender/plugins/load_aware/estimator.hpp"
#include "extender/plugins/load_aware/load_aware_args.hpp"
#include "extender/plugins/load_aware/node_load_cache.hpp"
#include "extender/plugins/load_aware/usage_profile.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::load_aware {

inline constexpr std::string_view kName = "LoadAwareScheduling";

inline constexpr std::string_view kReasonNodeMetricExpired = "node(s) nodeMetric expired";

// "node(s) <resource> usage exceed threshold", or "... aggregated usage ..." with `aggregated`.
[[nodiscard]] std::string usageExceedReason(const std::string& resource, bool aggregated);

// The wall clock NodeMetric times are compared with (system_clock::now by default).
using WallClock = std::function<WallTime()>;

// One node's load as the plugin sees it (the simulator's LOAD section), per resource of
// resourceNames() (integers: milli-CPU for cpu, bytes for memory).
struct NodeUsageReport {
  ResourceVector reported;     // the NodeMetric's status.nodeMetric.nodeUsage
  ResourceVector estimated;    // what filter and score take the node to use before a new pod
  ResourceVector allocatable;  // the raw-allocatable annotation's when set
  bool expired = false;        // not updated for nodeMetricExpirationSeconds
  std::string update_time;     // as written; "" when absent
};

class LoadAwarePlugin final : public framework::PreFilterPlugin,
                              public framework::FilterPlugin,
                              public framework::ScorePlugin,
                              public framework::ReservePlugin {
 public:
  LoadAwarePlugin(const framework::Handle& handle, LoadAwareArgs args, WallClock wall = {});
  LoadAwarePlugin(const LoadAwarePlugin&) = delete;
  LoadAwarePlugin& operator=(const LoadAwarePlugin&) = delete;

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
  [[nodiscard]] bool scores(const framework::CycleState& state,
                            const framework::PodInfo& pod) const override;
  [[nodiscard]] int64_t score(const framework::CycleState& state, const framework::PodInfo& pod,
                              const framework::NodeInfo& node) const override;
  [[nodiscard]] framework::PluginStatus reserve(framework::CycleState& state,
                                                const framework::PodInfo& pod,
                                                const framework::NodeInfo& node) override;
  void unreserve(framework::CycleState& state, const framework::PodInfo& pod,
                 const std::string& node) override;

  // `node`'s load now (the clock's time; binds in flight left out); nullopt when it has no
  // NodeMetric with status.nodeMetric.
  [[nodiscard]] std::optional<NodeUsageReport> nodeUsage(const framework::NodeInfo& node) const;

  [[nodiscard]] const LoadAwareArgs& args() const { return args_; }
  [[nodiscard]] const ResourceNames& resourceNames() const { return names_; }

  struct PreState;

 private:
  // The node's NodeLoad with the binds in flight on it that its pods do not show yet; nullopt
  // when there are none (the cached NodeLoad is the answer).
  [[nodiscard]] std::optional<NodeLoad> withInFlight(const PreState& pre, const NodeState& state,
                                                     const framework::NodeInfo& node) const;

  const framework::Handle& handle_;
  const LoadAwareArgs args_;
  const ResourceNames names_;
  const Estimator estimator_;
  const UsageProfile base_profile_;
  const ResourceVector weights_;
  const WallClock wall_;
  NodeLoadCache nodes_;
  MetricPresence presence_;
};

// The args Koordinator's chart gives the plugin, which koord's default profile gives it too:
// {filterExpiredNodeMetrics: false, nodeMetricExpirationSeconds: 300, resourceWeights cpu 1
// memory 1, usageThresholds cpu 0 memory 0 (no load filter: scoring only), estimatedScalingFactors
// cpu 85 memory 70}. Args given explicitly start from the plugin's own defaults instead
// (load_aware_args.hpp: thresholds cpu 65 memory 95, expired NodeMetrics filtered).
[[nodiscard]] api::Json defaultProfileArgs();

// The registry's factory: decodes the args (load_aware_args.hpp) and reads the system clock.
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

// A factory like create() whose plugins judge NodeMetric times against `wall` instead: for a
// caller whose "now" is not the system clock's (the simulator, whose input was captured earlier).
[[nodiscard]] framework::PluginFactory factoryWithClock(WallClock wall);

}  // namespace koord::extender::plugins::load_aware
