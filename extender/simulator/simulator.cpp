#include "extender/simulator/simulator.hpp"

#include <algorithm>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/fit_error.hpp"
#include "extender/framework/reservation_info.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/plugins/kube/prioritize.hpp"
#include "extender/plugins/node_reservation/node_reservation.hpp"
#include "extender/reservation/lifecycle.hpp"
#include "extender/reservation/placement.hpp"
#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::simulator {

namespace {

// Records what bind would write; the loop applies it to the ClusterState.
class RecordingBinder final : public framework::Binder {
 public:
  Status patchPod(const framework::PodInfo& /*pod*/, const framework::BindPatch& patch,
                  framework::BindDeadline /*deadline*/) override {
    std::lock_guard<std::mutex> lock(mu_);
    patch_ = patch;
    return Status::ok();
  }
  Status bindPod(const framework::PodInfo& /*pod*/, const std::string& node,
                 framework::BindDeadline /*deadline*/) override {
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
  std::map<std::string, size_t> histogram;
  for (const auto& [node, rejection] : rejections) {
    for (const auto& reason : rejection.reasons) {
      histogram[reason]++;
    }
  }
  return framework::fitErrorMessage(num_nodes, histogram);
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

  // Reservations: Available ones hold their node now; pending ones wait for their turn.
  std::vector<size_t> pending_reservations;
  std::map<std::string, size_t> reservation_index;
  for (size_t i = 0; i < input.reservations.size(); ++i) {
    const auto& r = input.reservations[i];
    ReservationPlacement rp;
    rp.name = r->metadata.name;
    if (auto it = input.sources.find("Reservation/" + rp.name); it != input.sources.end())
      rp.source = it->second;
    rp.phase = r->status.phase.empty() ? std::string(api::scheduling::kReservationPending)
                                       : r->status.phase;
    if (framework::holdsCapacity(*r)) {
      rp.node = r->status.nodeName;
      KOORD_RETURN_IF_ERROR(
          state.upsertReservation(r).withPrefix("failed to add reservation '" + rp.name + "'"));
    } else if (rp.phase == api::scheduling::kReservationPending) {
      pending_reservations.push_back(i);
    }
    reservation_index.emplace(rp.name, i);
    result.reservations.push_back(std::move(rp));
  }
  std::stable_sort(pending_reservations.begin(), pending_reservations.end(),
                   [&](size_t a, size_t b) {
                     return input.reservations[a]->metadata.creationTimestamp <
                            input.reservations[b]->metadata.creationTimestamp;
                   });

  framework::BasicHandle handle(state, clock);
  framework::RuntimeOptions runtime_options;
  runtime_options.plugins =
      options.plugins.empty() ? plugins::simulatorDefaultConfigs() : options.plugins;
  runtime_options.parallelism = options.parallelism;
  const framework::Registry registry = plugins::placementRegistry();
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

  // Places the pending reservations due before `pod` (all that are left when it is nullptr).
  size_t next_reservation = 0;
  const auto placeReservations = [&](const api::core::Pod* pod) -> Status {
    for (; next_reservation < pending_reservations.size(); ++next_reservation) {
      const size_t i = pending_reservations[next_reservation];
      const auto& r = input.reservations[i];
      if (pod != nullptr && !pod->metadata.creationTimestamp.empty() &&
          !r->metadata.creationTimestamp.empty() &&
          pod->metadata.creationTimestamp < r->metadata.creationTimestamp)
        return Status::ok();
      ReservationPlacement& rp = result.reservations[i];
      auto placed = reservation::place(*r, state, *runtime, options.extender_weight);
      if (!placed.ok()) {
        rp.message = placed.status().message();
        continue;
      }
      if (placed->node.empty()) {
        rp.message = placed->message;
        continue;
      }
      auto available = std::make_shared<api::scheduling::Reservation>(*r);
      available->status = reservation::availableStatus(*r, placed->node, placed->allocatable,
                                                       std::chrono::system_clock::time_point());
      KOORD_RETURN_IF_ERROR(state.upsertReservation(available).withPrefix(
          "failed to place reservation '" + rp.name + "'"));
      nodes[node_index.at(placed->node)] = state.nodeInfo(placed->node);
      rp.phase = std::string(api::scheduling::kReservationAvailable);
      rp.node = placed->node;
      rp.placed = true;
    }
    return Status::ok();
  };

  for (size_t index : schedulingOrder(input.pods)) {
    const auto& pod = input.pods[index];
    KOORD_RETURN_IF_ERROR(placeReservations(pod.get()));
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
    const std::vector<plugins::kube::NodeScore> scores =
        plugins::kube::prioritize(info, feasible, *runtime, options.extender_weight);
    const auto& chosen = feasible[plugins::kube::bestNode(scores)];
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
    if (auto it = patch.annotations.find(std::string(api::kAnnotationReservationAllocated));
        it != patch.annotations.end()) {
      auto allocated = api::extension::parseReservationAllocated(it->second);
      if (allocated.ok()) {
        if (auto r = reservation_index.find(allocated->name); r != reservation_index.end())
          result.reservations[r->second].owners.push_back(placement.key);
      }
    }
    placement.annotations = patch.annotations;
    placement.labels = patch.labels;
    result.placements.push_back(std::move(placement));
  }

  KOORD_RETURN_IF_ERROR(placeReservations(nullptr));

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
