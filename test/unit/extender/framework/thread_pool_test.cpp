#include "koord/common/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace koord {
namespace {

TEST(ThreadPoolTest, RunsEveryIndexExactlyOnce) {
  struct Case {
    int workers;
    size_t n;
  };
  for (const auto& c : {Case{0, 0}, Case{0, 10}, Case{1, 1}, Case{1, 1000}, Case{3, 257}}) {
    SCOPED_TRACE(std::to_string(c.workers) + " workers, n=" + std::to_string(c.n));
    ThreadPool pool(c.workers);
    EXPECT_EQ(pool.workers(), static_cast<size_t>(c.workers));
    std::vector<std::atomic<int>> hits(c.n);
    ASSERT_TRUE(pool.parallelFor(c.n, [&](size_t i) { ++hits[i]; }).isOk());
    for (size_t i = 0; i < c.n; ++i)
      EXPECT_EQ(hits[i].load(), 1) << i;
  }
}

TEST(ThreadPoolTest, ExceptionsDoNotEscapeAndTheRestRuns) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  Status status = pool.parallelFor(100, [&](size_t i) {
    ++ran;
    if (i == 42)
      throw std::runtime_error("index 42 failed");
  });
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_NE(status.message().find("index 42 failed"), std::string::npos);
  EXPECT_EQ(ran.load(), 100);
  // The pool still works afterwards.
  EXPECT_TRUE(pool.parallelFor(10, [](size_t) {}).isOk());
}

TEST(ThreadPoolTest, ConcurrentCallersShareTheWorkers) {
  ThreadPool pool(2);
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        ASSERT_TRUE(
            pool.parallelFor(64, [&](size_t i) { total += static_cast<int64_t>(i); }).isOk());
      }
    });
  }
  for (auto& c : callers)
    c.join();
  EXPECT_EQ(total.load(), int64_t{4} * 50 * (63 * 64 / 2));
}

}  // namespace
}  // namespace koord
