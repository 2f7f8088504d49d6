// The evictor a descheduling plugin hands its victims to (the community framework's
// frameworktypes.Evictor). koord-descheduler's is the MigrationController: evict() creates a
// PodMigrationJob; in dry-run it only records the choice.
//
// Contract: filter() is DefaultEvictor's Filter (may this pod be evicted at all: owner, priority,
// local storage, PVCs, critical, mirror/static, terminating, label selector); preEvictionFilter()
// is its PreEvictionFilter (nodeFit: the pod fits some other node, when enabled). evict() returns
// false, and evicts nothing, when a limit stops it (per node, per namespace, in total for the
// pass); plugins stop evicting from a node once nodeLimitExceeded() says so.
#pragma once

#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::manager::descheduler::framework {

struct EvictOptions {
  std::string plugin;  // the plugin choosing the pod, e.g. "RemoveDuplicates"
  std::string reason;  // why, e.g. "PodLifeTime exceeded"; the job's koordinator.sh/evict-reason
};

class Evictor {
 public:
  virtual ~Evictor() = default;
  [[nodiscard]] virtual bool filter(const api::core::Pod& pod) const = 0;
  [[nodiscard]] virtual bool preEvictionFilter(const api::core::Pod& pod) const = 0;
  virtual bool evict(const api::core::Pod& pod, const EvictOptions& options) = 0;
  [[nodiscard]] virtual bool nodeLimitExceeded(const api::core::Node& node) const = 0;
};

}  // namespace koord::manager::descheduler::framework
