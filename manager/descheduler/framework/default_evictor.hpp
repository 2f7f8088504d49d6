// DefaultEvictor's pod filters (sigs.k8s.io/descheduler v0.36.0 plugins/defaultevictor): which
// pods a descheduling plugin may hand to the evictor at all.
//
// Contract:
// - DefaultEvictorOptions holds the community DefaultEvictorArgs (decodeDefaultEvictorArgs reads
//   them strictly from JSON: unknown key -> kInvalidArgument "DefaultEvictorArgs.<key>: unknown
//   field"; ValidateDefaultEvictorArgs' rules and messages) or koord's MigrationControllerArgs
//   (defaultEvictorOptionsFrom, as Koordinator's migration filter maps them, plus its namespaces).
// - DefaultEvictor::filterReasons(pod, snapshot, now) lists every check the pod fails, in the
//   community's order and words ("pod is a mirror pod", "pod does not have any ownerRefs", ...);
//   empty means evictable. A pod annotated descheduler.alpha.kubernetes.io/evict passes outright.
// - Checks that need objects the snapshot does not hold are approximated, and say so:
//   PodsWithoutPDB (no PodDisruptionBudgets: not checked), protectedStorageClasses (no PVCs: any
//   PVC pod is protected). A non-empty namespaceLabelSelector is refused (kUnimplemented).
// - A priority threshold given by class name is resolved from the snapshot on each call; an
//   unknown class, or a threshold above 2000000000, makes the filter refuse every pod (with why).
// Pure functions of their arguments; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/framework/snapshot.hpp"

namespace koord::manager::descheduler::framework {

inline constexpr std::string_view kDefaultEvictorName = "DefaultEvictor";
// Pods at or above this priority are system critical (system-cluster-critical).
inline constexpr int32_t kSystemCriticalPriority = 2000000000;

// PodProtection names (podProtections.extraEnabled / defaultDisabled).
inline constexpr std::string_view kPodsWithLocalStorage = "PodsWithLocalStorage";
inline constexpr std::string_view kDaemonSetPods = "DaemonSetPods";
inline constexpr std::string_view kSystemCriticalPods = "SystemCriticalPods";
inline constexpr std::string_view kFailedBarePods = "FailedBarePods";
inline constexpr std::string_view kPodsWithPVC = "PodsWithPVC";
inline constexpr std::string_view kPodsWithoutPDB = "PodsWithoutPDB";
inline constexpr std::string_view kPodsWithResourceClaims = "PodsWithResourceClaims";

struct DefaultEvictorOptions {
  std::string node_selector;  // label selector text for nodeFit's candidate nodes
  std::optional<api::core::LabelSelector> label_selector;
  std::optional<api::core::LabelSelector> namespace_label_selector;
  std::optional<config::PriorityThreshold> priority_threshold;
  bool node_fit = false;
  uint32_t min_replicas = 0;
  std::optional<std::chrono::nanoseconds> min_pod_age;
  std::string no_eviction_policy;  // "", "Preferred" or "Mandatory"
  std::vector<std::string> extra_enabled;
  std::vector<std::string> default_disabled;
  std::vector<std::string> protected_storage_classes;
  // Deprecated switches (used when extra_enabled and default_disabled are both empty).
  bool evict_local_storage_pods = false;
  bool evict_daemon_set_pods = false;
  bool evict_system_critical_pods = false;
  bool ignore_pvc_pods = false;
  bool ignore_pods_without_pdb = false;
  bool evict_failed_bare_pods = false;
  // koord's MigrationController namespaces (not a DefaultEvictorArgs field).
  std::optional<config::Namespaces> namespaces;
};

// Strict decode of DefaultEvictorArgs (null: all defaults), then validateDefaultEvictorOptions.
[[nodiscard]] Result<DefaultEvictorOptions> decodeDefaultEvictorArgs(const nlohmann::json& args);
// ValidateDefaultEvictorArgs: every failed rule, joined as the community aggregates them
// ("[a, b]" when more than one).
[[nodiscard]] Status validateDefaultEvictorOptions(const DefaultEvictorOptions& options);
[[nodiscard]] DefaultEvictorOptions defaultEvictorOptionsFrom(
    const config::MigrationControllerArgs& args);

class DefaultEvictor {
 public:
  // Fails when the options do not validate, or hold a selector that cannot be used.
  [[nodiscard]] static Result<DefaultEvictor> create(DefaultEvictorOptions options);

  [[nodiscard]] const DefaultEvictorOptions& options() const { return options_; }
  // The protections in force (podProtections, or the deprecated switches).
  [[nodiscard]] const std::vector<std::string>& protections() const { return protections_; }

  // Why `pod` may not be evicted; empty when it may.
  [[nodiscard]] std::vector<std::string> filterReasons(
      const api::core::Pod& pod, const ClusterSnapshot& snapshot,
      std::chrono::system_clock::time_point now) const;

 private:
  explicit DefaultEvictor(DefaultEvictorOptions options);
  [[nodiscard]] bool protects(std::string_view protection) const;
  void checkConstraints(const api::core::Pod& pod, const ClusterSnapshot& snapshot,
                        std::chrono::system_clock::time_point now,
                        std::vector<std::string>& reasons) const;

  DefaultEvictorOptions options_;
  std::vector<std::string> protections_;
};

// The pod's volumes (spec.volumes, kept in spec.extra) include a hostPath or emptyDir one.
[[nodiscard]] bool podHasLocalStorage(const api::core::Pod& pod);
// ... a persistentVolumeClaim one.
[[nodiscard]] bool podHasPvc(const api::core::Pod& pod);
// spec.priority >= kSystemCriticalPriority.
[[nodiscard]] bool isCriticalPriorityPod(const api::core::Pod& pod);

}  // namespace koord::manager::descheduler::framework
