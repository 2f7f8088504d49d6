// ReservationController: koord-extender's reservation loop (the job of Koordinator's reservation
// controller plus the scheduler's reserve-pod cycle). It runs only in the leader (serve.cpp elects
// it with the Lease of leaderElection) and, on every pass (syncAll(), every `resync`):
// - deletes terminal reservations once `retention` has passed (collectible());
// - expires what is due (expiryTime(); koord also expires reservations never placed, which
//   Koordinator does not) and Available ones whose node is gone: phase Failed, Ready=False/Expired;
// - places pending ones (placement.hpp) in creation order, oldest first: Available on the chosen
//   node, or Pending with Scheduled=False/Unschedulable and the FitError text. A pending one that
//   did not fit is tried again only when the cluster changed (ClusterState::generation()) or the
//   object did;
// - keeps currentOwners/allocated of Available ones in step with their owners and makes an
//   allocateOnce one Succeeded once it has an owner (ownersStatus()).
// Every write is a PUT of the status subresource (or a DELETE) with the cached resourceVersion; the
// object the API server returns goes into the Reservation helper (ReservationState) at once, so the
// next pod sees it. A failed write (a Conflict included) is logged and retried on the next pass.
// Events: Scheduled, FailedScheduling (when its message changes), Expired, Succeeded.
//
// Thread safety: syncAll() and run() from one thread at a time.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <stop_token>
#include <string>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/runtime.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/reservation/lifecycle.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::reservation {

struct ControllerOptions {
  std::chrono::milliseconds resync{1000};
  std::chrono::seconds retention{std::chrono::hours(24)};  // Koordinator's gcDurationSeconds
  // run() skips its passes until this holds (the informers have synced); empty: always.
  std::function<bool()> ready;
  log::Logger logger;
};

// What one pass did (for logs and tests).
struct SyncReport {
  int placed = 0;
  int unschedulable = 0;
  int expired = 0;
  int succeeded = 0;
  int synced = 0;  // owners written
  int deleted = 0;
  int failed_writes = 0;
};

class ReservationController {
 public:
  // Every reference must outlive the controller. `events` may be nullptr (no events). `wall` is
  // the time compared with creationTimestamp, expires and condition times.
  ReservationController(k8s::Client& client, framework::ClusterState& cluster,
                        framework::Runtime& placement, k8s::EventRecorder* events,
                        k8s::WallClock wall, ControllerOptions options);

  SyncReport syncAll();
  // syncAll() every options.resync until `stop` is requested.
  void run(const std::stop_token& stop);

 private:
  bool writeStatus(const api::scheduling::Reservation& r, api::scheduling::ReservationStatus status,
                   SyncReport& report);
  void event(const api::scheduling::Reservation& r, k8s::EventType type, std::string reason,
             std::string message);
  void placePending(const std::shared_ptr<const api::scheduling::Reservation>& r, WallTime now,
                    SyncReport& report);

  k8s::Client& client_;
  framework::ClusterState& cluster_;
  plugins::common::ReservationState& reservations_;  // the cluster's Reservation helper
  framework::Runtime& placement_;
  k8s::EventRecorder* events_;
  k8s::WallClock wall_;
  ControllerOptions options_;
  // Pending reservations that did not fit: name -> (resourceVersion, cluster generation) then.
  std::map<std::string, std::pair<std::string, int64_t>> unplaced_;
};

}  // namespace koord::extender::reservation
