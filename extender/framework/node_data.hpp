// NodeDataSource: per-node data that a plugin or a shared helper keeps in the NodeInfo snapshot,
// so that it is copied on write with the node, its pods and their totals, and a verb call reads one
// consistent view (the Reservation helper's reservations on the node, what they hold and for whom).
// The framework knows nothing of what the data means.
//
// A source is added to a ClusterState once (ClusterState::addNodeData), which gives it a slot and
// builds its data for every node it knows; from then on every NodeInfo the state builds carries
// build()'s answer for that node at that slot (NodeInfo::data). A source whose own inputs change
// (a Reservation arrives) asks the state to rebuild the nodes concerned (ClusterState::refresh).
// Plugins find a source by its type through ClusterView::nodeData<T>().
//
// Thread safety: build() and replaced() are called under the ClusterState's write lock, one call at
// a time; they must not call the ClusterState. Their other readers are the source's own business.
#pragma once

#include <cstddef>
#include <memory>

#include "extender/framework/node_info.hpp"

namespace koord::extender::framework {

class NodeDataSource {
 public:
  virtual ~NodeDataSource() = default;

  // This source's data for `node`, whose Node, pods and totals are final (other sources' data is
  // not set yet). nullptr: nothing to keep for this node.
  [[nodiscard]] virtual std::shared_ptr<const void> build(const NodeInfo& node) const = 0;

  // Called after every build() (and when a node leaves, `after` nullptr) with the node's previous
  // data and its new data, for a source that keeps cluster-wide summaries. Default: nothing.
  virtual void replaced(const void* /*before*/, const void* /*after*/) {}

  // The slot ClusterState::addNodeData gave this source; npos before.
  [[nodiscard]] size_t slot() const { return slot_; }
  static constexpr size_t npos = static_cast<size_t>(-1);

 private:
  friend class ClusterState;
  size_t slot_ = npos;
};

// A source whose data is a T: build() returns make()'s answer, and of() reads it back typed.
template <class T>
class TypedNodeDataSource : public NodeDataSource {
 public:
  // This source's data in `node`; nullptr when it has none (nothing to keep, or the NodeInfo was
  // not built by the ClusterState this source was added to).
  [[nodiscard]] const T* of(const NodeInfo& node) const {
    return static_cast<const T*>(node.data(slot()));
  }

  [[nodiscard]] std::shared_ptr<const void> build(const NodeInfo& node) const final {
    return make(node);
  }

 protected:
  [[nodiscard]] virtual std::shared_ptr<const T> make(const NodeInfo& node) const = 0;
};

}  // namespace koord::extender::framework
