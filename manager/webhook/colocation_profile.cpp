#include "manager/webhook/colocation_profile.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <utility>

#include "koord/api/core/selectors.hpp"
#include "koord/api/extension/resource.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::manager::webhook {
namespace {

using api::Json;
using api::config::ClusterColocationProfile;

constexpr std::array<std::string_view, 6> kMergeByNameLists = {
    "containers", "initContainers", "ephemeralContainers", "volumes", "env", "imagePullSecrets"};

// parent[key] as an object, created (or replacing a non-object) when needed. `parent` must be an
// object.
Json& objectAt(Json& parent, std::string_view key) {
  Json& child = parent[std::string(key)];
  if (!child.is_object()) {
    child = Json::object();
  }
  return child;
}

// The object at parent[key], or nullptr when parent is not an object or the member is not one.
Json* findObject(Json& parent, std::string_view key) {
  if (!parent.is_object()) {
    return nullptr;
  }
  auto it = parent.find(std::string(key));
  return it != parent.end() && it->is_object() ? &*it : nullptr;
}

api::core::StringMap stringMapOf(const Json& object) {
  api::core::StringMap out;
  if (!object.is_object()) {
    return out;
  }
  for (const auto& [key, value] : object.items()) {
    if (value.is_string()) {
      out.emplace(key, value.get<std::string>());
    }
  }
  return out;
}

std::string podName(const api::core::Pod& pod, std::string_view ns) {
  const std::string& name =
      pod.metadata.name.empty() ? pod.metadata.generateName : pod.metadata.name;
  return std::string(ns) + "/" + name;
}

// Whether `selector` (when set) selects `labels`; an unparsable selector selects nothing.
bool selects(const std::optional<api::core::LabelSelector>& selector,
             const api::core::StringMap& labels, std::string& why_not) {
  if (!selector) {
    return true;
  }
  auto matched = api::core::matchesLabelSelector(*selector, labels);
  if (!matched.ok()) {
    why_not = matched.status().message();
    return false;
  }
  return *matched;
}

bool isEmptySelector(const api::core::LabelSelector& selector) {
  return selector.matchLabels.empty() && selector.matchExpressions.empty();
}

Status copyKeys(Json& target, const std::map<std::string, std::string>& mapping) {
  for (const auto& [from, to] : mapping) {
    auto it = target.find(from);
    if (it != target.end() && it->is_string()) {
      target[to] = it->get<std::string>();
    }
  }
  return Status::ok();
}

Status applyProfile(const ColocationProfileSources& sources,
                    const ClusterColocationProfile& profile, Json& pod_json) {
  const auto& spec = profile.spec;
  Json& metadata = objectAt(pod_json, "metadata");
  if (!spec.labels.empty()) {
    Json& labels = objectAt(metadata, "labels");
    for (const auto& [key, value] : spec.labels) {
      labels[key] = value;
    }
  }
  if (!spec.annotations.empty()) {
    Json& annotations = objectAt(metadata, "annotations");
    for (const auto& [key, value] : spec.annotations) {
      annotations[key] = value;
    }
  }
  if (Json* labels = findObject(metadata, "labels"); labels != nullptr) {
    (void)copyKeys(*labels, spec.labelKeysMapping);
    for (const auto& [key, suffix] : spec.labelSuffixes) {
      auto it = labels->find(key);
      if (it != labels->end() && it->is_string()) {
        *it = it->get<std::string>() + suffix;
      }
    }
  }
  if (Json* annotations = findObject(metadata, "annotations"); annotations != nullptr) {
    (void)copyKeys(*annotations, spec.annotationKeysMapping);
  }
  Json& pod_spec = objectAt(pod_json, "spec");
  if (!spec.schedulerName.empty()) {
    pod_spec["schedulerName"] = spec.schedulerName;
  }
  if (!spec.qosClass.empty()) {
    objectAt(metadata, "labels")[std::string(api::kLabelPodQoS)] = spec.qosClass;
  }
  if (!spec.priorityClassName.empty()) {
    std::optional<PriorityClassInfo> info;
    if (sources.priorityClass) {
      info = sources.priorityClass(spec.priorityClassName);
    }
    if (!info) {
      return Status::notFound("PriorityClass '" + spec.priorityClassName + "' not found");
    }
    pod_spec["priorityClassName"] = spec.priorityClassName;
    pod_spec["priority"] = info->value;
    if (!info->preemptionPolicy.empty()) {
      pod_spec["preemptionPolicy"] = info->preemptionPolicy;
    }
  }
  if (spec.koordinatorPriority) {
    objectAt(metadata, "labels")[std::string(api::kLabelPodPriority)] =
        std::to_string(*spec.koordinatorPriority);
  }
  if (!spec.patch.is_null()) {
    if (Status s = mergePodPatch(pod_json, spec.patch); !s.isOk()) {
      return s.withPrefix("spec.patch");
    }
  }
  return Status::ok();
}

bool isTrue(const std::map<std::string, std::string>& annotations) {
  auto it = annotations.find(std::string(api::kAnnotationSkipUpdateResources));
  return it != annotations.end() && it->second == "true";
}

api::PriorityClass priorityOfJson(const Json& pod_json) {
  std::optional<int32_t> priority;
  api::core::StringMap labels;
  if (pod_json.is_object()) {
    auto spec = pod_json.find("spec");
    if (spec != pod_json.end() && spec->is_object()) {
      auto p = spec->find("priority");
      if (p != spec->end() && p->is_number_integer()) {
        const auto v = p->get<int64_t>();
        if (v >= INT32_MIN && v <= INT32_MAX) {
          priority = static_cast<int32_t>(v);
        }
      }
    }
    auto metadata = pod_json.find("metadata");
    if (metadata != pod_json.end() && metadata->is_object()) {
      auto l = metadata->find("labels");
      if (l != metadata->end()) {
        labels = stringMapOf(*l);
      }
    }
  }
  return api::priorityClassOf(priority, labels);
}

// Replaces `name` in `list` by its translation for `priority`; cpu becomes integer milli-cores.
Result<bool> replaceResource(Json& list, api::PriorityClass priority, std::string_view name,
                             const std::string& path) {
  const std::string target = api::translateResourceName(priority, name);
  auto it = list.find(std::string(name));
  if (target.empty() || it == list.end()) {
    return false;
  }
  Json value = *it;
  if (name == api::kResourceCPU) {
    resource::Quantity quantity;
    if (Status s = api::fromJson(value, quantity, path + "[" + std::string(name) + "]");
        !s.isOk()) {
      return s;
    }
    value = resource::Quantity::fromInt(quantity.milliValue()).toString();
  }
  list.erase(it);
  list[target] = std::move(value);
  return true;
}

Result<bool> convertContainer(Json& container, api::PriorityClass priority,
                              const std::string& path) {
  Json* resources = findObject(container, "resources");
  if (resources == nullptr) {
    return false;
  }
  bool changed = false;
  for (std::string_view list_name : {"requests", "limits"}) {
    Json* list = findObject(*resources, list_name);
    if (list == nullptr) {
      continue;
    }
    for (std::string_view name : {api::kResourceCPU, api::kResourceMemory}) {
      auto replaced =
          replaceResource(*list, priority, name, path + ".resources." + std::string(list_name));
      if (!replaced.ok()) {
        return replaced.status();
      }
      changed = changed || *replaced;
    }
  }
  // A converted limit without a request also becomes the request (Koordinator's
  // restrictResourceRequestAndLimit); a request without a limit keeps the limit unset.
  if (Json* limits = findObject(*resources, "limits"); limits != nullptr) {
    for (std::string_view name : {api::kResourceCPU, api::kResourceMemory}) {
      const std::string target = api::translateResourceName(priority, name);
      auto limit = limits->find(target);
      if (target.empty() || limit == limits->end()) {
        continue;
      }
      Json& requests = objectAt(*resources, "requests");
      if (!requests.contains(target)) {
        requests[target] = *limit;
        changed = true;
      }
    }
  }
  return changed;
}

}  // namespace

RandomIntn defaultRandomIntn() {
  struct State {
    std::mutex mu;
    std::mt19937 engine{std::random_device{}()};
  };
  auto state = std::make_shared<State>();
  return [state](int n) {
    if (n <= 0) {
      return 0;
    }
    std::lock_guard<std::mutex> lock(state->mu);
    return std::uniform_int_distribution<int>(0, n - 1)(state->engine);
  };
}

Status mergePodPatch(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    return Status::invalidArgument(std::string("expected object, got ") +
                                   std::string(api::jsonTypeName(patch)));
  }
  if (!target.is_object()) {
    target = Json::object();
  }
  for (const auto& [key, value] : patch.items()) {
    if (!key.empty() && key.front() == '$') {
      return Status::invalidArgument(key + ": strategic merge directives are not supported");
    }
    if (value.is_null()) {
      target.erase(key);
      continue;
    }
    const bool by_name = std::find(kMergeByNameLists.begin(), kMergeByNameLists.end(), key) !=
                         kMergeByNameLists.end();
    auto existing = target.find(key);
    if (by_name && value.is_array() && existing != target.end() && existing->is_array()) {
      for (const Json& element : value) {
        const std::string name = api::stringOr(element, "name");
        auto same = name.empty()
                        ? existing->end()
                        : std::find_if(existing->begin(), existing->end(), [&](const Json& e) {
                            return api::stringOr(e, "name") == name;
                          });
        if (same == existing->end()) {
          existing->push_back(element);
        } else if (Status s = mergePodPatch(*same, element); !s.isOk()) {
          return s.withPrefix(key + "[name=" + name + "]");
        }
      }
      continue;
    }
    if (value.is_object()) {
      if (Status s = mergePodPatch(target[key], value); !s.isOk()) {
        return s.withPrefix(key);
      }
      continue;
    }
    target[key] = value;
  }
  return Status::ok();
}

Result<bool> convertResources(Json& pod_json, api::PriorityClass priority) {
  if (priority != api::PriorityClass::kBatch && priority != api::PriorityClass::kMid) {
    return false;
  }
  Json* spec = findObject(pod_json, "spec");
  if (spec == nullptr) {
    return false;
  }
  bool changed = false;
  for (std::string_view list_name : {"initContainers", "containers"}) {
    auto list = spec->find(std::string(list_name));
    if (list == spec->end() || !list->is_array()) {
      continue;
    }
    for (size_t i = 0; i < list->size(); ++i) {
      auto converted = convertContainer((*list)[i], priority,
                                        api::indexPath("spec." + std::string(list_name), i));
      if (!converted.ok()) {
        return converted.status();
      }
      changed = changed || *converted;
    }
  }
  if (Json* overhead = findObject(*spec, "overhead"); overhead != nullptr) {
    for (std::string_view name : {api::kResourceCPU, api::kResourceMemory}) {
      auto replaced = replaceResource(*overhead, priority, name, "spec.overhead");
      if (!replaced.ok()) {
        return replaced.status();
      }
      changed = changed || *replaced;
    }
  }
  return changed;
}

Result<bool> syncExtendedResourceSpec(Json& pod_json) {
  api::extension::ExtendedResourceSpec wanted;
  Json* spec = findObject(pod_json, "spec");
  if (spec != nullptr) {
    auto containers = spec->find("containers");
    if (containers != spec->end() && containers->is_array()) {
      for (size_t i = 0; i < containers->size(); ++i) {
        Json& container = (*containers)[i];
        Json* resources = findObject(container, "resources");
        if (resources == nullptr) {
          continue;
        }
        api::extension::ExtendedResourceContainerSpec entry;
        for (std::string_view list_name : {"requests", "limits"}) {
          Json* list = findObject(*resources, list_name);
          if (list == nullptr) {
            continue;
          }
          auto& out = list_name == "requests" ? entry.requests : entry.limits;
          for (std::string_view name : {api::kResourceBatchCPU, api::kResourceBatchMemory}) {
            auto it = list->find(std::string(name));
            if (it == list->end()) {
              continue;
            }
            resource::Quantity quantity;
            const std::string path = api::indexPath("spec.containers", i) + ".resources." +
                                     std::string(list_name) + "[" + std::string(name) + "]";
            if (Status s = api::fromJson(*it, quantity, path); !s.isOk()) {
              return s;
            }
            out.emplace(std::string(name), quantity);
          }
        }
        if (!entry.requests.empty() || !entry.limits.empty()) {
          wanted.containers[api::stringOr(container, "name")] = std::move(entry);
        }
      }
    }
  }
  Json* existing_metadata = findObject(pod_json, "metadata");
  Json* annotations =
      existing_metadata == nullptr ? nullptr : findObject(*existing_metadata, "annotations");
  const std::string key(api::kAnnotationExtendedResourceSpec);
  const bool present = annotations != nullptr && annotations->contains(key);
  if (!present && wanted.containers.empty()) {
    return false;
  }
  if (present) {
    const Json& current = (*annotations)[key];
    if (current.is_string()) {
      auto parsed = api::extension::parseExtendedResourceSpec(current.get<std::string>());
      if (parsed.ok() && *parsed == wanted) {
        return false;
      }
    }
  }
  objectAt(objectAt(pod_json, "metadata"), "annotations")[key] =
      api::extension::formatExtendedResourceSpec(wanted);
  return true;
}

Result<ProfileOutcome> applyColocationProfiles(const ColocationProfileSources& sources,
                                               const api::core::Pod& pod, std::string_view ns,
                                               Json& pod_json, const log::Logger& logger) {
  ProfileOutcome outcome;
  if (!sources.profiles) {
    return outcome;
  }
  auto profiles = sources.profiles();
  std::erase(profiles, nullptr);
  std::sort(profiles.begin(), profiles.end(),
            [](const auto& a, const auto& b) { return a->metadata.name < b->metadata.name; });
  const std::string pod_key = podName(pod, ns);
  std::optional<std::optional<api::core::StringMap>> ns_labels;  // looked up once, when needed
  std::vector<const ClusterColocationProfile*> matched;
  bool skip_resources = false;
  for (const auto& profile : profiles) {
    const auto& spec = profile->spec;
    std::string why_not;
    if (spec.namespaceSelector && !isEmptySelector(*spec.namespaceSelector)) {
      if (Status s = api::core::validateLabelSelector(*spec.namespaceSelector); !s.isOk()) {
        logger.warn("ClusterColocationProfile has an invalid namespaceSelector; it matches no pod",
                    {{"profile", profile->metadata.name}, {"error", s}});
        continue;
      }
      if (!ns_labels) {
        ns_labels = sources.namespaceLabels ? sources.namespaceLabels(ns) : std::nullopt;
      }
      if (!*ns_labels) {
        logger.warn(
            "namespace not found; ClusterColocationProfile with a namespaceSelector "
            "skipped",
            {{"profile", profile->metadata.name}, {"namespace", ns}, {"pod", pod_key}});
        continue;
      }
      if (!selects(spec.namespaceSelector, **ns_labels, why_not)) {
        continue;
      }
    }
    if (!selects(spec.selector, pod.metadata.labels, why_not)) {
      if (!why_not.empty()) {
        logger.warn("ClusterColocationProfile has an invalid selector; it matches no pod",
                    {{"profile", profile->metadata.name}, {"error", why_not}});
      }
      continue;
    }
    auto percent = api::config::probabilityPercent(spec);
    if (!percent.ok()) {
      logger.warn("ClusterColocationProfile has an invalid probability; it matches no pod",
                  {{"profile", profile->metadata.name}, {"error", percent.status()}});
      continue;
    }
    matched.push_back(profile.get());
    outcome.matched.push_back(profile->metadata.name);
    skip_resources = skip_resources || isTrue(profile->metadata.annotations);
    bool apply = *percent >= 100;
    if (*percent > 0 && *percent < 100) {
      const int draw = sources.randomIntn ? sources.randomIntn(100) : defaultRandomIntn()(100);
      apply = draw < *percent;
    }
    if (!apply) {
      logger.debug("ClusterColocationProfile skipped by its probability",
                   {{"profile", profile->metadata.name}, {"pod", pod_key}});
      continue;
    }
    if (Status s = applyProfile(sources, *profile, pod_json); !s.isOk()) {
      return Status(s.code(), "failed to mutate Pod '" + pod_key +
                                  "' by ClusterColocationProfile '" + profile->metadata.name +
                                  "': " + s.message());
    }
    outcome.applied.push_back(profile->metadata.name);
    outcome.patchApplied = outcome.patchApplied || !profile->spec.patch.is_null();
    logger.debug("mutated Pod by ClusterColocationProfile",
                 {{"profile", profile->metadata.name}, {"pod", pod_key}});
  }
  if (matched.empty()) {
    return outcome;
  }
  if (const Json* metadata = findObject(pod_json, "metadata"); metadata != nullptr) {
    if (auto a = metadata->find("annotations"); a != metadata->end()) {
      skip_resources = skip_resources || isTrue(stringMapOf(*a));
    }
  }
  if (skip_resources) {
    return outcome;
  }
  auto converted = convertResources(pod_json, priorityOfJson(pod_json));
  if (!converted.ok()) {
    return Status(converted.status().code(),
                  "failed to mutate Pod '" + pod_key + "' by ClusterColocationProfile '" +
                      outcome.matched.back() + "': " + converted.status().message());
  }
  outcome.resourcesConverted = *converted;
  return outcome;
}

}  // namespace koord::manager::webhook
