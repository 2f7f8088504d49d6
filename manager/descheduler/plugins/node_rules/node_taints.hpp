// RemovePodsViolatingNodeTaints (sigs.k8s.io/descheduler v0.36.0
// plugins/removepodsviolatingnodetaints): evicts pods that do not tolerate their node's taints.
//
// Contract: for each node in order, each non-terminal pod on it (snapshot order) that passes
// namespaces, labelSelector, the evictor's filter() and preEvictionFilter() and does not tolerate
// some taint of the node that counts, is evicted (EvictOptions.plugin = the plugin name, no
// reason); a node stops when its eviction limit is reached. A taint counts when its effect is
// NoSchedule (or PreferNoSchedule with includePreferNoSchedule), it is not excluded
// (excludedTaints names its key or "key=value") and it is included (includedTaints unset, or it
// names its key or "key=value"; an empty list includes nothing).
// Args (RemovePodsViolatingNodeTaintsArgs): namespaces, labelSelector, includePreferNoSchedule,
// excludedTaints, includedTaints (not both lists).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

inline constexpr std::string_view kRemovePodsViolatingNodeTaintsName =
    "RemovePodsViolatingNodeTaints";

struct RemovePodsViolatingNodeTaintsArgs {
  std::optional<config::Namespaces> namespaces;
  std::optional<api::core::LabelSelector> label_selector;
  bool include_prefer_no_schedule = false;
  std::vector<std::string> excluded_taints;
  std::optional<std::vector<std::string>> included_taints;  // unset: every taint
};

[[nodiscard]] Result<RemovePodsViolatingNodeTaintsArgs> decodeRemovePodsViolatingNodeTaintsArgs(
    const nlohmann::json& args);

class RemovePodsViolatingNodeTaints : public framework::DeschedulePlugin {
 public:
  RemovePodsViolatingNodeTaints(RemovePodsViolatingNodeTaintsArgs args, framework::Handle& handle)
      : args_(std::move(args)), handle_(handle) {}

  [[nodiscard]] std::string_view name() const override {
    return kRemovePodsViolatingNodeTaintsName;
  }
  Status deschedule(const framework::NodeList& nodes) override;

  // Whether `taint` is one the plugin enforces.
  [[nodiscard]] bool countsTaint(const api::core::Taint& taint) const;

 private:
  RemovePodsViolatingNodeTaintsArgs args_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createRemovePodsViolatingNodeTaints(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::plugins::node_rules
