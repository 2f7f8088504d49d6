// FrameworkService: the ExtenderService over a Runtime, a ClusterState and a Binder.
//
// - filter: decodes the pod into a PodInfo (filterKnownPod: takes the informer's PodInfo of the
//   same pod version instead), looks the node names up in the ClusterState (names
//   from NodeNames with nodeCacheCapable, else from Nodes.items); unknown names go to FailedNodes
//   with kNodeNotFound. Rejections map kUnschedulable -> FailedNodes and
//   kUnschedulableAndUnresolvable -> FailedAndUnresolvableNodes, message() as the text. The reply
//   has the request's shape: NodeNames, or the subset of the given Node objects. A kError, or a
//   pod that cannot be decoded, sets Error.
// - prioritize: the runtime's 0..100 scaled to 0..10 (rounded to nearest), one entry per given
//   node in order; 0 for unknown nodes; all 0 when the pod cannot be decoded. Only nodes scoring
//   above 0 are listed (the same to kube-scheduler). prioritizeKnownPod answers only when the pod
//   is the one the latest filter kept its view for (see CycleSnapshot).
// - bind: finds the pod (by namespace/name; the UID must match when given) and the node in the
//   ClusterState, assumes the pod on the node, runs Runtime::bind; on failure forgets the pod
//   and sets Error.
// - preempt: maps the victims (full pods, or UIDs looked up among the node's pods) to PodInfos,
//   runs Runtime::preempt, and answers NodeNameToMetaVictims (NumPDBViolations carried over).
//
// Thread safety: thread-safe, as the Runtime and ClusterState are.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/binder.hpp"
#include "extender/framework/cluster_state.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/server/extender_service.hpp"

namespace koord::extender::server {

// The FailedNodes text for a node name the cache does not hold.
inline constexpr std::string_view kNodeNotFound = "node(s) not found in koord-extender's cache";

// One scheduling cycle's view for prioritize: what filter looked up for the same pod.
// kube-scheduler calls prioritize right after filter with the nodes filter kept, and, like
// kube-scheduler's own Filter and Score running on one snapshot, prioritize then scores the
// NodeInfos filter saw instead of looking every name up again (a hash lookup and a reference count
// per candidate: the largest per-pod cost of a plain pod in a real run).
struct CycleSnapshot {
  std::string pod_uid;                            // non-empty
  std::string resource_version;                   // the pod's, as filter decoded it
  std::shared_ptr<const framework::PodInfo> pod;  // filter's PodInfo
  // The nodes filter kept, in reply order.
  std::vector<std::shared_ptr<const framework::NodeInfo>> feasible;
  // Their names, aligned with `feasible`: prioritize matches its names against these, side by
  // side in memory, rather than reading each NodeInfo's Node.
  std::vector<std::string> feasible_names;
};

class FrameworkService final : public ExtenderService {
 public:
  // All references must outlive the service. `ready` answers ready(); empty: always ready.
  FrameworkService(framework::Runtime& runtime, framework::ClusterState& cluster,
                   framework::Binder& binder, std::function<bool()> ready);

  [[nodiscard]] api::extender::ExtenderFilterResult filter(
      const api::extender::ExtenderArgs& args) override;
  // filter for the pod the informer holds at the key's namespace, name, UID and resourceVersion
  // (pending: no spec.nodeName), over the key's names; nullopt when it holds no such pod.
  [[nodiscard]] std::optional<api::extender::ExtenderFilterResult> filterKnownPod(
      const wire::ExtenderArgsKey& key) override;
  [[nodiscard]] api::extender::HostPriorityList prioritize(
      const api::extender::ExtenderArgs& args) override;
  [[nodiscard]] std::optional<api::extender::HostPriorityList> prioritizeKnownPod(
      const wire::ExtenderArgsKey& key) override;
  [[nodiscard]] api::extender::ExtenderBindingResult bind(
      const api::extender::ExtenderBindingArgs& args) override;
  [[nodiscard]] api::extender::ExtenderPreemptionResult preempt(
      const api::extender::ExtenderPreemptionArgs& args) override;
  [[nodiscard]] bool ready() const override;

 private:
  // filter for `pod` over `names`: the reply carries NodeNames, or with `objects` (the request's
  // Node objects, whose names `names` are) the subset of them.
  api::extender::ExtenderFilterResult filterPod(
      const std::shared_ptr<const framework::PodInfo>& pod, const std::vector<std::string>& names,
      const api::core::NodeList* objects);
  // Keeps filter's view for the prioritize of the same pod, replacing what the slot held (one slot:
  // kube-scheduler's scheduling cycle is serial; anything else only misses); nullopt empties it.
  void keepSnapshot(std::optional<CycleSnapshot> snapshot);
  // Takes the kept view if it is for this pod (same UID and resourceVersion) and `names` are, in
  // order, among its nodes; the NodeInfos come back aligned with `names`.
  std::optional<CycleSnapshot> takeSnapshot(const std::string& uid,
                                            const std::string& resource_version,
                                            const std::vector<std::string>& names);
  // The reply for `pod` over `infos` (aligned with `names`; nullptr for unknown nodes).
  api::extender::HostPriorityList score(
      const framework::PodInfo& pod, std::vector<std::shared_ptr<const framework::NodeInfo>> infos,
      const std::vector<std::string>& names);

  framework::Runtime& runtime_;
  framework::ClusterState& cluster_;
  framework::Binder& binder_;
  std::function<bool()> ready_;
  std::mutex snapshot_mu_;
  std::optional<CycleSnapshot> snapshot_;  // guarded by snapshot_mu_
};

}  // namespace koord::extender::server
