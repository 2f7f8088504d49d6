// Builders for LowNodeLoad's tests, after Koordinator's descheduler test helpers (BuildTestNode,
// BuildTestPod, setupNodeMetrics), plus a fake evictor that filters as DefaultEvictor does for
// those pods and records what it was asked to evict.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::lownodeload::testing {

using framework::NodePtr;
using framework::PodPtr;
using NodeFn = std::function<void(api::core::Node&)>;
using PodFn = std::function<void(api::core::Pod&)>;

// 2024-05-01T12:00:00Z
inline constexpr std::chrono::system_clock::time_point kNow{std::chrono::seconds(1714564800)};
inline constexpr int32_t kSystemCriticalPriority = 2000000000;

NodePtr buildNode(const std::string& name, int64_t milli_cpu, int64_t memory, int64_t pods,
                  const NodeFn& apply = {});
PodPtr buildPod(const std::string& name, int64_t milli_cpu, int64_t memory, const std::string& node,
                const PodFn& apply = {});

void setRSOwner(api::core::Pod& pod);
void setDSOwner(api::core::Pod& pod);
void setNormalOwner(api::core::Pod& pod);
void setMirror(api::core::Pod& pod);
void setCritical(api::core::Pod& pod);
void setUnschedulable(api::core::Node& node);

// podsMetric entries: the pod's requests unless `usage` names the pod ("ns/name").
using PodUsage = std::map<std::string, resource::ResourceList>;
// A NodeMetric per node, updated at kNow - age, whose podsMetric covers the node's pods.
std::vector<framework::NodeMetricPtr> nodeMetrics(
    const std::vector<NodePtr>& nodes, const std::vector<PodPtr>& pods, const PodUsage& usage = {},
    std::chrono::seconds age = std::chrono::seconds(10));

// Filters as DefaultEvictor for the test pods: an owner other than a DaemonSet, not mirror, not
// system-critical. Records every evict() call.
class FakeEvictor : public framework::Evictor {
 public:
  [[nodiscard]] bool filter(const api::core::Pod& pod) const override;
  [[nodiscard]] bool preEvictionFilter(const api::core::Pod& pod) const override;
  bool evict(const api::core::Pod& pod, const framework::EvictOptions& options) override;
  [[nodiscard]] bool nodeLimitExceeded(const api::core::Node& node) const override;

  std::vector<std::string> evicted;  // pod names, in order
  std::vector<framework::EvictOptions> options;
  std::set<std::string> refuse;  // evict() returns false for these pod names
};

// nodeutil.NodeFit for the tests: schedulable, required node affinity, and requests within
// allocatable less what the node's pods request.
framework::PodFitsAnyOtherNode fitsFor(const framework::ClusterSnapshot* const* snapshot);

// One cluster and a LowNodeLoad plugin over it.
struct Harness {
  explicit Harness(std::vector<NodePtr> nodes, std::vector<PodPtr> pods,
                   std::vector<framework::NodeMetricPtr> metrics);
  // Creates the plugin from `args`; fails the test on an error.
  void create(const nlohmann::json& args);
  void run();

  std::vector<NodePtr> nodes;
  framework::ClusterSnapshot snapshot;
  const framework::ClusterSnapshot* snapshot_ptr = nullptr;
  FakeEvictor evictor;
  framework::Handle handle;
  std::unique_ptr<framework::Plugin> plugin;
};

// Koordinator's test args: one node pool (no selector) with these thresholds, acting at once.
nlohmann::json poolArgs(const nlohmann::json& low, const nlohmann::json& high,
                        const nlohmann::json& prod_low = nullptr,
                        const nlohmann::json& prod_high = nullptr, bool deviation = false);

}  // namespace koord::manager::descheduler::lownodeload::testing
