#include "koord/metrics/registry.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace koord::metrics {
namespace {

// The lines of `text` that start with `prefix`, in order.
std::vector<std::string> linesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::string line = text.substr(start, end - start);
    if (line.rfind(prefix, 0) == 0) {
      out.push_back(line);
    }
    start = end + 1;
  }
  return out;
}

TEST(MetricsRegistryTest, CountersAndGaugesAppearInTheTextFormat) {
  MetricsRegistry registry;
  auto requests =
      registry.counterFamily("koord_requests_total", "Requests served.", {"verb", "code"});
  ASSERT_TRUE(requests.ok()) << requests.status();
  const Counter filter_ok = requests->withLabels({"filter", "200"}).value();
  const Counter bind_err = requests->withLabels({"bind", "500"}).value();
  filter_ok.inc();
  filter_ok.inc(2);
  bind_err.inc();
  filter_ok.inc(-5);  // ignored
  auto pods = registry.gauge("koord_pending_pods", "Pods waiting.");
  ASSERT_TRUE(pods.ok()) << pods.status();
  pods->set(7);
  pods->dec(2);
  pods->inc(0.5);

  EXPECT_EQ(filter_ok.value(), 3);
  EXPECT_EQ(pods->value(), 5.5);
  const std::string text = registry.serialize();
  EXPECT_EQ(linesStartingWith(text, "# HELP koord_requests_total"),
            std::vector<std::string>{"# HELP koord_requests_total Requests served."});
  EXPECT_EQ(linesStartingWith(text, "# TYPE koord_requests_total"),
            std::vector<std::string>{"# TYPE koord_requests_total counter"});
  auto samples = linesStartingWith(text, "koord_requests_total{");
  std::sort(samples.begin(), samples.end());
  EXPECT_EQ(samples,
            (std::vector<std::string>{"koord_requests_total{code=\"200\",verb=\"filter\"} 3",
                                      "koord_requests_total{code=\"500\",verb=\"bind\"} 1"}));
  EXPECT_EQ(linesStartingWith(text, "# TYPE koord_pending_pods"),
            std::vector<std::string>{"# TYPE koord_pending_pods gauge"});
  EXPECT_EQ(linesStartingWith(text, "koord_pending_pods"),
            std::vector<std::string>{"koord_pending_pods 5.5"});
  // Families are sorted by name.
  EXPECT_LT(text.find("koord_pending_pods"), text.find("koord_requests_total"));
}

TEST(MetricsRegistryTest, HistogramsHaveCumulativeBucketsSumAndCount) {
  MetricsRegistry registry;
  auto latency = registry.histogramFamily("koord_filter_duration_seconds", "Filter latency.",
                                          {"plugin"}, {0.01, 0.1, 1});
  ASSERT_TRUE(latency.ok()) << latency.status();
  const Histogram h = latency->withLabels({"Reservation"}).value();
  for (double v : {0.005, 0.05, 0.05, 0.5, 5.0}) {
    h.observe(v);
  }
  const std::string text = registry.serialize();
  EXPECT_EQ(linesStartingWith(text, "# TYPE koord_filter_duration_seconds"),
            std::vector<std::string>{"# TYPE koord_filter_duration_seconds histogram"});
  EXPECT_EQ(linesStartingWith(text, "koord_filter_duration_seconds_"),
            (std::vector<std::string>{
                "koord_filter_duration_seconds_count{plugin=\"Reservation\"} 5",
                "koord_filter_duration_seconds_sum{plugin=\"Reservation\"} 5.605",
                "koord_filter_duration_seconds_bucket{plugin=\"Reservation\",le=\"0.01\"} 1",
                "koord_filter_duration_seconds_bucket{plugin=\"Reservation\",le=\"0.1\"} 3",
                "koord_filter_duration_seconds_bucket{plugin=\"Reservation\",le=\"1\"} 4",
                "koord_filter_duration_seconds_bucket{plugin=\"Reservation\",le=\"+Inf\"} 5",
            }));
}

TEST(MetricsRegistryTest, LabelValuesAreEscaped) {
  MetricsRegistry registry;
  auto family = registry.gaugeFamily("koord_info", "Info.", {"value"});
  ASSERT_TRUE(family.ok());
  family->withLabels({"a\"b\\c\nd"}).value().set(1);
  EXPECT_EQ(linesStartingWith(registry.serialize(), "koord_info{"),
            std::vector<std::string>{R"(koord_info{value="a\"b\\c\nd"} 1)"});
}

TEST(MetricsRegistryTest, RegistrationErrors) {
  MetricsRegistry registry;
  ASSERT_TRUE(registry.counterFamily("koord_x_total", "X.", {"a"}).ok());
  struct Case {
    std::function<Status()> call;
    StatusCode code;
    std::string message;
  };
  const Case cases[] = {
      {[&] { return registry.counter("0bad", "h").status(); }, StatusCode::kInvalidArgument,
       "failed to register metric '0bad': invalid metric name"},
      {[&] { return registry.counter("has-dash", "h").status(); }, StatusCode::kInvalidArgument,
       "failed to register metric 'has-dash': invalid metric name"},
      {[&] { return registry.counterFamily("koord_y", "h", {"__x"}).status(); },
       StatusCode::kInvalidArgument,
       "failed to register metric 'koord_y': invalid label name '__x'"},
      {[&] {
         return registry.counterFamily("koord_y", "h", {"a", "a"}).status();
       },
       StatusCode::kInvalidArgument,
       "failed to register metric 'koord_y': label name 'a' given twice"},
      {[&] { return registry.histogramFamily("koord_h", "h", {"le"}, {1}).status(); },
       StatusCode::kInvalidArgument,
       "failed to register metric 'koord_h': label name 'le' is reserved for histogram buckets"},
      {[&] {
         return registry.histogram("koord_h", "h", {1, 1}).status();
       },
       StatusCode::kInvalidArgument,
       "failed to register metric 'koord_h': bucket bounds must be strictly increasing"},
      {[&] { return registry.gauge("koord_x_total", "X.").status(); }, StatusCode::kAlreadyExists,
       "failed to register metric 'koord_x_total': already registered as a counter"},
      {[&] { return registry.counterFamily("koord_x_total", "X.", {"b"}).status(); },
       StatusCode::kAlreadyExists,
       "failed to register metric 'koord_x_total': already registered with other help, labels or "
       "buckets"},
      {[&] {
         return registry.counterFamily("koord_x_total", "X.", {"a"})
             .value()
             .withLabels({})
             .status();
       },
       StatusCode::kInvalidArgument,
       "failed to get series of 'koord_x_total': got 0 label values for 1 labels"},
  };
  for (const Case& c : cases) {
    const Status status = c.call();
    EXPECT_EQ(status.code(), c.code) << c.message;
    EXPECT_EQ(status.message(), c.message);
  }
}

TEST(MetricsRegistryTest, ReRegisteringReturnsTheSameFamily) {
  MetricsRegistry registry;
  auto first = registry.counterFamily("koord_same_total", "Same.", {"k"});
  auto second = registry.counterFamily("koord_same_total", "Same.", {"k"});
  ASSERT_TRUE(first.ok() && second.ok());
  first->withLabels({"v"}).value().inc();
  second->withLabels({"v"}).value().inc();
  EXPECT_EQ(first->withLabels({"v"}).value().value(), 2);
  EXPECT_EQ(linesStartingWith(registry.serialize(), "koord_same_total{"),
            std::vector<std::string>{"koord_same_total{k=\"v\"} 2"});
}

TEST(MetricsRegistryTest, RemovedSeriesDisappear) {
  MetricsRegistry registry;
  auto family = registry.gaugeFamily("koord_pod_cpu", "CPU.", {"pod"});
  ASSERT_TRUE(family.ok());
  family->withLabels({"a"}).value().set(1);
  family->withLabels({"b"}).value().set(2);
  ASSERT_TRUE(family->remove({"a"}).isOk());
  EXPECT_EQ(family->remove({"a"}).code(), StatusCode::kNotFound);
  EXPECT_EQ(linesStartingWith(registry.serialize(), "koord_pod_cpu{"),
            std::vector<std::string>{"koord_pod_cpu{pod=\"b\"} 2"});
  // Asking again recreates the series from zero.
  EXPECT_EQ(family->withLabels({"a"}).value().value(), 0);
}

TEST(MetricsRegistryTest, DefaultHandlesDoNothing) {
  const Counter counter;
  const Gauge gauge;
  const Histogram histogram;
  counter.inc();
  gauge.set(3);
  histogram.observe(1);
  EXPECT_EQ(counter.value(), 0);
  EXPECT_EQ(gauge.value(), 0);
  const CounterFamily family;
  EXPECT_EQ(family.withLabels({}).status().code(), StatusCode::kFailedPrecondition);
}

TEST(MetricsRegistryTest, BucketHelpers) {
  EXPECT_EQ(defaultBuckets().size(), 11u);
  EXPECT_EQ(exponentialBuckets(0.001, 10, 4), (std::vector<double>{0.001, 0.01, 0.1, 1.0}));
}

TEST(MetricsRegistryTest, ConcurrentUpdatesAreNotLost) {
  MetricsRegistry registry;
  auto family = registry.counterFamily("koord_events_total", "Events.", {"worker"});
  ASSERT_TRUE(family.ok());
  constexpr int kThreads = 8;
  constexpr int kIncrements = 10000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&family, t] {
      const Counter shared = family->withLabels({"all"}).value();
      const Counter mine = family->withLabels({std::to_string(t % 2)}).value();
      for (int i = 0; i < kIncrements; ++i) {
        shared.inc();
        mine.inc();
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(family->withLabels({"all"}).value().value(), kThreads * kIncrements);
  EXPECT_EQ(family->withLabels({"0"}).value().value(), kThreads / 2 * kIncrements);
}

}  // namespace
}  // namespace koord::metrics
