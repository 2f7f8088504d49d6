// Fuzz target for LoadAwareScheduling's inputs (extender/plugins/load_aware/): its args decoder and
// every annotation it reads. Any input must give a value or an error, never a crash. Checked:
//  - args that decode keep Koordinator's invariants: nodeMetricExpirationSeconds > 0, thresholds
//    within 0..100, scaling factors within 1..100 and set for cpu and memory, every weighted
//    resource with a scaling factor;
//  - a node annotated with the input as scheduling.koordinator.sh/usage-thresholds and
//    node.koordinator.sh/raw-allocatable, and a pod annotated with it as its scaling factors and
//    estimation seconds, go through preFilter, filter, score and reserve with the decoded args (or
//    the defaults): the filter passes or rejects with a reason, an unreadable usage-thresholds
//    annotation fails the node naming the annotation, and the score stays within 0..100.
//
// Input: one JSON value (or any bytes), used as the args and as every annotation value.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/allocation_cache.hpp"
#include "extender/framework/cycle_state.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/lister.hpp"
#include "extender/framework/node_info.hpp"
#include "extender/framework/object_store.hpp"
#include "extender/plugins/load_aware/load_aware.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/extension/load_aware.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"

namespace {

namespace la = koord::extender::plugins::load_aware;
namespace fw = koord::extender::framework;

class NoNodes final : public fw::ClusterView {
 public:
  std::shared_ptr<const fw::NodeInfo> nodeInfo(std::string_view) const override { return nullptr; }
  std::vector<std::shared_ptr<const fw::NodeInfo>> nodeInfos() const override { return {}; }
  std::shared_ptr<const fw::PodInfo> pod(std::string_view) const override { return nullptr; }
};

void checkArgs(const la::LoadAwareArgs& args) {
  auto within = [](const la::ResourceAmounts& amounts, int64_t min, int64_t max) {
    for (const auto& [name, value] : amounts) {
      if (name.empty() || value < min || value > max)
        return false;
    }
    return true;
  };
  const bool ok =
      args.node_metric_expiration_seconds > 0 && within(args.usage_thresholds, 0, 100) &&
      within(args.prod_usage_thresholds, 0, 100) && within(args.resource_weights, 1, 100) &&
      within(args.estimated_scaling_factors, 1, 100) &&
      args.estimated_scaling_factors.count("cpu") == 1 &&
      args.estimated_scaling_factors.count("memory") == 1 && !args.usage_thresholds.empty() &&
      args.dominant_resource_weight >= 0 && args.dominant_resource_weight <= 100;
  if (!ok)
    std::abort();
  for (const auto& [name, weight] : args.resource_weights) {
    if (args.estimated_scaling_factors.count(name) == 0)
      std::abort();
  }
}

void runPlugin(const la::LoadAwareArgs& args, const std::string& value) {
  NoNodes cluster;
  koord::FakeClock clock;
  fw::AllocationCache allocations(clock);
  fw::ObjectStore objects;
  auto metric = std::make_shared<koord::api::slo::NodeMetric>();
  metric->metadata.name = "node";
  metric->status.updateTime = "2024-05-01T10:00:00Z";
  metric->status.nodeMetric.emplace();
  metric->status.nodeMetric->nodeUsage.resources["cpu"] = *koord::resource::Quantity::parse("3");
  objects.set<koord::api::slo::NodeMetric>(
      std::make_shared<const fw::FixedLister<koord::api::slo::NodeMetric>>(
          std::vector<std::shared_ptr<const koord::api::slo::NodeMetric>>{metric}));
  fw::BasicHandle handle(cluster, clock, {}, &objects, &allocations);
  la::LoadAwarePlugin plugin(handle, args, [] {
    return std::chrono::system_clock::time_point(std::chrono::seconds(1714557600));
  });

  auto node = std::make_shared<koord::api::core::Node>();
  node->metadata.name = "node";
  node->metadata.annotations[std::string(koord::api::kAnnotationCustomUsageThresholds)] = value;
  node->metadata.annotations[std::string(koord::api::kAnnotationNodeRawAllocatable)] = value;
  node->status.allocatable["cpu"] = *koord::resource::Quantity::parse("4");
  auto pod = std::make_shared<koord::api::core::Pod>();
  pod->metadata.name = "pod";
  pod->metadata.namespace_ = "default";
  for (std::string_view key : {koord::api::kAnnotationCustomEstimatedScalingFactors,
                               koord::api::kAnnotationCustomEstimatedSecondsAfterPodScheduled,
                               koord::api::kAnnotationCustomEstimatedSecondsAfterInitialized})
    pod->metadata.annotations[std::string(key)] = value;
  pod->spec.containers.emplace_back();
  auto info = fw::PodInfo::create(pod);
  if (!info.ok())
    return;
  // The pod is also on the node, as a pod placed before.
  auto placed = std::make_shared<koord::api::core::Pod>(*pod);
  placed->metadata.name = "placed";
  auto placed_info = fw::PodInfo::create(placed);
  if (!placed_info.ok())
    return;
  fw::NodeInfo node_info(node, {*placed_info});

  fw::CycleState state;
  if (!plugin.preFilter(state, **info).isSuccess())
    std::abort();  // a NodeMetric exists
  const fw::PluginStatus status = plugin.filter(state, **info, node_info);
  if (status.code() == fw::Code::kError || (status.isRejected() && status.reasons().empty()))
    std::abort();
  const bool readable = koord::api::extension::parseCustomUsageThresholds(value).ok();
  if (!readable && (status.code() != fw::Code::kUnschedulableAndUnresolvable ||
                    status.message().find("usage-thresholds") == std::string::npos))
    std::abort();  // an unreadable annotation must fail the node, naming it
  if (plugin.scores(state, **info)) {
    const int64_t score = plugin.score(state, **info, node_info);
    if (score < 0 || score > 100)
      std::abort();
  }
  if (!plugin.reserve(state, **info, node_info).isSuccess())
    std::abort();
  plugin.unreserve(state, **info, "node");
  if (!allocations.empty())
    std::abort();
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string value(reinterpret_cast<const char*>(data), size);
  auto defaults = la::decodeArgs(nullptr, "LoadAwareScheduling");
  if (!defaults.ok())
    std::abort();
  la::LoadAwareArgs args = *defaults;
  if (auto json = koord::api::parseJson(value); json.ok()) {
    if (auto decoded = la::decodeArgs(*json, "LoadAwareScheduling"); decoded.ok()) {
      checkArgs(*decoded);
      args = *decoded;
    }
  }
  runPlugin(args, value);
  return 0;
}
