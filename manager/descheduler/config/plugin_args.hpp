// Typed arguments of the descheduler plugins koord implements, with Koordinator's defaults
// (pkg/descheduler/apis/config/v1alpha2/defaults.go; reference section 5.3).
//
// Durations are Go durations decoded to nanoseconds. Keys of the args that koord does not model
// are kept in `extra` and reported as load warnings, not errors, so a newer Koordinator config
// still loads.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"

namespace koord::manager::descheduler::config {

using Json = nlohmann::json;
using Duration = std::chrono::nanoseconds;

inline constexpr char kMigrationControllerName[] = "MigrationController";
inline constexpr char kLowNodeLoadName[] = "LowNodeLoad";

// Namespaces a plugin includes or excludes (at most one of the two lists is meant to be set).
struct Namespaces {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

// Pods whose priority is below the threshold are evictable: by value, or by PriorityClass name.
struct PriorityThreshold {
  std::optional<int32_t> value;
  std::string name;
};

// An absolute number (5) or a percentage of the workload's replicas ("10%").
struct IntOrPercent {
  bool is_percent = false;
  int64_t value = 0;  // the number, or the percentage when is_percent
};

struct ObjectLimiter {
  Duration duration{0};
  std::optional<IntOrPercent> max_migrating;
};

struct ArbitrationArgs {
  bool enabled = true;
  Duration interval = std::chrono::milliseconds(500);
};

struct MigrationControllerArgs {
  bool dry_run = false;
  int32_t max_concurrent_reconciles = 1;
  bool evict_failed_bare_pods = false;
  bool evict_local_storage_pods = false;
  bool evict_system_critical_pods = false;
  bool ignore_pvc_pods = false;
  std::optional<PriorityThreshold> priority_threshold;
  std::optional<api::core::LabelSelector> label_selector;
  std::optional<Namespaces> namespaces;
  bool node_fit = false;
  std::string node_selector;  // a label selector in its text form, e.g. "pool=batch"
  std::optional<int32_t> max_migrating_per_node = 2;
  std::optional<int32_t> max_migrating_per_namespace;
  std::optional<IntOrPercent> max_migrating_per_workload;
  std::optional<IntOrPercent> max_unavailable_per_workload;
  std::optional<int32_t> max_migrating_globally;
  bool skip_check_expected_replicas = false;
  // Keyed by object type; Koordinator knows "workload".
  std::map<std::string, ObjectLimiter> object_limiters = {
      {"workload", ObjectLimiter{std::chrono::minutes(5), std::nullopt}}};
  std::string default_job_mode = "ReservationFirst";  // or "EvictDirectly"
  Duration default_job_ttl = std::chrono::minutes(5);
  std::vector<std::string> scheduler_names = {"koord-scheduler"};
  double evict_qps = 10;
  int32_t evict_burst = 1;
  std::string eviction_policy = "Eviction";  // or "Delete", "SoftEviction"
  Json default_delete_options;               // metav1.DeleteOptions as written; null when absent
  ArbitrationArgs arbitration_args;
  // Gates the controller may skip: MaxMigratingGlobally, MaxMigratingPerNode, ...
  std::vector<std::string> skip_eviction_gates;
  Json extra;  // keys koord does not model
};

struct LoadAnomalyCondition {
  Duration timeout = std::chrono::minutes(1);
  uint32_t consecutive_abnormalities = 5;
  uint32_t consecutive_normalities = 3;
};

// Resource name -> percent of allocatable (0..100).
using ResourceThresholds = std::map<std::string, double>;

struct LowNodeLoadNodePool {
  std::string name;
  std::optional<api::core::LabelSelector> node_selector;
  bool use_deviation_thresholds = false;
  ResourceThresholds high_thresholds;
  ResourceThresholds low_thresholds;
  ResourceThresholds prod_high_thresholds;
  ResourceThresholds prod_low_thresholds;
  std::map<std::string, int64_t> resource_weights;
  std::optional<LoadAnomalyCondition> anomaly_condition;
  Json extra;
};

struct LowNodeLoadPodSelector {
  std::string name;
  std::optional<api::core::LabelSelector> selector;
};

struct LowNodeLoadArgs {
  bool paused = false;
  bool dry_run = false;
  int32_t number_of_nodes = 0;
  int64_t node_metric_expiration_seconds = 180;
  std::optional<Namespaces> evictable_namespaces;
  std::optional<api::core::LabelSelector> node_selector;
  std::vector<LowNodeLoadPodSelector> pod_selectors;
  bool node_fit = true;
  bool use_deviation_thresholds = false;
  ResourceThresholds high_thresholds;
  ResourceThresholds low_thresholds;
  ResourceThresholds prod_high_thresholds;
  ResourceThresholds prod_low_thresholds;
  // cpu and memory weigh 1 by default, as does every resource named in a threshold.
  std::map<std::string, int64_t> resource_weights = {{"cpu", 1}, {"memory", 1}};
  LoadAnomalyCondition anomaly_condition;
  Duration detector_cache_timeout = std::chrono::minutes(5);
  std::vector<LowNodeLoadNodePool> node_pools;
  Json extra;  // keys koord does not model
};

}  // namespace koord::manager::descheduler::config
