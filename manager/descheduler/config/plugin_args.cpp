#include <cmath>
#include <cstdlib>
#include <set>
#include <string>

#include "plugin_args_decode.hpp"

namespace koord::manager::descheduler::config::detail {

namespace {

constexpr char kArgsApiVersion[] = "descheduler/v1alpha2";

// Checks apiVersion/kind of an args object and collects its unknown keys into `extra`.
bool beginArgs(FieldReader& reader, const Field& args, std::string_view kind,
               std::initializer_list<std::string_view> known, Json& extra) {
  if (args.absent()) {
    return false;
  }
  if (!reader.checkObject(args, known, koord::config::UnknownFields::kWarn)) {
    return false;
  }
  std::string api_version;
  std::string args_kind;
  reader.read(args.child("apiVersion"), api_version);
  reader.read(args.child("kind"), args_kind);
  if (!api_version.empty() && api_version != kArgsApiVersion) {
    reader.error(args.child("apiVersion"), "Unsupported value: \"" + api_version +
                                               "\": supported values: \"" + kArgsApiVersion + "\"");
  }
  if (!args_kind.empty() && args_kind != kind) {
    reader.error(args.child("kind"), "Unsupported value: \"" + args_kind +
                                         "\": supported values: \"" + std::string(kind) + "\"");
  }
  extra = Json();
  for (auto it = args.value->begin(); it != args.value->end(); ++it) {
    bool is_known = false;
    for (std::string_view key : known) {
      is_known = is_known || key == it.key();
    }
    if (!is_known) {
      extra[it.key()] = it.value();
    }
  }
  return true;
}

void readEnum(FieldReader& reader, const Field& field, std::string& out,
              std::initializer_list<std::string_view> allowed) {
  std::string value = out;
  reader.read(field, value);
  if (field.absent()) {
    return;
  }
  std::string supported;
  for (std::string_view a : allowed) {
    if (a == value) {
      out = value;
      return;
    }
    supported += (supported.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  }
  reader.error(field, "Unsupported value: \"" + value + "\": supported values: " + supported);
}

void readNonNegative(FieldReader& reader, const Field& field, std::optional<int32_t>& out) {
  reader.read(field, out);
  if (!field.absent() && out && *out < 0) {
    reader.error(field, "must be greater than or equal to 0");
  }
}

void readIntOrPercent(FieldReader& reader, const Field& field, std::optional<IntOrPercent>& out) {
  if (field.absent()) {
    return;
  }
  const Json& v = *field.value;
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    out = IntOrPercent{false, v.get<int64_t>()};
    return;
  }
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    char* end = nullptr;
    const long long number = std::strtoll(text.c_str(), &end, 10);
    if (!text.empty() && text.back() == '%' && end == text.c_str() + text.size() - 1 &&
        end != text.c_str() && number >= 0) {
      out = IntOrPercent{true, number};
      return;
    }
  }
  reader.error(field,
               "expected a non-negative integer or a percentage such as \"10%\", got " + v.dump());
}

void readNamespaces(FieldReader& reader, const Field& field, std::optional<Namespaces>& out) {
  if (field.absent() || !reader.checkObject(field, {"include", "exclude"})) {
    return;
  }
  Namespaces namespaces;
  reader.read(field.child("include"), namespaces.include);
  reader.read(field.child("exclude"), namespaces.exclude);
  if (!namespaces.include.empty() && !namespaces.exclude.empty()) {
    reader.error(field, "only one of include and exclude may be set");
  }
  out = std::move(namespaces);
}

void readThresholds(FieldReader& reader, const Field& field, ResourceThresholds& out) {
  reader.read(field, out);
  for (const auto& [resource, percent] : out) {
    if (percent < 0 || percent > 100) {
      reader.error(field.child(resource), "must be between 0 and 100");
    }
  }
}

void checkLowBelowHigh(FieldReader& reader, const Field& low_field, const ResourceThresholds& low,
                       const ResourceThresholds& high, bool deviation) {
  if (deviation) {
    return;
  }
  for (const auto& [resource, low_percent] : low) {
    auto it = high.find(resource);
    if (it != high.end() && low_percent > it->second) {
      reader.error(low_field.child(resource), "low threshold " + Json(low_percent).dump() +
                                                  " is above the high threshold " +
                                                  Json(it->second).dump());
    }
  }
}

void readAnomalyCondition(FieldReader& reader, const Field& field, LoadAnomalyCondition& out) {
  if (field.absent() || !reader.checkObject(field, {"timeout", "consecutiveAbnormalities",
                                                    "consecutiveNormalities"})) {
    return;
  }
  reader.read(field.child("timeout"), out.timeout);
  reader.read(field.child("consecutiveAbnormalities"), out.consecutive_abnormalities);
  reader.read(field.child("consecutiveNormalities"), out.consecutive_normalities);
  if (out.consecutive_abnormalities == 0) {
    out.consecutive_abnormalities = LoadAnomalyCondition{}.consecutive_abnormalities;
  }
}

// Koordinator's weights: 1 for cpu, memory and every resource with a threshold, unless set > 0.
void defaultWeights(const ResourceThresholds& low, const ResourceThresholds& high,
                    std::map<std::string, int64_t>& weights) {
  std::map<std::string, int64_t> defaults = {{"cpu", 1}, {"memory", 1}};
  for (const auto& thresholds : {low, high}) {
    for (const auto& entry : thresholds) {
      defaults[entry.first] = 1;
    }
  }
  for (const auto& [resource, weight] : defaults) {
    auto it = weights.find(resource);
    if (it == weights.end() || it->second <= 0) {
      weights[resource] = weight;
    }
  }
}

}  // namespace

void decodeMigrationControllerArgs(FieldReader& reader, const Field& args,
                                   MigrationControllerArgs& out) {
  if (!beginArgs(reader, args, "MigrationControllerArgs",
                 {"apiVersion",
                  "kind",
                  "dryRun",
                  "maxConcurrentReconciles",
                  "evictFailedBarePods",
                  "evictLocalStoragePods",
                  "evictSystemCriticalPods",
                  "ignorePvcPods",
                  "priorityThreshold",
                  "labelSelector",
                  "namespaces",
                  "nodeFit",
                  "nodeSelector",
                  "maxMigratingPerNode",
                  "maxMigratingPerNamespace",
                  "maxMigratingPerWorkload",
                  "maxUnavailablePerWorkload",
                  "maxMigratingGlobally",
                  "skipCheckExpectedReplicas",
                  "objectLimiters",
                  "defaultJobMode",
                  "defaultJobTTL",
                  "schedulerNames",
                  "evictQPS",
                  "evictBurst",
                  "evictionPolicy",
                  "defaultDeleteOptions",
                  "arbitrationArgs",
                  "skipEvictionGates"},
                 out.extra)) {
    return;
  }
  reader.read(args.child("dryRun"), out.dry_run);
  reader.read(args.child("maxConcurrentReconciles"), out.max_concurrent_reconciles);
  if (out.max_concurrent_reconciles < 1) {
    reader.error(args.child("maxConcurrentReconciles"), "must be at least 1");
  }
  reader.read(args.child("evictFailedBarePods"), out.evict_failed_bare_pods);
  reader.read(args.child("evictLocalStoragePods"), out.evict_local_storage_pods);
  reader.read(args.child("evictSystemCriticalPods"), out.evict_system_critical_pods);
  reader.read(args.child("ignorePvcPods"), out.ignore_pvc_pods);
  const Field priority = args.child("priorityThreshold");
  if (!priority.absent() && reader.checkObject(priority, {"value", "name"})) {
    PriorityThreshold threshold;
    reader.read(priority.child("value"), threshold.value);
    reader.read(priority.child("name"), threshold.name);
    if (threshold.value && !threshold.name.empty()) {
      reader.error(priority, "only one of value and name may be set");
    }
    out.priority_threshold = threshold;
  }
  reader.read(args.child("labelSelector"), out.label_selector);
  readNamespaces(reader, args.child("namespaces"), out.namespaces);
  reader.read(args.child("nodeFit"), out.node_fit);
  reader.read(args.child("nodeSelector"), out.node_selector);
  readNonNegative(reader, args.child("maxMigratingPerNode"), out.max_migrating_per_node);
  readNonNegative(reader, args.child("maxMigratingPerNamespace"), out.max_migrating_per_namespace);
  readIntOrPercent(reader, args.child("maxMigratingPerWorkload"), out.max_migrating_per_workload);
  readIntOrPercent(reader, args.child("maxUnavailablePerWorkload"),
                   out.max_unavailable_per_workload);
  readNonNegative(reader, args.child("maxMigratingGlobally"), out.max_migrating_globally);
  reader.read(args.child("skipCheckExpectedReplicas"), out.skip_check_expected_replicas);

  const Field limiters = args.child("objectLimiters");
  if (!limiters.absent() && reader.checkObject(limiters, {"workload"}) &&
      !limiters.value->empty()) {
    std::map<std::string, ObjectLimiter> parsed;
    for (auto it = limiters.value->begin(); it != limiters.value->end(); ++it) {
      const Field limiter = limiters.child(it.key());
      if (!reader.checkObject(limiter, {"duration", "maxMigrating"})) {
        continue;
      }
      ObjectLimiter value;
      reader.read(limiter.child("duration"), value.duration);
      readIntOrPercent(reader, limiter.child("maxMigrating"), value.max_migrating);
      parsed[it.key()] = value;
    }
    out.object_limiters = std::move(parsed);
  }

  readEnum(reader, args.child("defaultJobMode"), out.default_job_mode,
           {"ReservationFirst", "EvictDirectly"});
  reader.read(args.child("defaultJobTTL"), out.default_job_ttl);
  std::vector<std::string> scheduler_names;
  reader.read(args.child("schedulerNames"), scheduler_names);
  if (!scheduler_names.empty()) {
    out.scheduler_names = std::move(scheduler_names);
  }
  const Field qps = args.child("evictQPS");
  if (!qps.absent()) {
    const Json& v = *qps.value;
    double value = -1;
    if (v.is_number()) {
      value = v.get<double>();
    } else if (v.is_string()) {
      const std::string& text = v.get_ref<const std::string&>();
      char* end = nullptr;
      value = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) {
        value = -1;
      }
    }
    if (!(value > 0) || !std::isfinite(value)) {
      reader.error(qps, "expected a positive number (or a string holding one), got " + v.dump());
    } else {
      out.evict_qps = value;
    }
  }
  reader.read(args.child("evictBurst"), out.evict_burst);
  if (out.evict_burst < 1) {
    reader.error(args.child("evictBurst"), "must be at least 1");
  }
  readEnum(reader, args.child("evictionPolicy"), out.eviction_policy,
           {"Eviction", "Delete", "SoftEviction"});
  const Field delete_options = args.child("defaultDeleteOptions");
  if (!delete_options.absent()) {
    out.default_delete_options = *delete_options.value;
  }
  const Field arbitration = args.child("arbitrationArgs");
  if (!arbitration.absent() && reader.checkObject(arbitration, {"enabled", "interval"})) {
    // As in Koordinator, a written arbitrationArgs without `enabled` is disabled.
    out.arbitration_args.enabled = false;
    reader.read(arbitration.child("enabled"), out.arbitration_args.enabled);
    reader.read(arbitration.child("interval"), out.arbitration_args.interval);
  }
  reader.read(args.child("skipEvictionGates"), out.skip_eviction_gates);
}

void decodeLowNodeLoadArgs(FieldReader& reader, const Field& args, LowNodeLoadArgs& out) {
  const bool present = beginArgs(
      reader, args, "LowNodeLoadArgs",
      {"apiVersion", "kind", "paused", "dryRun", "numberOfNodes", "nodeMetricExpirationSeconds",
       "evictableNamespaces", "nodeSelector", "podSelectors", "nodeFit", "useDeviationThresholds",
       "highThresholds", "lowThresholds", "prodHighThresholds", "prodLowThresholds",
       "resourceWeights", "anomalyCondition", "detectorCacheTimeout", "nodePools"},
      out.extra);
  if (present) {
    reader.read(args.child("paused"), out.paused);
    reader.read(args.child("dryRun"), out.dry_run);
    reader.read(args.child("numberOfNodes"), out.number_of_nodes);
    reader.read(args.child("nodeMetricExpirationSeconds"), out.node_metric_expiration_seconds);
    if (out.node_metric_expiration_seconds <= 0) {
      reader.error(args.child("nodeMetricExpirationSeconds"), "must be greater than 0");
    }
    readNamespaces(reader, args.child("evictableNamespaces"), out.evictable_namespaces);
    reader.read(args.child("nodeSelector"), out.node_selector);
    const Field pod_selectors = args.child("podSelectors");
    if (!pod_selectors.absent()) {
      if (!pod_selectors.value->is_array()) {
        reader.error(pod_selectors, "expected a list");
      } else {
        for (size_t i = 0; i < pod_selectors.value->size(); ++i) {
          const Field item = pod_selectors.item(i);
          if (!reader.checkObject(item, {"name", "selector"})) {
            continue;
          }
          LowNodeLoadPodSelector selector;
          reader.read(item.child("name"), selector.name);
          reader.read(item.child("selector"), selector.selector);
          out.pod_selectors.push_back(std::move(selector));
        }
      }
    }
    reader.read(args.child("nodeFit"), out.node_fit);
    reader.read(args.child("useDeviationThresholds"), out.use_deviation_thresholds);
    readThresholds(reader, args.child("highThresholds"), out.high_thresholds);
    readThresholds(reader, args.child("lowThresholds"), out.low_thresholds);
    readThresholds(reader, args.child("prodHighThresholds"), out.prod_high_thresholds);
    readThresholds(reader, args.child("prodLowThresholds"), out.prod_low_thresholds);
    checkLowBelowHigh(reader, args.child("lowThresholds"), out.low_thresholds, out.high_thresholds,
                      out.use_deviation_thresholds);
    checkLowBelowHigh(reader, args.child("prodLowThresholds"), out.prod_low_thresholds,
                      out.prod_high_thresholds, out.use_deviation_thresholds);
    reader.read(args.child("resourceWeights"), out.resource_weights);
    readAnomalyCondition(reader, args.child("anomalyCondition"), out.anomaly_condition);
    reader.read(args.child("detectorCacheTimeout"), out.detector_cache_timeout);

    const Field pools = args.child("nodePools");
    if (!pools.absent()) {
      if (!pools.value->is_array()) {
        reader.error(pools, "expected a list");
      } else {
        for (size_t i = 0; i < pools.value->size(); ++i) {
          const Field item = pools.item(i);
          if (!reader.checkObject(item,
                                  {"name", "nodeSelector", "useDeviationThresholds",
                                   "highThresholds", "lowThresholds", "prodHighThresholds",
                                   "prodLowThresholds", "resourceWeights", "anomalyCondition"},
                                  koord::config::UnknownFields::kWarn)) {
            continue;
          }
          LowNodeLoadNodePool pool;
          reader.read(item.child("name"), pool.name);
          reader.read(item.child("nodeSelector"), pool.node_selector);
          reader.read(item.child("useDeviationThresholds"), pool.use_deviation_thresholds);
          readThresholds(reader, item.child("highThresholds"), pool.high_thresholds);
          readThresholds(reader, item.child("lowThresholds"), pool.low_thresholds);
          readThresholds(reader, item.child("prodHighThresholds"), pool.prod_high_thresholds);
          readThresholds(reader, item.child("prodLowThresholds"), pool.prod_low_thresholds);
          checkLowBelowHigh(reader, item.child("lowThresholds"), pool.low_thresholds,
                            pool.high_thresholds, pool.use_deviation_thresholds);
          reader.read(item.child("resourceWeights"), pool.resource_weights);
          if (!item.child("anomalyCondition").absent()) {
            LoadAnomalyCondition condition;
            readAnomalyCondition(reader, item.child("anomalyCondition"), condition);
            pool.anomaly_condition = condition;
          }
          out.node_pools.push_back(std::move(pool));
        }
      }
    }
  }
  defaultWeights(out.low_thresholds, out.high_thresholds, out.resource_weights);
  const bool has_thresholds =
      !out.high_thresholds.empty() || !out.prod_high_thresholds.empty() || !out.node_pools.empty();
  if (!has_thresholds) {
    reader.error(args, "LowNodeLoad needs highThresholds (or prodHighThresholds, or nodePools)");
  }
}

}  // namespace koord::manager::descheduler::config::detail
