#include "manager/descheduler/framework/default_evictor.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "koord/api/codec.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/extension/duration.hpp"
#include "manager/descheduler/framework/node_fit.hpp"

namespace koord::manager::descheduler::framework {

namespace defaultevictor_detail {

using Json = nlohmann::json;

constexpr std::string_view kEvictAnnotation = "descheduler.alpha.kubernetes.io/evict";
constexpr std::string_view kPreferNoEvictionAnnotation =
    "descheduler.alpha.kubernetes.io/prefer-no-eviction";
constexpr std::string_view kMirrorAnnotation = "kubernetes.io/config.mirror";
constexpr std::string_view kConfigSourceAnnotation = "kubernetes.io/config.source";

std::vector<std::string> defaultProtections() {
  return {std::string(kPodsWithLocalStorage), std::string(kSystemCriticalPods),
          std::string(kFailedBarePods), std::string(kDaemonSetPods)};
}
std::vector<std::string> extraProtections() {
  return {std::string(kPodsWithPVC), std::string(kPodsWithoutPDB),
          std::string(kPodsWithResourceClaims)};
}

std::string path(std::string_view key) {
  return "DefaultEvictorArgs." + std::string(key);
}

Status checkKeys(const Json& object, const std::string& at,
                 std::initializer_list<std::string_view> known) {
  if (!object.is_object()) {
    return Status::invalidArgument(at + ": expected an object");
  }
  for (const auto& [key, value] : object.items()) {
    if (key == "apiVersion" || key == "kind") {
      continue;
    }
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Status::invalidArgument(at + "." + key + ": unknown field");
    }
  }
  return Status::ok();
}

template <typename T>
Status readKey(const Json& object, std::string_view key, T& out) {
  auto it = object.find(std::string(key));
  if (it == object.end() || it->is_null()) {
    return Status::ok();
  }
  using api::fromJson;
  return fromJson(*it, out, path(key));
}

Status decodeProtections(const Json& j, DefaultEvictorOptions& out) {
  const std::string at = path("podProtections");
  KOORD_RETURN_IF_ERROR(checkKeys(j, at, {"extraEnabled", "defaultDisabled", "config"}));
  using api::fromJson;
  if (j.contains("extraEnabled") && !j["extraEnabled"].is_null()) {
    KOORD_RETURN_IF_ERROR(fromJson(j["extraEnabled"], out.extra_enabled, at + ".extraEnabled"));
  }
  if (j.contains("defaultDisabled") && !j["defaultDisabled"].is_null()) {
    KOORD_RETURN_IF_ERROR(
        fromJson(j["defaultDisabled"], out.default_disabled, at + ".defaultDisabled"));
  }
  if (!j.contains("config") || j["config"].is_null()) {
    return Status::ok();
  }
  const Json& config = j["config"];
  KOORD_RETURN_IF_ERROR(checkKeys(config, at + ".config", {"PodsWithPVC"}));
  if (!config.contains("PodsWithPVC") || config["PodsWithPVC"].is_null()) {
    return Status::ok();
  }
  const Json& pvc = config["PodsWithPVC"];
  const std::string pvc_at = at + ".config.PodsWithPVC";
  KOORD_RETURN_IF_ERROR(checkKeys(pvc, pvc_at, {"protectedStorageClasses"}));
  if (!pvc.contains("protectedStorageClasses") || pvc["protectedStorageClasses"].is_null()) {
    return Status::ok();
  }
  const Json& classes = pvc["protectedStorageClasses"];
  if (!classes.is_array()) {
    return Status::invalidArgument(pvc_at + ".protectedStorageClasses: expected an array");
  }
  for (size_t i = 0; i < classes.size(); ++i) {
    const std::string item_at = pvc_at + ".protectedStorageClasses[" + std::to_string(i) + "]";
    KOORD_RETURN_IF_ERROR(checkKeys(classes[i], item_at, {"name"}));
    std::string name;
    if (classes[i].contains("name") && !classes[i]["name"].is_null()) {
      KOORD_RETURN_IF_ERROR(fromJson(classes[i]["name"], name, item_at + ".name"));
    }
    out.protected_storage_classes.push_back(std::move(name));
  }
  return Status::ok();
}

Status decodePriorityThreshold(const Json& j, DefaultEvictorOptions& out) {
  const std::string at = path("priorityThreshold");
  KOORD_RETURN_IF_ERROR(checkKeys(j, at, {"value", "name"}));
  config::PriorityThreshold threshold;
  using api::fromJson;
  if (j.contains("value") && !j["value"].is_null()) {
    int32_t value = 0;
    KOORD_RETURN_IF_ERROR(fromJson(j["value"], value, at + ".value"));
    threshold.value = value;
  }
  if (j.contains("name") && !j["name"].is_null()) {
    KOORD_RETURN_IF_ERROR(fromJson(j["name"], threshold.name, at + ".name"));
  }
  out.priority_threshold = std::move(threshold);
  return Status::ok();
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool hasDuplicates(const std::vector<std::string>& list) {
  return std::set<std::string>(list.begin(), list.end()).size() != list.size();
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : " ") + names[i];
  }
  return out + "]";
}

std::vector<std::string> effectiveProtections(const DefaultEvictorOptions& o) {
  if (o.extra_enabled.empty() && o.default_disabled.empty()) {
    std::vector<std::string> legacy;
    if (!o.evict_local_storage_pods)
      legacy.emplace_back(kPodsWithLocalStorage);
    if (!o.evict_daemon_set_pods)
      legacy.emplace_back(kDaemonSetPods);
    if (!o.evict_system_critical_pods)
      legacy.emplace_back(kSystemCriticalPods);
    if (!o.evict_failed_bare_pods)
      legacy.emplace_back(kFailedBarePods);
    if (o.ignore_pvc_pods)
      legacy.emplace_back(kPodsWithPVC);
    if (o.ignore_pods_without_pdb)
      legacy.emplace_back(kPodsWithoutPDB);
    return legacy;
  }
  std::vector<std::string> effective;
  for (const auto& protection : defaultProtections()) {
    if (!contains(o.default_disabled, protection))
      effective.push_back(protection);
  }
  effective.insert(effective.end(), o.extra_enabled.begin(), o.extra_enabled.end());
  return effective;
}

bool hasVolumeWith(const api::core::Pod& pod, std::initializer_list<std::string_view> kinds) {
  if (!pod.spec.extra.is_object())
    return false;
  auto volumes = pod.spec.extra.find("volumes");
  if (volumes == pod.spec.extra.end() || !volumes->is_array())
    return false;
  for (const auto& volume : *volumes) {
    if (!volume.is_object())
      continue;
    for (std::string_view kind : kinds) {
      auto it = volume.find(std::string(kind));
      if (it != volume.end() && !it->is_null())
        return true;
    }
  }
  return false;
}

bool hasAnnotation(const api::core::Pod& pod, std::string_view key) {
  return pod.metadata.annotations.find(std::string(key)) != pod.metadata.annotations.end();
}

// now - start < min_age, without overflowing for times centuries apart (a nanosecond difference
// overflows past 292 years): compared in seconds first, exactly only when they are close.
bool youngerThan(std::chrono::system_clock::time_point now,
                 std::chrono::system_clock::time_point start, std::chrono::nanoseconds min_age) {
  using std::chrono::duration_cast;
  using std::chrono::seconds;
  const seconds apart = duration_cast<seconds>(now.time_since_epoch()) -
                        duration_cast<seconds>(start.time_since_epoch());
  constexpr seconds kCenturies{int64_t{200} * 365 * 24 * 3600};
  if (apart > kCenturies)
    return false;
  if (apart < -kCenturies)
    return true;
  return now - start < min_age;
}

}  // namespace defaultevictor_detail

namespace ded = defaultevictor_detail;

bool podHasLocalStorage(const api::core::Pod& pod) {
  return ded::hasVolumeWith(pod, {"hostPath", "emptyDir"});
}

bool podHasPvc(const api::core::Pod& pod) {
  return ded::hasVolumeWith(pod, {"persistentVolumeClaim"});
}

bool isCriticalPriorityPod(const api::core::Pod& pod) {
  return pod.spec.priority.has_value() && *pod.spec.priority >= kSystemCriticalPriority;
}

Result<DefaultEvictorOptions> decodeDefaultEvictorArgs(const nlohmann::json& args) {
  DefaultEvictorOptions out;
  if (args.is_null()) {
    return out;
  }
  KOORD_RETURN_IF_ERROR(ded::checkKeys(
      args, "DefaultEvictorArgs",
      {"nodeSelector", "labelSelector", "namespaceLabelSelector", "priorityThreshold", "nodeFit",
       "minReplicas", "minPodAge", "noEvictionPolicy", "podProtections", "evictLocalStoragePods",
       "evictDaemonSetPods", "evictSystemCriticalPods", "ignorePvcPods", "ignorePodsWithoutPDB",
       "evictFailedBarePods"}));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "nodeSelector", out.node_selector));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "labelSelector", out.label_selector));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "namespaceLabelSelector", out.namespace_label_selector));
  if (args.contains("priorityThreshold") && !args["priorityThreshold"].is_null()) {
    KOORD_RETURN_IF_ERROR(ded::decodePriorityThreshold(args["priorityThreshold"], out));
  }
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "nodeFit", out.node_fit));
  int64_t min_replicas = 0;
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "minReplicas", min_replicas));
  if (min_replicas < 0 || min_replicas > UINT32_MAX) {
    return Status::invalidArgument(ded::path("minReplicas") + ": must be a non-negative integer");
  }
  out.min_replicas = static_cast<uint32_t>(min_replicas);
  std::optional<std::string> min_pod_age;
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "minPodAge", min_pod_age));
  if (min_pod_age) {
    auto parsed = api::extension::parseDuration(*min_pod_age);
    if (!parsed.ok()) {
      return Status::invalidArgument(ded::path("minPodAge") + ": " + parsed.status().message());
    }
    out.min_pod_age = *parsed;
  }
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "noEvictionPolicy", out.no_eviction_policy));
  if (args.contains("podProtections") && !args["podProtections"].is_null()) {
    KOORD_RETURN_IF_ERROR(ded::decodeProtections(args["podProtections"], out));
  }
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "evictLocalStoragePods", out.evict_local_storage_pods));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "evictDaemonSetPods", out.evict_daemon_set_pods));
  KOORD_RETURN_IF_ERROR(
      ded::readKey(args, "evictSystemCriticalPods", out.evict_system_critical_pods));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "ignorePvcPods", out.ignore_pvc_pods));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "ignorePodsWithoutPDB", out.ignore_pods_without_pdb));
  KOORD_RETURN_IF_ERROR(ded::readKey(args, "evictFailedBarePods", out.evict_failed_bare_pods));
  KOORD_RETURN_IF_ERROR(validateDefaultEvictorOptions(out));
  return out;
}

Status validateDefaultEvictorOptions(const DefaultEvictorOptions& o) {
  std::vector<std::string> errs;
  if (o.priority_threshold && o.priority_threshold->value && !o.priority_threshold->name.empty()) {
    errs.emplace_back(
        "priority threshold misconfigured, only one of priorityThreshold fields can be set");
  }
  if (!o.no_eviction_policy.empty() && o.no_eviction_policy != "Preferred" &&
      o.no_eviction_policy != "Mandatory") {
    errs.emplace_back("noEvictionPolicy accepts only [\"Preferred\" \"Mandatory\"] values");
  }
  const bool uses_new = !o.extra_enabled.empty() || !o.default_disabled.empty();
  const bool deprecated = o.evict_local_storage_pods || o.evict_daemon_set_pods ||
                          o.evict_system_critical_pods || o.ignore_pvc_pods ||
                          o.evict_failed_bare_pods || o.ignore_pods_without_pdb;
  if (deprecated && uses_new) {
    errs.emplace_back(
        "cannot use Deprecated fields alongside PodProtections.ExtraEnabled or "
        "PodProtections.DefaultDisabled");
  }
  if (uses_new) {
    for (const auto& p : o.extra_enabled) {
      if (!ded::contains(ded::extraProtections(), p)) {
        errs.push_back("invalid pod protection policy in ExtraEnabled: \"" + p +
                       "\". Valid options are: " + ded::joinNames(ded::extraProtections()));
      }
    }
    for (const auto& p : o.default_disabled) {
      if (!ded::contains(ded::defaultProtections(), p)) {
        errs.push_back("invalid pod protection policy in DefaultDisabled: \"" + p +
                       "\". Valid options are: " + ded::joinNames(ded::defaultProtections()));
      }
    }
    if (ded::hasDuplicates(o.default_disabled)) {
      errs.emplace_back("PodProtections.DefaultDisabled contains duplicate entries");
    }
    if (ded::hasDuplicates(o.extra_enabled)) {
      errs.emplace_back("PodProtections.ExtraEnabled contains duplicate entries");
    }
    if (ded::contains(o.extra_enabled, kPodsWithPVC)) {
      for (size_t i = 0; i < o.protected_storage_classes.size(); ++i) {
        if (o.protected_storage_classes[i].empty()) {
          errs.push_back("PodProtections.Config.PodsWithPVC.ProtectedStorageClasses[" +
                         std::to_string(i) + "] name cannot be empty");
        }
      }
    }
  }
  if (errs.empty()) {
    return Status::ok();
  }
  if (errs.size() == 1) {
    return Status::invalidArgument("DefaultEvictorArgs: " + errs[0]);
  }
  std::string joined;
  for (const auto& e : errs)
    joined += (joined.empty() ? "" : ", ") + e;
  return Status::invalidArgument("DefaultEvictorArgs: [" + joined + "]");
}

DefaultEvictorOptions defaultEvictorOptionsFrom(const config::MigrationControllerArgs& args) {
  DefaultEvictorOptions out;
  out.node_fit = args.node_fit;
  out.node_selector = args.node_selector;
  out.evict_local_storage_pods = args.evict_local_storage_pods;
  out.evict_system_critical_pods = args.evict_system_critical_pods;
  out.ignore_pvc_pods = args.ignore_pvc_pods;
  out.evict_failed_bare_pods = args.evict_failed_bare_pods;
  out.label_selector = args.label_selector;
  out.priority_threshold = args.priority_threshold;
  out.namespaces = args.namespaces;
  return out;
}

DefaultEvictor::DefaultEvictor(DefaultEvictorOptions options)
    : options_(std::move(options)), protections_(ded::effectiveProtections(options_)) {}

Result<DefaultEvictor> DefaultEvictor::create(DefaultEvictorOptions options) {
  KOORD_RETURN_IF_ERROR(validateDefaultEvictorOptions(options));
  if (options.label_selector) {
    Status status = api::core::validateLabelSelector(*options.label_selector);
    if (!status.isOk()) {
      return Status::invalidArgument(ded::path("labelSelector") + ": " + status.message());
    }
  }
  const auto& ns_selector = options.namespace_label_selector;
  if (ns_selector &&
      (!ns_selector->matchLabels.empty() || !ns_selector->matchExpressions.empty())) {
    return Status::unimplemented(ded::path("namespaceLabelSelector") +
                                 ": not supported (the snapshot holds no namespaces)");
  }
  auto node_selector = parseNodeSelectorText(options.node_selector);
  if (!node_selector.ok()) {
    return Status::invalidArgument(ded::path("nodeSelector") + ": " +
                                   node_selector.status().message());
  }
  return DefaultEvictor(std::move(options));
}

bool DefaultEvictor::protects(std::string_view protection) const {
  return ded::contains(protections_, protection);
}

std::vector<std::string> DefaultEvictor::filterReasons(
    const api::core::Pod& pod, const ClusterSnapshot& snapshot,
    std::chrono::system_clock::time_point now) const {
  std::vector<std::string> reasons;
  if (ded::hasAnnotation(pod, ded::kEvictAnnotation)) {
    return reasons;
  }
  if (options_.no_eviction_policy == "Mandatory" &&
      ded::hasAnnotation(pod, ded::kPreferNoEvictionAnnotation)) {
    reasons.emplace_back("pod has the no-eviction annotation and noEvictionPolicy is Mandatory");
    return reasons;
  }
  if (options_.namespaces) {
    const auto& ns = pod.metadata.namespace_;
    const auto& include = options_.namespaces->include;
    const auto& exclude = options_.namespaces->exclude;
    if (!include.empty() && !ded::contains(include, ns)) {
      reasons.emplace_back("pod namespace is not among the included namespaces");
    }
    if (!exclude.empty() && ded::contains(exclude, ns)) {
      reasons.emplace_back("pod namespace is excluded");
    }
  }
  if (ded::hasAnnotation(pod, ded::kMirrorAnnotation)) {
    reasons.emplace_back("pod is a mirror pod");
  }
  auto source = pod.metadata.annotations.find(std::string(ded::kConfigSourceAnnotation));
  if (source != pod.metadata.annotations.end() && source->second != "api") {
    reasons.emplace_back("pod is a static pod");
  }
  if (!pod.metadata.deletionTimestamp.empty()) {
    reasons.emplace_back("pod is terminating");
  }
  checkConstraints(pod, snapshot, now, reasons);
  return reasons;
}

void DefaultEvictor::checkConstraints(const api::core::Pod& pod, const ClusterSnapshot& snapshot,
                                      std::chrono::system_clock::time_point now,
                                      std::vector<std::string>& reasons) const {
  const auto& owners = pod.metadata.ownerReferences;
  if (protects(kSystemCriticalPods)) {
    if (isCriticalPriorityPod(pod)) {
      reasons.emplace_back("pod has system critical priority and is protected against eviction");
    }
    const auto& threshold = options_.priority_threshold;
    if (threshold && (threshold->value || !threshold->name.empty())) {
      std::optional<int32_t> value = threshold->value;
      if (!value)
        value = snapshot.priorityClassValue(threshold->name);
      if (!value) {
        reasons.push_back("unable to get priority value from the priority class \"" +
                          threshold->name + "\"");
      } else if (*value > kSystemCriticalPriority) {
        reasons.emplace_back("priority threshold can't be greater than 2000000000");
      } else if (pod.spec.priority && *pod.spec.priority >= *value) {
        reasons.emplace_back("pod has higher priority than specified priority class threshold");
      }
    }
  }
  if (protects(kFailedBarePods)) {
    if (owners.empty())
      reasons.emplace_back("pod does not have any ownerRefs");
  } else if (owners.empty() && pod.status.phase != "Failed") {
    reasons.emplace_back("pod does not have any ownerRefs and is not in failed phase");
  }
  if (protects(kPodsWithLocalStorage) && podHasLocalStorage(pod)) {
    reasons.emplace_back("pod has local storage and is protected against eviction");
  }
  if (protects(kDaemonSetPods) && std::any_of(owners.begin(), owners.end(), [](const auto& o) {
        return o.kind == "DaemonSet";
      })) {
    reasons.emplace_back("daemonset pods are protected against eviction");
  }
  if (protects(kPodsWithPVC) && podHasPvc(pod)) {
    // Without the PVCs their storage classes are unknown: protectedStorageClasses protects all.
    reasons.emplace_back("pod with PVC is protected against eviction");
  }
  if (protects(kPodsWithResourceClaims) && pod.spec.extra.is_object()) {
    auto claims = pod.spec.extra.find("resourceClaims");
    if (claims != pod.spec.extra.end() && claims->is_array() && !claims->empty()) {
      reasons.emplace_back(
          "pod has ResourceClaims and descheduler is configured to protect ResourceClaims pods");
    }
  }
  if (options_.label_selector) {
    auto matches = api::core::matchesLabelSelector(*options_.label_selector, pod.metadata.labels);
    if (!matches.ok() || !*matches) {
      reasons.emplace_back(
          "pod labels do not match the labelSelector filter in the policy parameter");
    }
  }
  if (options_.min_replicas > 1 && owners.size() == 1) {
    const std::string& uid = owners[0].uid;
    size_t replicas = 0;
    for (const auto& other : snapshot.pods()) {
      for (const auto& ref : other->metadata.ownerReferences) {
        if (ref.uid == uid) {
          ++replicas;
          break;
        }
      }
    }
    if (replicas < options_.min_replicas) {
      reasons.push_back("owner has " + std::to_string(replicas) +
                        " replicas which is less than minReplicas of " +
                        std::to_string(options_.min_replicas));
    }
  }
  if (options_.min_pod_age) {
    auto start = api::core::parseTime(pod.status.startTime);
    if (pod.status.startTime.empty() || !start.ok() ||
        ded::youngerThan(now, *start, *options_.min_pod_age)) {
      reasons.push_back("pod age is not older than MinPodAge: " +
                        api::extension::formatDuration(*options_.min_pod_age) + " seconds");
    }
  }
}

}  // namespace koord::manager::descheduler::framework
