#include "extender/reservation/placement.hpp"

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "extender/framework/fit_error.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "koord/api/core/pod_helpers.hpp"

namespace koord::extender::reservation {

Result<Placement> place(const api::scheduling::Reservation& r,
                        const framework::ClusterState& cluster, const framework::Runtime& runtime,
                        int64_t extender_weight) {
  const std::string prefix = "failed to place reservation '" + r.metadata.name + "': ";
  std::shared_ptr<api::core::Pod> pod = plugins::common::reservePod(r);
  if (pod == nullptr) {
    return Status::invalidArgument(prefix + "it has neither spec.template nor spec.resources");
  }
  // The template's nodeName pins the node (the NodeName filter checks it, so it stays set).
  {
    auto tmpl = api::scheduling::effectiveTemplate(r);
    pod->spec.nodeName = tmpl ? tmpl->spec.nodeName : std::string();
  }
  Placement out;
  auto requests = api::core::podRequests(*pod);
  if (!requests.ok())
    return Status::invalidArgument(prefix + requests.status().message());
  out.allocatable = std::move(*requests);
  out.allocatable.erase("pods");
  auto info = framework::PodInfo::create(pod);
  if (!info.ok())
    return Status::invalidArgument(prefix + info.status().message());

  std::vector<std::shared_ptr<const framework::NodeInfo>> nodes;
  size_t considered = 0;
  if (!pod->spec.nodeName.empty()) {
    considered = 1;
    if (auto node = cluster.nodeInfo(pod->spec.nodeName); node != nullptr)
      nodes.push_back(std::move(node));
  } else {
    nodes = cluster.nodeInfos();
    considered = nodes.size();
  }
  if (r.spec.preAllocation) {
    // Pre-allocation reserves what running pods hold: the node is judged as if they were gone
    // (the other reservations still count); the reservation holds it as they leave.
    for (auto& node : nodes)
      node = cluster.buildNodeInfo(node->nodePtr(), {});
  }
  framework::Runtime::FilterResult filtered = runtime.filter(**info, nodes);
  if (filtered.error.code() == framework::Code::kError) {
    return Status::internal(prefix + filtered.error.message());
  }
  if (filtered.feasible.empty()) {
    std::map<std::string, size_t> reasons;
    for (const auto& [node, status] : filtered.failed) {
      for (const auto& reason : status.reasons())
        reasons[reason]++;
    }
    if (nodes.empty() && considered == 1)
      reasons["node(s) didn't match Pod's node name"] = 1;  // the pinned node does not exist
    out.message = framework::fitErrorMessage(considered, reasons);
    return out;
  }
  std::vector<std::shared_ptr<const framework::NodeInfo>> feasible;
  feasible.reserve(filtered.feasible.size());
  for (const auto& node : nodes) {
    if (feasible.size() < filtered.feasible.size() &&
        node->name() == filtered.feasible[feasible.size()])
      feasible.push_back(node);
  }
  const auto* reservations = cluster.nodeData<plugins::common::ReservationState>();
  plugins::kube::AlsoUsed also_used;
  if (reservations != nullptr) {
    also_used = [reservations](const framework::NodeInfo& node) {
      return reservations->reserved(node);
    };
  }
  const std::vector<plugins::kube::NodeScore> scores =
      plugins::kube::prioritize(**info, feasible, runtime, extender_weight, also_used);
  size_t best = 0;
  for (size_t i = 1; i < feasible.size(); ++i) {
    if (scores[i].total > scores[best].total ||
        (scores[i].total == scores[best].total && feasible[i]->name() < feasible[best]->name()))
      best = i;
  }
  out.node = feasible[best]->name();
  return out;
}

}  // namespace koord::extender::reservation
