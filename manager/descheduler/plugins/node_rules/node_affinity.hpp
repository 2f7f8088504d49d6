// RemovePodsViolatingNodeAffinity (sigs.k8s.io/descheduler v0.36.0
// plugins/removepodsviolatingnodeaffinity): evicts pods whose node affinity their node no longer
// satisfies.
//
// Contract: for each nodeAffinityType in order, each node in order, each non-terminal pod on it
// (snapshot order) that passes namespaces, labelSelector, the evictor's filter() and
// preEvictionFilter(), and:
// - requiredDuringSchedulingIgnoredDuringExecution: the pod has a required node affinity, fits
//   some node of the pass (its own included, nodeFit's checks) and its node does not match its
//   nodeSelector/required affinity;
// - preferredDuringSchedulingIgnoredDuringExecution: the pod has preferred terms, fits some node,
//   and some node of the pass weighs more for it than its own;
// the pod is evicted (EvictOptions.plugin = the plugin name, no reason). A node stops when its
// eviction limit is reached. An unknown type is logged and skipped.
// Args (RemovePodsViolatingNodeAffinityArgs): namespaces, labelSelector, nodeAffinityType
// (required: "nodeAffinityType needs to be set").
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/config/plugin_args.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

inline constexpr std::string_view kRemovePodsViolatingNodeAffinityName =
    "RemovePodsViolatingNodeAffinity";

struct RemovePodsViolatingNodeAffinityArgs {
  std::optional<config::Namespaces> namespaces;
  std::optional<api::core::LabelSelector> label_selector;
  std::vector<std::string> node_affinity_type;
};

[[nodiscard]] Result<RemovePodsViolatingNodeAffinityArgs> decodeRemovePodsViolatingNodeAffinityArgs(
    const nlohmann::json& args);

class RemovePodsViolatingNodeAffinity : public framework::DeschedulePlugin {
 public:
  RemovePodsViolatingNodeAffinity(RemovePodsViolatingNodeAffinityArgs args,
                                  framework::Handle& handle)
      : args_(std::move(args)), handle_(handle) {}

  [[nodiscard]] std::string_view name() const override {
    return kRemovePodsViolatingNodeAffinityName;
  }
  Status deschedule(const framework::NodeList& nodes) override;

 private:
  enum class Kind { kRequired, kPreferred };
  [[nodiscard]] bool violates(Kind kind, const api::core::Pod& pod, const api::core::Node& node,
                              const framework::NodeList& nodes) const;
  void processNodes(Kind kind, const framework::NodeList& nodes);

  RemovePodsViolatingNodeAffinityArgs args_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createRemovePodsViolatingNodeAffinity(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::plugins::node_rules
