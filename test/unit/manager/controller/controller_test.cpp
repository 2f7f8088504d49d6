#include "manager/controller/controller.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "koord/common/clock.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::manager::controller {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Polls `pred` in real time for up to 10 s.
template <class Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(2));
  }
  return pred();
}

// Runs a controller on a thread of its own until the fixture ends.
class Running {
 public:
  explicit Running(std::shared_ptr<Controller> controller) : controller_(std::move(controller)) {
    thread_ = std::jthread([this](std::stop_token stop) { controller_->run(stop); });
    EXPECT_TRUE(eventually([this] { return controller_->running(); }));
  }
  ~Running() { stopAndJoin(); }
  void stopAndJoin() {
    thread_.request_stop();
    if (thread_.joinable()) {
      thread_.join();
    }
  }

 private:
  std::shared_ptr<Controller> controller_;
  std::jthread thread_;
};

// Counts calls per key; the result of each call comes from `script` (per key, in order; done once
// it runs out).
class ScriptedReconciler {
 public:
  void script(const std::string& key, std::vector<Result<ReconcileResult>> results) {
    std::lock_guard lock(mu_);
    scripts_[key] = std::move(results);
  }
  int calls(const std::string& key) const {
    std::lock_guard lock(mu_);
    auto it = calls_.find(key);
    return it == calls_.end() ? 0 : it->second;
  }
  Reconciler reconciler() {
    return [this](std::stop_token, const std::string& key) -> Result<ReconcileResult> {
      std::lock_guard lock(mu_);
      const int n = calls_[key]++;
      auto& s = scripts_[key];
      if (static_cast<size_t>(n) < s.size()) {
        return s[static_cast<size_t>(n)];
      }
      return ReconcileResult::done();
    };
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, int> calls_;
  std::map<std::string, std::vector<Result<ReconcileResult>>> scripts_;
};

ControllerOptions options(const FakeClock& clock, ScriptedReconciler& r,
                          metrics::MetricsRegistry* registry = nullptr) {
  ControllerOptions o;
  o.name = "test";
  o.workers = 1;
  o.reconcile = r.reconciler();
  o.clock = &clock;
  o.metrics = registry;
  // 1 s doubling: the delays are easy to step through.
  o.rate_limiter = [] {
    return std::make_unique<k8s::ItemExponentialFailureRateLimiter>(seconds(1), seconds(100));
  };
  return o;
}

// Waits until the worker has put the key back for a delay (so that advancing the clock counts).
bool parked(const std::shared_ptr<Controller>& c) {
  return eventually([&c] { return c->waitingDepth() == 1; });
}

// True when `calls` stays at `want` for 50 ms of real time (nothing else was due).
bool staysAt(const ScriptedReconciler& r, const std::string& key, int want) {
  std::this_thread::sleep_for(milliseconds(50));
  return r.calls(key) == want;
}

std::string series(const metrics::MetricsRegistry& registry, const std::string& result) {
  const std::string text = registry.serialize();
  const std::string prefix =
      "koord_manager_controller_reconcile_total{controller=\"test\",result=\"" + result + "\"} ";
  const size_t at = text.find(prefix);
  if (at == std::string::npos) {
    return "";
  }
  return text.substr(at + prefix.size(), text.find('\n', at) - at - prefix.size());
}

TEST(ControllerTest, CreateRejectsBadOptionsNamingThem) {
  ControllerOptions o;
  o.workers = 0;
  auto c = Controller::create(o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("name: must not be empty"), std::string::npos);
  EXPECT_NE(c.status().message().find("workers: must be 1..64, got 0"), std::string::npos);
  EXPECT_NE(c.status().message().find("reconcile: must be set"), std::string::npos);
}

TEST(ControllerTest, RetriesAFailingKeyWithBackoffAndForgetsItOnSuccess) {
  FakeClock clock;
  ScriptedReconciler r;
  metrics::MetricsRegistry registry;
  r.script("ns/a",
           {Status::unavailable("api down"), Status::unavailable("api down"),
            ReconcileResult::done(), Status::unavailable("again"), ReconcileResult::done()});
  auto c = Controller::create(options(clock, r, &registry));
  ASSERT_TRUE(c.ok()) << c.status().message();
  Running running(*c);
  (*c)->enqueue("ns/a");
  ASSERT_TRUE(eventually([&] { return r.calls("ns/a") == 1; }));
  ASSERT_TRUE(parked(*c));
  // First failure: back after 1 s, not before.
  clock.advance(milliseconds(900));
  EXPECT_TRUE(staysAt(r, "ns/a", 1));
  clock.advance(milliseconds(100));
  ASSERT_TRUE(eventually([&] { return r.calls("ns/a") == 2; }));
  ASSERT_TRUE(parked(*c));
  // Second failure: back after 2 s.
  clock.advance(milliseconds(1900));
  EXPECT_TRUE(staysAt(r, "ns/a", 2));
  clock.advance(milliseconds(100));
  ASSERT_TRUE(eventually([&] { return r.calls("ns/a") == 3; }));  // success: forgotten
  EXPECT_TRUE(staysAt(r, "ns/a", 3));
  // A new failure starts from the base delay again (1 s, not 4 s).
  (*c)->enqueue("ns/a");
  ASSERT_TRUE(eventually([&] { return r.calls("ns/a") == 4; }));
  ASSERT_TRUE(parked(*c));
  clock.advance(milliseconds(900));
  EXPECT_TRUE(staysAt(r, "ns/a", 4));
  clock.advance(milliseconds(100));
  ASSERT_TRUE(eventually([&] { return r.calls("ns/a") == 5; }));
  running.stopAndJoin();
  EXPECT_EQ(series(registry, "error"), "3");
  EXPECT_EQ(series(registry, "success"), "2");
  EXPECT_NE(registry.serialize().find(
                "koord_manager_controller_reconcile_duration_seconds_count{controller=\"test\"} 5"),
            std::string::npos)
      << registry.serialize();
}

TEST(ControllerTest, RequeueAfterComesBackAfterTheDelayAndRequeueAfterTheBackoff) {
  FakeClock clock;
  ScriptedReconciler r;
  metrics::MetricsRegistry registry;
  r.script("b", {ReconcileResult::requeueAfter(seconds(30)), ReconcileResult::requeueNow(),
                 ReconcileResult::done()});
  auto c = Controller::create(options(clock, r, &registry));
  ASSERT_TRUE(c.ok());
  Running running(*c);
  (*c)->enqueue("b");
  ASSERT_TRUE(eventually([&] { return r.calls("b") == 1; }));
  ASSERT_TRUE(parked(*c));
  clock.advance(seconds(29));
  EXPECT_TRUE(staysAt(r, "b", 1));
  clock.advance(seconds(1));
  ASSERT_TRUE(eventually([&] { return r.calls("b") == 2; }));
  ASSERT_TRUE(parked(*c));
  // requeue: after the key's backoff (1 s: the requeue-after forgot the earlier history).
  clock.advance(milliseconds(900));
  EXPECT_TRUE(staysAt(r, "b", 2));
  clock.advance(milliseconds(100));
  ASSERT_TRUE(eventually([&] { return r.calls("b") == 3; }));
  running.stopAndJoin();
  EXPECT_EQ(series(registry, "requeue_after"), "1");
  EXPECT_EQ(series(registry, "requeue"), "1");
  EXPECT_EQ(series(registry, "success"), "1");
}

TEST(ControllerTest, AnExceptionCountsAsAnError) {
  FakeClock clock;
  std::atomic<int> calls{0};
  ControllerOptions o;
  o.name = "throws";
  o.clock = &clock;
  o.reconcile = [&calls](std::stop_token, const std::string&) -> Result<ReconcileResult> {
    if (calls.fetch_add(1) == 0) {
      throw std::runtime_error("boom");
    }
    return ReconcileResult::done();
  };
  auto c = Controller::create(o);
  ASSERT_TRUE(c.ok());
  Running running(*c);
  (*c)->enqueue("k");
  ASSERT_TRUE(eventually([&] { return calls.load() == 1; }));
  ASSERT_TRUE(parked(*c));
  clock.advance(milliseconds(5));  // client-go's base delay
  ASSERT_TRUE(eventually([&] { return calls.load() == 2; }));
}

TEST(ControllerTest, WorkersTakeDistinctKeysAtOnceButNeverTheSameKeyTwice) {
  std::mutex mu;
  std::map<std::string, int> in_flight;
  std::map<std::string, int> calls;
  int concurrent = 0, max_concurrent = 0, max_same_key = 0;
  std::atomic<bool> release{false};
  ControllerOptions o;
  o.name = "parallel";
  o.workers = 4;
  o.reconcile = [&](std::stop_token, const std::string& key) -> Result<ReconcileResult> {
    {
      std::lock_guard lock(mu);
      ++calls[key];
      max_same_key = std::max(max_same_key, ++in_flight[key]);
      max_concurrent = std::max(max_concurrent, ++concurrent);
    }
    // Hold the key until the test lets go, so that the others pile up behind it.
    while (!release.load()) {
      std::this_thread::sleep_for(milliseconds(1));
    }
    std::this_thread::sleep_for(milliseconds(1));
    std::lock_guard lock(mu);
    --in_flight[key];
    --concurrent;
    return ReconcileResult::done();
  };
  auto c = Controller::create(o);
  ASSERT_TRUE(c.ok());
  Running running(*c);
  for (const char* key : {"k1", "k2", "k3", "k4"}) {
    (*c)->enqueue(key);
  }
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mu);
    return concurrent == 4;
  }));
  // k1 is held: adding it again (many times, from several threads) queues it once, for after.
  {
    std::vector<std::jthread> adders;
    for (int t = 0; t < 4; ++t) {
      adders.emplace_back([&] {
        for (int i = 0; i < 100; ++i) {
          (*c)->enqueue("k1");
        }
      });
    }
  }
  std::this_thread::sleep_for(milliseconds(20));
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(in_flight["k1"], 1);
    EXPECT_EQ(calls["k1"], 1);
  }
  release.store(true);
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mu);
    return calls["k1"] == 2 && concurrent == 0;
  }));
  std::this_thread::sleep_for(milliseconds(20));
  std::lock_guard lock(mu);
  EXPECT_EQ(calls["k1"], 2);  // the dirty key once more, not 400 times
  EXPECT_EQ(calls["k2"], 1);
  EXPECT_EQ(max_concurrent, 4);
  EXPECT_EQ(max_same_key, 1);
}

TEST(ControllerTest, KeysEnqueuedWhileStoppedAndListedKeysRunOnStart) {
  FakeClock clock;
  ScriptedReconciler r;
  ControllerOptions o = options(clock, r);
  o.list_keys = [] { return std::vector<std::string>{"listed", "both"}; };
  auto c = Controller::create(o);
  ASSERT_TRUE(c.ok());
  (*c)->enqueue("early");
  (*c)->enqueue("both");
  EXPECT_FALSE((*c)->running());
  EXPECT_EQ(r.calls("early"), 0);
  {
    Running running(*c);
    ASSERT_TRUE(eventually(
        [&] { return r.calls("early") == 1 && r.calls("listed") == 1 && r.calls("both") == 1; }));
  }
  EXPECT_FALSE((*c)->running());
  // A second run (a replica that leads again) lists again.
  Running again(*c);
  ASSERT_TRUE(eventually([&] { return r.calls("listed") == 2; }));
  EXPECT_TRUE(staysAt(r, "early", 1));
}

TEST(ControllerTest, StopDropsQueuedKeysAndWaitsForTheOneInFlight) {
  std::atomic<int> started{0};
  std::atomic<bool> stop_seen{false};
  ControllerOptions o;
  o.name = "stopping";
  o.reconcile = [&](std::stop_token stop, const std::string&) -> Result<ReconcileResult> {
    started.fetch_add(1);
    while (!stop.stop_requested()) {
      std::this_thread::sleep_for(milliseconds(1));
    }
    stop_seen.store(true);
    return ReconcileResult::done();
  };
  auto c = Controller::create(o);
  ASSERT_TRUE(c.ok());
  auto running = std::make_unique<Running>(*c);
  (*c)->enqueue("a");
  (*c)->enqueue("b");
  ASSERT_TRUE(eventually([&] { return started.load() == 1; }));
  EXPECT_EQ((*c)->queueDepth(), 1U);
  running.reset();  // requests stop and joins
  EXPECT_TRUE(stop_seen.load());
  EXPECT_EQ(started.load(), 1);  // "b" was dropped
}

}  // namespace
}  // namespace koord::manager::controller

namespace koord::manager::controller {
namespace {

TEST(ControllerTest, WeakEnqueuersFeedTheControllerWhileItLivesAndNothingAfter) {
  FakeClock clock;
  ScriptedReconciler r;
  auto c = Controller::create(options(clock, r, nullptr));
  ASSERT_TRUE(c.ok()) << c.status().message();
  std::shared_ptr<Controller> controller = *c;
  auto enqueue = weakEnqueuer(controller);
  auto enqueue_all = weakEnqueueAll(controller, [] { return std::vector<std::string>{"x", "y"}; });
  {
    Running running(controller);
    enqueue("ns/a");
    enqueue("");  // ignored
    enqueue_all();
    ASSERT_TRUE(
        eventually([&] { return r.calls("ns/a") == 1 && r.calls("x") == 1 && r.calls("y") == 1; }));
    EXPECT_EQ(r.calls(""), 0);
  }
  controller.reset();
  c = Result<std::shared_ptr<Controller>>(std::shared_ptr<Controller>());
  // The controller is gone: the functions do nothing (a handler that outlives it must not crash).
  enqueue("ns/b");
  enqueue_all();
  EXPECT_EQ(r.calls("ns/b"), 0);
}

}  // namespace
}  // namespace koord::manager::controller
