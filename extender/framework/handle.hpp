// Handle: what a plugin may use besides its arguments: a read view of the cluster (nodes and
// pods), the listers of the other kinds it declared (object_store.hpp), the clock and a logger. The
// runtime (koord-extender) and the simulator each provide one.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "extender/framework/allocation_cache.hpp"
#include "extender/framework/node_data.hpp"
#include "extender/framework/node_info.hpp"
#include "extender/framework/object_store.hpp"
#include "extender/framework/pod_info.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::framework {

// The cluster as the scheduler sees it now (informer caches plus assumed pods). Thread-safe.
class ClusterView {
 public:
  virtual ~ClusterView() = default;
  // nullptr when the node is unknown.
  [[nodiscard]] virtual std::shared_ptr<const NodeInfo> nodeInfo(std::string_view name) const = 0;
  // Every node, sorted by name.
  [[nodiscard]] virtual std::vector<std::shared_ptr<const NodeInfo>> nodeInfos() const = 0;
  // A pod by "namespace/name" (bound, assumed or pending); nullptr when unknown.
  [[nodiscard]] virtual std::shared_ptr<const PodInfo> pod(std::string_view key) const = 0;
  // The node data source of type T added to this view (node_data.hpp), nullptr when none was:
  // how a plugin reaches the per-node data a shared helper keeps (the Reservation helper's).
  template <class T>
  [[nodiscard]] const T* nodeData() const {
    return dynamic_cast<const T*>(findNodeData(typeid(T)));
  }
  // The source added as type `type`; nullptr when none was. Default: nullptr.
  [[nodiscard]] virtual const NodeDataSource* findNodeData(std::type_index /*type*/) const {
    return nullptr;
  }
};

class Handle {
 public:
  virtual ~Handle() = default;
  [[nodiscard]] virtual const ClusterView& cluster() const = 0;
  // The listers of the kinds the enabled plugins declared.
  [[nodiscard]] virtual const ObjectStore& objects() const = 0;
  // What binds in flight have taken, shared by every plugin (allocation_cache.hpp).
  [[nodiscard]] virtual AllocationCache& allocations() const = 0;
  [[nodiscard]] virtual const Clock& clock() const = 0;
  [[nodiscard]] virtual const log::Logger& logger() const = 0;
};

// The Handle over a cluster view, a clock, a logger, an object store and an allocation cache that
// the caller owns (the extender, the simulator, tests and benchmarks all use it). `cluster`,
// `clock`, `objects` and `allocations` must outlive it; without `objects` no kind has a lister;
// without `allocations` the handle keeps its own (give the ClusterState's, so that the informer's
// confirmations reach it).
class BasicHandle final : public Handle {
 public:
  BasicHandle(const ClusterView& cluster, const Clock& clock, log::Logger logger = {},
              const ObjectStore* objects = nullptr, AllocationCache* allocations = nullptr)
      : cluster_(cluster),
        clock_(clock),
        logger_(std::move(logger)),
        objects_(objects != nullptr ? *objects : no_objects_),
        own_allocations_(clock),
        allocations_(allocations != nullptr ? *allocations : own_allocations_) {}
  BasicHandle(const BasicHandle&) = delete;
  BasicHandle& operator=(const BasicHandle&) = delete;
  [[nodiscard]] const ClusterView& cluster() const override { return cluster_; }
  [[nodiscard]] const ObjectStore& objects() const override { return objects_; }
  [[nodiscard]] AllocationCache& allocations() const override { return allocations_; }
  [[nodiscard]] const Clock& clock() const override { return clock_; }
  [[nodiscard]] const log::Logger& logger() const override { return logger_; }

 private:
  const ClusterView& cluster_;
  const Clock& clock_;
  log::Logger logger_;
  ObjectStore no_objects_;
  const ObjectStore& objects_;
  mutable AllocationCache own_allocations_;
  AllocationCache& allocations_;
};

}  // namespace koord::extender::framework
