#include "extender/reservation/lifecycle.hpp"

#include <algorithm>
#include <utility>

#include "koord/api/core/time.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/k8s/event_recorder.hpp"

namespace koord::extender::reservation {
namespace {

namespace sched = api::scheduling;

}  // namespace

Result<WallTime> parseTime(std::string_view text) {
  return api::core::parseTime(text);
}

bool isTerminal(const sched::Reservation& r) {
  return r.status.phase == sched::kReservationSucceeded ||
         r.status.phase == sched::kReservationFailed;
}

Result<std::optional<WallTime>> expiryTime(const sched::Reservation& r) {
  if (r.spec.expires && !r.spec.expires->empty()) {
    auto at = parseTime(*r.spec.expires);
    if (!at.ok())
      return at.status().withPrefix("spec.expires");
    return std::optional<WallTime>(*at);
  }
  std::chrono::nanoseconds ttl = std::chrono::hours(24);
  if (r.spec.ttl) {
    auto parsed = api::extension::parseDuration(*r.spec.ttl);
    if (!parsed.ok())
      return parsed.status().withPrefix("spec.ttl");
    ttl = *parsed;
  }
  if (ttl.count() == 0 || r.metadata.creationTimestamp.empty())
    return std::optional<WallTime>();
  auto created = parseTime(r.metadata.creationTimestamp);
  if (!created.ok())
    return created.status().withPrefix("metadata.creationTimestamp");
  return std::optional<WallTime>(*created + std::chrono::duration_cast<WallTime::duration>(ttl));
}

void setCondition(sched::ReservationStatus& status, std::string_view type,
                  std::string_view condition_status, std::string_view reason, std::string message,
                  WallTime now) {
  const std::string stamp = k8s::formatTime(now);
  auto it = std::find_if(status.conditions.begin(), status.conditions.end(),
                         [&](const auto& c) { return c.type == type; });
  if (it == status.conditions.end()) {
    sched::ReservationCondition c;
    c.type = std::string(type);
    c.lastTransitionTime = stamp;
    status.conditions.push_back(std::move(c));
    it = std::prev(status.conditions.end());
  } else if (it->status != condition_status) {
    it->lastTransitionTime = stamp;
  }
  it->status = std::string(condition_status);
  it->reason = std::string(reason);
  it->message = std::move(message);
  it->lastProbeTime = stamp;
}

sched::ReservationStatus availableStatus(const sched::Reservation& r, const std::string& node,
                                         const resource::ResourceList& allocatable, WallTime now) {
  sched::ReservationStatus status = r.status;
  status.phase = std::string(sched::kReservationAvailable);
  status.nodeName = node;
  status.allocatable = allocatable;
  setCondition(status, sched::kReservationConditionScheduled, "True",
               sched::kReasonReservationScheduled, "Successfully assigned reservation to " + node,
               now);
  setCondition(status, sched::kReservationConditionReady, "True",
               sched::kReasonReservationAvailable, "Reservation is available", now);
  return status;
}

sched::ReservationStatus unschedulableStatus(const sched::Reservation& r, std::string message,
                                             WallTime now) {
  sched::ReservationStatus status = r.status;
  status.phase = std::string(sched::kReservationPending);
  setCondition(status, sched::kReservationConditionScheduled, "False",
               sched::kReasonReservationUnschedulable, std::move(message), now);
  return status;
}

sched::ReservationStatus expiredStatus(const sched::Reservation& r, std::string message,
                                       WallTime now) {
  sched::ReservationStatus status = r.status;
  status.phase = std::string(sched::kReservationFailed);
  setCondition(status, sched::kReservationConditionReady, "False", sched::kReasonReservationExpired,
               std::move(message), now);
  return status;
}

std::optional<sched::ReservationStatus> ownersStatus(const sched::Reservation& r,
                                                     const framework::NodeInfo& node,
                                                     WallTime now) {
  std::vector<api::core::ObjectReference> owners;
  framework::Resource used;
  for (const auto& pod : node.pods()) {
    if (pod->reservation_uid.empty() || pod->reservation_uid != r.metadata.uid)
      continue;
    api::core::ObjectReference ref;
    ref.namespace_ = pod->pod->metadata.namespace_;
    ref.name = pod->pod->metadata.name;
    ref.uid = pod->uid;
    owners.push_back(std::move(ref));
    used.add(pod->requests);
  }
  std::sort(owners.begin(), owners.end(), [](const auto& a, const auto& b) {
    return std::tie(a.namespace_, a.name) < std::tie(b.namespace_, b.name);
  });
  const resource::ResourceList all = used.toList();
  resource::ResourceList allocated;
  for (const auto& [name, quantity] : all) {
    if (r.status.allocatable.count(name) != 0)
      allocated.emplace(name, quantity);
  }
  const bool succeeded = r.spec.allocateOnce.value_or(true) && !owners.empty();
  if (owners == r.status.currentOwners && allocated == r.status.allocated && !succeeded)
    return std::nullopt;
  sched::ReservationStatus status = r.status;
  status.currentOwners = std::move(owners);
  status.allocated = std::move(allocated);
  if (succeeded) {
    status.phase = std::string(sched::kReservationSucceeded);
    setCondition(status, sched::kReservationConditionReady, "False",
                 sched::kReasonReservationSucceeded, "Reservation is allocated by its owner", now);
  }
  return status;
}

bool collectible(const sched::Reservation& r, WallTime now, std::chrono::seconds retention) {
  if (!isTerminal(r))
    return false;
  std::optional<WallTime> since;
  for (const auto& c : r.status.conditions) {
    auto at = parseTime(c.lastTransitionTime);
    if (at.ok() && (!since || *at > *since))
      since = *at;
  }
  if (!since) {
    auto created = parseTime(r.metadata.creationTimestamp);
    if (!created.ok())
      return false;
    since = *created;
  }
  return now >= *since + retention;
}

}  // namespace koord::extender::reservation
