// LeaderElector: leader election over a coordination.k8s.io/v1 Lease, with the semantics of
// client-go's leaderelection package (LeaseLock).
//
// A candidate gets the Lease and, when it is missing, creates it holding it. When another identity
// holds it, the candidate waits until the record has not changed for the record's
// leaseDurationSeconds, measured on the local monotonic clock from when this candidate last saw the
// record change (the remote renewTime is never trusted), retrying every retryPeriod (jittered by
// up to 1.2 x retryPeriod). It then takes the Lease over with an update that carries the observed
// resourceVersion, so of two candidates only one wins (the other gets a Conflict and keeps
// waiting). An empty holderIdentity means the Lease was released and is free at once.
//
// While leading, the Lease is renewed every retryPeriod; when no renewal succeeds within
// renewDeadline the elector steps down. On stop() while leading with release_on_cancel, the Lease
// is written back with an empty holder and leaseDurationSeconds 1, so another candidate takes it
// on its next try.
//
// Thread safety: run() is called once, from one thread. stop(), isLeader() and leader() may be
// called from any thread at any time, callbacks included.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stop_token>
#include <string>

#include "koord/api/core/objects.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"

namespace koord::k8s {

// Wall-clock time for the MicroTime fields written into the Lease.
using WallClock = std::function<std::chrono::system_clock::time_point()>;

// "2006-01-02T15:04:05.000000Z" (UTC, microseconds): the text of a metav1.MicroTime.
[[nodiscard]] std::string formatMicroTime(std::chrono::system_clock::time_point t);

struct LeaderElectionConfig {
  std::string lease_namespace;
  std::string lease_name;
  // The holderIdentity written while leading; unique per candidate (e.g. hostname + "_" + uuid).
  std::string identity;

  // How long a non-leader waits after the last observed change before taking the Lease (written as
  // leaseDurationSeconds, whole seconds). Must be > renew_deadline.
  std::chrono::milliseconds lease_duration{std::chrono::seconds(15)};
  // How long the leader keeps retrying a failed renewal before it steps down. Must be >
  // 1.2 x retry_period.
  std::chrono::milliseconds renew_deadline{std::chrono::seconds(10)};
  // The interval between tries (to acquire, jittered; to renew, fixed).
  std::chrono::milliseconds retry_period{std::chrono::seconds(2)};

  // Called once leadership is acquired, on a thread of its own; `stop` is requested when
  // leadership ends (lost or stop()). run() waits for it to return before it releases the Lease
  // and returns, so it must return soon after `stop` is requested.
  std::function<void(std::stop_token stop)> on_started_leading;
  // Called on run()'s thread when this elector stops leading (after on_started_leading returned).
  // Not called when run() ends without ever having led.
  std::function<void()> on_stopped_leading;
  // Called on run()'s thread when the observed holder changes to a new non-empty identity (this
  // one's included).
  std::function<void(const std::string& identity)> on_new_leader;

  // Release the Lease (empty holder) when stopped while leading.
  bool release_on_cancel = true;

  // Monotonic clock for every wait and expiry; must outlive the elector. nullptr: a RealClock
  // owned by the elector.
  const Clock* clock = nullptr;
  // Wall clock for acquireTime/renewTime; empty: std::chrono::system_clock::now.
  WallClock wall_clock;
  log::Logger logger;
};

class LeaderElector {
 public:
  // Validates `config`: every problem is reported at once, as kInvalidArgument naming the fields
  // (lease_name, lease_namespace, identity, lease_duration, renew_deadline, retry_period).
  // `client` must outlive the elector. No I/O.
  [[nodiscard]] static Result<std::unique_ptr<LeaderElector>> create(Client& client,
                                                                     LeaderElectionConfig config);

  // Requests stop (as stop()) and waits for nothing: run() must have returned before the elector
  // is destroyed.
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Blocks: acquires the Lease (retrying until acquired or stopped), then renews it until renewal
  // fails for renew_deadline (leadership lost) or stop() is called. Returns at once if stop() was
  // already called. Call once.
  void run();

  // Asks run() to return: while acquiring it returns at its next wait; while leading it stops the
  // on_started_leading callback, releases the Lease (release_on_cancel) and returns. Idempotent,
  // never blocks.
  void stop();

  // True while this elector is leading: from the successful acquire until it steps down.
  [[nodiscard]] bool isLeader() const;
  // The holder identity last observed in the Lease ("" when free or not yet observed).
  [[nodiscard]] std::string leader() const;

 private:
  // What the Lease spec holds (client-go's LeaderElectionRecord).
  struct Record {
    std::string holder;
    int32_t lease_duration_seconds = 0;
    std::string acquire_time;
    std::string renew_time;
    int32_t transitions = 0;
    bool operator==(const Record&) const = default;
  };

  LeaderElector(Client& client, LeaderElectionConfig config);

  bool acquire();
  // Renews until lost or stopped; true when it ended because of stop().
  bool renewLoop();
  bool tryAcquireOrRenew();
  void release();
  void reportTransition();
  // Waits until `deadline` or stop(); true when stopped.
  bool waitOrStop(Clock::TimePoint deadline);
  Clock::Duration jitteredRetryPeriod();
  bool stopRequested() const;

  bool observedIsMine() const;
  bool leaseValid(Clock::TimePoint now) const;
  void setObserved(const Record& record, api::core::Lease lease, Clock::TimePoint now);
  [[nodiscard]] Result<api::core::Lease> writeLease(const api::core::Lease& base,
                                                    const Record& record, bool create);
  Record newRecord() const;
  // The record a Lease holds (missing fields read as Go's zero values).
  static Record recordOf(const api::core::Lease& lease);

  Client& client_;
  LeaderElectionConfig config_;
  std::unique_ptr<Clock> owned_clock_;
  const Clock* clock_;
  std::mt19937_64 rng_;

  // Only run()'s thread touches these.
  api::core::Lease lease_;  // the latest Lease object read or written (for its resourceVersion)
  Clock::TimePoint observed_time_{};
  std::string reported_leader_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_requested_ = false;  // guarded by mu_
  bool leading_ = false;         // guarded by mu_
  Record observed_;              // guarded by mu_ (written by run()'s thread only)
};

}  // namespace koord::k8s
