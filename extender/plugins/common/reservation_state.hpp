// ReservationState: the Reservation helper, Koordinator's reservation cache and restore in one
// place that every plugin can call (plugins never include each other). It keeps every Reservation
// the program knows; those that hold capacity (holdsCapacity(): Available with a node) are kept in
// their node's NodeInfo as this node data source's data (framework/node_data.hpp), with what their
// owners on the node already use of them and what they still hold.
//
// Who uses it: the Reservation plugin (filter, score, reserve), the reservation loop (placement,
// controller), kube's default scores in that loop (reserved capacity counts as used), and the
// plugins still to come that must give an owner back what its reservation holds (CPU/NUMA, GPU),
// through restorable().
//
// Feeding: `koord-extender serve`'s Reservation informer and the reservation controller call
// upsert()/remove(); the simulator does so from its YAML. Each call rebuilds the NodeInfo of the
// nodes the change concerns (ClusterState::refresh), so a verb call reads reservations and pods
// from one snapshot.
//
// Thread safety: every method is thread-safe. The per-node data is immutable once built.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/node_data.hpp"
#include "extender/plugins/common/reservation_info.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::common {

// The reservations holding capacity on one node, as of that NodeInfo's pods.
struct HeldReservations {
  // Sorted by name; `allocated`, `owners` and `held` filled in from the node's pods: an owner's
  // requests count against its reservation first; an allocateOnce reservation once taken holds
  // nothing; a preAllocation reservation holds no more than the node has free after its pods and
  // the other reservations (it takes over what running pods hold as they leave).
  std::vector<std::shared_ptr<const ReservationInfo>> reservations;
  // Sum of the reservations' `held`: what a pod that owns none of them may not use.
  Resource reserved;
};

class ReservationState final : public framework::TypedNodeDataSource<HeldReservations> {
 public:
  // The helper of `cluster`: added on first call (ClusterState::addNodeData), the same one after.
  static ReservationState& install(framework::ClusterState& cluster);

  // Adds or replaces a Reservation by name. kInvalidArgument when ReservationInfo::create() fails:
  // the object is still listed by reservations() but holds no capacity.
  [[nodiscard]] Status upsert(std::shared_ptr<const api::scheduling::Reservation> reservation);
  void remove(const std::string& name);
  // Every Reservation, sorted by name.
  [[nodiscard]] std::vector<std::shared_ptr<const api::scheduling::Reservation>> reservations()
      const;
  // nullptr when unknown.
  [[nodiscard]] std::shared_ptr<const api::scheduling::Reservation> reservation(
      std::string_view name) const;

  // The reservations holding capacity on `node` (empty when none, or when `node` was not built by
  // the ClusterState this helper belongs to).
  [[nodiscard]] const std::vector<std::shared_ptr<const ReservationInfo>>& on(
      const framework::NodeInfo& node) const;
  // The reservations holding capacity on the node named `node`, by name, from the helper's own
  // records rather than a NodeInfo: what another node data source reads while its NodeInfo is
  // being built (their `allocated`, `owners` and `held` are not filled in).
  [[nodiscard]] std::vector<std::shared_ptr<const ReservationInfo>> holdingOn(
      std::string_view node) const;
  // What they hold in total (HeldReservations::reserved); zero when none.
  [[nodiscard]] const Resource& reserved(const framework::NodeInfo& node) const;

  // False only when `pod` can own none of the reservations holding capacity anywhere: a quick,
  // conservative check on the first label of each owner label set (ReservationInfo::owner_labels);
  // any other owner shape makes it answer true. Lets the Reservation plugin skip matching for the
  // many pods that own nothing.
  [[nodiscard]] bool mayOwn(const api::core::Pod& pod) const;
  // False only when no reservation holds capacity on any node.
  [[nodiscard]] bool anyHoldsCapacity() const;

  // Reservation restore: the reservations on `node` that `pod` may use, with what each still holds
  // for it (ReservationInfo::held): not taken when allocateOnce, and matched by
  // reservation_matching.hpp (owners, reservation-affinity, exact match). Empty for a pod labelled
  // reservation-ignored (reserve pods). kInvalidArgument when the pod's reservation annotations or
  // an owner selector do not parse (podReservationPrefs, matchReservation). What binds in flight
  // took is not subtracted: the caller's AllocationCache entries say that.
  [[nodiscard]] Result<std::vector<std::shared_ptr<const ReservationInfo>>> restorable(
      const api::core::Pod& pod, const framework::NodeInfo& node) const;

 protected:
  [[nodiscard]] std::shared_ptr<const HeldReservations> make(
      const framework::NodeInfo& node) const override;

 private:
  explicit ReservationState(framework::ClusterState& cluster) : cluster_(cluster) {}

  struct Record {
    std::shared_ptr<const api::scheduling::Reservation> object;
    std::shared_ptr<const ReservationInfo> info;  // nullptr when it does not read
    std::string node;                             // where it holds capacity; "" when nowhere
  };
  // Adds (delta 1) or removes (delta -1) what a reservation holding capacity puts in the owner
  // index, and counts it in holding_. Under mu_.
  void indexOwners(const ReservationInfo& info, int64_t delta);

  framework::ClusterState& cluster_;
  mutable std::shared_mutex mu_;
  std::map<std::string, Record, std::less<>> records_;  // by name
  // node -> name -> the reservations holding capacity there.
  std::map<std::string, std::map<std::string, std::shared_ptr<const ReservationInfo>>, std::less<>>
      by_node_;
  // "key=value" of each owner label set's first label -> how many sets; how many reservations have
  // owners of another shape (or an empty set); how many hold capacity.
  std::unordered_map<std::string, int64_t> owner_label_index_;
  int64_t other_owners_ = 0;
  int64_t holding_ = 0;
};

}  // namespace koord::extender::plugins::common
