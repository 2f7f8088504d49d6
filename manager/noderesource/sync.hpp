// needSync: whether koord-manager should write freshly computed batch or mid resources to the
// Node now (Koordinator's NeedSync / IsResourceDiff, koordinator-reference §3(c) "Update
// throttling"). Pure; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "koord/resource/resource_list.hpp"
#include "manager/noderesource/node_inputs.hpp"
#include "manager/noderesource/strategy.hpp"

namespace koord::manager::noderesource {

struct SyncDecision {
  bool sync = false;
  // Why (or why not), e.g. "last update 6m ago, updateTimeThresholdSeconds 300",
  // "kubernetes.io/batch-cpu changed from 10000 to 12000, more than resourceDiffThreshold 0.1".
  std::string reason;
};

// Sync when the node was never updated (`last_update` nullopt), when now - last_update exceeds
// updateTimeThresholdSeconds, or when a resource named in `old_resources` or `new_resources`
// appears, disappears, or changes by more than resourceDiffThreshold of its old value
// (|new - old| > old * threshold, compared in milli-units). The first reason found, in that order
// and in resource-name order, is given.
[[nodiscard]] SyncDecision needSync(const resource::ResourceList& old_resources,
                                    const resource::ResourceList& new_resources,
                                    std::optional<TimePoint> last_update, TimePoint now,
                                    const ColocationStrategy& strategy);

}  // namespace koord::manager::noderesource
