// NodeInfo: one node as the plugins see it: the Node, the pods on it (bound, and assumed by a
// bind in flight), what they request in total, and what the node allocates. Immutable: a change
// makes a new NodeInfo (copy on write), so a verb call works on a consistent view while the
// informers move on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "extender/framework/pod_info.hpp"
#include "extender/framework/resource.hpp"
#include "koord/api/core/node.hpp"

namespace koord::extender::framework {

class NodeInfo {
 public:
  NodeInfo(std::shared_ptr<const api::core::Node> node,
           std::vector<std::shared_ptr<const PodInfo>> pods);

  [[nodiscard]] const std::string& name() const { return node_->metadata.name; }
  [[nodiscard]] const api::core::Node& node() const { return *node_; }
  [[nodiscard]] const std::shared_ptr<const api::core::Node>& nodePtr() const { return node_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const PodInfo>>& pods() const { return pods_; }
  // status.allocatable.
  [[nodiscard]] const Resource& allocatable() const { return allocatable_; }
  // Sum of the pods' requests (pods = their count).
  [[nodiscard]] const Resource& requested() const { return requested_; }
  // Bumped on every change of this node or its pods (cluster-wide counter value).
  [[nodiscard]] int64_t generation() const { return generation_; }
  void setGeneration(int64_t g) { generation_ = g; }

 private:
  std::shared_ptr<const api::core::Node> node_;
  std::vector<std::shared_ptr<const PodInfo>> pods_;
  Resource allocatable_;
  Resource requested_;
  int64_t generation_ = 0;
};

}  // namespace koord::extender::framework
