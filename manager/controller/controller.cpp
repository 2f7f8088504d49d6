#include "manager/controller/controller.hpp"

#include <exception>
#include <string>
#include <thread>
#include <utility>

#include "koord/common/thread_name.hpp"

namespace koord::manager::controller {
namespace {

constexpr int kMaxWorkers = 64;

double seconds(Clock::Duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

Result<std::shared_ptr<Controller>> Controller::create(ControllerOptions options) {
  std::string problems;
  const auto problem = [&problems](const std::string& p) {
    problems += (problems.empty() ? "" : "; ") + p;
  };
  if (options.name.empty()) {
    problem("name: must not be empty");
  }
  if (options.workers < 1 || options.workers > kMaxWorkers) {
    problem("workers: must be 1.." + std::to_string(kMaxWorkers) + ", got " +
            std::to_string(options.workers));
  }
  if (!options.reconcile) {
    problem("reconcile: must be set");
  }
  if (!problems.empty()) {
    return Status::invalidArgument("controller '" + options.name + "': " + problems);
  }
  std::shared_ptr<Controller> controller(new Controller(std::move(options)));
  KOORD_RETURN_IF_ERROR(controller->initMetrics());
  return controller;
}

Controller::Controller(ControllerOptions options)
    : options_(std::move(options)),
      owned_clock_(options_.clock == nullptr ? std::make_unique<RealClock>() : nullptr),
      clock_(options_.clock == nullptr ? owned_clock_.get() : options_.clock) {
  options_.logger = options_.logger.withFields({{"controller", options_.name}});
}

Controller::~Controller() = default;

Status Controller::initMetrics() {
  metrics::MetricsRegistry* registry = options_.metrics;
  if (registry == nullptr) {
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(
      auto total, registry->counterFamily("koord_manager_controller_reconcile_total",
                                          "Reconciles by controller and result (success, error, "
                                          "requeue, requeue_after).",
                                          {"controller", "result"}));
  KOORD_ASSIGN_OR_RETURN(metrics_.success, total.withLabels({options_.name, "success"}));
  KOORD_ASSIGN_OR_RETURN(metrics_.error, total.withLabels({options_.name, "error"}));
  KOORD_ASSIGN_OR_RETURN(metrics_.requeue, total.withLabels({options_.name, "requeue"}));
  KOORD_ASSIGN_OR_RETURN(metrics_.requeue_after,
                         total.withLabels({options_.name, "requeue_after"}));
  KOORD_ASSIGN_OR_RETURN(auto duration, registry->histogramFamily(
                                            "koord_manager_controller_reconcile_duration_seconds",
                                            "How long each reconcile took.", {"controller"},
                                            metrics::exponentialBuckets(0.001, 2, 16)));
  KOORD_ASSIGN_OR_RETURN(metrics_.duration, duration.withLabels({options_.name}));
  KOORD_ASSIGN_OR_RETURN(
      auto depth,
      registry->gaugeFamily("koord_manager_controller_queue_depth",
                            "Keys ready in the controller's work queue.", {"controller"}));
  KOORD_ASSIGN_OR_RETURN(metrics_.depth, depth.withLabels({options_.name}));
  KOORD_ASSIGN_OR_RETURN(auto busy,
                         registry->gaugeFamily("koord_manager_controller_workers_busy",
                                               "Workers reconciling a key now.", {"controller"}));
  KOORD_ASSIGN_OR_RETURN(metrics_.busy, busy.withLabels({options_.name}));
  return Status::ok();
}

void Controller::enqueue(const std::string& key) {
  std::shared_ptr<k8s::RateLimitingQueue> queue;
  {
    std::lock_guard lock(mu_);
    if (queue_ == nullptr) {
      pending_.insert(key);
      return;
    }
    queue = queue_;
  }
  queue->add(key);
  updateDepth(*queue);
}

bool Controller::running() const {
  std::lock_guard lock(mu_);
  return queue_ != nullptr;
}

size_t Controller::queueDepth() const {
  std::lock_guard lock(mu_);
  return queue_ == nullptr ? 0 : queue_->len();
}

size_t Controller::waitingDepth() const {
  std::lock_guard lock(mu_);
  return queue_ == nullptr ? 0 : queue_->waitingLen();
}

void Controller::updateDepth(const k8s::RateLimitingQueue& queue) const {
  metrics_.depth.set(static_cast<double>(queue.len()));
}

void Controller::run(std::stop_token stop) {
  if (stop.stop_requested()) {
    return;
  }
  auto queue = std::make_shared<k8s::RateLimitingQueue>(
      *clock_, options_.rate_limiter ? options_.rate_limiter() : nullptr);
  std::vector<std::string> seed =
      options_.list_keys ? options_.list_keys() : std::vector<std::string>{};
  {
    std::lock_guard lock(mu_);
    seed.insert(seed.end(), pending_.begin(), pending_.end());
    pending_.clear();
    queue_ = queue;
  }
  for (const std::string& key : seed) {
    queue->add(key);
  }
  updateDepth(*queue);
  options_.logger.info("controller started", {{"workers", options_.workers}});

  std::vector<std::jthread> workers;
  workers.reserve(static_cast<size_t>(options_.workers));
  for (int i = 0; i < options_.workers; ++i) {
    workers.emplace_back([this, stop, queue] {
      nameThisThread("ctrl-" + options_.name.substr(0, 10));
      worker(stop, *queue);
    });
  }
  {
    std::mutex wait_mu;
    std::condition_variable_any wait_cv;
    std::unique_lock lock(wait_mu);
    wait_cv.wait(lock, stop, [] { return false; });
  }
  // Wakes every worker blocked in get(). (Not from a stop_callback: one registered here could be
  // destroyed, never run, once the wait above has returned on the same stop request.)
  queue->shutDown();
  {
    std::lock_guard lock(mu_);
    queue_ = nullptr;
  }
  workers.clear();  // joins: each worker ends after the key it holds
  metrics_.depth.set(0);
  options_.logger.info("controller stopped");
}

void Controller::worker(std::stop_token stop, k8s::RateLimitingQueue& queue) {
  while (true) {
    std::optional<std::string> key = queue.get();
    if (!key) {
      return;
    }
    updateDepth(queue);
    if (stop.stop_requested()) {
      queue.done(*key);  // stopping: queued keys are dropped, not reconciled
      continue;
    }
    processKey(stop, queue, *key);
    queue.done(*key);
    updateDepth(queue);
  }
}

void Controller::processKey(std::stop_token stop, k8s::RateLimitingQueue& queue,
                            const std::string& key) {
  metrics_.busy.inc();
  const Clock::TimePoint start = clock_->now();
  Result<ReconcileResult> result = Status::internal("reconcile did not return");
  try {
    result = options_.reconcile(stop, key);
  } catch (const std::exception& e) {
    result = Status::internal(std::string("reconcile threw: ") + e.what());
  } catch (...) {
    result = Status::internal("reconcile threw");
  }
  metrics_.duration.observe(seconds(clock_->now() - start));
  metrics_.busy.dec();
  if (!result.ok()) {
    metrics_.error.inc();
    options_.logger.warn(
        "reconcile failed; retrying after a backoff",
        {{"key", key}, {"error", result.status()}, {"retries", queue.numRequeues(key) + 1}});
    queue.addRateLimited(key);
    return;
  }
  if (result->requeue_after > Clock::Duration::zero()) {
    metrics_.requeue_after.inc();
    queue.forget(key);
    queue.addAfter(key, result->requeue_after);
    return;
  }
  if (result->requeue) {
    metrics_.requeue.inc();
    queue.addRateLimited(key);
    return;
  }
  metrics_.success.inc();
  queue.forget(key);
}

std::function<void(const std::string&)> weakEnqueuer(
    const std::shared_ptr<Controller>& controller) {
  return [weak = std::weak_ptr<Controller>(controller)](const std::string& key) {
    if (auto alive = weak.lock(); alive != nullptr && !key.empty()) {
      alive->enqueue(key);
    }
  };
}

std::function<void()> weakEnqueueAll(const std::shared_ptr<Controller>& controller,
                                     std::function<std::vector<std::string>()> keys) {
  return [weak = std::weak_ptr<Controller>(controller), keys = std::move(keys)] {
    auto alive = weak.lock();
    if (alive == nullptr) {
      return;
    }
    for (const std::string& key : keys()) {
      alive->enqueue(key);
    }
  };
}

}  // namespace koord::manager::controller
