#include "extender/reservation/controller.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <vector>

#include "extender/plugins/common/reservation_info.hpp"
#include "extender/reservation/allocation.hpp"
#include "extender/reservation/placement.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::extender::reservation {
namespace {

namespace sched = api::scheduling;

api::core::ObjectReference referenceTo(const sched::Reservation& r) {
  api::core::ObjectReference ref;
  ref.apiVersion = r.apiVersion.empty()
                       ? std::string(sched::kGroup) + "/" + std::string(sched::kVersion)
                       : r.apiVersion;
  ref.kind = std::string(sched::kReservationKind);
  ref.name = r.metadata.name;
  ref.uid = r.metadata.uid;
  ref.resourceVersion = r.metadata.resourceVersion;
  return ref;
}

std::string_view conditionMessage(const sched::ReservationStatus& status, std::string_view type) {
  for (const auto& c : status.conditions) {
    if (c.type == type)
      return c.message;
  }
  return {};
}

}  // namespace

ReservationController::ReservationController(k8s::Client& client, framework::ClusterState& cluster,
                                             framework::Runtime& placement,
                                             k8s::EventRecorder* events, k8s::WallClock wall,
                                             ControllerOptions options)
    : client_(client),
      cluster_(cluster),
      reservations_(plugins::common::ReservationState::install(cluster)),
      placement_(placement),
      events_(events),
      wall_(wall ? std::move(wall) : [] { return std::chrono::system_clock::now(); }),
      options_(std::move(options)) {}

void ReservationController::event(const sched::Reservation& r, k8s::EventType type,
                                  std::string reason, std::string message) {
  if (events_ != nullptr)
    events_->event(referenceTo(r), type, std::move(reason), std::move(message));
}

bool ReservationController::writeStatus(const sched::Reservation& r,
                                        sched::ReservationStatus status, SyncReport& report) {
  sched::Reservation updated = r;
  updated.status = std::move(status);
  if (updated.apiVersion.empty())
    updated.apiVersion = std::string(sched::kGroup) + "/" + std::string(sched::kVersion);
  updated.kind = std::string(sched::kReservationKind);
  auto written = client_.updateStatus(k8s::kReservations, "", sched::toJson(updated));
  if (!written.ok()) {
    ++report.failed_writes;
    options_.logger.warn("failed to update reservation status",
                         {{"reservation", r.metadata.name}, {"error", written.status().message()}});
    return false;
  }
  auto decoded = std::make_shared<sched::Reservation>();
  if (Status s = sched::fromJson(*written, *decoded, ""); s.isOk()) {
    (void)reservations_.upsert(std::move(decoded));
  }
  return true;
}

void ReservationController::placePending(const std::shared_ptr<const sched::Reservation>& r,
                                         WallTime now, SyncReport& report) {
  const int64_t generation = cluster_.generation();
  auto tried = unplaced_.find(r->metadata.name);
  if (tried != unplaced_.end() && tried->second.first == r->metadata.resourceVersion &&
      tried->second.second == generation)
    return;  // nothing changed since it last did not fit
  if (Status valid = sched::validateReservation(*r); !valid.isOk()) {
    if (conditionMessage(r->status, sched::kReservationConditionScheduled) != valid.message()) {
      if (writeStatus(*r, unschedulableStatus(*r, valid.message(), now), report))
        event(*r, k8s::EventType::kWarning, "FailedScheduling", valid.message());
    }
    unplaced_[r->metadata.name] = {r->metadata.resourceVersion, generation};
    return;
  }
  auto placed = place(*r, cluster_, placement_);
  if (!placed.ok()) {
    options_.logger.warn("failed to place reservation",
                         {{"reservation", r->metadata.name}, {"error", placed.status().message()}});
    return;
  }
  if (placed->node.empty()) {
    ++report.unschedulable;
    if (conditionMessage(r->status, sched::kReservationConditionScheduled) != placed->message ||
        r->status.phase != sched::kReservationPending) {
      if (writeStatus(*r, unschedulableStatus(*r, placed->message, now), report))
        event(*r, k8s::EventType::kWarning, "FailedScheduling", placed->message);
    }
    // The write (if any) bumped the resourceVersion: remember the version now in the cache.
    std::string version = r->metadata.resourceVersion;
    if (const auto current = reservations_.reservation(r->metadata.name); current != nullptr)
      version = current->metadata.resourceVersion;
    unplaced_[r->metadata.name] = {std::move(version), cluster_.generation()};
    return;
  }
  unplaced_.erase(r->metadata.name);
  // What the plugins take for it there (a cpuset), written onto the Reservation before it
  // becomes Available, so that it holds those from the moment it holds capacity.
  auto annotations = allocateFor(*r, cluster_, placement_, placed->node);
  framework::AllocationCache* in_flight = cluster_.allocations();
  auto release = [&] {
    if (in_flight != nullptr)
      in_flight->confirm(r->metadata.uid);
  };
  if (!annotations.ok()) {
    release();
    options_.logger.warn(
        "failed to allocate for reservation",
        {{"reservation", r->metadata.name}, {"error", annotations.status().message()}});
    // Tried again once the reservation or the cluster changes, not on every sync.
    unplaced_[r->metadata.name] = {r->metadata.resourceVersion, generation};
    return;
  }
  std::shared_ptr<const sched::Reservation> current = r;
  if (!annotations->empty()) {
    api::Json patch = {{"metadata", {{"annotations", api::Json::object()}}}};
    for (const auto& [key, value] : *annotations)
      patch["metadata"]["annotations"][key] = value;
    auto written = client_.patch(k8s::kReservations, "", r->metadata.name, k8s::PatchType::kMerge,
                                 patch.dump(), {});
    auto decoded = std::make_shared<sched::Reservation>();
    if (!written.ok() || !sched::fromJson(*written, *decoded, "").isOk()) {
      release();
      ++report.failed_writes;
      options_.logger.warn(
          "failed to write the reservation's allocation",
          {{"reservation", r->metadata.name},
           {"error", written.ok() ? "undecodable reply" : written.status().message()}});
      return;
    }
    current = std::move(decoded);
  }
  const bool available = writeStatus(
      *current, availableStatus(*current, placed->node, placed->allocatable, now), report);
  release();
  if (available) {
    ++report.placed;
    event(*r, k8s::EventType::kNormal, "Scheduled",
          "Successfully assigned reservation " + r->metadata.name + " to " + placed->node);
  }
}

SyncReport ReservationController::syncAll() {
  SyncReport report;
  const WallTime now = wall_();
  auto all = reservations_.reservations();
  // Oldest first, as a scheduling queue would.
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return a->metadata.creationTimestamp < b->metadata.creationTimestamp;
  });
  std::map<std::string, bool> seen;
  for (const auto& r : all) {
    seen[r->metadata.name] = true;
    if (!r->metadata.deletionTimestamp.empty())
      continue;
    if (isTerminal(*r)) {
      if (collectible(*r, now, options_.retention)) {
        api::core::DeleteOptions options;
        Status removed = client_.remove(k8s::kReservations, "", r->metadata.name, options);
        if (removed.isOk() || removed.code() == StatusCode::kNotFound) {
          ++report.deleted;
          reservations_.remove(r->metadata.name);
        } else {
          ++report.failed_writes;
          options_.logger.warn("failed to delete reservation",
                               {{"reservation", r->metadata.name}, {"error", removed.message()}});
        }
      }
      continue;
    }
    auto expiry = expiryTime(*r);
    if (expiry.ok() && expiry->has_value() && now >= **expiry) {
      std::string message = "Reservation expired at " + k8s::formatTime(**expiry);
      if (writeStatus(*r, expiredStatus(*r, message, now), report)) {
        ++report.expired;
        event(*r, k8s::EventType::kNormal, "Expired", std::move(message));
      }
      continue;
    }
    if (plugins::common::holdsCapacity(*r)) {
      auto node = cluster_.nodeInfo(r->status.nodeName);
      if (node == nullptr) {
        std::string message = "Reservation expired: node " + r->status.nodeName + " is gone";
        if (writeStatus(*r, expiredStatus(*r, message, now), report)) {
          ++report.expired;
          event(*r, k8s::EventType::kNormal, "Expired", std::move(message));
        }
        continue;
      }
      if (auto status = ownersStatus(*r, *node, now)) {
        const bool succeeded = status->phase == sched::kReservationSucceeded;
        if (writeStatus(*r, std::move(*status), report)) {
          ++report.synced;
          if (succeeded) {
            ++report.succeeded;
            event(*r, k8s::EventType::kNormal, "Succeeded",
                  "Reservation is allocated by its owner");
          }
        }
      }
      continue;
    }
    if (r->status.phase.empty() || r->status.phase == sched::kReservationPending)
      placePending(r, now, report);
  }
  for (auto it = unplaced_.begin(); it != unplaced_.end();) {
    it = seen.count(it->first) != 0 ? std::next(it) : unplaced_.erase(it);
  }
  return report;
}

void ReservationController::run(const std::stop_token& stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  while (!stop.stop_requested()) {
    const SyncReport report = !options_.ready || options_.ready() ? syncAll() : SyncReport{};
    if (report.placed + report.expired + report.synced + report.deleted + report.failed_writes >
        0) {
      options_.logger.info("reservation pass", {{"placed", report.placed},
                                                {"unschedulable", report.unschedulable},
                                                {"expired", report.expired},
                                                {"succeeded", report.succeeded},
                                                {"synced", report.synced},
                                                {"deleted", report.deleted},
                                                {"failedWrites", report.failed_writes}});
    }
    std::unique_lock lock(mu);
    cv.wait_for(lock, stop, options_.resync, [] { return false; });
  }
}

}  // namespace koord::extender::reservation
