// Controller: a named reconcile loop over a rate-limited work queue of keys, after
// controller-runtime's controller (reusable by the descheduler, the quota controller and the
// other koord-manager controllers).
//
//   Controller::create(ControllerOptions{.name = "nodeslo", .workers = 2, .reconcile = fn, ...})
//   informer->addHandlers(controller->handlers<api::core::Node>());  // enqueue "namespace/name"
//   manager.add(controller);  // runs while this replica leads (manager.hpp)
//
// Contract:
// - enqueue(key) queues the key once however often it is added before a worker takes it (the
//   k8s::WorkQueue guarantees); a key is reconciled by at most one worker at a time, distinct keys
//   by up to `workers` at once.
// - reconcile(stop, key) returns what to do with the key:
//     an error Status (or a thrown exception)  -> re-added after the queue's per-key backoff
//                                                 (addRateLimited), result "error";
//     ReconcileResult::requeue()               -> re-added after the backoff, result "requeue";
//     ReconcileResult::requeueAfter(d), d > 0  -> backoff forgotten, re-added after d on the
//                                                 Clock, result "requeue_after";
//     ReconcileResult::done()                  -> backoff forgotten (the key's next failure starts
//                                                 from the base delay), result "success".
// - run(stop) is the loop: it makes a fresh queue, queues the keys enqueued while it was not
//   running and those of options.list_keys (the resync a new leader needs), starts `workers`
//   threads and blocks until `stop` is requested; it then shuts the queue down, lets each worker
//   finish the key it holds (keys still queued are dropped, not reconciled) and returns. It may be
//   called again after it returned (a replica that leads again), never twice at once.
// - While not running, enqueue() remembers the key (once) for the next run().
//
// Metrics (when options.metrics is set), every series labelled controller=<name>:
//   koord_manager_controller_reconcile_total{controller,result}   counter; result is success,
//                                                                  error, requeue, requeue_after
//   koord_manager_controller_reconcile_duration_seconds{controller}  histogram
//   koord_manager_controller_queue_depth{controller}               gauge: keys ready in the queue
//                                                                  (set whenever the controller
//                                                                  adds or takes a key)
//   koord_manager_controller_workers_busy{controller}              gauge: workers reconciling
//
// Thread safety: enqueue(), handlers' callbacks, running(), queueDepth() and waitingDepth() may be
// called from any thread; run() from one thread at a time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/informer.hpp"
#include "koord/k8s/rate_limiting_queue.hpp"
#include "koord/k8s/store_keys.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::manager::controller {

// What a successful reconcile asks for.
struct ReconcileResult {
  bool requeue = false;                                     // again after the key's backoff
  Clock::Duration requeue_after = Clock::Duration::zero();  // > 0: again after this long

  static ReconcileResult done() { return {}; }
  static ReconcileResult requeueNow() { return {true, Clock::Duration::zero()}; }
  static ReconcileResult requeueAfter(Clock::Duration d) { return {false, d}; }
};

// Reconciles one key; `stop` is requested when the controller stops (leadership lost, shutdown),
// and a long reconcile should return soon after.
using Reconciler =
    std::function<Result<ReconcileResult>(std::stop_token stop, const std::string& key)>;

struct ControllerOptions {
  std::string name;  // non-empty; the metrics' controller label and the workers' thread names
  int workers = 1;   // 1..64
  Reconciler reconcile;
  // The keys to queue each time run() starts (usually every key of the informers' caches); empty:
  // none besides those enqueued.
  std::function<std::vector<std::string>()> list_keys;
  // Makes the per-key backoff of each run's queue; empty: k8s::ItemExponentialFailureRateLimiter
  // (5 ms doubling up to 1000 s, client-go's default).
  std::function<std::unique_ptr<k8s::ItemRateLimiter>()> rate_limiter;
  // Times the delays and the reconcile durations; must outlive the controller. nullptr: real time.
  const Clock* clock = nullptr;
  metrics::MetricsRegistry* metrics = nullptr;  // must outlive the controller; nullptr: none
  log::Logger logger;
};

class Controller {
 public:
  // kInvalidArgument naming the field (name, workers, reconcile); kAlreadyExists when the metric
  // families clash with others in options.metrics.
  [[nodiscard]] static Result<std::shared_ptr<Controller>> create(ControllerOptions options);

  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  [[nodiscard]] const std::string& name() const { return options_.name; }

  // Queues `key` (see the contract above).
  void enqueue(const std::string& key);

  // Informer handlers that enqueue each object's "namespace/name" key (its name alone when it has
  // no namespace) on add, update and delete.
  template <class T>
  [[nodiscard]] k8s::ResourceEventHandlers<T> handlers() {
    k8s::ResourceEventHandlers<T> h;
    auto enqueue_object = [this](const std::shared_ptr<const T>& obj) {
      if (auto key = k8s::metaNamespaceKey(obj->metadata); key.ok()) {
        enqueue(*key);
      }
    };
    h.onAdd = enqueue_object;
    h.onUpdate = [enqueue_object](const std::shared_ptr<const T>&,
                                  const std::shared_ptr<const T>& obj) { enqueue_object(obj); };
    h.onDelete = enqueue_object;
    return h;
  }

  // Blocks until `stop` is requested (see the contract above).
  void run(std::stop_token stop);

  [[nodiscard]] bool running() const;
  // Keys ready in the queue now (0 while not running).
  [[nodiscard]] size_t queueDepth() const;
  // Keys waiting for their backoff or requeue-after delay (0 while not running).
  [[nodiscard]] size_t waitingDepth() const;

 private:
  struct Metrics {
    metrics::Counter success, error, requeue, requeue_after;
    metrics::Histogram duration;
    metrics::Gauge depth, busy;
  };

  explicit Controller(ControllerOptions options);
  Status initMetrics();
  void worker(std::stop_token stop, k8s::RateLimitingQueue& queue);
  void processKey(std::stop_token stop, k8s::RateLimitingQueue& queue, const std::string& key);
  void updateDepth(const k8s::RateLimitingQueue& queue) const;

  ControllerOptions options_;
  std::unique_ptr<Clock> owned_clock_;
  const Clock* clock_;
  Metrics metrics_;

  mutable std::mutex mu_;
  std::shared_ptr<k8s::RateLimitingQueue> queue_;  // guarded by mu_; set while running
  std::set<std::string> pending_;                  // guarded by mu_; enqueued while not running
};

// Informer handlers and SloConfigSource subscriptions outlive the controller they feed, so they
// hold it weakly: weakEnqueuer enqueues a non-empty key while the controller lives (and does
// nothing after); weakEnqueueAll enqueues every key `keys` returns.
[[nodiscard]] std::function<void(const std::string&)> weakEnqueuer(
    const std::shared_ptr<Controller>& controller);
[[nodiscard]] std::function<void()> weakEnqueueAll(const std::shared_ptr<Controller>& controller,
                                                   std::function<std::vector<std::string>()> keys);

}  // namespace koord::manager::controller
