// Builders for the LoadAwareScheduling tests: pods with requests and limits, NodeMetrics, and a
// fixture that runs the plugin the way the runtime does (preFilter, then filter or score) against
// a fixed wall clock and a NodeMetric lister the test fills.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "extender/framework/allocation_cache.hpp"
#include "extender/framework/cycle_state.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/lister.hpp"
#include "extender/framework/object_store.hpp"
#include "extender/plugins/load_aware/load_aware.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/common/clock.hpp"
#include "test/unit/extender/plugins/plugin_test_util.hpp"

namespace koord::extender::plugins::load_aware::testing {

using extender::testing::Quantities;
using extender::testing::resourceList;

inline constexpr int64_t kGi = int64_t{1} << 30;

// 2024-05-01T10:00:00Z, the tests' "now".
inline WallTime testNow() {
  auto t = api::core::parseTime("2024-05-01T10:00:00Z");
  EXPECT_TRUE(t.ok());
  return t.ok() ? *t : WallTime();
}

inline std::string rfc3339(WallTime t) {
  const std::time_t secs =
      std::chrono::system_clock::to_time_t(std::chrono::time_point_cast<std::chrono::seconds>(t));
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct PodInput {
  std::string name = "test-pod-1";
  Quantities requests = {};
  Quantities limits = {};
  std::optional<int32_t> priority = std::nullopt;
  std::map<std::string, std::string> labels = {};
  std::map<std::string, std::string> annotations = {};
  std::optional<WallTime> scheduled = std::nullopt;    // PodScheduled=True since
  std::optional<WallTime> initialized = std::nullopt;  // Initialized=True since
  bool daemonset = false;
};

inline std::shared_ptr<api::core::Pod> makePod(const PodInput& in) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.name = in.name;
  pod->metadata.namespace_ = "default";
  pod->metadata.uid = "uid-" + in.name;
  pod->metadata.labels = in.labels;
  pod->metadata.annotations = in.annotations;
  pod->spec.priority = in.priority;
  api::core::Container c;
  c.name = "main";
  c.resources.requests = resourceList(in.requests);
  c.resources.limits = resourceList(in.limits);
  pod->spec.containers.push_back(std::move(c));
  if (in.scheduled) {
    api::core::PodCondition condition;
    condition.type = "PodScheduled";
    condition.status = "True";
    condition.lastTransitionTime = rfc3339(*in.scheduled);
    pod->status.conditions.push_back(condition);
  }
  if (in.initialized) {
    api::core::PodCondition condition;
    condition.type = "Initialized";
    condition.status = "True";
    condition.lastTransitionTime = rfc3339(*in.initialized);
    pod->status.conditions.push_back(condition);
  }
  if (in.daemonset) {
    api::core::OwnerReference owner;
    owner.apiVersion = "apps/v1";
    owner.kind = "DaemonSet";
    owner.name = "ds";
    pod->metadata.ownerReferences.push_back(owner);
  }
  return pod;
}

inline std::shared_ptr<const framework::PodInfo> podInfo(const PodInput& in) {
  return extender::testing::podInfo(makePod(in));
}

// 16 cpu / 32Gi requested and limited: estimated 13600m / 22.4Gi with the default factors.
inline PodInput bigPod(std::string name) {
  PodInput in;
  in.name = std::move(name);
  in.requests = {{"cpu", "16"}, {"memory", "32Gi"}};
  in.limits = in.requests;
  return in;
}

struct PodMetricInput {
  std::string name;
  Quantities usage;
  std::string priority;  // as koordlet reports it ("koord-prod")
};

struct AggregatedInput {
  std::string duration;                     // "5m0s"
  std::map<std::string, Quantities> usage;  // type -> usage
};

struct MetricInput {
  std::string node = "test-node-1";
  std::optional<WallTime> update_time = std::nullopt;
  std::optional<int64_t> report_interval_seconds = 60;
  bool node_metric = true;  // status.nodeMetric set
  Quantities node_usage = {};
  Quantities system_usage = {};
  std::vector<AggregatedInput> aggregated = {};
  std::vector<PodMetricInput> pods = {};
};

inline std::shared_ptr<const api::slo::NodeMetric> makeMetric(const MetricInput& in) {
  auto metric = std::make_shared<api::slo::NodeMetric>();
  metric->metadata.name = in.node;
  if (in.report_interval_seconds) {
    api::slo::NodeMetricCollectPolicy policy;
    policy.reportIntervalSeconds = in.report_interval_seconds;
    metric->spec.metricCollectPolicy = policy;
  }
  if (in.update_time)
    metric->status.updateTime = rfc3339(*in.update_time);
  if (in.node_metric) {
    api::slo::NodeMetricInfo info;
    info.nodeUsage.resources = resourceList(in.node_usage);
    info.systemUsage.resources = resourceList(in.system_usage);
    for (const auto& aggregated : in.aggregated) {
      api::slo::AggregatedUsage usage;
      usage.duration = aggregated.duration;
      for (const auto& [type, quantities] : aggregated.usage)
        usage.usage[type].resources = resourceList(quantities);
      info.aggregatedNodeUsages.push_back(std::move(usage));
    }
    metric->status.nodeMetric = std::move(info);
  }
  for (const auto& pod : in.pods) {
    api::slo::PodMetricInfo info;
    info.name = pod.name;
    info.namespace_ = "default";
    info.podUsage.resources = resourceList(pod.usage);
    info.priority = pod.priority;
    metric->status.podsMetric.push_back(std::move(info));
  }
  return metric;
}

// A NodeMetric lister whose objects a test replaces; changes() moves with every set().
class TestMetricLister final : public framework::Lister<api::slo::NodeMetric> {
 public:
  void set(std::vector<std::shared_ptr<const api::slo::NodeMetric>> metrics) {
    metrics_ = std::move(metrics);
    ++changes_;
  }
  [[nodiscard]] std::shared_ptr<const api::slo::NodeMetric> get(
      const std::string& key) const override {
    ++gets_;
    for (const auto& m : metrics_) {
      if (m->metadata.name == key)
        return m;
    }
    return nullptr;
  }
  [[nodiscard]] std::vector<std::shared_ptr<const api::slo::NodeMetric>> list() const override {
    ++lists_;
    return metrics_;
  }
  [[nodiscard]] uint64_t changes() const override { return changes_; }
  [[nodiscard]] int gets() const { return gets_; }
  [[nodiscard]] int lists() const { return lists_; }

 private:
  std::vector<std::shared_ptr<const api::slo::NodeMetric>> metrics_;
  uint64_t changes_ = 0;
  mutable int gets_ = 0;
  mutable int lists_ = 0;
};

// A NodeMetric of test-node-1 reported now with `usage` as its node usage.
inline MetricInput freshMetric(Quantities usage) {
  MetricInput in;
  in.update_time = testNow();
  in.node_usage = std::move(usage);
  return in;
}

// 96 cpu / 512Gi, the node of Koordinator's tables.
inline std::shared_ptr<api::core::Node> testNode(
    const std::string& name = "test-node-1",
    const std::map<std::string, std::string>& annotations = {}) {
  return extender::testing::makeNode(name, {{"cpu", "96"}, {"memory", "512Gi"}}, annotations);
}

// The plugin over a handle with `lister` as the NodeMetric lister and `now` as the wall clock.
class Harness {
 public:
  explicit Harness(const api::Json& args = nullptr)
      : lister_(std::make_shared<TestMetricLister>()),
        handle_(cluster_, clock_, {}, &objects_, &allocations_) {
    objects_.set<api::slo::NodeMetric>(lister_);
    auto decoded = decodeArgs(args, std::string(kName));
    EXPECT_TRUE(decoded.ok()) << decoded.status();
    plugin_ = std::make_unique<LoadAwarePlugin>(handle_, decoded.ok() ? *decoded : LoadAwareArgs{},
                                                [this] { return now_; });
  }

  void setMetrics(std::vector<std::shared_ptr<const api::slo::NodeMetric>> metrics) {
    lister_->set(std::move(metrics));
  }
  LoadAwarePlugin& plugin() { return *plugin_; }
  TestMetricLister& lister() { return *lister_; }
  framework::AllocationCache& allocations() { return allocations_; }
  void setNow(WallTime now) { now_ = now; }
  [[nodiscard]] WallTime now() const { return now_; }

  // preFilter then filter, as the runtime runs them; a skipped preFilter passes.
  framework::PluginStatus filter(const framework::PodInfo& pod, const framework::NodeInfo& node) {
    framework::CycleState state;
    framework::PluginStatus pre = plugin_->preFilter(state, pod);
    if (pre.isSkip())
      return framework::PluginStatus::success();
    EXPECT_TRUE(pre.isSuccess());
    return plugin_->filter(state, pod, node);
  }
  // preFilter then score; a skipped preFilter, or scores() false, gives 0.
  int64_t score(const framework::PodInfo& pod, const framework::NodeInfo& node) {
    framework::CycleState state;
    framework::PluginStatus pre = plugin_->preFilter(state, pod);
    if (pre.isSkip() || !plugin_->scores(state, pod))
      return 0;
    return plugin_->score(state, pod, node);
  }

 private:
  extender::testing::EmptyCluster cluster_;
  FakeClock clock_;
  framework::AllocationCache allocations_{clock_};
  framework::ObjectStore objects_;
  std::shared_ptr<TestMetricLister> lister_;
  framework::BasicHandle handle_;
  WallTime now_ = testNow();
  std::unique_ptr<LoadAwarePlugin> plugin_;
};

}  // namespace koord::extender::plugins::load_aware::testing
