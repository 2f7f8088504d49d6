// AnnotatedNodes: the NodeReservation plugin's per-node data (framework/node_data.hpp): whether a
// node carries a non-empty node.koordinator.sh/reservation annotation, kept in its NodeInfo, and
// how many nodes do, so that preFilter can skip every pod while none does and filter pays nothing
// on the nodes without one.
//
// Thread safety: as every node data source; count() may be read from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/node_data.hpp"

namespace koord::extender::plugins::node_reservation {

struct Annotated {};

class AnnotatedNodes final : public framework::TypedNodeDataSource<Annotated> {
 public:
  // Adds the source to `cluster` (once; the same one after).
  static AnnotatedNodes& install(framework::ClusterState& cluster);

  // Whether `node` carries the annotation.
  [[nodiscard]] bool carries(const framework::NodeInfo& node) const { return of(node) != nullptr; }
  // How many nodes carry it.
  [[nodiscard]] int64_t count() const { return count_.load(std::memory_order_relaxed); }

  void replaced(const void* before, const void* after) override;

 protected:
  [[nodiscard]] std::shared_ptr<const Annotated> make(
      const framework::NodeInfo& node) const override;

 private:
  std::atomic<int64_t> count_{0};
};

// Whether `node` carries a non-empty annotation (what AnnotatedNodes keeps), read from the Node.
[[nodiscard]] bool carriesNodeReservation(const api::core::Node& node);

}  // namespace koord::extender::plugins::node_reservation
