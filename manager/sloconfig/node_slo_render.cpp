// nodeSLOSpecFor and nodeMetricSpecFor (declared in slo_controller_config.hpp).
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::sloconfig {

api::slo::NodeSLOSpec nodeSLOSpecFor(const SloControllerConfig& config,
                                     const api::core::Node& node) {
  const api::core::StringMap& labels = node.metadata.labels;
  api::slo::NodeSLOSpec spec;
  spec.resourceUsedThresholdWithBE = config.resourceThreshold.forNode(labels);
  spec.resourceQOSStrategy = config.resourceQOS.forNode(labels);
  spec.cpuBurstStrategy = config.cpuBurst.forNode(labels);
  spec.systemStrategy = config.system.forNode(labels);
  spec.hostApplications = config.hostApplication.forNode(labels);
  return spec;
}

api::slo::NodeMetricSpec nodeMetricSpecFor(const SloControllerConfig& config,
                                           const api::core::Node& node) {
  const ColocationStrategy strategy = config.colocation.forNode(node);
  api::slo::NodeMetricCollectPolicy policy;
  policy.aggregateDurationSeconds = strategy.metricAggregateDurationSeconds;
  policy.reportIntervalSeconds = strategy.metricReportIntervalSeconds;
  policy.nodeAggregatePolicy = strategy.metricAggregatePolicy;
  policy.nodeMemoryCollectPolicy = strategy.metricMemoryCollectPolicy;
  api::slo::NodeMetricSpec spec;
  spec.metricCollectPolicy = policy;
  return spec;
}

}  // namespace koord::manager::sloconfig
