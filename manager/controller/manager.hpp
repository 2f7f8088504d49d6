// Manager: runs koord-manager's controllers (and any other Runnable) only while this replica leads,
// after controller-runtime's manager with leader election.
//
// With leader election on, the Manager campaigns for a coordination.k8s.io/v1 Lease through
// k8s::LeaderElector (Lease semantics: koord/k8s/leader_election.hpp). Once it leads it starts
// every added Runnable on a thread of its own; when leadership is lost (no renewal within
// renew_deadline) it requests every Runnable to stop, waits for all of them to return, and then
// campaigns again (a replica that lost the Lease becomes a candidate, it does not exit). stop()
// stops the Runnables first and then releases the Lease, so that no write of this replica can
// follow the release. With leader election off the Runnables start at once and stop on stop().
//
// Leadership is reported three ways: isLeader(), the `koord_manager_leader` gauge (1 while leading,
// 0 otherwise; options.metrics) and one log line each when this replica starts and stops leading.
//
// Thread safety: add() before start(); start() and stop() from one thread (stop() is idempotent and
// also run by the destructor); isLeader() and leader() from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/leader_election.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/controller.hpp"

namespace koord::manager::controller {

// Something that runs while this replica leads: run() blocks until `stop` is requested and must
// return soon after; it may be called again after it returned (the replica leads again).
class Runnable {
 public:
  virtual ~Runnable() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  virtual void run(std::stop_token stop) = 0;
};

struct LeaderElectionOptions {
  bool leader_elect = true;
  std::string lease_namespace = "koordinator-system";
  std::string lease_name = "koord-manager";
  std::string identity;  // unique per replica (hostname + "_" + random suffix)
  std::chrono::milliseconds lease_duration{std::chrono::seconds(15)};
  std::chrono::milliseconds renew_deadline{std::chrono::seconds(10)};
  std::chrono::milliseconds retry_period{std::chrono::seconds(2)};
};

struct ManagerOptions {
  LeaderElectionOptions election;
  // Times the Lease waits (k8s::LeaderElectionConfig::clock); must outlive the manager. nullptr:
  // real time.
  const Clock* clock = nullptr;
  k8s::WallClock wall_clock;                    // empty: system_clock
  metrics::MetricsRegistry* metrics = nullptr;  // must outlive the manager; nullptr: none
  // Called on the election thread when this replica starts (true) and stops (false) leading.
  std::function<void(bool leading)> on_leading_changed;
  log::Logger logger;
};

class Manager {
 public:
  // Validates the election options (kInvalidArgument naming the fields, as
  // k8s::LeaderElector::create does); `client` must outlive the manager. No I/O.
  [[nodiscard]] static Result<std::unique_ptr<Manager>> create(k8s::Client& client,
                                                               ManagerOptions options);
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // Registers a Runnable (a Controller is wrapped by add(std::shared_ptr<Controller>)).
  // kFailedPrecondition after start(); kAlreadyExists for a second Runnable with the same name.
  [[nodiscard]] Status add(std::shared_ptr<Runnable> runnable);
  [[nodiscard]] Status add(std::shared_ptr<Controller> controller);

  // Starts campaigning (or, with leader election off, the Runnables) on a thread of its own;
  // returns at once. Call once.
  void start();
  // Stops the Runnables, waits for them, releases the Lease when leading and joins the election
  // thread. Idempotent.
  void stop();

  // True while the Runnables run (leading, or leader election off and started).
  [[nodiscard]] bool isLeader() const;
  // The Lease holder last observed ("" when none or leader election is off).
  [[nodiscard]] std::string leader() const;
  [[nodiscard]] const std::string& identity() const { return options_.election.identity; }
  // How many times this replica has started leading.
  [[nodiscard]] int leadTerms() const { return terms_.load(); }

 private:
  Manager(k8s::Client& client, ManagerOptions options);
  k8s::LeaderElectionConfig electionConfig();
  // Runs every Runnable until `stop`; returns once all have returned.
  void runAll(std::stop_token stop);
  void setLeading(bool leading);
  void campaign(std::stop_token stop);

  k8s::Client& client_;
  ManagerOptions options_;
  metrics::Gauge leader_gauge_;
  std::vector<std::shared_ptr<Runnable>> runnables_;
  std::atomic<bool> leading_{false};
  std::atomic<int> terms_{0};
  bool started_ = false;

  mutable std::mutex mu_;
  std::unique_ptr<k8s::LeaderElector> elector_;  // guarded by mu_: the current term's
  std::string last_leader_;                      // guarded by mu_
  bool stopping_ = false;                        // guarded by mu_
  std::jthread thread_;
};

// "<hostname>_<16 hex digits>": unique per process, as client-go's identities are.
[[nodiscard]] std::string defaultIdentity();

}  // namespace koord::manager::controller
