#include "manager/descheduler/plugins/spreading/args_common.hpp"

#include <algorithm>

#include "koord/api/core/selectors.hpp"

namespace koord::manager::descheduler::plugins::spreading {

namespace argscommon_detail {

std::string fieldPath(std::string_view args_name, std::string_view key) {
  std::string path(args_name);
  path += '.';
  path += key;
  return path;
}

const nlohmann::json* findField(const nlohmann::json& args, std::string_view key) {
  if (!args.is_object()) {
    return nullptr;
  }
  auto it = args.find(std::string(key));
  if (it == args.end() || it->is_null()) {
    return nullptr;
  }
  return &*it;
}

Status decodeStrings(const nlohmann::json& value, const std::string& path,
                     std::vector<std::string>& out) {
  if (!value.is_array()) {
    return Status::invalidArgument(path + ": expected array of strings");
  }
  std::vector<std::string> items;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      return Status::invalidArgument(path + "[" + std::to_string(i) + "]: expected string");
    }
    items.push_back(value[i].get<std::string>());
  }
  out = std::move(items);
  return Status::ok();
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace argscommon_detail

bool PodScope::contains(const api::core::Pod& pod) const {
  const std::string& ns = pod.metadata.namespace_;
  if (namespaces.has_value()) {
    if (!namespaces->include.empty() && !argscommon_detail::contains(namespaces->include, ns)) {
      return false;
    }
    if (!namespaces->exclude.empty() && argscommon_detail::contains(namespaces->exclude, ns)) {
      return false;
    }
  }
  if (label_selector.has_value()) {
    auto matched = api::core::matchesLabelSelector(*label_selector, pod.metadata.labels);
    if (!matched.ok() || !*matched) {
      return false;
    }
  }
  return true;
}

Status checkArgsKeys(const nlohmann::json& args, std::string_view args_name,
                     std::initializer_list<std::string_view> allowed) {
  if (args.is_null()) {
    return Status::ok();
  }
  if (!args.is_object()) {
    return Status::invalidArgument(std::string(args_name) + ": expected object");
  }
  for (const auto& item : args.items()) {
    const std::string& key = item.key();
    if (key == "apiVersion" || key == "kind") {
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return Status::invalidArgument(argscommon_detail::fieldPath(args_name, key) +
                                     ": unknown field");
    }
  }
  return Status::ok();
}

Status decodeNamespaces(const nlohmann::json& args, std::string_view args_name,
                        std::optional<NamespaceScope>& out) {
  const nlohmann::json* value = argscommon_detail::findField(args, "namespaces");
  if (value == nullptr) {
    return Status::ok();
  }
  const std::string path = argscommon_detail::fieldPath(args_name, "namespaces");
  if (!value->is_object()) {
    return Status::invalidArgument(path + ": expected object");
  }
  NamespaceScope scope;
  for (const auto& item : value->items()) {
    if (item.value().is_null()) {
      continue;
    }
    if (item.key() == "include") {
      KOORD_RETURN_IF_ERROR(
          argscommon_detail::decodeStrings(item.value(), path + ".include", scope.include));
    } else if (item.key() == "exclude") {
      KOORD_RETURN_IF_ERROR(
          argscommon_detail::decodeStrings(item.value(), path + ".exclude", scope.exclude));
    } else {
      return Status::invalidArgument(path + "." + item.key() + ": unknown field");
    }
  }
  out = std::move(scope);
  return Status::ok();
}

Status decodeLabelSelector(const nlohmann::json& args, std::string_view args_name,
                           std::optional<api::core::LabelSelector>& out) {
  const nlohmann::json* value = argscommon_detail::findField(args, "labelSelector");
  if (value == nullptr) {
    return Status::ok();
  }
  api::core::LabelSelector selector;
  KOORD_RETURN_IF_ERROR(api::core::fromJson(
      *value, selector, argscommon_detail::fieldPath(args_name, "labelSelector")));
  out = std::move(selector);
  return Status::ok();
}

Status decodeStringList(const nlohmann::json& args, std::string_view args_name,
                        std::string_view key, std::vector<std::string>& out) {
  const nlohmann::json* value = argscommon_detail::findField(args, key);
  if (value == nullptr) {
    return Status::ok();
  }
  return argscommon_detail::decodeStrings(*value, argscommon_detail::fieldPath(args_name, key),
                                          out);
}

Status decodeBool(const nlohmann::json& args, std::string_view args_name, std::string_view key,
                  std::optional<bool>& out) {
  const nlohmann::json* value = argscommon_detail::findField(args, key);
  if (value == nullptr) {
    return Status::ok();
  }
  if (!value->is_boolean()) {
    return Status::invalidArgument(argscommon_detail::fieldPath(args_name, key) +
                                   ": expected boolean");
  }
  out = value->get<bool>();
  return Status::ok();
}

Status validatePodScope(const PodScope& scope, std::string_view args_name) {
  if (scope.namespaces.has_value() && !scope.namespaces->include.empty() &&
      !scope.namespaces->exclude.empty()) {
    return Status::invalidArgument(argscommon_detail::fieldPath(args_name, "namespaces") +
                                   ": only one of Include/Exclude namespaces can be set");
  }
  if (scope.label_selector.has_value()) {
    Status valid = api::core::validateLabelSelector(*scope.label_selector);
    if (!valid.isOk()) {
      return Status::invalidArgument(
          argscommon_detail::fieldPath(args_name, "labelSelector") +
          ": failed to get label selectors from strategy's params: " + valid.message());
    }
  }
  return Status::ok();
}

}  // namespace koord::manager::descheduler::plugins::spreading
