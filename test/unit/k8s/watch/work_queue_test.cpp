#include "koord/k8s/work_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "koord/k8s/rate_limiting_queue.hpp"

namespace koord::k8s {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Spins until `n` threads are blocked on the fake clock (a waiting get()).
void waitForWaiters(const FakeClock& clock, size_t n) {
  while (clock.waiterCount() < n) {
    std::this_thread::yield();
  }
}

std::vector<std::string> drainReady(WorkQueue& queue) {
  std::vector<std::string> out;
  while (queue.len() > 0) {
    auto item = queue.get();
    out.push_back(*item);
    queue.done(*item);
  }
  return out;
}

TEST(WorkQueueTest, AddDedupesQueuedItems) {
  FakeClock clock;
  WorkQueue queue(clock);
  for (const char* item : {"a", "b", "a", "a", "c", "b"}) {
    queue.add(item);
  }
  EXPECT_EQ(queue.len(), 3u);
  EXPECT_EQ(drainReady(queue), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(WorkQueueTest, ItemReaddedWhileProcessingIsQueuedAfterDone) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.add("a");
  auto item = queue.get();
  ASSERT_EQ(item, "a");
  queue.add("a");
  queue.add("a");
  EXPECT_EQ(queue.len(), 0u);  // never handed to a second worker while held
  queue.add("b");
  EXPECT_EQ(queue.get(), "b");
  queue.done("b");
  queue.done("a");
  EXPECT_EQ(queue.len(), 1u);
  EXPECT_EQ(queue.get(), "a");
  queue.done("a");
  EXPECT_EQ(queue.len(), 0u);
}

TEST(WorkQueueTest, DoneWithoutGetIsIgnored) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.add("a");
  queue.done("a");
  queue.done("zzz");
  EXPECT_EQ(drainReady(queue), std::vector<std::string>{"a"});
}

TEST(WorkQueueTest, AddAfterWaitsForTheFakeClock) {
  const struct {
    const char* name;
    std::vector<Clock::Duration> delays;  // addAfter("a", d) for each, in order
    Clock::Duration ready_after;
  } cases[] = {
      {"single", {seconds(2)}, seconds(2)},
      {"earlier second add wins", {seconds(10), seconds(1)}, seconds(1)},
      {"later second add ignored", {seconds(1), seconds(10)}, seconds(1)},
      {"zero delay is immediate", {Clock::Duration::zero()}, Clock::Duration::zero()},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    FakeClock clock;
    WorkQueue queue(clock);
    for (Clock::Duration d : c.delays) {
      queue.addAfter("a", d);
    }
    if (c.ready_after > Clock::Duration::zero()) {
      EXPECT_EQ(queue.len(), 0u);
      EXPECT_EQ(queue.waitingLen(), 1u);
      clock.advance(c.ready_after - milliseconds(1));
      EXPECT_EQ(queue.len(), 0u);
      clock.advance(milliseconds(1));
    }
    EXPECT_EQ(queue.len(), 1u);
    EXPECT_EQ(drainReady(queue), std::vector<std::string>{"a"});
    clock.advance(seconds(60));
    EXPECT_EQ(queue.len(), 0u) << "a delayed item is added once";
  }
}

TEST(WorkQueueTest, HugeDelaySaturates) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.addAfter("a", Clock::Duration::max());
  clock.advance(std::chrono::hours(24 * 365 * 100));
  EXPECT_EQ(queue.len(), 0u);
  EXPECT_EQ(queue.waitingLen(), 1u);
}

TEST(WorkQueueTest, ImmediateAddLeavesAPendingDelayInPlace) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.addAfter("a", seconds(5));
  queue.addAfter("a", Clock::Duration::zero());
  EXPECT_EQ(drainReady(queue), std::vector<std::string>{"a"});
  EXPECT_EQ(queue.waitingLen(), 1u);
  clock.advance(seconds(5));
  EXPECT_EQ(drainReady(queue), std::vector<std::string>{"a"});
}

TEST(WorkQueueTest, DelayedItemDoesNotDuplicateAQueuedOne) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.add("a");
  queue.addAfter("a", seconds(1));
  clock.advance(seconds(1));
  EXPECT_EQ(queue.len(), 1u);
  EXPECT_EQ(drainReady(queue), std::vector<std::string>{"a"});
}

TEST(WorkQueueTest, BlockedGetWakesWhenTheDelayPasses) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.addAfter("later", seconds(30));
  std::optional<std::string> got;
  std::thread worker([&] { got = queue.get(); });
  waitForWaiters(clock, 1);
  queue.addAfter("sooner", seconds(5));  // the blocked get() re-computes its deadline
  clock.advance(seconds(5));
  worker.join();
  EXPECT_EQ(got, "sooner");
  EXPECT_EQ(queue.waitingLen(), 1u);
}

TEST(WorkQueueTest, BlockedGetWakesOnAdd) {
  FakeClock clock;
  WorkQueue queue(clock);
  std::optional<std::string> got;
  std::thread worker([&] { got = queue.get(); });
  waitForWaiters(clock, 1);
  queue.add("a");
  worker.join();
  EXPECT_EQ(got, "a");
}

TEST(WorkQueueTest, ShutDownWakesEveryBlockedGetter) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.addAfter("delayed", seconds(1));
  constexpr int kGetters = 3;
  std::atomic<int> empty_results{0};
  std::vector<std::thread> getters;
  for (int i = 0; i < kGetters; ++i) {
    getters.emplace_back([&] {
      if (!queue.get().has_value()) {
        ++empty_results;
      }
    });
  }
  waitForWaiters(clock, kGetters);
  queue.shutDown();
  for (auto& t : getters) {
    t.join();
  }
  EXPECT_EQ(empty_results.load(), kGetters);
  EXPECT_TRUE(queue.shuttingDown());
  clock.advance(seconds(1));
  EXPECT_EQ(queue.get(), std::nullopt) << "delayed items are dropped at shutdown";
}

TEST(WorkQueueTest, ShutDownHandsOutQueuedItemsAndRefusesNewOnes) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.add("a");
  queue.shutDown();
  queue.add("b");
  queue.addAfter("c", Clock::Duration::zero());
  EXPECT_EQ(queue.get(), "a");
  queue.done("a");
  EXPECT_EQ(queue.get(), std::nullopt);
}

TEST(WorkQueueTest, ShutDownWithDrainWaitsForItemsInFlight) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.add("a");
  ASSERT_EQ(queue.get(), "a");
  std::atomic<bool> done_called{false};
  std::atomic<bool> drained_before_done{false};
  std::thread drainer([&] {
    queue.shutDownWithDrain();
    drained_before_done = !done_called.load();
  });
  while (!queue.shuttingDown()) {
    std::this_thread::yield();
  }
  done_called = true;
  queue.done("a");
  drainer.join();
  EXPECT_FALSE(drained_before_done.load());
  EXPECT_EQ(queue.get(), std::nullopt);
}

TEST(WorkQueueTest, ShutDownWithDrainReturnsAtOnceWhenIdle) {
  FakeClock clock;
  WorkQueue queue(clock);
  queue.shutDownWithDrain();
  EXPECT_TRUE(queue.shuttingDown());
}

TEST(WorkQueueTest, ManyProducersAndConsumers) {
  RealClock clock;
  WorkQueue queue(clock);
  constexpr int kProducers = 4;
  constexpr int kConsumers = 4;
  constexpr int kKeys = 200;
  std::mutex mu;
  std::set<std::string> in_flight;
  std::set<std::string> processed;
  std::atomic<int> overlaps{0};
  std::vector<std::thread> consumers;
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&] {
      while (auto item = queue.get()) {
        {
          std::lock_guard<std::mutex> lock(mu);
          if (!in_flight.insert(*item).second) {
            ++overlaps;
          }
          processed.insert(*item);
        }
        std::this_thread::yield();
        {
          std::lock_guard<std::mutex> lock(mu);
          in_flight.erase(*item);
        }
        queue.done(*item);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int round = 0; round < 5; ++round) {
        for (int k = 0; k < kKeys; ++k) {
          queue.add("key-" + std::to_string((k + p * 17) % kKeys));
        }
      }
    });
  }
  for (auto& t : producers) {
    t.join();
  }
  queue.shutDownWithDrain();
  for (auto& t : consumers) {
    t.join();
  }
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_EQ(processed.size(), static_cast<size_t>(kKeys));
  EXPECT_EQ(queue.len(), 0u);
}

TEST(ItemExponentialFailureRateLimiterTest, BackoffGrowsUntilTheCapAndForgetResets) {
  ItemExponentialFailureRateLimiter limiter;
  const milliseconds expected[] = {milliseconds(5),   milliseconds(10),  milliseconds(20),
                                   milliseconds(40),  milliseconds(80),  milliseconds(160),
                                   milliseconds(320), milliseconds(640), milliseconds(1280)};
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(limiter.when("a"), expected[i]) << "failure " << i;
    EXPECT_EQ(limiter.numRequeues("a"), static_cast<int>(i) + 1);
  }
  EXPECT_EQ(limiter.when("b"), milliseconds(5)) << "items back off independently";
  // 5 ms * 2^17 = 655 s, 5 ms * 2^18 = 1311 s > 1000 s.
  for (int i = static_cast<int>(std::size(expected)); i < 17; ++i) {
    (void)limiter.when("a");
  }
  EXPECT_EQ(limiter.when("a"), milliseconds(655360));
  EXPECT_EQ(limiter.when("a"), seconds(1000));
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(limiter.when("a"), seconds(1000)) << "no overflow after many failures";
  }
  limiter.forget("a");
  EXPECT_EQ(limiter.numRequeues("a"), 0);
  EXPECT_EQ(limiter.when("a"), milliseconds(5));
  EXPECT_EQ(limiter.numRequeues("b"), 1);
}

TEST(RateLimitingQueueTest, FailedItemsComeBackAfterTheirBackoff) {
  FakeClock clock;
  RateLimitingQueue queue(clock);
  queue.add("a");
  for (int attempt = 0; attempt < 4; ++attempt) {
    SCOPED_TRACE("attempt " + std::to_string(attempt));
    auto item = queue.get();
    ASSERT_EQ(item, "a");
    queue.addRateLimited("a");  // the reconcile failed
    queue.done("a");
    EXPECT_EQ(queue.numRequeues("a"), attempt + 1);
    const Clock::Duration backoff = milliseconds(5) * (1 << attempt);
    clock.advance(backoff - milliseconds(1));
    EXPECT_EQ(queue.len(), 0u);
    clock.advance(milliseconds(1));
    EXPECT_EQ(queue.len(), 1u);
  }
  ASSERT_EQ(queue.get(), "a");
  queue.forget("a");  // the reconcile succeeded
  queue.done("a");
  EXPECT_EQ(queue.numRequeues("a"), 0);
  queue.addRateLimited("a");
  clock.advance(milliseconds(5));
  EXPECT_EQ(queue.len(), 1u);
}

TEST(RateLimitingQueueTest, UsesTheGivenLimiter) {
  class FixedLimiter final : public ItemRateLimiter {
   public:
    Clock::Duration when(const std::string&) override { return seconds(7); }
    void forget(const std::string&) override {}
    int numRequeues(const std::string&) const override { return 42; }
  };
  FakeClock clock;
  RateLimitingQueue queue(clock, std::make_unique<FixedLimiter>());
  queue.addRateLimited("a");
  clock.advance(seconds(6));
  EXPECT_EQ(queue.len(), 0u);
  clock.advance(seconds(1));
  EXPECT_EQ(queue.len(), 1u);
  EXPECT_EQ(queue.numRequeues("a"), 42);
}

TEST(FakeClockTest, SleepUntilReturnsWhenTimeIsAdvanced) {
  FakeClock clock;
  const Clock::TimePoint start = clock.now();
  std::thread sleeper([&] { clock.sleepUntil(start + seconds(10)); });
  waitForWaiters(clock, 1);
  clock.advance(seconds(4));
  clock.setTime(start + seconds(10));
  sleeper.join();
  EXPECT_EQ(clock.now() - start, seconds(10));
  EXPECT_EQ(clock.waiterCount(), 0u);
  clock.setTime(start);  // never goes backwards
  clock.advance(-seconds(1));
  EXPECT_EQ(clock.now() - start, seconds(10));
}

TEST(RealClockTest, WaitUntilHonoursPredicateAndDeadline) {
  RealClock clock;
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  EXPECT_TRUE(clock.waitUntil(lock, cv, clock.now() + seconds(60), [] { return true; }));
  const Clock::TimePoint before = clock.now();
  EXPECT_FALSE(clock.waitUntil(lock, cv, before + milliseconds(2), [] { return false; }));
  EXPECT_GE(clock.now() - before, milliseconds(2));
}

}  // namespace
}  // namespace koord::k8s
