#include "extender/plugins/node_reservation/annotated_nodes.hpp"

#include <string>

#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_reservation {

AnnotatedNodes& AnnotatedNodes::install(framework::ClusterState& cluster) {
  return cluster.addNodeData(std::make_unique<AnnotatedNodes>());
}

bool carriesNodeReservation(const api::core::Node& node) {
  const auto& annotations = node.metadata.annotations;
  const auto it = annotations.find(std::string(api::kAnnotationNodeReservation));
  return it != annotations.end() && !it->second.empty();
}

std::shared_ptr<const Annotated> AnnotatedNodes::make(const framework::NodeInfo& node) const {
  if (!carriesNodeReservation(node.node()))
    return nullptr;
  // Every annotated node shares one marker: only its presence is read.
  static const auto kMarker = std::make_shared<const Annotated>();
  return kMarker;
}

void AnnotatedNodes::replaced(const void* before, const void* after) {
  count_.fetch_add((after != nullptr ? 1 : 0) - (before != nullptr ? 1 : 0),
                   std::memory_order_relaxed);
}

}  // namespace koord::extender::plugins::node_reservation
