#include "extender/plugins/load_aware/load_aware.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "extender/framework/allocation_cache.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::load_aware {

namespace {

using framework::NodeInfo;
using framework::PluginStatus;
using framework::PodInfo;

const std::string& stateKey() {
  static const std::string key = std::string(kName) + "/state";
  return key;
}

constexpr std::string_view kProdDetail = "prod";

// Koordinator's leastUsedScore (a negative usage, from a malformed report, counts as none).
int64_t leastUsedScore(int64_t used, int64_t capacity) {
  if (capacity <= 0 || used > capacity)
    return 0;
  used = std::max<int64_t>(used, 0);
  __extension__ using Int128 = __int128;
  return static_cast<int64_t>(static_cast<Int128>(capacity - used) * 100 / capacity);
}

}  // namespace

// A bind in flight, as reserve() recorded it.
struct InFlight {
  std::string pod_id;
  PodLoad load;
};

struct LoadAwarePlugin::PreState final : framework::StateData {
  WallTime now;
  ResourceVector estimated;  // the pod's
  bool prod = false;         // its band (with default) is koord-prod
  bool daemonset = false;
  std::map<std::string, std::vector<InFlight>, std::less<>> in_flight;  // by node
};

std::string usageExceedReason(const std::string& resource, bool aggregated) {
  return "node(s) " + resource + (aggregated ? " aggregated usage" : " usage") +
         " exceed threshold";
}

LoadAwarePlugin::LoadAwarePlugin(const framework::Handle& handle, LoadAwareArgs args,
                                 WallClock wall)
    : handle_(handle),
      args_(std::move(args)),
      names_(ResourceNames::fromArgs(args_)),
      estimator_(args_, names_),
      base_profile_(argsProfile(args_, names_)),
      weights_(names_.fromAmounts(args_.resource_weights)),
      wall_(wall ? std::move(wall) : [] { return std::chrono::system_clock::now(); }),
      nodes_(args_, estimator_, names_, base_profile_) {}

PluginStatus LoadAwarePlugin::preFilter(framework::CycleState& state, const PodInfo& pod) const {
  if (!presence_.any(handle_.objects().lister<api::slo::NodeMetric>()))
    return PluginStatus::skip();
  auto pre = std::make_unique<PreState>();
  pre->now = wall_();
  pre->estimated = estimator_.estimatePod(*pod.pod);
  pre->prod = priorityWithDefault(*pod.pod) == api::PriorityClass::kProd;
  pre->daemonset = isDaemonSetPod(*pod.pod);
  const framework::AllocationCache& cache = handle_.allocations();
  if (!cache.empty()) {
    const std::string_view self = framework::AllocationCache::podId(pod);
    for (auto& allocation : cache.of(kName)) {
      if (allocation.pod_id == self)
        continue;
      InFlight in_flight;
      in_flight.pod_id = allocation.pod_id;
      in_flight.load.key = allocation.pod_key;
      in_flight.load.estimated = names_.zeros();
      for (size_t i = 0; i < names_.size(); ++i)
        in_flight.load.estimated[i] = allocation.resources.get(names_.name(i));
      in_flight.load.timestamp = pre->now;
      in_flight.load.prod = allocation.detail == kProdDetail;
      pre->in_flight[allocation.node].push_back(std::move(in_flight));
    }
  }
  state.write(stateKey(), std::move(pre));
  return PluginStatus::success();
}

std::optional<NodeLoad> LoadAwarePlugin::withInFlight(const PreState& pre, const NodeState& state,
                                                      const NodeInfo& node) const {
  auto it = pre.in_flight.find(node.name());
  if (it == pre.in_flight.end())
    return std::nullopt;
  NodeLoad load = state.load;
  for (const InFlight& in_flight : it->second) {
    // Counted already when the node shows the pod (assumed, or delivered by the informer).
    const bool shown = std::any_of(node.pods().begin(), node.pods().end(), [&](const auto& pod) {
      return framework::AllocationCache::podId(*pod) == in_flight.pod_id;
    });
    if (!shown)
      load.add(in_flight.load, *state.view);
  }
  return load;
}

PluginStatus LoadAwarePlugin::filter(const framework::CycleState& state, const PodInfo& /*pod*/,
                                     const NodeInfo& node) const {
  const PreState* pre = state.read<PreState>(stateKey());
  if (pre == nullptr)
    return PluginStatus::error("the LoadAwareScheduling plugin's preFilter did not run");
  if (pre->daemonset)
    return PluginStatus::success();
  auto node_state = nodes_.get(node, handle_.objects().lister<api::slo::NodeMetric>(), pre->now);
  const NodeFacts& facts = *node_state->facts;
  if (!facts.profile)
    return PluginStatus::unresolvable("node(s) " + facts.profile_error);
  const UsageProfile& profile = *facts.profile;
  const bool prod = pre->prod && !allZero(profile.prod);
  const bool aggregated = !prod && profile.aggregated.has_value();
  const ResourceVector& thresholds =
      prod ? profile.prod : (aggregated ? profile.aggregated->thresholds : profile.usage);
  if (allZero(thresholds) || node_state->metric == nullptr)
    return PluginStatus::success();
  const MetricView& view = *node_state->view;
  if (args_.filter_expired_node_metrics &&
      view.expired(pre->now, clampSeconds(args_.node_metric_expiration_seconds))) {
    if (args_.enable_schedule_when_node_metrics_expired)
      return PluginStatus::success();
    return PluginStatus::unschedulable(std::string(kReasonNodeMetricExpired));
  }
  if (!view.has_node_metric)
    return PluginStatus::success();
  const std::optional<NodeLoad> in_flight = withInFlight(*pre, *node_state, node);
  const NodeLoad& load = in_flight ? *in_flight : node_state->load;
  ResourceVector estimated =
      aggregated
          ? existingUsage(load, view, false, profile.aggregated->type, profile.aggregated->duration)
          : existingUsage(load, view, prod, "", std::chrono::nanoseconds(0));
  addTo(estimated, pre->estimated);
  for (size_t i = 0; i < thresholds.size(); ++i) {
    const int64_t total = facts.allocatable[i];
    if (thresholds[i] == 0 || total == 0)
      continue;
    const int64_t usage =
        roundToInt64(static_cast<double>(estimated[i]) / static_cast<double>(total) * 100.0);
    if (usage > thresholds[i])
      return PluginStatus::unschedulable(usageExceedReason(names_.name(i), aggregated));
  }
  return PluginStatus::success();
}

std::optional<NodeUsageReport> LoadAwarePlugin::nodeUsage(const NodeInfo& node) const {
  const WallTime now = wall_();
  auto node_state = nodes_.get(node, handle_.objects().lister<api::slo::NodeMetric>(), now);
  if (node_state->metric == nullptr || !node_state->view->has_node_metric)
    return std::nullopt;
  const MetricView& view = *node_state->view;
  NodeUsageReport report;
  report.reported = view.node_usage;
  report.estimated = existingUsage(node_state->load, view, false, "", std::chrono::nanoseconds(0));
  report.allocatable = node_state->facts->allocatable;
  report.expired = view.expired(now, clampSeconds(args_.node_metric_expiration_seconds));
  report.update_time = node_state->metric->status.updateTime.value_or("");
  return report;
}

api::Json defaultProfileArgs() {
  return {{"filterExpiredNodeMetrics", false},
          {"nodeMetricExpirationSeconds", 300},
          {"resourceWeights", {{"cpu", 1}, {"memory", 1}}},
          {"usageThresholds", {{"cpu", 0}, {"memory", 0}}},
          {"estimatedScalingFactors", {{"cpu", 85}, {"memory", 70}}}};
}

bool LoadAwarePlugin::scores(const framework::CycleState& /*state*/, const PodInfo& /*pod*/) const {
  return !allZero(weights_) || args_.dominant_resource_weight != 0;
}

int64_t LoadAwarePlugin::score(const framework::CycleState& state, const PodInfo& /*pod*/,
                               const NodeInfo& node) const {
  const PreState* pre = state.read<PreState>(stateKey());
  if (pre == nullptr)
    return 0;
  auto node_state = nodes_.get(node, handle_.objects().lister<api::slo::NodeMetric>(), pre->now);
  if (node_state->metric == nullptr)
    return 0;
  const MetricView& view = *node_state->view;
  if (view.expired(pre->now, clampSeconds(args_.node_metric_expiration_seconds)) ||
      !view.has_node_metric)
    return 0;
  const bool prod = args_.score_according_prod_usage && pre->prod;
  std::string type;
  std::chrono::nanoseconds duration{0};
  if (args_.aggregated && !args_.aggregated->score_aggregation_type.empty()) {
    type = args_.aggregated->score_aggregation_type;
    duration = args_.aggregated->score_aggregated_duration;
  }
  const std::optional<NodeLoad> in_flight = withInFlight(*pre, *node_state, node);
  const NodeLoad& load = in_flight ? *in_flight : node_state->load;
  ResourceVector used = existingUsage(load, view, prod, type, duration);
  addTo(used, pre->estimated);

  // Koordinator's loadAwareSchedulingScorer: the dominant resource is the least free one among
  // every resource accounted, weighted or not.
  const int64_t dominant_weight = args_.dominant_resource_weight;
  int64_t node_score = 0;
  int64_t dominant_score = dominant_weight != 0 ? 100 : 0;
  int64_t weight_sum = dominant_weight;
  for (size_t i = 0; i < weights_.size(); ++i) {
    const int64_t s = leastUsedScore(used[i], node_state->facts->allocatable[i]);
    node_score += s * weights_[i];
    weight_sum += weights_[i];
    dominant_score = std::min(dominant_score, s);
  }
  node_score += dominant_score * dominant_weight;
  return weight_sum <= 0 ? 0 : node_score / weight_sum;
}

PluginStatus LoadAwarePlugin::reserve(framework::CycleState& /*state*/, const PodInfo& pod,
                                      const NodeInfo& node) {
  auto it = pod.pod->metadata.annotations.find(std::string(api::kAnnotationReservePod));
  if (it != pod.pod->metadata.annotations.end() && it->second == "true")
    return PluginStatus::success();
  const ResourceVector estimated = estimator_.estimatePod(*pod.pod);
  framework::AllocationCache::Allocation allocation;
  allocation.pod_id = std::string(framework::AllocationCache::podId(pod));
  allocation.pod_key = pod.key;
  allocation.plugin = std::string(kName);
  allocation.node = node.name();
  for (size_t i = 0; i < names_.size(); ++i)
    allocation.resources.set(names_.name(i), estimated[i]);
  if (priorityWithDefault(*pod.pod) == api::PriorityClass::kProd)
    allocation.detail = std::string(kProdDetail);
  handle_.allocations().add(std::move(allocation));
  return PluginStatus::success();
}

void LoadAwarePlugin::unreserve(framework::CycleState& /*state*/, const PodInfo& pod,
                                const std::string& /*node*/) {
  handle_.allocations().release(framework::AllocationCache::podId(pod), kName);
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& handle) {
  return factoryWithClock({})(args, handle);
}

framework::PluginFactory factoryWithClock(WallClock wall) {
  return [wall = std::move(wall)](
             const api::Json& args,
             const framework::Handle& handle) -> Result<std::unique_ptr<framework::Plugin>> {
    KOORD_ASSIGN_OR_RETURN(LoadAwareArgs decoded, decodeArgs(args, std::string(kName)));
    return std::unique_ptr<framework::Plugin>(
        std::make_unique<LoadAwarePlugin>(handle, std::move(decoded), wall));
  };
}

}  // namespace koord::extender::plugins::load_aware
