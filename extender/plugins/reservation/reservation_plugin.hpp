// Reservation: lets the owners of a Reservation use the capacity it holds on its node and keeps
// everyone else off it (Koordinator's reservation scheduler plugin; koordinator-reference.md 3(f)).
//
// kube-scheduler sees only pods, so on a node it counts a reservation's capacity as free. This
// plugin takes it back, for the resources reservations hold:
// - filter, pod that matches no reservation on the node (or carries the label
//   scheduling.koordinator.sh/reservation-ignored=true, as reserve pods do): it must fit in
//   allocatable - requested - reserved, where reserved is what the node's reservations still hold
//   (ReservationState::reserved(), less what binds in flight took). Reason
//   "Insufficient <resource> (held by reservations)".
// - filter, pod that matches reservations (common/reservation_matching.hpp: owners, affinity, exact
// match; only
//   Available ones, never an allocateOnce one already taken): the node fits when, for one matched
//   reservation r, the pod fits in the free capacity plus what r has left (policy Aligned and the
//   deprecated default), and, for Restricted, the restricted resources of the pod also fit in what
//   r has left. Failing that, the pod may still use plain free capacity, unless it requires a
//   reservation (reservation-affinity or the pre-allocation-required label): then the node fails
//   with "node(s) no reservations match reservation affinity",
//   "node(s) no reservation(s) to meet the requirements" or
//   "Reservation(s) Insufficient <resource>".
// - filter, reserve pod (placing a Reservation): refused on a node holding a reservation whose
//   allocatePolicy is the deprecated default when its own is not, or the other way round:
//   "node(s) reservation allocate policy conflict".
// - score: 0 on a node without a usable reservation; otherwise the best MostAllocated score of its
//   usable reservations (sum over the reservation's resources of 100 * (request + allocated) /
//   allocatable, over their count). normalizeScores puts the node(s) holding the usable
//   reservation with the smallest non-zero scheduling.koordinator.sh/reservation-order at 1000
//   and then scales every score so the largest is 100.
// - bind: reserve() picks the reservation (smallest non-zero order, then the best score, then the
//   name), counts the pod against it at once in the Handle's AllocationCache (target: the
//   reservation's UID; reserve() calls are serialised, so concurrent binds cannot both take an
//   allocateOnce reservation), and preBind() writes
//   scheduling.koordinator.sh/reservation-allocated: {"name","uid"}. The count lasts until the
//   informer shows the pod bound (the NodeInfo then counts it from that annotation), unreserve(),
//   or the cache's timeout (two minutes).
//
// Args: {} (no fields; unknown ones are errors).
// Thread safety: filter/score are const and lock only when binds are in flight.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::reservation {

inline constexpr std::string_view kName = "Reservation";

// A node's reservations after the binds in flight: what each has left, whether an allocateOnce
// one is taken, and what pods that own none of them may not use.
struct NodeReservations {
  struct Entry {
    const common::ReservationInfo* info = nullptr;
    framework::Resource remaining;
    bool consumed = false;
  };
  std::vector<Entry> entries;
  framework::Resource held;
};

class ReservationPlugin final : public framework::PreFilterPlugin,
                                public framework::FilterPlugin,
                                public framework::ScorePlugin,
                                public framework::ReservePlugin,
                                public framework::PreBindPlugin {
 public:
  // Reads the reservations from the Reservation helper of the handle's cluster
  // (common::ReservationState); without one, no reservation holds capacity anywhere.
  explicit ReservationPlugin(const framework::Handle& handle)
      : handle_(handle), reservations_(handle.cluster().nodeData<common::ReservationState>()) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  // Reads the pod's reservation labels and annotations; a malformed annotation fails every node
  // (kUnschedulableAndUnresolvable naming it). kSkip (state still written, for reserve) while no
  // reservation holds capacity anywhere and the pod does not require one.
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
  // False for a pod that ignores reservations or owns none anywhere (ReservationState::mayOwn).
  [[nodiscard]] bool scores(const framework::CycleState& state,
                            const framework::PodInfo& pod) const override;
  [[nodiscard]] int64_t score(const framework::CycleState& state, const framework::PodInfo& pod,
                              const framework::NodeInfo& node) const override;
  void normalizeScores(const framework::CycleState& state, const framework::PodInfo& pod,
                       const std::vector<const framework::NodeInfo*>& nodes,
                       std::vector<int64_t>& scores) const override;
  [[nodiscard]] framework::PluginStatus reserve(framework::CycleState& state,
                                                const framework::PodInfo& pod,
                                                const framework::NodeInfo& node) override;
  void unreserve(framework::CycleState& state, const framework::PodInfo& pod,
                 const std::string& node) override;
  [[nodiscard]] framework::PluginStatus preBind(framework::CycleState& state,
                                                const framework::PodInfo& pod,
                                                const framework::NodeInfo& node,
                                                framework::BindPatch& patch) override;

 private:
  // The node's reservations with what binds in flight took from them (the AllocationCache).
  [[nodiscard]] NodeReservations view(const framework::NodeInfo& node) const;
  // The reservations holding capacity on the node; nullptr when none (or without a helper).
  [[nodiscard]] const common::HeldReservations* held(const framework::NodeInfo& node) const {
    return reservations_ != nullptr ? reservations_->of(node) : nullptr;
  }

  const framework::Handle& handle_;
  const common::ReservationState* reservations_;  // nullptr: no helper, no reservations
  std::mutex reserve_mu_;  // one reserve() at a time: choose and record as one step
};

// The registry factory.
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

}  // namespace koord::extender::plugins::reservation
