#include "lownodeload_test_support.hpp"

#include <gtest/gtest.h>

#include <ctime>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/descheduler/plugins/lownodeload/low_node_load.hpp"

namespace koord::manager::descheduler::lownodeload::testing {

namespace {

resource::Quantity milli(int64_t value) {
  return resource::Quantity::fromMilli(value);
}
resource::Quantity whole(int64_t value) {
  return resource::Quantity::fromInt(value);
}

}  // namespace

NodePtr buildNode(const std::string& name, int64_t milli_cpu, int64_t memory, int64_t pods,
                  const NodeFn& apply) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = name;
  node->status.allocatable = {
      {"cpu", milli(milli_cpu)}, {"memory", whole(memory)}, {"pods", whole(pods)}};
  node->status.capacity = node->status.allocatable;
  if (apply) {
    apply(*node);
  }
  return node;
}

PodPtr buildPod(const std::string& name, int64_t milli_cpu, int64_t memory, const std::string& node,
                const PodFn& apply) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.name = name;
  pod->metadata.namespace_ = "default";
  pod->spec.nodeName = node;
  api::core::Container container;
  if (milli_cpu >= 0) {
    container.resources.requests["cpu"] = milli(milli_cpu);
  }
  if (memory >= 0) {
    container.resources.requests["memory"] = whole(memory);
  }
  pod->spec.containers.push_back(container);
  if (apply) {
    apply(*pod);
  }
  return pod;
}

void setRSOwner(api::core::Pod& pod) {
  pod.metadata.ownerReferences = {{"apps/v1", "ReplicaSet", "rs", "rs-uid", true, {}, {}}};
}
void setDSOwner(api::core::Pod& pod) {
  pod.metadata.ownerReferences = {{"apps/v1", "DaemonSet", "ds", "ds-uid", true, {}, {}}};
}
void setNormalOwner(api::core::Pod& pod) {
  pod.metadata.ownerReferences = {{"v1", "Pod", "owner", "owner-uid", true, {}, {}}};
}
void setMirror(api::core::Pod& pod) {
  pod.metadata.annotations["kubernetes.io/config.mirror"] = "mirror";
}
void setCritical(api::core::Pod& pod) {
  pod.metadata.namespace_ = "kube-system";
  pod.spec.priority = kSystemCriticalPriority;
}
void setUnschedulable(api::core::Node& node) {
  node.spec.unschedulable = true;
}

std::vector<framework::NodeMetricPtr> nodeMetrics(const std::vector<NodePtr>& nodes,
                                                  const std::vector<PodPtr>& pods,
                                                  const PodUsage& usage, std::chrono::seconds age) {
  std::vector<framework::NodeMetricPtr> out;
  const auto updated = std::chrono::floor<std::chrono::seconds>(kNow - age);
  for (const NodePtr& node : nodes) {
    auto metric = std::make_shared<api::slo::NodeMetric>();
    metric->metadata.name = node->metadata.name;
    const std::time_t seconds = std::chrono::system_clock::to_time_t(updated);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
    metric->status.updateTime = std::string(text);
    metric->status.nodeMetric.emplace();
    for (const PodPtr& pod : pods) {
      if (pod->spec.nodeName != node->metadata.name) {
        continue;
      }
      api::slo::PodMetricInfo info;
      info.name = pod->metadata.name;
      info.namespace_ = pod->metadata.namespace_;
      auto it = usage.find(pod->metadata.namespace_ + "/" + pod->metadata.name);
      info.podUsage.resources =
          it != usage.end() ? it->second : api::core::podRequests(*pod).valueOr({});
      metric->status.podsMetric.push_back(info);
    }
    out.push_back(metric);
  }
  return out;
}

bool FakeEvictor::filter(const api::core::Pod& pod) const {
  if (pod.metadata.ownerReferences.empty()) {
    return false;
  }
  for (const auto& owner : pod.metadata.ownerReferences) {
    if (owner.kind == "DaemonSet") {
      return false;
    }
  }
  if (pod.metadata.annotations.contains("kubernetes.io/config.mirror")) {
    return false;
  }
  return !(pod.spec.priority && *pod.spec.priority >= kSystemCriticalPriority);
}

bool FakeEvictor::preEvictionFilter(const api::core::Pod& /*pod*/) const {
  return true;
}

bool FakeEvictor::evict(const api::core::Pod& pod, const framework::EvictOptions& opts) {
  if (refuse.contains(pod.metadata.name)) {
    return false;
  }
  evicted.push_back(pod.metadata.name);
  options.push_back(opts);
  return true;
}

bool FakeEvictor::nodeLimitExceeded(const api::core::Node& /*node*/) const {
  return false;
}

framework::PodFitsAnyOtherNode fitsFor(const framework::ClusterSnapshot* const* snapshot) {
  return [snapshot](const api::core::Pod& pod, const framework::NodeList& nodes) {
    const resource::ResourceList request = api::core::podRequests(pod).valueOr({});
    for (const NodePtr& node : nodes) {
      if (node->metadata.name == pod.spec.nodeName || node->spec.unschedulable) {
        continue;
      }
      const auto affinity = api::core::matchesRequiredNodeAffinity(pod, *node);
      if (!affinity.ok() || !*affinity) {
        continue;
      }
      resource::ResourceList used;
      for (const PodPtr& other : (*snapshot)->podsOnNode(node->metadata.name)) {
        used = resource::add(used, api::core::podRequests(*other).valueOr({})).valueOr(used);
      }
      const resource::ResourceList free =
          resource::subtract(node->status.allocatable, used).valueOr({});
      if (resource::fits(request, free)) {
        return true;
      }
    }
    return false;
  };
}

Harness::Harness(std::vector<NodePtr> nodes_in, std::vector<PodPtr> pods,
                 std::vector<framework::NodeMetricPtr> metrics)
    : nodes(nodes_in),
      snapshot(framework::ClusterSnapshot::build(
          {std::move(nodes_in), std::move(pods), std::move(metrics), {}})) {
  snapshot_ptr = &snapshot;
  handle.snapshot = &snapshot;
  handle.evictor = &evictor;
  handle.pod_fits_any_other_node = fitsFor(&snapshot_ptr);
  handle.now = kNow;
}

void Harness::create(const nlohmann::json& args) {
  auto created = createLowNodeLoad(args, handle);
  ASSERT_TRUE(created.ok()) << created.status().toString();
  plugin = std::move(created).value();
}

void Harness::run() {
  auto* balance = dynamic_cast<framework::BalancePlugin*>(plugin.get());
  ASSERT_NE(balance, nullptr);
  EXPECT_TRUE(balance->balance(nodes).isOk());
}

nlohmann::json poolArgs(const nlohmann::json& low, const nlohmann::json& high,
                        const nlohmann::json& prod_low, const nlohmann::json& prod_high,
                        bool deviation) {
  nlohmann::json pool = {{"name", "test"},
                         {"lowThresholds", low},
                         {"highThresholds", high},
                         {"useDeviationThresholds", deviation},
                         {"anomalyCondition", {{"consecutiveAbnormalities", 1}}}};
  if (!prod_low.is_null()) {
    pool["prodLowThresholds"] = prod_low;
  }
  if (!prod_high.is_null()) {
    pool["prodHighThresholds"] = prod_high;
  }
  return {{"nodeFit", true}, {"nodePools", nlohmann::json::array({pool})}};
}

}  // namespace koord::manager::descheduler::lownodeload::testing
