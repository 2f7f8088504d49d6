// LimitedEvictor: the framework Evictor koord-descheduler hands to its plugins. filter() is
// DefaultEvictor's Filter, preEvictionFilter() its PreEvictionFilter (nodeFit over the ready
// nodes matching nodeSelector, when enabled), and evict() the community PodEvictor.EvictPod's
// limits (sigs.k8s.io/descheduler v0.36.0 pkg/descheduler/evictions) before a sink does the work.
//
// Contract for evict(), checked in this order (lastError() says which stopped it):
//   pod without UID -> kMissingUid; the pass's total limit -> kTotalLimit; the pod's node limit
//   (pods without spec.nodeName skip it) -> kNodeLimit; the namespace limit -> kNamespaceLimit;
//   then the sink: false -> kSinkFailed, nothing counted. On success the node, namespace and
//   total counters grow by one and the victim is recorded, in order.
// nodeLimitExceeded(node): a per-node limit is set and the node has reached it.
// resetCounters() starts a new pass (counters and victims cleared). Not thread-safe: a profile
// runs its plugins on one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/log/logger.hpp"
#include "manager/descheduler/framework/default_evictor.hpp"
#include "manager/descheduler/framework/evictor.hpp"
#include "manager/descheduler/framework/snapshot.hpp"

namespace koord::manager::descheduler::framework {

// DeschedulerConfiguration's maxNoOfPodsToEvictPerNode / PerNamespace / Total (unset: no limit).
struct EvictionLimits {
  std::optional<uint32_t> per_node;
  std::optional<uint32_t> per_namespace;
  std::optional<uint32_t> total;
};

struct Victim {
  std::string namespace_;
  std::string name;
  std::string node;
  std::string plugin;
  std::string reason;

  bool operator==(const Victim&) const = default;
};

// Evicts the pod for real (or records it in dry-run); false when that failed.
using EvictSink = std::function<bool(const api::core::Pod&, const EvictOptions&)>;
using NowFunc = std::function<std::chrono::system_clock::time_point()>;

enum class EvictError { kNone, kMissingUid, kTotalLimit, kNodeLimit, kNamespaceLimit, kSinkFailed };

// The community's error text for each ("maximum number of evicted pods per node reached", ...).
[[nodiscard]] std::string evictErrorMessage(EvictError error);

class LimitedEvictor : public Evictor {
 public:
  // `snapshot` may be null until setSnapshot(); it must outlive its use. `now` defaults to the
  // system clock (minPodAge).
  LimitedEvictor(DefaultEvictor evictor, const ClusterSnapshot* snapshot, EvictionLimits limits,
                 EvictSink sink, NowFunc now = {}, log::Logger logger = {});

  void setSnapshot(const ClusterSnapshot* snapshot) { snapshot_ = snapshot; }

  [[nodiscard]] bool filter(const api::core::Pod& pod) const override;
  [[nodiscard]] bool preEvictionFilter(const api::core::Pod& pod) const override;
  bool evict(const api::core::Pod& pod, const EvictOptions& options) override;
  [[nodiscard]] bool nodeLimitExceeded(const api::core::Node& node) const override;

  [[nodiscard]] EvictError lastError() const { return last_error_; }
  [[nodiscard]] const std::vector<Victim>& victims() const { return victims_; }
  [[nodiscard]] uint32_t totalEvicted() const { return total_; }
  [[nodiscard]] uint32_t nodeEvicted(const std::string& node) const;
  void resetCounters();

 private:
  DefaultEvictor evictor_;
  const ClusterSnapshot* snapshot_;
  EvictionLimits limits_;
  EvictSink sink_;
  NowFunc now_;
  log::Logger logger_;
  std::map<std::string, uint32_t, std::less<>> per_node_;
  std::map<std::string, uint32_t, std::less<>> per_namespace_;
  uint32_t total_ = 0;
  std::vector<Victim> victims_;
  EvictError last_error_ = EvictError::kNone;
};

}  // namespace koord::manager::descheduler::framework
