// NodeLoadCache: per node, what LoadAwareScheduling derives from the node's Node object (its
// allocatable and usage-threshold profile), its NodeMetric (decoded once per object) and its pods
// (their PodLoads and the NodeLoad over them), so that filter and score read a few vectors per
// node instead of walking the node's pods. An entry is rebuilt only for what changed: a new Node
// object, another NodeMetric object, or another set of PodInfo objects on the node (a PodInfo
// kept from the previous set keeps its PodLoad, and so the time the plugin first saw it).
//
// The NodeMetric is read from the lister by node name; while the lister's changes() count stays
// the same the previous answer is reused (a FixedLister, whose get() scans, is read once per
// node). Entries of Node objects that are gone are swept once the table has doubled.
//
// MetricPresence answers "does any node have a NodeMetric?" from the lister's list(), scanned
// again only when its changes() count has moved: what preFilter asks before anything else.
//
// Thread-safe: lookups take a shared lock; a rebuild is computed outside the lock and stored
// under the exclusive lock (two threads may both rebuild; the last one stored wins).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "extender/framework/lister.hpp"
#include "extender/framework/node_info.hpp"
#include "extender/plugins/load_aware/estimator.hpp"
#include "extender/plugins/load_aware/load_aware_args.hpp"
#include "extender/plugins/load_aware/metric_view.hpp"
#include "extender/plugins/load_aware/node_load.hpp"
#include "extender/plugins/load_aware/usage_profile.hpp"
#include "koord/api/slo/node_metric.hpp"

namespace koord::extender::plugins::load_aware {

// What the Node object gives.
struct NodeFacts {
  ResourceVector allocatable;
  std::optional<UsageProfile> profile;  // nullopt when the annotation is unreadable
  std::string profile_error;            // why, then
};

struct NodeState {
  std::shared_ptr<const NodeFacts> facts;
  std::shared_ptr<const api::slo::NodeMetric> metric;  // nullptr: the node has none
  std::shared_ptr<const MetricView> view;              // set with metric
  NodeLoad load;                                       // set with metric
};

class NodeLoadCache {
 public:
  // Every argument must outlive the cache.
  NodeLoadCache(const LoadAwareArgs& args, const Estimator& estimator, const ResourceNames& names,
                const UsageProfile& base_profile);

  // The state of `node`; `now` is the first-seen time of pods it has not seen before.
  [[nodiscard]] std::shared_ptr<const NodeState> get(
      const framework::NodeInfo& node, const framework::Lister<api::slo::NodeMetric>* metrics,
      WallTime now) const;

  [[nodiscard]] size_t size() const;

 private:
  struct Entry {
    const api::core::Node* node = nullptr;
    std::weak_ptr<const api::core::Node> node_alive;
    uint64_t metric_changes = 0;
    std::vector<std::shared_ptr<const framework::PodInfo>> pods;  // with a metric only
    std::vector<PodLoad> pod_loads;                               // parallel to pods
    std::shared_ptr<const NodeState> state;
  };

  [[nodiscard]] std::shared_ptr<const Entry> build(
      const framework::NodeInfo& node, const std::shared_ptr<const Entry>& old,
      std::shared_ptr<const api::slo::NodeMetric> metric, uint64_t changes, WallTime now) const;
  void store(const std::string& name, std::shared_ptr<const Entry> entry) const;

  const LoadAwareArgs& args_;
  const Estimator& estimator_;
  const ResourceNames& names_;
  const UsageProfile& base_profile_;
  mutable std::shared_mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<const Entry>> entries_;
  // The same entries by their Node object (the lookup of a filter or score call).
  mutable std::unordered_map<const api::core::Node*, std::shared_ptr<const Entry>> by_node_;
  mutable size_t sweep_at_ = 1024;
};

class MetricPresence {
 public:
  // Whether `metrics` holds any NodeMetric; false without a lister.
  [[nodiscard]] bool any(const framework::Lister<api::slo::NodeMetric>* metrics) const;

 private:
  mutable std::mutex mu_;
  mutable bool scanned_ = false;
  mutable uint64_t changes_ = 0;
  mutable bool any_ = false;
};

}  // namespace koord::extender::plugins::load_aware
