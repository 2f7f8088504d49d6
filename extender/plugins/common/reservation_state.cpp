#include "extender/plugins/common/reservation_state.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

#include "extender/plugins/common/reservation_matching.hpp"
#include "koord/api/core/pod_helpers.hpp"

namespace koord::extender::plugins::common {

ReservationState& ReservationState::install(framework::ClusterState& cluster) {
  return cluster.addNodeData(std::unique_ptr<ReservationState>(new ReservationState(cluster)));
}

void ReservationState::indexOwners(const ReservationInfo& info, int64_t delta) {
  holding_ += delta;
  if (!info.owner_labels) {
    other_owners_ += delta;
    return;
  }
  for (const auto& set : *info.owner_labels) {
    if (set.empty()) {
      other_owners_ += delta;
      continue;
    }
    const std::string key = set.front().first + "=" + set.front().second;
    if ((owner_label_index_[key] += delta) <= 0)
      owner_label_index_.erase(key);
  }
}

Status ReservationState::upsert(std::shared_ptr<const api::scheduling::Reservation> reservation) {
  if (reservation == nullptr)
    return Status::ok();
  auto info = ReservationInfo::create(reservation);
  std::vector<std::string> touched;
  {
    std::unique_lock lock(mu_);
    const std::string name = reservation->metadata.name;
    Record& record = records_[name];
    const std::string before = record.node;
    if (!before.empty()) {
      indexOwners(*record.info, -1);
      auto it = by_node_.find(before);
      if (it != by_node_.end()) {
        it->second.erase(name);
        if (it->second.empty())
          by_node_.erase(it);
      }
      touched.push_back(before);
    }
    record.object = std::move(reservation);
    record.info = info.ok() ? *info : nullptr;
    record.node = record.info != nullptr && holdsCapacity(*record.object) ? record.info->node : "";
    if (!record.node.empty()) {
      by_node_[record.node][name] = record.info;
      indexOwners(*record.info, 1);
      if (record.node != before)
        touched.push_back(record.node);
    }
  }
  cluster_.refresh(touched);
  return info.ok() ? Status::ok() : info.status();
}

std::vector<std::shared_ptr<const ReservationInfo>> ReservationState::holdingOn(
    std::string_view node) const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<const ReservationInfo>> out;
  auto it = by_node_.find(node);
  if (it == by_node_.end())
    return out;
  for (const auto& [name, info] : it->second)
    out.push_back(info);
  return out;
}

void ReservationState::remove(const std::string& name) {
  std::vector<std::string> touched;
  {
    std::unique_lock lock(mu_);
    auto it = records_.find(name);
    if (it == records_.end())
      return;
    if (!it->second.node.empty()) {
      indexOwners(*it->second.info, -1);
      auto n = by_node_.find(it->second.node);
      if (n != by_node_.end()) {
        n->second.erase(name);
        if (n->second.empty())
          by_node_.erase(n);
      }
      touched.push_back(it->second.node);
    }
    records_.erase(it);
  }
  cluster_.refresh(touched);
}

std::vector<std::shared_ptr<const api::scheduling::Reservation>> ReservationState::reservations()
    const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<const api::scheduling::Reservation>> out;
  out.reserve(records_.size());
  for (const auto& [name, record] : records_)
    out.push_back(record.object);  // records_ is sorted by name
  return out;
}

std::shared_ptr<const api::scheduling::Reservation> ReservationState::reservation(
    std::string_view name) const {
  std::shared_lock lock(mu_);
  auto it = records_.find(name);
  return it == records_.end() ? nullptr : it->second.object;
}

const std::vector<std::shared_ptr<const ReservationInfo>>& ReservationState::on(
    const framework::NodeInfo& node) const {
  static const std::vector<std::shared_ptr<const ReservationInfo>> kNone;
  const HeldReservations* held = of(node);
  return held != nullptr ? held->reservations : kNone;
}

const Resource& ReservationState::reserved(const framework::NodeInfo& node) const {
  static const Resource kZero;
  const HeldReservations* held = of(node);
  return held != nullptr ? held->reserved : kZero;
}

bool ReservationState::mayOwn(const api::core::Pod& pod) const {
  std::shared_lock lock(mu_);
  if (other_owners_ > 0)
    return true;
  if (owner_label_index_.empty())
    return false;
  std::string key;
  for (const auto& [label, value] : pod.metadata.labels) {
    key.assign(label).append("=").append(value);
    if (owner_label_index_.count(key) != 0)
      return true;
  }
  return false;
}

bool ReservationState::anyHoldsCapacity() const {
  std::shared_lock lock(mu_);
  return holding_ > 0;
}

Result<std::vector<std::shared_ptr<const ReservationInfo>>> ReservationState::restorable(
    const api::core::Pod& pod, const framework::NodeInfo& node) const {
  std::vector<std::shared_ptr<const ReservationInfo>> out;
  const auto& held = on(node);
  if (held.empty())
    return out;
  KOORD_ASSIGN_OR_RETURN(PodReservationPrefs prefs, podReservationPrefs(pod));
  if (prefs.ignored)
    return out;
  KOORD_ASSIGN_OR_RETURN(const resource::ResourceList requests, api::core::podRequests(pod));
  for (const auto& r : held) {
    if (r->consumed())
      continue;
    KOORD_ASSIGN_OR_RETURN(
        bool matched, matchReservation(prefs, pod, *r->reservation, node.node().metadata.labels,
                                       requests, r->reservation->status.allocatable));
    if (matched)
      out.push_back(r);
  }
  return out;
}

std::shared_ptr<const HeldReservations> ReservationState::make(
    const framework::NodeInfo& node) const {
  std::shared_lock lock(mu_);
  auto it = by_node_.find(node.name());
  if (it == by_node_.end())
    return nullptr;
  auto out = std::make_shared<HeldReservations>();
  out->reservations.reserve(it->second.size());
  std::vector<std::shared_ptr<ReservationInfo>> pre_allocated;
  for (const auto& [name, base] : it->second) {
    auto info = std::make_shared<ReservationInfo>(*base);
    for (const auto& pod : node.pods()) {
      if (!pod->reservation_uid.empty() && pod->reservation_uid == info->uid) {
        info->allocated.add(pod->requests);
        info->owners.push_back(pod->key);
      }
    }
    info->held = info->consumed() ? Resource{} : info->remaining();
    if (info->pre_allocation) {
      pre_allocated.push_back(info);
    } else {
      out->reserved.add(info->held);
    }
    out->reservations.push_back(std::move(info));
  }
  // Pre-allocated reservations hold only what is free after the pods and the other reservations.
  for (auto& info : pre_allocated) {
    Resource capped;
    const auto cap = [&](std::string_view resource_name, int64_t want) {
      const int64_t free = node.allocatable().get(resource_name) -
                           node.requested().get(resource_name) - out->reserved.get(resource_name);
      const int64_t take = std::min(want, std::max<int64_t>(free, 0));
      if (take > 0)
        capped.set(resource_name, take);
    };
    cap("cpu", info->held.milli_cpu);
    cap("memory", info->held.memory);
    cap("ephemeral-storage", info->held.ephemeral_storage);
    for (const auto& [resource_name, value] : info->held.scalar)
      cap(resource_name, value);
    info->held = std::move(capped);
    out->reserved.add(info->held);
  }
  return out;
}

}  // namespace koord::extender::plugins::common
