// RemovePodsViolatingInterPodAntiAffinity (Deschedule), as the community descheduler v0.36 does
// it: a pod goes when another pod matches one of its required anti-affinity terms in the same
// topology domain.
//
// Contract:
// - Pods considered (both as candidates and as the pods they conflict with): on the given nodes,
//   not Succeeded/Failed, in args.namespaces and matching args.labelSelector.
// - Terms: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution (read from
//   the raw JSON). A term's namespaces are its `namespaces`, or the pod's own when empty
//   (namespaceSelector is not looked at, as in v0.36); a missing labelSelector matches nothing.
//   Another pod (by name) in those namespaces matching the selector, on a node of the list with
//   the same value of topologyKey (or the same node), is a conflict.
// - Per node, in the order given, pods sorted as podutil.SortPodsBasedOnPriorityLowToHigh (with
//   Go's sort.Slice, so ties land where Go puts them); each conflicting pod that passes
//   evictor.filter() and preEvictionFilter() is evicted, and once evicted no longer counts as a
//   conflict for the others. A refused eviction on a node whose limit is exceeded ends that node.
// - EvictOptions: plugin "RemovePodsViolatingInterPodAntiAffinity", no reason.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/spreading/args_common.hpp"

namespace koord::manager::descheduler::plugins::spreading {

inline constexpr std::string_view kRemovePodsViolatingInterPodAntiAffinityName =
    "RemovePodsViolatingInterPodAntiAffinity";

// Strict decode plus ValidateRemovePodsViolatingInterPodAntiAffinityArgs; errors name
// "RemovePodsViolatingInterPodAntiAffinityArgs.<field>".
[[nodiscard]] Result<PodScope> decodeRemovePodsViolatingInterPodAntiAffinityArgs(
    const nlohmann::json& args);

// podutil.SortPodsBasedOnPriorityLowToHigh: no priority first, then ascending priority; equal
// priorities by QoS (BestEffort, Burstable, Guaranteed), Go's sort.Slice order for ties.
void sortPodsByPriorityLowToHigh(std::vector<framework::PodPtr>& pods);

class RemovePodsViolatingInterPodAntiAffinity : public framework::DeschedulePlugin {
 public:
  RemovePodsViolatingInterPodAntiAffinity(PodScope scope, framework::Handle& handle)
      : scope_(std::move(scope)), handle_(handle) {}

  [[nodiscard]] std::string_view name() const override {
    return kRemovePodsViolatingInterPodAntiAffinityName;
  }
  Status deschedule(const framework::NodeList& nodes) override;

 private:
  PodScope scope_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>>
createRemovePodsViolatingInterPodAntiAffinity(const nlohmann::json& args,
                                              framework::Handle& handle);

}  // namespace koord::manager::descheduler::plugins::spreading
