// colocation-config of slo-controller-config: Koordinator's ColocationStrategy
// (apis/configuration/slo_controller_config.go), flat at the top of the key's JSON, plus
// nodeConfigs[] ({name, nodeSelector, <strategy fields>}).
//
// The strategy of a node (forNode) is, in order: Koordinator's defaults, the cluster fields, the
// first nodeConfigs[] entry whose nodeSelector matches the node's labels, the node annotation
// node.koordinator.sh/colocation-strategy (a JSON ColocationStrategy; ignored when it is not valid
// JSON of that shape), then the ratio labels node.koordinator.sh/cpu-reclaim-ratio,
// memory-reclaim-ratio, mid-static-cpu-reserved-ratio and mid-static-memory-reserved-ratio (a
// float ratio; the percent is ratio x 100 rounded to the nearest integer; a label that is not a
// finite non-negative number is ignored). Each step overrides only the fields it sets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/config/field_reader.hpp"

namespace koord::manager::sloconfig {

// Unset fields are std::nullopt. Policies are kept as text: cpuCalculatePolicy is "usage" or
// "maxUsageRequest"; memoryCalculatePolicy "usage", "request" or "maxUsageRequest".
struct ColocationStrategy {
  std::optional<bool> enable;
  std::optional<int64_t> metricAggregateDurationSeconds;
  std::optional<int64_t> metricReportIntervalSeconds;
  std::optional<api::slo::AggregatePolicy> metricAggregatePolicy;
  std::optional<api::slo::NodeMemoryCollectPolicy> metricMemoryCollectPolicy;
  std::optional<int64_t> cpuReclaimThresholdPercent;
  std::optional<std::string> cpuCalculatePolicy;
  std::optional<int64_t> memoryReclaimThresholdPercent;
  std::optional<std::string> memoryCalculatePolicy;
  std::optional<int64_t> degradeTimeMinutes;
  std::optional<int64_t> updateTimeThresholdSeconds;
  std::optional<double> resourceDiffThreshold;
  std::optional<int64_t> midCPUThresholdPercent;
  std::optional<int64_t> midMemoryThresholdPercent;
  std::optional<int64_t> midUnallocatedPercent;
  std::optional<int64_t> midStaticCPUReservedPercent;
  std::optional<int64_t> midStaticMemoryReservedPercent;
  std::optional<std::string> midReclaimMode;
  std::optional<int64_t> batchCPUThresholdPercent;
  std::optional<int64_t> batchMemoryThresholdPercent;

  bool operator==(const ColocationStrategy&) const = default;
};

// Every field of `over` that is set replaces the one of `base` (metricAggregatePolicy as a whole,
// as Go's json.Unmarshal replaces its durations list).
void mergeColocation(ColocationStrategy& base, const ColocationStrategy& over);

// DefaultColocationStrategy: enable false, 300 s aggregate, 60 s report, durations 5m/10m/30m,
// usageWithoutPageCache, cpu 60 % / usage, memory 65 % / usage, degrade 15 min, update 300 s,
// diff 0.1, mid thresholds 100 %, mid unallocated and static reserved 0 %; midReclaimMode and the
// batch thresholds unset.
[[nodiscard]] ColocationStrategy defaultColocationStrategy();

struct ColocationNodeConfig {
  std::string name;
  std::optional<api::core::LabelSelector> nodeSelector;  // absent: matches no node
  ColocationStrategy strategy;                           // only the fields the entry sets

  bool operator==(const ColocationNodeConfig&) const = default;
};

struct ColocationConfig {
  ColocationStrategy cluster =
      defaultColocationStrategy();  // defaults merged with the key's fields
  std::vector<ColocationNodeConfig> nodeConfigs;

  // The first nodeConfigs[] entry whose selector matches `labels`, or nullptr.
  [[nodiscard]] const ColocationNodeConfig* match(const api::core::StringMap& labels) const;
  // The node's strategy, as the top of this file says.
  [[nodiscard]] ColocationStrategy forNode(const api::core::Node& node) const;

  bool operator==(const ColocationConfig&) const = default;
};

// Reads the colocation-config document at `root` into `out` (which starts at the defaults):
// strict fields, validation (IsColocationStrategyValid: durations > 0, percents >= 0,
// resourceDiffThreshold in (0, 1], mid percents in [0, 100], known calculate policies), each
// error on the reader at the field's line.
void readColocationConfig(config::FieldReader& reader, const config::Field& root,
                          ColocationConfig& out);

}  // namespace koord::manager::sloconfig
