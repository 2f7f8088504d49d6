// NodeInfo: one node as the plugins see it: the Node, the pods on it (bound, and assumed by a
// bind in flight), what they request in total, what the node allocates, and the Reservations that
// hold capacity on it (with what their owners on the node already use of them). Immutable: a change
// makes a new NodeInfo (copy on write), so a verb call works on a consistent view while the
// informers move on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/pod_info.hpp"
#include "extender/framework/reservation_info.hpp"
#include "extender/framework/resource.hpp"
#include "koord/api/core/node.hpp"

namespace koord::extender::framework {

class NodeInfo {
 public:
  // `reservations` as ReservationInfo::create() made them: this copies each one and fills in
  // `allocated` and `owners` from the pods whose reservation_uid names it.
  NodeInfo(std::shared_ptr<const api::core::Node> node,
           std::vector<std::shared_ptr<const PodInfo>> pods,
           const std::vector<std::shared_ptr<const ReservationInfo>>& reservations = {});

  [[nodiscard]] const std::string& name() const { return node_->metadata.name; }
  [[nodiscard]] const api::core::Node& node() const { return *node_; }
  [[nodiscard]] const std::shared_ptr<const api::core::Node>& nodePtr() const { return node_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const PodInfo>>& pods() const { return pods_; }
  // Sum of the pods' non-zero cpu and memory (what kube-scheduler's LeastAllocated counts).
  [[nodiscard]] const NonZeroRequests& nonZeroRequested() const { return non_zero_requested_; }
  // status.allocatable.
  [[nodiscard]] const Resource& allocatable() const { return allocatable_; }
  // Sum of the pods' requests (pods = their count).
  [[nodiscard]] const Resource& requested() const { return requested_; }
  // The reservations holding capacity on the node, sorted by name.
  [[nodiscard]] const std::vector<std::shared_ptr<const ReservationInfo>>& reservations() const {
    return reservations_;
  }
  // Sum of the reservations' `held`: what a pod that owns none of them may not use.
  [[nodiscard]] const Resource& reserved() const { return reserved_; }
  // Whether the Node carries a non-empty node.koordinator.sh/reservation annotation (reference
  // 2.4): a node without one reserves nothing, which NodeReservation reads here, from the
  // NodeInfo it already holds, instead of looking the node up in its memo.
  [[nodiscard]] bool hasNodeReservation() const { return has_node_reservation_; }
  // Bumped on every change of this node or its pods (cluster-wide counter value).
  [[nodiscard]] int64_t generation() const { return generation_; }
  void setGeneration(int64_t g) { generation_ = g; }

 private:
  std::shared_ptr<const api::core::Node> node_;
  std::vector<std::shared_ptr<const PodInfo>> pods_;
  Resource allocatable_;
  Resource requested_;
  NonZeroRequests non_zero_requested_;
  std::vector<std::shared_ptr<const ReservationInfo>> reservations_;
  Resource reserved_;
  int64_t generation_ = 0;
  bool has_node_reservation_ = false;
};

}  // namespace koord::extender::framework
