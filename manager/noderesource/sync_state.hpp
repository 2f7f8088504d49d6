// SyncState: what the node resource controller remembers per node between reconciles, in memory
// only, as Koordinator's SyncContext does: when it last wrote the node's resources (needSync's
// updateTimeThresholdSeconds counts from there; after a restart every node is written once), the
// kind of degrade it last wrote (so a change of reason is written at once), and when it last wrote
// the node's NodeResourceTopology zones. Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "manager/noderesource/node_inputs.hpp"

namespace koord::manager::noderesource {

struct NodeSyncRecord {
  std::optional<TimePoint> lastWrite;
  // The kind of the degrade last written ("" when the resources were written): the reason up to
  // its first ':' ("NodeMetric stale", "NodeMetric missing", "colocation disabled").
  std::string degradeKind;
  std::optional<TimePoint> lastTopologyWrite;
};

// "NodeMetric stale: updated 20m ago, ..." -> "NodeMetric stale"; nullopt -> "".
[[nodiscard]] std::string degradeKindOf(const std::optional<std::string>& reason);

class SyncState {
 public:
  [[nodiscard]] NodeSyncRecord get(const std::string& node) const;
  void recordWrite(const std::string& node, TimePoint at, std::string degrade_kind);
  void recordTopologyWrite(const std::string& node, TimePoint at);
  void forget(const std::string& node);
  // Nodes whose last write removed their resources.
  [[nodiscard]] size_t degradedCount() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, NodeSyncRecord> records_;  // guarded by mu_
};

}  // namespace koord::manager::noderesource
