// FrameworkService: the ExtenderService over a Runtime, a ClusterState and a Binder.
//
// - filter: decodes the pod into a PodInfo, looks the node names up in the ClusterState (names
//   from NodeNames with nodeCacheCapable, else from Nodes.items); unknown names go to FailedNodes
//   with kNodeNotFound. Rejections map kUnschedulable -> FailedNodes and
//   kUnschedulableAndUnresolvable -> FailedAndUnresolvableNodes, message() as the text. The reply
//   has the request's shape: NodeNames, or the subset of the given Node objects. A kError, or a
//   pod that cannot be decoded, sets Error.
// - prioritize: the runtime's 0..100 scaled to 0..10 (rounded to nearest), one entry per given
//   node in order; 0 for unknown nodes; all 0 when the pod cannot be decoded.
// - bind: finds the pod (by namespace/name; the UID must match when given) and the node in the
//   ClusterState, assumes the pod on the node, runs Runtime::bind; on failure forgets the pod
//   and sets Error.
// - preempt: maps the victims (full pods, or UIDs looked up among the node's pods) to PodInfos,
//   runs Runtime::preempt, and answers NodeNameToMetaVictims (NumPDBViolations carried over).
//
// Thread safety: thread-safe, as the Runtime and ClusterState are.
#pragma once

#include <functional>
#include <string_view>

#include "extender/framework/binder.hpp"
#include "extender/framework/cluster_state.hpp"
#include "extender/framework/extender_service.hpp"
#include "extender/framework/runtime.hpp"

namespace koord::extender::framework {

// The FailedNodes text for a node name the cache does not hold.
inline constexpr std::string_view kNodeNotFound = "node(s) not found in koord-extender's cache";

class FrameworkService final : public ExtenderService {
 public:
  // All references must outlive the service. `ready` answers ready(); empty: always ready.
  FrameworkService(Runtime& runtime, ClusterState& cluster, Binder& binder,
                   std::function<bool()> ready);

  [[nodiscard]] api::extender::ExtenderFilterResult filter(
      const api::extender::ExtenderArgs& args) override;
  [[nodiscard]] api::extender::HostPriorityList prioritize(
      const api::extender::ExtenderArgs& args) override;
  [[nodiscard]] api::extender::ExtenderBindingResult bind(
      const api::extender::ExtenderBindingArgs& args) override;
  [[nodiscard]] api::extender::ExtenderPreemptionResult preempt(
      const api::extender::ExtenderPreemptionArgs& args) override;
  [[nodiscard]] bool ready() const override;

 private:
  Runtime& runtime_;
  ClusterState& cluster_;
  Binder& binder_;
  std::function<bool()> ready_;
};

}  // namespace koord::extender::framework
