#include "manager/sloconfig/colocation.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "koord/api/core/selectors.hpp"
#include "koord/api/well_known.hpp"
#include "koord/config/yaml.hpp"
#include "manager/sloconfig/node_selection.hpp"

namespace koord::manager::sloconfig {

using config::Field;
using config::FieldReader;
using config::UnknownFields;

namespace {

template <typename T>
void override(std::optional<T>& base, const std::optional<T>& over) {
  if (over.has_value()) {
    base = over;
  }
}

void checkFields(FieldReader& reader, const Field& field, UnknownFields unknown) {
  reader.checkObject(field,
                     {"enable",
                      "metricAggregateDurationSeconds",
                      "metricReportIntervalSeconds",
                      "metricAggregatePolicy",
                      "metricMemoryCollectPolicy",
                      "cpuReclaimThresholdPercent",
                      "cpuCalculatePolicy",
                      "memoryReclaimThresholdPercent",
                      "memoryCalculatePolicy",
                      "degradeTimeMinutes",
                      "updateTimeThresholdSeconds",
                      "resourceDiffThreshold",
                      "midCPUThresholdPercent",
                      "midMemoryThresholdPercent",
                      "midUnallocatedPercent",
                      "midStaticCPUReservedPercent",
                      "midStaticMemoryReservedPercent",
                      "midReclaimMode",
                      "batchCPUThresholdPercent",
                      "batchMemoryThresholdPercent"},
                     unknown);
  const Field policy = field.child("metricAggregatePolicy");
  if (!policy.absent()) {
    reader.checkObject(policy, {"durations"}, unknown);
  }
}

// Reads every field `field` sets into `out`, then checks the values it read.
void readStrategy(FieldReader& reader, const Field& field, ColocationStrategy& out,
                  UnknownFields unknown) {
  checkFields(reader, field, unknown);
  if (field.absent() || !field.value->is_object()) {
    return;
  }
  auto int64Field = [&](const char* key, std::optional<int64_t>& target, int64_t min, int64_t max,
                        const char* rule) {
    const Field child = field.child(key);
    reader.read(child, target);
    if (!child.absent() && target.has_value() && (*target < min || *target > max)) {
      reader.error(child, rule);
    }
  };
  constexpr int64_t kMax = INT64_MAX;
  reader.read(field.child("enable"), out.enable);
  int64Field("metricAggregateDurationSeconds", out.metricAggregateDurationSeconds, 1, kMax,
             "must be greater than 0");
  int64Field("metricReportIntervalSeconds", out.metricReportIntervalSeconds, 1, kMax,
             "must be greater than 0");
  reader.read(field.child("metricAggregatePolicy"), out.metricAggregatePolicy);
  reader.read(field.child("metricMemoryCollectPolicy"), out.metricMemoryCollectPolicy);
  int64Field("cpuReclaimThresholdPercent", out.cpuReclaimThresholdPercent, 0, kMax,
             "must be at least 0");
  int64Field("memoryReclaimThresholdPercent", out.memoryReclaimThresholdPercent, 0, kMax,
             "must be at least 0");
  int64Field("degradeTimeMinutes", out.degradeTimeMinutes, 1, kMax, "must be greater than 0");
  int64Field("updateTimeThresholdSeconds", out.updateTimeThresholdSeconds, 1, kMax,
             "must be greater than 0");
  int64Field("midCPUThresholdPercent", out.midCPUThresholdPercent, 0, 100,
             "must be between 0 and 100");
  int64Field("midMemoryThresholdPercent", out.midMemoryThresholdPercent, 0, 100,
             "must be between 0 and 100");
  int64Field("midUnallocatedPercent", out.midUnallocatedPercent, 0, 100,
             "must be between 0 and 100");
  int64Field("midStaticCPUReservedPercent", out.midStaticCPUReservedPercent, 0, 100,
             "must be between 0 and 100");
  int64Field("midStaticMemoryReservedPercent", out.midStaticMemoryReservedPercent, 0, 100,
             "must be between 0 and 100");
  int64Field("batchCPUThresholdPercent", out.batchCPUThresholdPercent, 0, kMax,
             "must be at least 0");
  int64Field("batchMemoryThresholdPercent", out.batchMemoryThresholdPercent, 0, kMax,
             "must be at least 0");
  reader.read(field.child("midReclaimMode"), out.midReclaimMode);

  const Field diff = field.child("resourceDiffThreshold");
  reader.read(diff, out.resourceDiffThreshold);
  if (!diff.absent() && out.resourceDiffThreshold.has_value() &&
      !(*out.resourceDiffThreshold > 0 && *out.resourceDiffThreshold <= 1)) {
    reader.error(diff, "must be greater than 0 and at most 1");
  }
  const Field cpuPolicy = field.child("cpuCalculatePolicy");
  reader.read(cpuPolicy, out.cpuCalculatePolicy);
  if (!cpuPolicy.absent() && out.cpuCalculatePolicy.has_value() &&
      *out.cpuCalculatePolicy != "usage" && *out.cpuCalculatePolicy != "maxUsageRequest") {
    reader.error(cpuPolicy, "unsupported value \"" + *out.cpuCalculatePolicy +
                                "\" (supported: \"usage\", \"maxUsageRequest\")");
  }
  const Field memPolicy = field.child("memoryCalculatePolicy");
  reader.read(memPolicy, out.memoryCalculatePolicy);
  if (!memPolicy.absent() && out.memoryCalculatePolicy.has_value() &&
      *out.memoryCalculatePolicy != "usage" && *out.memoryCalculatePolicy != "request" &&
      *out.memoryCalculatePolicy != "maxUsageRequest") {
    reader.error(memPolicy, "unsupported value \"" + *out.memoryCalculatePolicy +
                                "\" (supported: \"usage\", \"request\", \"maxUsageRequest\")");
  }
}

// The percent of a ratio label (0.65 -> 65), or nullopt when absent or not a finite ratio >= 0.
std::optional<int64_t> ratioPercent(const api::core::StringMap& labels, std::string_view key) {
  const auto it = labels.find(std::string(key));
  if (it == labels.end()) {
    return std::nullopt;
  }
  try {
    size_t used = 0;
    const double ratio = std::stod(it->second, &used);
    if (used != it->second.size() || !std::isfinite(ratio) || ratio < 0 || ratio > 1e12) {
      return std::nullopt;
    }
    return static_cast<int64_t>(std::llround(ratio * 100));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The node annotation's strategy, or nullopt when absent or not a valid ColocationStrategy.
std::optional<ColocationStrategy> annotationStrategy(const api::core::StringMap& annotations) {
  const auto it = annotations.find(std::string(api::kAnnotationNodeColocationStrategy));
  if (it == annotations.end()) {
    return std::nullopt;
  }
  Result<std::vector<config::YamlDocument>> docs =
      config::parseYamlDocuments(it->second, api::kAnnotationNodeColocationStrategy);
  if (!docs.ok() || docs->size() != 1) {
    return std::nullopt;
  }
  FieldReader reader(docs->front());
  ColocationStrategy strategy;
  readStrategy(reader, reader.root(), strategy, UnknownFields::kWarn);
  if (!reader.errors().empty() || !docs->front().value.is_object()) {
    return std::nullopt;
  }
  return strategy;
}

}  // namespace

void mergeColocation(ColocationStrategy& base, const ColocationStrategy& over) {
  override(base.enable, over.enable);
  override(base.metricAggregateDurationSeconds, over.metricAggregateDurationSeconds);
  override(base.metricReportIntervalSeconds, over.metricReportIntervalSeconds);
  override(base.metricAggregatePolicy, over.metricAggregatePolicy);
  override(base.metricMemoryCollectPolicy, over.metricMemoryCollectPolicy);
  override(base.cpuReclaimThresholdPercent, over.cpuReclaimThresholdPercent);
  override(base.cpuCalculatePolicy, over.cpuCalculatePolicy);
  override(base.memoryReclaimThresholdPercent, over.memoryReclaimThresholdPercent);
  override(base.memoryCalculatePolicy, over.memoryCalculatePolicy);
  override(base.degradeTimeMinutes, over.degradeTimeMinutes);
  override(base.updateTimeThresholdSeconds, over.updateTimeThresholdSeconds);
  override(base.resourceDiffThreshold, over.resourceDiffThreshold);
  override(base.midCPUThresholdPercent, over.midCPUThresholdPercent);
  override(base.midMemoryThresholdPercent, over.midMemoryThresholdPercent);
  override(base.midUnallocatedPercent, over.midUnallocatedPercent);
  override(base.midStaticCPUReservedPercent, over.midStaticCPUReservedPercent);
  override(base.midStaticMemoryReservedPercent, over.midStaticMemoryReservedPercent);
  override(base.midReclaimMode, over.midReclaimMode);
  override(base.batchCPUThresholdPercent, over.batchCPUThresholdPercent);
  override(base.batchMemoryThresholdPercent, over.batchMemoryThresholdPercent);
}

ColocationStrategy defaultColocationStrategy() {
  ColocationStrategy s;
  s.enable = false;
  s.metricAggregateDurationSeconds = 300;
  s.metricReportIntervalSeconds = 60;
  api::slo::AggregatePolicy policy;
  policy.durations = {"5m", "10m", "30m"};
  s.metricAggregatePolicy = policy;
  s.metricMemoryCollectPolicy = api::slo::NodeMemoryCollectPolicy::kUsageWithoutPageCache;
  s.cpuReclaimThresholdPercent = 60;
  s.cpuCalculatePolicy = "usage";
  s.memoryReclaimThresholdPercent = 65;
  s.memoryCalculatePolicy = "usage";
  s.degradeTimeMinutes = 15;
  s.updateTimeThresholdSeconds = 300;
  s.resourceDiffThreshold = 0.1;
  s.midCPUThresholdPercent = 100;
  s.midMemoryThresholdPercent = 100;
  s.midUnallocatedPercent = 0;
  s.midStaticCPUReservedPercent = 0;
  s.midStaticMemoryReservedPercent = 0;
  return s;
}

const ColocationNodeConfig* ColocationConfig::match(const api::core::StringMap& labels) const {
  for (const ColocationNodeConfig& entry : nodeConfigs) {
    if (selectorMatches(entry.nodeSelector, labels)) {
      return &entry;
    }
  }
  return nullptr;
}

ColocationStrategy ColocationConfig::forNode(const api::core::Node& node) const {
  ColocationStrategy strategy = cluster;
  if (const ColocationNodeConfig* entry = match(node.metadata.labels)) {
    mergeColocation(strategy, entry->strategy);
  }
  if (std::optional<ColocationStrategy> annotated = annotationStrategy(node.metadata.annotations)) {
    mergeColocation(strategy, *annotated);
  }
  const api::core::StringMap& labels = node.metadata.labels;
  override(strategy.cpuReclaimThresholdPercent, ratioPercent(labels, api::kLabelCPUReclaimRatio));
  override(strategy.memoryReclaimThresholdPercent,
           ratioPercent(labels, api::kLabelMemoryReclaimRatio));
  override(strategy.midStaticCPUReservedPercent,
           ratioPercent(labels, api::kLabelMidCPUStaticReservedRatio));
  override(strategy.midStaticMemoryReservedPercent,
           ratioPercent(labels, api::kLabelMidMemoryStaticReservedRatio));
  return strategy;
}

void readColocationConfig(FieldReader& reader, const Field& root, ColocationConfig& out) {
  if (root.absent()) {
    return;
  }
  if (!root.value->is_object()) {
    reader.error(root, std::string("expected a mapping, got ") + root.value->type_name());
    return;
  }
  // The cluster fields are the document without nodeConfigs.
  api::Json cluster = *root.value;
  cluster.erase("nodeConfigs");
  readStrategy(reader, Field{&cluster, root.path, root.pointer}, out.cluster,
               UnknownFields::kError);

  const Field list = root.child("nodeConfigs");
  if (list.absent()) {
    return;
  }
  if (!list.value->is_array()) {
    reader.error(list, std::string("expected a list, got ") + list.value->type_name());
    return;
  }
  for (size_t i = 0; i < list.value->size(); ++i) {
    const Field item = list.item(i);
    if (item.absent() || !item.value->is_object()) {
      reader.error(item, "expected a mapping");
      continue;
    }
    ColocationNodeConfig entry;
    readNodeIdentity(reader, item, entry.name, entry.nodeSelector);
    api::Json fields = *item.value;
    fields.erase("name");
    fields.erase("nodeSelector");
    readStrategy(reader, Field{&fields, item.path, item.pointer}, entry.strategy,
                 UnknownFields::kError);
    out.nodeConfigs.push_back(std::move(entry));
  }
}

}  // namespace koord::manager::sloconfig
