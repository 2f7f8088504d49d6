// Strict decoding helpers for the node-rule plugins' args (private to this folder), and the pod
// filter the community builds with podutil.NewOptions(): namespaces included/excluded, a label
// selector, then the evictor's filter() and preEvictionFilter().
//
// Contract: ArgsReader reports the first problem as kInvalidArgument "<Args>.<key>: <cause>"
// (unknown keys: "unknown field"); "apiVersion" and "kind" are accepted and ignored.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/status.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/framework/evictor.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

class ArgsReader {
 public:
  ArgsReader(const nlohmann::json& args, std::string args_name)
      : args_(args), name_(std::move(args_name)) {}

  // Fails when args are neither null nor an object, or hold a key outside `known`.
  [[nodiscard]] Status checkKeys(std::initializer_list<std::string_view> known) const;

  template <typename T>
  [[nodiscard]] Status read(std::string_view key, T& out) const {
    if (!args_.is_object())
      return Status::ok();
    auto it = args_.find(std::string(key));
    if (it == args_.end() || it->is_null())
      return Status::ok();
    using api::fromJson;
    return fromJson(*it, out, path(key));
  }
  // {"include": [...], "exclude": [...]}, strictly.
  [[nodiscard]] Status readNamespaces(std::string_view key,
                                      std::optional<config::Namespaces>& out) const;

  [[nodiscard]] std::string path(std::string_view key) const {
    return name_ + "." + std::string(key);
  }
  [[nodiscard]] Status invalid(std::string_view message) const {
    return Status::invalidArgument(name_ + ": " + std::string(message));
  }

 private:
  const nlohmann::json& args_;
  std::string name_;
};

// The community's ValidateXArgs shared rules: only one of include/exclude; a usable selector.
[[nodiscard]] Status validateNamespacesAndSelector(
    const ArgsReader& reader, const std::optional<config::Namespaces>& namespaces,
    const std::optional<api::core::LabelSelector>& selector);

// podutil's FilterFunc with namespaces, label selector and the evictor's two filters.
[[nodiscard]] bool passesPodFilter(const api::core::Pod& pod,
                                   const std::optional<config::Namespaces>& namespaces,
                                   const std::optional<api::core::LabelSelector>& selector,
                                   const framework::Evictor& evictor);

}  // namespace koord::manager::descheduler::plugins::node_rules
