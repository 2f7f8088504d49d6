#include "extender/plugins/reservation/reservation_plugin.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "extender/plugins/common/args_decoder.hpp"
#include "extender/plugins/common/nominated_reservation.hpp"
#include "extender/plugins/common/reservation_matching.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::reservation {
namespace {

using framework::NodeInfo;

using common::PodReservationPrefs;
using common::ReservationInfo;
using framework::PluginStatus;
using framework::PodInfo;
using framework::Resource;

constexpr int64_t kMaxScore = 100;
// CycleState keys.
const std::string& stateKey() {
  static const std::string key = std::string(kName) + "/state";
  return key;
}
const std::string& nominatedKey() {
  return common::nominatedReservationKey();
}

constexpr std::string_view kReasonAffinity = "node(s) no reservations match reservation affinity";
constexpr std::string_view kReasonRequired = "node(s) no reservation(s) to meet the requirements";
constexpr std::string_view kReasonPolicyConflict = "node(s) reservation allocate policy conflict";
constexpr std::string_view kReasonAllocatedOnce =
    "reservation has allocateOnce enabled and has already been allocated";

struct PodState final : framework::StateData {
  PodReservationPrefs prefs;
  resource::ResourceList requests;
  // A reserve pod (placement of a Reservation): its allocatePolicy is "default" (deprecated) or
  // not.
  bool reserve_pod = false;
  bool default_policy = false;
  bool may_own = true;  // ReservationState::mayOwn (always true with an affinity)
};

using Nominated = common::NominatedReservation;

// Calls fn(name, value) for every non-zero resource of r (pods left out).
template <class Fn>
void forEachResource(const Resource& r, Fn fn) {
  if (r.milli_cpu != 0)
    fn(std::string_view("cpu"), r.milli_cpu);
  if (r.memory != 0)
    fn(std::string_view("memory"), r.memory);
  if (r.ephemeral_storage != 0)
    fn(std::string_view("ephemeral-storage"), r.ephemeral_storage);
  for (const auto& [name, value] : r.scalar)
    fn(std::string_view(name), value);
}

// The resources (among those `held` names) where the pod does not fit in
// allocatable - requested - held + extra. The fixed resources are read as fields, not looked up by
// name: this runs for every candidate node of every pod while reservations exist.
std::vector<std::string> shortOf(const Resource& request, const NodeInfo& node,
                                 const Resource& held, const Resource& extra) {
  std::vector<std::string> out;
  const Resource& alloc = node.allocatable();
  const Resource& used = node.requested();
  const auto check = [&](std::string_view name, int64_t want, int64_t reserved, int64_t allocatable,
                         int64_t requested, int64_t added) {
    if (want > 0 && want > allocatable - requested - reserved + added)
      out.emplace_back(name);
  };
  if (held.milli_cpu != 0)
    check("cpu", request.milli_cpu, held.milli_cpu, alloc.milli_cpu, used.milli_cpu,
          extra.milli_cpu);
  if (held.memory != 0)
    check("memory", request.memory, held.memory, alloc.memory, used.memory, extra.memory);
  if (held.ephemeral_storage != 0)
    check("ephemeral-storage", request.ephemeral_storage, held.ephemeral_storage,
          alloc.ephemeral_storage, used.ephemeral_storage, extra.ephemeral_storage);
  for (const auto& [name, reserved] : held.scalar) {
    if (reserved != 0)
      check(name, request.get(name), reserved, alloc.get(name), used.get(name), extra.get(name));
  }
  return out;
}

// Restricted: the pod's restricted resources must fit in what the reservation has left.
std::vector<std::string> restrictedShortOf(const Resource& request, const ReservationInfo& r,
                                           const Resource& remaining) {
  std::vector<std::string> out;
  auto check = [&](std::string_view name) {
    const int64_t want = request.get(name);
    if (want > 0 && want > remaining.get(name))
      out.emplace_back(name);
  };
  if (!r.restricted.empty()) {
    for (const auto& name : r.restricted)
      check(name);
  } else {
    forEachResource(r.allocatable, [&](std::string_view name, int64_t) { check(name); });
  }
  return out;
}

int64_t mostAllocated(const Resource& request, const ReservationInfo& r) {
  int64_t sum = 0;
  int64_t count = 0;
  forEachResource(r.allocatable, [&](std::string_view name, int64_t capacity) {
    if (capacity <= 0)
      return;
    ++count;
    const int64_t used = request.get(name) + r.allocated.get(name);
    if (used <= capacity)
      sum += used * 100 / capacity;
  });
  return count == 0 ? 0 : sum / count;
}

struct Candidate {
  const ReservationInfo* info = nullptr;
  int64_t score = 0;  // MostAllocated, 0..100
};

std::string insufficient(const std::vector<std::string>& names, std::string_view prefix,
                         std::string_view suffix) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty())
      out += ", ";
    out += std::string(prefix) + "Insufficient " + name + std::string(suffix);
  }
  return out;
}

// What a pod can do on one node.
struct Evaluation {
  std::vector<Candidate> usable;        // matched reservations it fits with
  std::string reservation_reason;       // why it can use none (when usable is empty)
  std::vector<std::string> free_short;  // resources it is short of without a reservation
  bool matched_any = false;             // some reservation matched, usable or not
};

// matchReservation() for each entry not consumed; then whether the pod fits with it.
Result<Evaluation> evaluate(const PodState& st, const PodInfo& pod, const NodeInfo& node,
                            const NodeReservations& view) {
  Evaluation out;
  out.free_short = shortOf(pod.requests, node, view.held, Resource{});
  if (st.prefs.ignored || !st.may_own)
    return out;
  bool matched = false;
  bool taken = false;
  std::vector<std::string> short_names;
  for (const auto& entry : view.entries) {
    const api::scheduling::Reservation& r = *entry.info->reservation;
    KOORD_ASSIGN_OR_RETURN(
        bool match, common::matchReservation(st.prefs, *pod.pod, r, node.node().metadata.labels,
                                             st.requests, r.status.allocatable));
    if (!match)
      continue;
    if (entry.consumed) {
      taken = true;
      continue;
    }
    matched = true;
    std::vector<std::string> missing = shortOf(pod.requests, node, view.held, entry.remaining);
    if (missing.empty() &&
        entry.info->policy == api::scheduling::ReservationAllocatePolicy::kRestricted)
      missing = restrictedShortOf(pod.requests, *entry.info, entry.remaining);
    if (!missing.empty()) {
      short_names = std::move(missing);
      continue;
    }
    out.usable.push_back({entry.info, mostAllocated(pod.requests, *entry.info)});
  }
  out.matched_any = matched || taken;
  if (out.usable.empty()) {
    if (!short_names.empty()) {
      out.reservation_reason = insufficient(short_names, "Reservation(s) ", "");
    } else if (taken && !matched) {
      out.reservation_reason = std::string(kReasonAllocatedOnce);
    } else {
      out.reservation_reason = std::string(st.prefs.affinity ? kReasonAffinity : kReasonRequired);
    }
  }
  return out;
}

// Whether some reservation on the node, not yet taken, matches the pod: what score needs to know
// before it looks at capacity (most pods own none, and then nothing else is computed).
bool anyMatch(const PodState& st, const PodInfo& pod, const NodeInfo& node,
              const std::vector<std::shared_ptr<const ReservationInfo>>& held,
              bool with_order_only) {
  const auto& labels = pod.pod->metadata.labels;
  for (const auto& r : held) {
    if (r->consumed() || (with_order_only && r->order <= 0))
      continue;
    if (r->owner_labels) {
      const bool owned =
          std::any_of(r->owner_labels->begin(), r->owner_labels->end(), [&](const auto& set) {
            return std::all_of(set.begin(), set.end(), [&](const auto& kv) {
              auto it = labels.find(kv.first);
              return it != labels.end() && it->second == kv.second;
            });
          });
      if (!owned)
        continue;  // matchReservation would say no at its owners step
    }
    auto match =
        common::matchReservation(st.prefs, *pod.pod, *r->reservation, node.node().metadata.labels,
                                 st.requests, r->reservation->status.allocatable);
    if (match.ok() && *match)
      return true;
  }
  return false;
}

// The reservation a bind takes: smallest non-zero order, then the best score, then the name.
const Candidate* choose(const std::vector<Candidate>& usable) {
  const Candidate* best = nullptr;
  auto rank = [](const Candidate& c) {
    return c.info->order > 0 ? c.info->order : std::numeric_limits<int64_t>::max();
  };
  for (const auto& c : usable) {
    if (best == nullptr || rank(c) < rank(*best) ||
        (rank(c) == rank(*best) &&
         (c.score > best->score || (c.score == best->score && c.info->name < best->info->name))))
      best = &c;
  }
  return best;
}

}  // namespace

NodeReservations ReservationPlugin::view(const NodeInfo& node) const {
  const common::HeldReservations* here = held(node);
  if (here == nullptr || here->reservations.empty())
    return {};
  const auto& on_node = here->reservations;
  NodeReservations out;
  out.entries.reserve(on_node.size());
  const framework::AllocationCache& cache = handle_.allocations();
  if (cache.empty()) {
    for (const auto& r : on_node)
      out.entries.push_back({r.get(), r->held, r->consumed()});
    out.held = here->reserved;
    return out;
  }
  const std::vector<framework::AllocationCache::Allocation> flights =
      cache.onNode(kName, node.name());
  for (const auto& r : on_node) {
    NodeReservations::Entry entry{r.get(), r->held, r->consumed()};
    for (const auto& flight : flights) {
      if (flight.target != r->uid ||
          std::find(r->owners.begin(), r->owners.end(), flight.pod_key) != r->owners.end())
        continue;
      entry.remaining.subtract(flight.resources);
      if (r->allocate_once)
        entry.consumed = true;
    }
    Resource positive;
    if (!entry.consumed) {
      forEachResource(entry.remaining, [&](std::string_view name, int64_t value) {
        if (value > 0)
          positive.set(name, value);
      });
    }
    entry.remaining = std::move(positive);
    out.held.add(entry.remaining);
    out.entries.push_back(std::move(entry));
  }
  return out;
}

PluginStatus ReservationPlugin::preFilter(framework::CycleState& state, const PodInfo& pod) const {
  auto prefs = common::podReservationPrefs(*pod.pod);
  if (!prefs.ok())
    return PluginStatus::unresolvable(prefs.status().message());
  auto st = std::make_unique<PodState>();
  st->prefs = std::move(*prefs);
  st->requests = pod.requests.toList();
  const auto& annotations = pod.pod->metadata.annotations;
  if (auto it = annotations.find(std::string(common::kAnnotationReserveAllocatePolicy));
      it != annotations.end()) {
    st->reserve_pod = true;
    st->default_policy = it->second.empty();
  }
  st->may_own = st->prefs.affinity.has_value() ||
                (reservations_ != nullptr && reservations_->mayOwn(*pod.pod));
  // With no reservation holding capacity anywhere, filter passes every node for a pod that does
  // not require one, and score gives 0: neither needs to run per node. reserve() still runs.
  const bool nothing_to_check =
      !st->prefs.required() && (reservations_ == nullptr || !reservations_->anyHoldsCapacity());
  state.write(stateKey(), std::move(st));
  return nothing_to_check ? PluginStatus::skip() : PluginStatus::success();
}

PluginStatus ReservationPlugin::filter(const framework::CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node) const {
  const PodState* st = state.read<PodState>(stateKey());
  if (st == nullptr)
    return PluginStatus::error("the Reservation plugin's preFilter did not run");
  const common::HeldReservations* here = held(node);
  if (here == nullptr || here->reservations.empty()) {
    if (st->prefs.required())
      return PluginStatus::unresolvable(
          std::string(st->prefs.affinity ? kReasonAffinity : kReasonRequired));
    return PluginStatus::success();
  }
  // Koordinator refuses to mix the deprecated default policy with Aligned/Restricted on one node.
  if (st->reserve_pod) {
    for (const auto& r : here->reservations) {
      const bool is_default = r->policy == api::scheduling::ReservationAllocatePolicy::kDefault;
      if (is_default != st->default_policy)
        return PluginStatus::unschedulable(std::string(kReasonPolicyConflict));
    }
  }
  // Fast path: a pod that fits even with everything the reservations hold needs no matching.
  if (!st->prefs.required() && handle_.allocations().empty() &&
      shortOf(pod.requests, node, here->reserved, Resource{}).empty())
    return PluginStatus::success();
  auto eval = evaluate(*st, pod, node, view(node));
  if (!eval.ok())
    return PluginStatus::unresolvable(eval.status().message());
  if (!eval->usable.empty())
    return PluginStatus::success();
  if (st->prefs.required()) {
    // Nothing here matches: no change on this node can help (Koordinator's code as well).
    return eval->matched_any ? PluginStatus::unschedulable(eval->reservation_reason)
                             : PluginStatus::unresolvable(eval->reservation_reason);
  }
  if (eval->free_short.empty())
    return PluginStatus::success();
  return PluginStatus::unschedulable(insufficient(eval->free_short, "", " (held by reservations)"));
}

bool ReservationPlugin::scores(const framework::CycleState& state, const PodInfo& /*pod*/) const {
  const PodState* st = state.read<PodState>(stateKey());
  return st != nullptr && !st->prefs.ignored && st->may_own;
}

int64_t ReservationPlugin::score(const framework::CycleState& state, const PodInfo& pod,
                                 const NodeInfo& node) const {
  const PodState* st = state.read<PodState>(stateKey());
  if (st == nullptr || st->prefs.ignored || !st->may_own)
    return 0;
  const common::HeldReservations* here = held(node);
  if (here == nullptr || here->reservations.empty() ||
      !anyMatch(*st, pod, node, here->reservations, false))
    return 0;
  auto eval = evaluate(*st, pod, node, view(node));
  if (!eval.ok())
    return 0;
  const Candidate* best = choose(eval->usable);
  return best == nullptr ? 0 : best->score;
}

void ReservationPlugin::normalizeScores(const framework::CycleState& state, const PodInfo& pod,
                                        const std::vector<const NodeInfo*>& nodes,
                                        std::vector<int64_t>& scores) const {
  const PodState* st = state.read<PodState>(stateKey());
  if (st == nullptr || st->prefs.ignored || !st->may_own)
    return;
  // The smallest non-zero order of a usable reservation, per node and overall.
  std::vector<int64_t> orders(nodes.size(), 0);
  int64_t smallest = 0;
  for (size_t i = 0; i < nodes.size() && i < scores.size(); ++i) {
    const common::HeldReservations* here = held(*nodes[i]);
    if (here == nullptr || here->reservations.empty() ||
        !anyMatch(*st, pod, *nodes[i], here->reservations, true))
      continue;  // only reservations with an order matter here
    auto eval = evaluate(*st, pod, *nodes[i], view(*nodes[i]));
    if (!eval.ok())
      continue;
    for (const auto& c : eval->usable) {
      if (c.info->order > 0 && (orders[i] == 0 || c.info->order < orders[i]))
        orders[i] = c.info->order;
    }
    if (orders[i] > 0 && (smallest == 0 || orders[i] < smallest))
      smallest = orders[i];
  }
  int64_t max = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (smallest > 0 && i < orders.size() && orders[i] == smallest)
      scores[i] = 1000;
    max = std::max(max, scores[i]);
  }
  if (max <= 0)
    return;
  for (auto& s : scores)
    s = s * kMaxScore / max;
}

PluginStatus ReservationPlugin::reserve(framework::CycleState& state, const PodInfo& pod,
                                        const NodeInfo& node) {
  const PodState* st = state.read<PodState>(stateKey());
  if (st == nullptr)
    return PluginStatus::error("the Reservation plugin's preFilter did not run");
  if (const common::HeldReservations* here = held(node);
      st->prefs.ignored || here == nullptr || here->reservations.empty())
    return PluginStatus::success();
  std::lock_guard lock(reserve_mu_);
  auto eval = evaluate(*st, pod, node, view(node));
  if (!eval.ok())
    return PluginStatus::unresolvable(eval.status().message());
  const Candidate* best = choose(eval->usable);
  if (best == nullptr) {
    if (st->prefs.required())
      return PluginStatus::unschedulable(eval->reservation_reason);
    return PluginStatus::success();
  }
  framework::AllocationCache::Allocation allocation;
  allocation.pod_id = std::string(framework::AllocationCache::podId(pod));
  allocation.pod_key = pod.key;
  allocation.plugin = std::string(kName);
  allocation.node = node.name();
  allocation.target = best->info->uid;
  allocation.resources = pod.requests;
  handle_.allocations().add(std::move(allocation));
  auto nominated = std::make_unique<Nominated>();
  nominated->name = best->info->name;
  nominated->uid = best->info->uid;
  nominated->restricted =
      best->info->policy == api::scheduling::ReservationAllocatePolicy::kRestricted;
  state.write(nominatedKey(), std::move(nominated));
  return PluginStatus::success();
}

void ReservationPlugin::unreserve(framework::CycleState& state, const PodInfo& pod,
                                  const std::string& /*node*/) {
  handle_.allocations().release(framework::AllocationCache::podId(pod), kName);
  state.write(nominatedKey(), nullptr);
}

PluginStatus ReservationPlugin::preBind(framework::CycleState& state, const PodInfo& /*pod*/,
                                        const NodeInfo& /*node*/, framework::BindPatch& patch) {
  const Nominated* nominated = state.read<Nominated>(nominatedKey());
  if (nominated == nullptr)
    return PluginStatus::skip();
  api::extension::ReservationAllocated allocated;
  allocated.name = nominated->name;
  allocated.uid = nominated->uid;
  patch.annotations[std::string(api::kAnnotationReservationAllocated)] =
      api::extension::formatReservationAllocated(allocated);
  return PluginStatus::success();
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& handle) {
  common::ArgsDecoder decoder(args, std::string(kName));
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return std::unique_ptr<framework::Plugin>(std::make_unique<ReservationPlugin>(handle));
}

}  // namespace koord::extender::plugins::reservation
