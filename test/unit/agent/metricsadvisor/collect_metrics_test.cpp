#include "agent/metricsadvisor/collect_metrics.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace koord::agent::metricsadvisor {
namespace {

using metriccache::MetricKind;

std::string errorsLine(const metrics::MetricsRegistry& registry, const std::string& collector) {
  std::istringstream lines(registry.serialize());
  const std::string prefix = "koord_agent_collect_errors_total{collector=\"" + collector + "\"} ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) {
      return line.substr(prefix.size());
    }
  }
  return "absent";
}

TEST(CollectMetricsTest, CountsEachCollectorsErrors) {
  metrics::MetricsRegistry registry;
  auto collect = CollectMetrics::create(registry);
  ASSERT_TRUE(collect.ok()) << collect.status();
  EXPECT_EQ(errorsLine(registry, "pod_memory"), "0");

  CollectStats stats;
  stats.addError(MetricKind::kPodMemory, Status::invalidArgument("bad memory.stat"));
  stats.addError(MetricKind::kPodMemory, Status::invalidArgument("bad memory.stat"));
  stats.addError(MetricKind::kNodeCpu, Status::notFound("no /proc/stat"));
  collect->record(stats, 0.001);
  collect->record(stats, 0.001);
  EXPECT_EQ(errorsLine(registry, "pod_memory"), "4");
  EXPECT_EQ(errorsLine(registry, "node_cpu"), "2");
  EXPECT_EQ(errorsLine(registry, "container_cpu"), "0");
  EXPECT_NE(registry.serialize().find("koord_agent_collect_duration_seconds_count 2"),
            std::string::npos);
}

TEST(CollectMetricsTest, CreatingTwiceOnOneRegistrySharesTheSeries) {
  metrics::MetricsRegistry registry;
  ASSERT_TRUE(CollectMetrics::create(registry).ok());
  EXPECT_TRUE(CollectMetrics::create(registry).ok());
}

TEST(CollectMetricsTest, FailsWhenTheNameIsTakenWithOtherLabels) {
  metrics::MetricsRegistry registry;
  ASSERT_TRUE(registry.counter("koord_agent_collect_errors_total", "taken").ok());
  EXPECT_FALSE(CollectMetrics::create(registry).ok());
}

}  // namespace
}  // namespace koord::agent::metricsadvisor
