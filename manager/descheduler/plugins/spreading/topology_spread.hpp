// RemovePodsViolatingTopologySpreadConstraint (Balance), as the community descheduler v0.36 does
// it: for every namespace, every distinct topology spread constraint its pods carry (of the kinds
// in args.constraints) is balanced over the topology domains of the given nodes.
//
// Contract:
// - Pods considered: on the given nodes, not Succeeded/Failed, passing evictor.filter(), in
//   args.namespaces and matching args.labelSelector. Namespaces are visited in name order.
// - Domains: every value of the constraint's topologyKey on a node passing its inclusion
//   policies (nodeAffinityPolicy, nodeTaintsPolicy), plus the domain of any counted pod's node.
//   A pod counts when it is not being deleted, the constraint's selector matches it and its node
//   (among the given nodes) has the key. A topology whose domains differ by at most maxSkew is
//   left alone; otherwise see topology_balance.hpp (nodeFit: args.topologyBalanceNodeFit, with
//   Handle::pod_fits_any_other_node).
// - Chosen pods are evicted in the order chosen, each after podFilter again and
//   evictor.preEvictionFilter(); a node whose limit is exceeded gets no more evictions.
// - EvictOptions: plugin "RemovePodsViolatingTopologySpreadConstraint", no reason.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/spreading/args_common.hpp"

namespace koord::manager::descheduler::plugins::spreading {

inline constexpr std::string_view kRemovePodsViolatingTopologySpreadConstraintName =
    "RemovePodsViolatingTopologySpreadConstraint";

struct TopologySpreadArgs {
  PodScope scope;                                         // namespaces, labelSelector
  std::vector<std::string> constraints{"DoNotSchedule"};  // default when empty
  bool topology_balance_node_fit = true;
};

// Strict decode, defaults and ValidateRemovePodsViolatingTopologySpreadConstraintArgs; errors
// name "RemovePodsViolatingTopologySpreadConstraintArgs.<field>".
[[nodiscard]] Result<TopologySpreadArgs> decodeTopologySpreadArgs(const nlohmann::json& args);

class RemovePodsViolatingTopologySpreadConstraint : public framework::BalancePlugin {
 public:
  RemovePodsViolatingTopologySpreadConstraint(TopologySpreadArgs args, framework::Handle& handle)
      : args_(std::move(args)), handle_(handle) {}

  [[nodiscard]] std::string_view name() const override {
    return kRemovePodsViolatingTopologySpreadConstraintName;
  }
  Status balance(const framework::NodeList& nodes) override;

 private:
  [[nodiscard]] bool podFilter(const api::core::Pod& pod) const;

  TopologySpreadArgs args_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>>
createRemovePodsViolatingTopologySpreadConstraint(const nlohmann::json& args,
                                                  framework::Handle& handle);

}  // namespace koord::manager::descheduler::plugins::spreading
