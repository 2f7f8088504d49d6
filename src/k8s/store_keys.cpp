#include "koord/k8s/store_keys.hpp"

namespace koord::k8s {

Result<std::string> metaNamespaceKey(const api::core::ObjectMeta& meta) {
  if (meta.name.empty()) {
    return Status::invalidArgument("failed to compute store key: metadata.name: required");
  }
  if (meta.namespace_.empty()) {
    return meta.name;
  }
  return meta.namespace_ + "/" + meta.name;
}

Result<std::pair<std::string, std::string>> splitMetaNamespaceKey(std::string_view key) {
  const auto invalid = [&] {
    return Status::invalidArgument("failed to split store key '" + std::string(key) +
                                   "': expected 'namespace/name' or 'name'");
  };
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) {
    if (key.empty()) {
      return invalid();
    }
    return std::make_pair(std::string(), std::string(key));
  }
  const std::string_view ns = key.substr(0, slash);
  const std::string_view name = key.substr(slash + 1);
  if (ns.empty() || name.empty() || name.find('/') != std::string_view::npos) {
    return invalid();
  }
  return std::make_pair(std::string(ns), std::string(name));
}

std::vector<std::string> podNodeNameIndexFunc(const api::core::Pod& pod) {
  if (pod.spec.nodeName.empty()) {
    return {};
  }
  return {pod.spec.nodeName};
}

}  // namespace koord::k8s
