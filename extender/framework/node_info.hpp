// NodeInfo: one node as the plugins see it: the Node, the pods on it (bound, and assumed by a
// bind in flight), what they request in total, what the node allocates, and the data that plugins'
// node data sources keep for it (node_data.hpp: the Reservations holding capacity on it, ...).
// Immutable once shared: a change makes a new NodeInfo (copy on write), so a verb call works on a
// consistent view while the informers move on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
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
  // Sum of the pods' non-zero cpu and memory (what kube-scheduler's LeastAllocated counts).
  [[nodiscard]] const NonZeroRequests& nonZeroRequested() const { return non_zero_requested_; }
  // status.allocatable.
  [[nodiscard]] const Resource& allocatable() const { return allocatable_; }
  // Sum of the pods' requests (pods = their count).
  [[nodiscard]] const Resource& requested() const { return requested_; }
  // The data of the node data source at `slot` (NodeDataSource::slot()); nullptr when it has none.
  // TypedNodeDataSource::of() reads it typed.
  [[nodiscard]] const void* data(size_t slot) const {
    if (slot < kInlineDataSlots)
      return inline_data_[slot].get();
    slot -= kInlineDataSlots;
    return slot < more_data_.size() ? more_data_[slot].get() : nullptr;
  }
  // Sets the data of every node data source, by slot (ClusterState, before it shares the NodeInfo).
  void setData(std::vector<std::shared_ptr<const void>> data) {
    for (size_t slot = 0; slot < data.size() && slot < kInlineDataSlots; ++slot)
      inline_data_[slot] = std::move(data[slot]);
    if (data.size() > kInlineDataSlots)
      more_data_.assign(std::make_move_iterator(data.begin() + kInlineDataSlots),
                        std::make_move_iterator(data.end()));
  }
  // Asks the CPU to fetch the data of the first two slots (no effect on results): the runtime calls
  // it a few nodes ahead of the filter loop, so that a plugin's node data is in cache when read.
  void prefetchData() const {
    __builtin_prefetch(inline_data_[0].get());
    __builtin_prefetch(inline_data_[1].get());
  }
  // The first slots are held in the NodeInfo itself: a filter reading its plugin's data then
  // follows one pointer, not two (the extender's filter path is bound by cache misses).
  static constexpr size_t kInlineDataSlots = 4;
  // Bumped on every change of this node or its pods (cluster-wide counter value).
  [[nodiscard]] int64_t generation() const { return generation_; }
  void setGeneration(int64_t g) { generation_ = g; }

 private:
  std::shared_ptr<const api::core::Node> node_;
  std::vector<std::shared_ptr<const PodInfo>> pods_;
  Resource allocatable_;
  Resource requested_;
  NonZeroRequests non_zero_requested_;
  int64_t generation_ = 0;
  std::array<std::shared_ptr<const void>, kInlineDataSlots> inline_data_;
  std::vector<std::shared_ptr<const void>> more_data_;
};

}  // namespace koord::extender::framework
