// ClusterState: the extender's view of the cluster, fed by informers (the app) or by YAML (the
// simulator): nodes, the pods bound to them, pending pods, the assume cache, and the node data
// sources (node_data.hpp) through which plugins and shared helpers keep per-node data in each
// NodeInfo (the Reservation helper, plugins/common/reservation_state.hpp, is one).
//
// Copy on write: every change to a node or its pods builds a new NodeInfo for that node only;
// readers get shared_ptr<const NodeInfo> snapshots that never change under them.
//
// The assume cache: a pod whose bind is in flight or done counts on its node from assume() until
// the informer shows it bound (upsertPod() with spec.nodeName set, on any node), or assume_ttl
// passes without that (the pod is dropped: it no longer counts), or forget() is called. Expiry is
// checked on every read and write against the Clock, so a FakeClock drives it in tests.
//
// The allocation cache (allocation_cache.hpp), when given: a pod seen bound (upsertPod() with
// spec.nodeName set) or removed confirms it, releasing every plugin's allocation for its UID.
//
// Thread safety: every method is thread-safe. Reads take a shared lock; writes an exclusive one.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "extender/framework/allocation_cache.hpp"
#include "extender/framework/handle.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/status.hpp"

namespace koord::extender::framework {

class ClusterState final : public ClusterView {
 public:
  // `allocations` (may be nullptr) must outlive the state.
  explicit ClusterState(const Clock& clock,
                        std::chrono::seconds assume_ttl = std::chrono::seconds(30),
                        AllocationCache* allocations = nullptr);
  ~ClusterState() override;

  // The allocation cache given at construction; nullptr when none.
  [[nodiscard]] AllocationCache* allocations() const { return allocations_; }

  // Adds or replaces a node (its pods stay).
  void upsertNode(std::shared_ptr<const api::core::Node> node);
  // Removes a node; pods bound to it are kept (they reappear with the node, as informers may
  // deliver the node's deletion before its pods').
  void removeNode(const std::string& name);
  // Adds or replaces a pod by "namespace/name". Bound pods (spec.nodeName set) join their node
  // (moving off the previous one); unbound ones are only remembered (pod()). A terminal pod
  // (Succeeded, Failed) is removed. kInvalidArgument when PodInfo::create() fails.
  [[nodiscard]] Status upsertPod(std::shared_ptr<const api::core::Pod> pod);
  void removePod(const std::string& key);

  // Adds `source` (owned by the state from now on) as the node data source of type T, gives it a
  // slot and builds its data for every node known; every NodeInfo built later carries it. When a
  // source of type T is already there, `source` is dropped and that one is returned, so that every
  // part of a program that needs a shared helper can add it. Returns the source.
  template <class T>
  T& addNodeData(std::unique_ptr<T> source) {
    return static_cast<T&>(addNodeDataSource(typeid(T), std::move(source)));
  }
  // Rebuilds the NodeInfo of each named node that is known, reading every source's data again, and
  // moves generation() even when none is: what a source calls when its own inputs change.
  void refresh(const std::vector<std::string>& nodes);
  // A NodeInfo for `node` holding `pods`, with every source's data, built as the state builds its
  // own but not stored: a what-if view (a pre-allocating reservation judges a node as if its pods
  // were gone).
  [[nodiscard]] std::shared_ptr<const NodeInfo> buildNodeInfo(
      std::shared_ptr<const api::core::Node> node,
      std::vector<std::shared_ptr<const PodInfo>> pods) const;
  // Changes with every change of a node or its pods, and every refresh() (the reservation loop
  // tries pending reservations again when it moves).
  [[nodiscard]] int64_t generation() const;

  // Counts `pod` on `node` (see above). kNotFound for an unknown node; kAlreadyExists when the
  // pod is already bound or assumed.
  [[nodiscard]] Status assume(std::shared_ptr<const PodInfo> pod, const std::string& node);
  // Drops an assumed pod (a failed bind); no-op when the pod is not assumed.
  void forget(const std::string& pod_key);
  // Whether the pod is assumed now (not yet confirmed, forgotten or expired).
  [[nodiscard]] bool isAssumed(std::string_view pod_key) const;

  // ClusterView.
  [[nodiscard]] std::shared_ptr<const NodeInfo> nodeInfo(std::string_view name) const override;
  [[nodiscard]] std::vector<std::shared_ptr<const NodeInfo>> nodeInfos() const override;
  [[nodiscard]] std::shared_ptr<const PodInfo> pod(std::string_view key) const override;
  // The pod "namespace/name" as the informer last delivered it (never an assumed copy); nullptr
  // when the informer has not delivered it.
  [[nodiscard]] std::shared_ptr<const PodInfo> informerPod(std::string_view key) const;
  [[nodiscard]] const NodeDataSource* findNodeData(std::type_index type) const override;

  // Looks `names` up under one lock: out[i] is the NodeInfo of names[i], or nullptr when
  // unknown. The fast path of filter and prioritize.
  void lookupNodes(const std::vector<std::string>& names,
                   std::vector<std::shared_ptr<const NodeInfo>>& out) const;
  [[nodiscard]] size_t nodeCount() const;

  struct State;

 private:
  // Drops expired assumptions when the earliest deadline has passed.
  void expireIfDue() const;
  NodeDataSource& addNodeDataSource(std::type_index type, std::unique_ptr<NodeDataSource> source);

  const Clock& clock_;
  std::chrono::seconds assume_ttl_;
  AllocationCache* allocations_;
  std::unique_ptr<State> state_;
  mutable std::shared_mutex mu_;
  // The earliest assume deadline (nanoseconds since the clock's epoch); max when none.
  mutable std::atomic<int64_t> next_expiry_ns_;
};

}  // namespace koord::extender::framework
