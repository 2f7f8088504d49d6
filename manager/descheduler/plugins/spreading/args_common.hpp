// Strict decoding of the args the spreading plugins share (namespaces, labelSelector, string lists,
// booleans) and the pod scope they define (podutil's namespace and label-selector filter).
//
// Every error is kInvalidArgument "<ArgsName>.<field>: <cause>"; an args object with a key the
// caller did not allow is "<ArgsName>.<key>: unknown field" ("apiVersion" and "kind" are always
// allowed and ignored). Null args mean "all defaults". Pure functions; thread-safe.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"

namespace koord::manager::descheduler::plugins::spreading {

// api.Namespaces: at most one of the two lists may be non-empty.
struct NamespaceScope {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

// The pods a plugin looks at: namespace include/exclude and an optional label selector.
struct PodScope {
  std::optional<NamespaceScope> namespaces;
  std::optional<api::core::LabelSelector> label_selector;

  // podutil.BuildFilterFunc's namespace and selector part. An invalid selector matches nothing
  // (validation rejects one when the plugin is made).
  [[nodiscard]] bool contains(const api::core::Pod& pod) const;
};

// kInvalidArgument "<args_name>: expected object" unless `args` is null or an object; then
// "<args_name>.<key>: unknown field" for the first key outside `allowed`, apiVersion and kind.
[[nodiscard]] Status checkArgsKeys(const nlohmann::json& args, std::string_view args_name,
                                   std::initializer_list<std::string_view> allowed);

// Decoders of one field `key` of `args` (absent or null leaves `out` unchanged).
[[nodiscard]] Status decodeNamespaces(const nlohmann::json& args, std::string_view args_name,
                                      std::optional<NamespaceScope>& out);
[[nodiscard]] Status decodeLabelSelector(const nlohmann::json& args, std::string_view args_name,
                                         std::optional<api::core::LabelSelector>& out);
[[nodiscard]] Status decodeStringList(const nlohmann::json& args, std::string_view args_name,
                                      std::string_view key, std::vector<std::string>& out);
[[nodiscard]] Status decodeBool(const nlohmann::json& args, std::string_view args_name,
                                std::string_view key, std::optional<bool>& out);

// The community's shared ValidateXArgs rules: "only one of Include/Exclude namespaces can be
// set" (field namespaces) and "failed to get label selectors from strategy's params: <cause>"
// (field labelSelector).
[[nodiscard]] Status validatePodScope(const PodScope& scope, std::string_view args_name);

}  // namespace koord::manager::descheduler::plugins::spreading
