#include "extender/simulator/simulator.hpp"

#include <algorithm>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "extender/framework/cluster_state.hpp"
#include "extender/plugins/node_reservation/node_reservation.hpp"
#include "extender/simulator/basic/basic_plugins.hpp"
#include "koord/api/core/pod_helpers.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::simulator {

namespace {

// Records what bind would write; the loop applies it to the ClusterState.
class RecordingBinder final : public framework::Binder {
 public:
  Status patchPod(const framework::PodInfo& /*pod*/, const framework::BindPatch& patch) override {
    std::lock_guard<std::mutex> lock(mu_);
    patch_ = patch;
    return Status::ok();
  }
  Status bindPod(const framework::PodInfo& /*pod*/, const std::string& node) override {
    std::lock_guard<std::mutex> lock(mu_);
    node_ = node;
    return Status::ok();
  }
  framework::BindPatch patch() const {
    std::lock_guard<std::mutex> lock(mu_);
    return patch_;
  }
  void reset() {
    std::lock_guard<std::mutex> lock(mu_);
    patch_ = {};
    node_.clear();
  }

 private:
  mutable std::mutex mu_;
  framework::BindPatch patch_;
  std::string node_;
};

bool isPending(const api::core::Pod& pod) {
  return pod.spec.nodeName.empty() && !api::core::isPodTerminal(pod);
}

NodeRejection rejectionOf(const framework::PluginStatus& status) {
  return NodeRejection{status.plugin(), status.reasons()};
}

}  // namespace

std::vector<size_t> schedulingOrder(
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods) {
  std::vector<size_t> order;
  for (size_t i = 0; i < pods.size(); ++i) {
    if (isPending(*pods[i])) {
      order.push_back(i);
    }
  }
  auto sort_key = [&pods](size_t i) {
    const api::core::Pod& p = *pods[i];
    return std::make_tuple(-static_cast<int64_t>(p.spec.priority.value_or(0)),
                           std::cref(p.metadata.creationTimestamp),
                           std::cref(p.metadata.namespace_), std::cref(p.metadata.name));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&sort_key](size_t a, size_t b) { return sort_key(a) < sort_key(b); });
  return order;
}

size_t numFeasibleNodesToFind(size_t num_nodes) {
  constexpr size_t kMinFeasibleNodes = 100;
  constexpr int64_t kMinPercentage = 5;
  constexpr int64_t kBasePercentage = 50;
  if (num_nodes < kMinFeasibleNodes) {
    return num_nodes;
  }
  const int64_t percentage =
      std::max(kMinPercentage, kBasePercentage - static_cast<int64_t>(num_nodes) / 125);
  const size_t found = num_nodes * static_cast<size_t>(percentage) / 100;
  return std::max(found, kMinFeasibleNodes);
}

std::string fitErrorMessage(size_t num_nodes,
                            const std::map<std::string, NodeRejection>& rejections) {
  if (num_nodes == 0) {
    return "no nodes available to schedule pods";
  }
  std::map<std::string, size_t> histogram;
  for (const auto& [node, rejection] : rejections) {
    for (const auto& reason : rejection.reasons) {
      histogram[reason]++;
    }
  }
  std::vector<std::string> entries;
  entries.reserve(histogram.size());
  for (const auto& [reason, count] : histogram) {
    entries.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(entries.begin(), entries.end());
  std::string message = "0/" + std::to_string(num_nodes) + " nodes are available: ";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) {
      message += ", ";
    }
    message += entries[i];
  }
  return message + ".";
}

Result<SimulationResult> simulate(const ClusterInput& input, const SimulationOptions& options) {
  SimulationResult result;
  result.other_kinds = input.other_kinds;
  FakeClock clock;
  framework::ClusterState state(clock, std::chrono::hours(24 * 365));
  for (const auto& node : input.nodes) {
    state.upsertNode(node);
  }
  for (const auto& pod : input.pods) {
    if (isPending(*pod)) {
      continue;
    }
    if (api::core::isPodTerminal(*pod)) {
      continue;
    }
    const std::string key = pod->metadata.namespace_ + "/" + pod->metadata.name;
    KOORD_RETURN_IF_ERROR(state.upsertPod(pod).withPrefix("failed to add bound pod '" + key + "'"));
    result.bound_pods++;
  }

  framework::BasicHandle handle(state, clock);
  framework::RuntimeOptions runtime_options;
  runtime_options.plugins =
      options.plugins.empty() ? basic::defaultPluginConfigs() : options.plugins;
  runtime_options.parallelism = options.parallelism;
  const framework::Registry registry = basic::simulatorRegistry();
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<framework::Runtime> runtime,
                         framework::Runtime::create(registry, handle, runtime_options));

  std::vector<std::shared_ptr<const framework::NodeInfo>> nodes = state.nodeInfos();
  std::unordered_map<std::string, size_t> node_index;
  for (size_t i = 0; i < nodes.size(); ++i) {
    node_index.emplace(nodes[i]->name(), i);
  }
  const size_t num_nodes = nodes.size();
  const size_t to_find = numFeasibleNodesToFind(num_nodes);
  size_t next_start = 0;
  RecordingBinder binder;
  std::vector<std::shared_ptr<const framework::NodeInfo>> chunk;
  std::vector<std::shared_ptr<const framework::NodeInfo>> feasible;

  for (size_t index : schedulingOrder(input.pods)) {
    const auto& pod = input.pods[index];
    PodPlacement placement;
    placement.key = pod->metadata.namespace_ + "/" + pod->metadata.name;
    if (auto it = input.sources.find("Pod/" + placement.key); it != input.sources.end()) {
      placement.source = it->second;
    }
    placement.priority = pod->spec.priority.value_or(0);
    auto pod_info = framework::PodInfo::create(pod);
    if (!pod_info.ok()) {
      placement.message = pod_info.status().message();
      result.placements.push_back(std::move(placement));
      continue;
    }
    const framework::PodInfo& info = **pod_info;

    feasible.clear();
    size_t processed = 0;
    std::string error;
    while (feasible.size() < to_find && processed < num_nodes) {
      const size_t chunk_size = std::min(to_find - feasible.size(), num_nodes - processed);
      chunk.clear();
      for (size_t i = 0; i < chunk_size; ++i) {
        chunk.push_back(nodes[(next_start + processed + i) % num_nodes]);
      }
      processed += chunk_size;
      framework::Runtime::FilterResult filtered = runtime->filter(info, chunk);
      if (filtered.error.code() == framework::Code::kError) {
        error = filtered.error.message();
        break;
      }
      for (const auto& name : filtered.feasible) {
        feasible.push_back(nodes[node_index.at(name)]);
      }
      for (const auto& [name, status] : filtered.failed) {
        placement.rejections.emplace(name, rejectionOf(status));
      }
    }
    if (num_nodes > 0) {
      next_start = (next_start + processed) % num_nodes;
    }
    if (!error.empty()) {
      placement.message = "failed to filter nodes: " + error;
      placement.rejections.clear();
      result.placements.push_back(std::move(placement));
      continue;
    }
    if (feasible.empty()) {
      placement.message = fitErrorMessage(num_nodes, placement.rejections);
      result.placements.push_back(std::move(placement));
      continue;
    }
    placement.rejections.clear();
    const std::vector<int64_t> scores = runtime->score(info, feasible);
    size_t best = 0;
    for (size_t i = 1; i < feasible.size() && i < scores.size(); ++i) {
      if (scores[i] > scores[best]) {
        best = i;
      }
    }
    const auto& chosen = feasible[best];
    binder.reset();
    framework::PluginStatus bound = runtime->bind(info, *chosen, binder);
    if (!bound.isSuccess()) {
      placement.message = "failed to bind to '" + chosen->name() + "': " + bound.message();
      result.placements.push_back(std::move(placement));
      continue;
    }
    const framework::BindPatch patch = binder.patch();
    auto placed = std::make_shared<api::core::Pod>(*pod);
    placed->spec.nodeName = chosen->name();
    for (const auto& [k, v] : patch.annotations) {
      placed->metadata.annotations[k] = v;
    }
    for (const auto& [k, v] : patch.labels) {
      placed->metadata.labels[k] = v;
    }
    KOORD_RETURN_IF_ERROR(
        state.upsertPod(placed).withPrefix("failed to place pod '" + placement.key + "'"));
    nodes[node_index.at(chosen->name())] = state.nodeInfo(chosen->name());
    placement.node = chosen->name();
    placement.annotations = patch.annotations;
    placement.labels = patch.labels;
    result.placements.push_back(std::move(placement));
  }

  for (const auto& node : state.nodeInfos()) {
    NodeUsage usage;
    usage.name = node->name();
    usage.allocatable = node->allocatable();
    usage.requested = node->requested();
    usage.pod_count = static_cast<int64_t>(node->pods().size());
    auto reserved = plugins::node_reservation::reservedResources(node->node());
    if (reserved.ok()) {
      usage.reserved = *reserved;
    } else {
      usage.reservation_error = reserved.status().message();
    }
    result.nodes.push_back(std::move(usage));
  }
  return result;
}

}  // namespace koord::extender::simulator
