// Fuzz target for `koord-manager calculate`'s input (manager/app/cluster_input.hpp) and the
// calculation it feeds: any YAML must be read into a cluster or refused with an error naming the
// file, never a crash; a cluster that reads is calculated node by node as calculate_command.cpp
// does (noderesource::planNode, then explainPlan), and every node's plan gives resources and an
// explanation whose first line starts "calculated ".
//
// Checked for every input: an error names the source ("fuzz.yaml"); a slo-controller-config the
// loader accepted parses (calculate relies on it); an explanation is never empty.
//
// Input: the YAML file's bytes (multi-document, `---`).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/time.hpp"
#include "manager/app/cluster_input.hpp"
#include "manager/noderesource/node_plan.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace {

using koord::manager::noderesource::TimePoint;

// calculate's judgeTime without --now: the newest NodeMetric updateTime, else a fixed time (not
// the clock, so that a run replays).
TimePoint judgeTime(const koord::manager::app::ClusterInput& input) {
  std::optional<TimePoint> newest;
  for (const auto& [name, metric] : input.metrics) {
    if (!metric.status.updateTime) {
      continue;
    }
    if (auto t = koord::api::core::parseTime(*metric.status.updateTime);
        t.ok() && (!newest || *t > *newest)) {
      newest = *t;
    }
  }
  return newest.value_or(std::chrono::system_clock::from_time_t(1767268800));  // 2026-01-01T12Z
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace app = koord::manager::app;
  namespace noderesource = koord::manager::noderesource;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  app::ClusterInputLoader loader;
  if (koord::Status status = loader.addText(text, "fuzz.yaml"); !status.isOk()) {
    if (status.message().find("fuzz.yaml") == std::string::npos) {
      std::abort();  // an error that does not name the file
    }
    return 0;
  }
  const app::ClusterInput& input = loader.input();
  koord::manager::sloconfig::SloControllerConfig config;
  if (input.slo_config) {
    std::map<std::string, std::string> entries(input.slo_config->data.begin(),
                                               input.slo_config->data.end());
    auto parsed = koord::manager::sloconfig::parseSloControllerConfig(entries);
    if (!parsed.ok()) {
      std::abort();  // the loader accepted a configuration calculate cannot read
    }
    config = *parsed;
  }
  const TimePoint now = judgeTime(input);
  const std::vector<koord::api::core::Pod> no_pods;
  for (const koord::api::core::Node& node : input.nodes) {
    auto pods_it = input.pods_by_node.find(node.metadata.name);
    const std::vector<koord::api::core::Pod>& pods =
        pods_it == input.pods_by_node.end() ? no_pods : pods_it->second;
    noderesource::PodRefs refs;
    for (const koord::api::core::Pod& pod : pods) {
      refs.push_back(&pod);
    }
    auto metric_it = input.metrics.find(node.metadata.name);
    auto nrt_it = input.topologies.find(node.metadata.name);
    const noderesource::NodePlanInputs inputs{
        node,
        refs,
        metric_it == input.metrics.end() ? nullptr : &metric_it->second,
        nrt_it == input.topologies.end() ? nullptr : &nrt_it->second,
        config,
        now};
    const noderesource::NodePlan plan = noderesource::planNode(inputs);
    if (!plan.strategyError.isOk()) {
      continue;
    }
    for (const auto& [name, quantity] : plan.resources()) {
      (void)quantity.toString();
    }
    const std::vector<std::string> lines = noderesource::explainPlan(plan, now);
    if (lines.empty() || lines.front().rfind("calculated ", 0) != 0) {
      std::abort();  // a node calculated without its explanation
    }
  }
  return 0;
}
