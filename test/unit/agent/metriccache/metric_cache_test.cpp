#include "agent/metriccache/metric_cache.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace koord::agent::metriccache {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr TimePoint kCacheT0{seconds(1700000000)};

TimePoint at(int64_t s) {
  return kCacheT0 + seconds(s);
}

TEST(KoordletPercentileTest, MatchesKoordletIndexRule) {
  // index = int(float32(n) * p) - 1, floored at 0; values are 1..n, so the result is index + 1.
  struct Case {
    size_t n;
    float p;
    double want;
  };
  const std::vector<Case> cases = {
      {1, 0.5F, 1},      {1, 0.99F, 1},       {2, 0.5F, 1},        {2, 0.99F, 1},
      {3, 0.5F, 1},      {3, 0.9F, 2},        {4, 0.5F, 2},        {4, 0.9F, 3},
      {4, 0.99F, 3},     {10, 0.5F, 5},       {10, 0.9F, 9},       {10, 0.95F, 9},
      {10, 0.99F, 9},    {20, 0.9F, 18},      {20, 0.95F, 19},     {20, 0.99F, 19},
      {100, 0.5F, 50},   {100, 0.9F, 90},     {100, 0.95F, 95},    {100, 0.99F, 99},
      {300, 0.99F, 297}, {3600, 0.95F, 3420}, {3600, 0.99F, 3564},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("n=" + std::to_string(c.n) + " p=" + std::to_string(c.p));
    std::vector<double> sorted(c.n);
    for (size_t i = 0; i < c.n; ++i) {
      sorted[i] = static_cast<double>(i + 1);
    }
    EXPECT_EQ(koordletPercentile(sorted, c.p), c.want);
  }
}

TEST(MetricCacheTest, AggregateMatchesHandComputedTables) {
  struct Case {
    const char* name;
    std::vector<double> values;  // appended one per second from kCacheT0, in this order
    double avg;
    double p50;
    double p90;
    double p95;
    double p99;
  };
  const std::vector<Case> cases = {
      {"one sample", {2.5}, 2.5, 2.5, 2.5, 2.5, 2.5},
      // sorted 1 2 3 4: p50 idx int(2)-1=1, p90 int(3.6)-1=2, p95 int(3.8)-1=2, p99 int(3.96)-1=2
      {"four out of order", {4, 1, 3, 2}, 2.5, 2, 3, 3, 3},
      // sorted 1..10: p50 idx 4, p90 idx 8, p95 int(9.5)-1=8, p99 int(9.9)-1=8
      {"ten shuffled", {7, 3, 10, 1, 9, 2, 8, 5, 6, 4}, 5.5, 5, 9, 9, 9},
      // two spikes among 20: p95 and p99 (both idx 18) see them, p90 (idx 17) does not; one
      // spike alone (idx 19) would stay invisible to every percentile
      {"spikes", {1, 1, 1, 1, 1, 21, 1, 1, 1, 1, 1, 1, 1, 1, 1, 21, 1, 1, 1, 1}, 3, 1, 1, 21, 21},
      {"memory bytes stay exact",
       {8589934592.0, 8589934593.0},
       8589934592.5,
       8589934592.0,
       8589934592.0,
       8589934592.0,
       8589934592.0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    MetricCache cache;
    for (size_t i = 0; i < c.values.size(); ++i) {
      ASSERT_TRUE(
          cache.append(MetricKind::kNodeCpu, "", at(static_cast<int64_t>(i)), c.values[i]).isOk());
    }
    const auto result =
        cache.aggregate(MetricKind::kNodeCpu, "", at(0), at(static_cast<int64_t>(c.values.size())));
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->count, c.values.size());
    EXPECT_DOUBLE_EQ(result->avg, c.avg);
    EXPECT_EQ(result->p50, c.p50);
    EXPECT_EQ(result->p90, c.p90);
    EXPECT_EQ(result->p95, c.p95);
    EXPECT_EQ(result->p99, c.p99);
    EXPECT_EQ(result->earliest, at(0));
    EXPECT_EQ(result->latest, at(static_cast<int64_t>(c.values.size()) - 1));
  }
}

TEST(MetricCacheTest, WindowEdges) {
  MetricCache cache;
  for (int64_t s = 0; s < 10; ++s) {
    ASSERT_TRUE(cache.append(MetricKind::kPodCpu, "pod-a", at(s), static_cast<double>(s)).isOk());
  }
  struct Case {
    const char* name;
    TimePoint start;
    TimePoint end;
    size_t count;  // 0: nullopt
    double avg;
    TimePoint earliest;
    TimePoint latest;
  };
  const std::vector<Case> cases = {
      {"inclusive both ends", at(2), at(5), 4, 3.5, at(2), at(5)},
      {"just inside the edges", at(2) + milliseconds(1), at(5) - milliseconds(1), 2, 3.5, at(3),
       at(4)},
      {"sub-millisecond start floors to the sample's millisecond",
       at(2) + std::chrono::microseconds(300), at(2) + milliseconds(1), 1, 2, at(2), at(2)},
      {"window larger than the series", at(-100), at(100), 10, 4.5, at(0), at(9)},
      {"last five minutes of a short series", at(9) - seconds(300), at(9), 10, 4.5, at(0), at(9)},
      {"single instant", at(7), at(7), 1, 7, at(7), at(7)},
      {"before the first sample", at(-10), at(-1), 0, 0, {}, {}},
      {"after the last sample", at(10), at(20), 0, 0, {}, {}},
      {"between samples", at(3) + milliseconds(1), at(4) - milliseconds(1), 0, 0, {}, {}},
      {"inverted", at(5), at(2), 0, 0, {}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto result = cache.aggregate(MetricKind::kPodCpu, "pod-a", c.start, c.end);
    if (c.count == 0) {
      EXPECT_FALSE(result.has_value());
      continue;
    }
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->count, c.count);
    EXPECT_DOUBLE_EQ(result->avg, c.avg);
    EXPECT_EQ(result->earliest, c.earliest);
    EXPECT_EQ(result->latest, c.latest);
    EXPECT_EQ(result->span(), std::chrono::duration_cast<milliseconds>(c.latest - c.earliest));
  }
  EXPECT_FALSE(cache.aggregate(MetricKind::kPodCpu, "pod-b", at(0), at(9)).has_value());
  EXPECT_FALSE(cache.aggregate(MetricKind::kPodMemory, "pod-a", at(0), at(9)).has_value());
}

TEST(MetricCacheTest, LatestIsTheNewestSample) {
  MetricCache cache;
  EXPECT_FALSE(cache.latest(MetricKind::kNodeMemory, "").has_value());
  ASSERT_TRUE(cache.append(MetricKind::kNodeMemory, "", at(0), 100).isOk());
  ASSERT_TRUE(cache.append(MetricKind::kNodeMemory, "", at(1) + milliseconds(250), 200).isOk());
  const auto latest = cache.latest(MetricKind::kNodeMemory, "");
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->value, 200);
  EXPECT_EQ(latest->time, at(1) + milliseconds(250));
  EXPECT_FALSE(cache.latest(MetricKind::kSystemMemory, "").has_value());
}

TEST(MetricCacheTest, CapacityPerKindClass) {
  MetricCache cache(MetricCacheConfig{.node_capacity = 5, .pod_capacity = 2});
  for (int64_t s = 0; s < 10; ++s) {
    for (const MetricKind kind : {MetricKind::kNodeCpu, MetricKind::kSystemMemory}) {
      ASSERT_TRUE(cache.append(kind, "", at(s), static_cast<double>(s)).isOk());
    }
    for (const MetricKind kind : {MetricKind::kPodMemory, MetricKind::kContainerCpu}) {
      ASSERT_TRUE(cache.append(kind, "x", at(s), static_cast<double>(s)).isOk());
    }
  }
  struct Case {
    MetricKind kind;
    const char* id;
    size_t count;
    TimePoint earliest;
  };
  for (const Case& c :
       {Case{MetricKind::kNodeCpu, "", 5, at(5)}, Case{MetricKind::kSystemMemory, "", 5, at(5)},
        Case{MetricKind::kPodMemory, "x", 2, at(8)},
        Case{MetricKind::kContainerCpu, "x", 2, at(8)}}) {
    SCOPED_TRACE(std::string(metricKindName(c.kind)));
    const auto result = cache.aggregate(c.kind, c.id, at(0), at(100));
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->count, c.count);
    EXPECT_EQ(result->earliest, c.earliest);
    EXPECT_EQ(result->latest, at(9));
  }
}

TEST(MetricCacheTest, RejectsInvalidAppends) {
  struct Case {
    const char* name;
    MetricKind kind;
    const char* id;
    double value;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"NaN", MetricKind::kNodeCpu, "", std::nan(""),
       "failed to append 'node_cpu/': value is not finite"},
      {"infinity", MetricKind::kPodMemory, "uid", std::numeric_limits<double>::infinity(),
       "failed to append 'pod_memory/uid': value is not finite"},
      {"node with an id", MetricKind::kNodeMemory, "uid", 1, "take the id \"\""},
      {"system with an id", MetricKind::kSystemCpu, "x", 1, "take the id \"\""},
      {"pod without an id", MetricKind::kPodCpu, "", 1, "need a non-empty id"},
      {"container without an id", MetricKind::kContainerMemory, "", 1, "need a non-empty id"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    MetricCache cache;
    const Status status = cache.append(c.kind, c.id, at(0), c.value);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr(c.message));
    EXPECT_EQ(cache.seriesCount(), 0U);
  }
}

TEST(MetricCacheTest, RetainDropsEndedPods) {
  MetricCache cache;
  for (const char* uid : {"pod-a", "pod-b", "pod-c"}) {
    ASSERT_TRUE(cache.append(MetricKind::kPodCpu, uid, at(0), 1).isOk());
    ASSERT_TRUE(cache.append(MetricKind::kPodMemory, uid, at(0), 1).isOk());
  }
  ASSERT_TRUE(cache.append(MetricKind::kNodeCpu, "", at(0), 1).isOk());
  ASSERT_EQ(cache.seriesCount(), 7U);
  const size_t bytes_before = cache.memoryBytes();

  EXPECT_EQ(cache.retain(MetricKind::kPodCpu, std::unordered_set<std::string>{"pod-a", "pod-c"}),
            1U);
  EXPECT_THAT(cache.ids(MetricKind::kPodCpu), UnorderedElementsAre("pod-a", "pod-c"));
  EXPECT_FALSE(cache.latest(MetricKind::kPodCpu, "pod-b").has_value());
  // Other kinds are untouched.
  EXPECT_EQ(cache.seriesCount(MetricKind::kPodMemory), 3U);
  EXPECT_EQ(cache.seriesCount(), 6U);
  EXPECT_LT(cache.memoryBytes(), bytes_before);

  EXPECT_EQ(
      cache.retainIf(MetricKind::kPodMemory, [](std::string_view id) { return id == "pod-c"; }),
      2U);
  EXPECT_THAT(cache.ids(MetricKind::kPodMemory), UnorderedElementsAre("pod-c"));
  EXPECT_EQ(cache.retain(MetricKind::kPodCpu, {}), 2U);
  EXPECT_EQ(cache.seriesCount(), 2U);  // node cpu and pod-c memory
}

TEST(MetricCacheTest, MemoryIsBoundedByCapacity) {
  // 4 node series of 3,600 and 600 pod/container series of 300 samples, 12 bytes each, plus
  // bookkeeping; filling them ten times over adds nothing.
  MetricCache cache;
  const auto fill = [&](int64_t from, int64_t to) {
    for (int64_t s = from; s < to; ++s) {
      for (const MetricKind kind : {MetricKind::kNodeCpu, MetricKind::kNodeMemory,
                                    MetricKind::kSystemCpu, MetricKind::kSystemMemory}) {
        ASSERT_TRUE(cache.append(kind, "", at(s), 1).isOk());
      }
      if (s % 12 == 0) {  // pod series fill ten times faster than needed anyway
        for (int p = 0; p < 600; ++p) {
          const std::string id = "0f5c6a2e-8d3b-4c1a-9e7f-" + std::to_string(100000000000 + p);
          ASSERT_TRUE(cache.append(MetricKind::kPodCpu, id, at(s), 1).isOk());
        }
      }
    }
  };
  fill(0, 3600);
  const size_t full = cache.memoryBytes();
  constexpr size_t kSamples = size_t{4} * 3600 + size_t{600} * 300;
  EXPECT_GE(full, kSamples * 12);
  EXPECT_LE(full, kSamples * 12 + size_t{604} * 256 + 16384);
  fill(3600, int64_t{3600} * 3);
  EXPECT_EQ(cache.memoryBytes(), full);
  EXPECT_EQ(cache.seriesCount(), 604U);
}

TEST(MetricCacheTest, ConcurrentReadersSeeConsistentSeries) {
  // One writer appends a rising series while a reader aggregates: every result the reader sees
  // is a well-formed window (count within capacity, latest == the newest value's time).
  MetricCache cache(MetricCacheConfig{.node_capacity = 100, .pod_capacity = 10});
  constexpr int64_t kSamples = 20000;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int64_t i = 0; i < kSamples; ++i) {
      EXPECT_TRUE(cache.append(MetricKind::kNodeCpu, "", at(i), static_cast<double>(i)).isOk());
    }
    done = true;
  });
  int64_t last_seen = -1;
  bool monotonic = true;
  bool well_formed = true;
  while (!done) {
    const auto result = cache.aggregate(MetricKind::kNodeCpu, "", at(0), at(kSamples));
    if (!result.has_value()) {
      continue;
    }
    const auto latest_s = std::chrono::duration_cast<seconds>(result->latest - kCacheT0).count();
    well_formed = well_formed && result->count >= 1 && result->count <= 100 &&
                  result->p99 <= static_cast<double>(latest_s);
    monotonic = monotonic && latest_s >= last_seen;
    last_seen = latest_s;
  }
  writer.join();
  EXPECT_TRUE(monotonic);
  EXPECT_TRUE(well_formed);
  const auto final_result = cache.aggregate(MetricKind::kNodeCpu, "", at(0), at(kSamples));
  ASSERT_TRUE(final_result.has_value());
  EXPECT_EQ(final_result->count, 100U);
  EXPECT_EQ(final_result->latest, at(kSamples - 1));
}

TEST(MetricCacheTest, KindNames) {
  EXPECT_EQ(metricKindName(MetricKind::kNodeCpu), "node_cpu");
  EXPECT_EQ(metricKindName(MetricKind::kContainerMemory), "container_memory");
  EXPECT_TRUE(isNodeLevel(MetricKind::kSystemMemory));
  EXPECT_FALSE(isNodeLevel(MetricKind::kPodCpu));
}

}  // namespace
}  // namespace koord::agent::metriccache
