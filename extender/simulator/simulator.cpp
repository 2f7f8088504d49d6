#include "extender/simulator/simulator.hpp"

#include <algorithm>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/fit_error.hpp"
#include "extender/objects/kind_sources.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/plugins/kube/prioritize.hpp"
#include "extender/plugins/load_aware/load_aware.hpp"
#include "extender/plugins/node_numa_resource/cpu_summary.hpp"
#include "extender/plugins/node_numa_resource/node_numa_resource.hpp"
#include "extender/plugins/node_reservation/node_reservation.hpp"
#include "extender/reservation/allocation.hpp"
#include "extender/reservation/lifecycle.hpp"
#include "extender/reservation/placement.hpp"
#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/time.hpp"
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

// The cpuset and NUMA resources of the resource-status bind wrote, when it wrote one (the plugin
// formats it, so it parses; an unreadable one leaves both empty, and BIND ANNOTATIONS shows it).
void readResourceStatus(const std::map<std::string, std::string>& annotations, std::string& cpuset,
                        std::vector<api::extension::NUMANodeResource>& numa_resources) {
  auto it = annotations.find(std::string(api::kAnnotationResourceStatus));
  if (it == annotations.end())
    return;
  auto status = api::extension::parseResourceStatus(it->second);
  if (!status.ok())
    return;
  cpuset = status->cpuset;
  numa_resources = status->numaNodeResources;
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

namespace {

// One run: loading the input into a ClusterState, placing the pending reservations and pods one at
// a time, and reporting what each node ends with. Each step is one member function.
class Simulation {
 public:
  Simulation(const ClusterInput& input, const SimulationOptions& options)
      : input_(input),
        options_(options),
        state_(clock_, std::chrono::hours(24 * 365), &allocations_),
        reservations_(plugins::common::ReservationState::install(state_)) {
    publishObjects();
    std::vector<std::string> enabled;
    for (const auto& plugin :
         options_.plugins.empty() ? plugins::simulatorDefaultConfigs() : options_.plugins)
      enabled.push_back(plugin.name);
    plugins::installNodeData(enabled, state_);
  }

  Result<SimulationResult> run() {
    result_.other_kinds = input_.other_kinds;
    KOORD_RETURN_IF_ERROR(load());
    KOORD_RETURN_IF_ERROR(createRuntime());
    nodes_ = state_.nodeInfos();
    for (size_t i = 0; i < nodes_.size(); ++i)
      node_index_.emplace(nodes_[i]->name(), i);
    to_find_ = numFeasibleNodesToFind(nodes_.size());
    for (size_t index : schedulingOrder(input_.pods)) {
      const auto& pod = input_.pods[index];
      KOORD_RETURN_IF_ERROR(placeReservations(pod.get()));
      KOORD_ASSIGN_OR_RETURN(PodPlacement placement, placePod(pod));
      result_.placements.push_back(std::move(placement));
    }
    KOORD_RETURN_IF_ERROR(placeReservations(nullptr));
    reportNodes();
    return std::move(result_);
  }

 private:
  // Loading: the nodes, the bound pods that are not terminal, and the reservations: Available ones
  // hold their node now; pending ones wait for their turn, oldest first.
  Status load() {
    for (const auto& node : input_.nodes)
      state_.upsertNode(node);
    for (const auto& pod : input_.pods) {
      if (isPending(*pod) || api::core::isPodTerminal(*pod))
        continue;
      const std::string key = pod->metadata.namespace_ + "/" + pod->metadata.name;
      KOORD_RETURN_IF_ERROR(
          state_.upsertPod(pod).withPrefix("failed to add bound pod '" + key + "'"));
      result_.bound_pods++;
    }
    for (size_t i = 0; i < input_.reservations.size(); ++i) {
      const auto& r = input_.reservations[i];
      ReservationPlacement rp;
      rp.name = r->metadata.name;
      if (auto it = input_.sources.find("Reservation/" + rp.name); it != input_.sources.end())
        rp.source = it->second;
      rp.phase = r->status.phase.empty() ? std::string(api::scheduling::kReservationPending)
                                         : r->status.phase;
      if (plugins::common::holdsCapacity(*r)) {
        rp.node = r->status.nodeName;
        KOORD_RETURN_IF_ERROR(
            reservations_.upsert(r).withPrefix("failed to add reservation '" + rp.name + "'"));
      } else if (rp.phase == api::scheduling::kReservationPending) {
        pending_reservations_.push_back(i);
      }
      reservation_index_.emplace(rp.name, i);
      result_.reservations.push_back(std::move(rp));
    }
    std::stable_sort(pending_reservations_.begin(), pending_reservations_.end(),
                     [this](size_t a, size_t b) {
                       return input_.reservations[a]->metadata.creationTimestamp <
                              input_.reservations[b]->metadata.creationTimestamp;
                     });
    return Status::ok();
  }

  // The plugins' listers: every object of the input of a kind a plugin may read.
  void publishObjects() {
    for (const auto& [kind, objects] : input_.objects) {
      if (std::optional<objects::KindSource> source = objects::findKindSource(kind))
        source->publish(objects, objects_);
    }
    objects_.set<api::scheduling::Reservation>(
        std::make_shared<const framework::FixedLister<api::scheduling::Reservation>>(
            input_.reservations));
  }

  Status createRuntime() {
    framework::RuntimeOptions runtime_options;
    runtime_options.plugins =
        options_.plugins.empty() ? plugins::simulatorDefaultConfigs() : options_.plugins;
    runtime_options.parallelism = options_.parallelism;
    for (const auto& config : runtime_options.plugins) {
      if (config.name != plugins::node_numa_resource::kName)
        continue;
      // A second instance for the report: it reads the same cluster and objects as the runtime's.
      KOORD_ASSIGN_OR_RETURN(numa_plugin_,
                             plugins::node_numa_resource::create(config.args, handle_));
    }
    framework::Registry registry = plugins::placementRegistry();
    if (const std::optional<plugins::load_aware::WallTime> now = newestNodeMetricTime()) {
      const plugins::load_aware::WallTime at = *now;
      KOORD_RETURN_IF_ERROR(
          registry.replace(std::string(plugins::load_aware::kName),
                           plugins::load_aware::factoryWithClock([at] { return at; })));
    }
    for (const auto& config : runtime_options.plugins) {
      if (config.name != plugins::load_aware::kName)
        continue;
      // A second instance for the report, on the same clock as the runtime's.
      KOORD_ASSIGN_OR_RETURN(load_plugin_, (*registry.find(config.name))(config.args, handle_));
    }
    KOORD_ASSIGN_OR_RETURN(runtime_,
                           framework::Runtime::create(registry, handle_, runtime_options));
    return Status::ok();
  }

  // The newest status.updateTime among the input's NodeMetrics (unreadable ones skipped).
  std::optional<plugins::load_aware::WallTime> newestNodeMetricTime() const {
    auto it = input_.objects.find(std::string(framework::KindOf<api::slo::NodeMetric>::kName));
    if (it == input_.objects.end())
      return std::nullopt;
    std::optional<plugins::load_aware::WallTime> newest;
    for (const auto& object : it->second) {
      const auto* metric = static_cast<const api::slo::NodeMetric*>(object.get());
      if (!metric->status.updateTime)
        continue;
      auto at = api::core::parseTime(*metric->status.updateTime);
      if (at.ok() && (!newest || *at > *newest))
        newest = *at;
    }
    return newest;
  }

  // The node's load as LoadAwareScheduling sees it, when it is enabled and has a NodeMetric.
  std::optional<NodeLoadUsage> loadOf(const framework::NodeInfo& node) const {
    const auto* plugin =
        dynamic_cast<const plugins::load_aware::LoadAwarePlugin*>(load_plugin_.get());
    if (plugin == nullptr)
      return std::nullopt;
    const std::optional<plugins::load_aware::NodeUsageReport> report = plugin->nodeUsage(node);
    if (!report)
      return std::nullopt;
    NodeLoadUsage load;
    for (size_t i = 0; i < plugin->resourceNames().size(); ++i)
      load.resources.push_back(plugin->resourceNames().name(i));
    load.reported = report->reported;
    load.estimated = report->estimated;
    load.allocatable = report->allocatable;
    load.expired = report->expired;
    load.update_time = report->update_time;
    return load;
  }

  // Places the pending reservations due before `pod` (all that are left when it is nullptr).
  Status placeReservations(const api::core::Pod* pod) {
    for (; next_reservation_ < pending_reservations_.size(); ++next_reservation_) {
      const size_t i = pending_reservations_[next_reservation_];
      const auto& r = input_.reservations[i];
      if (pod != nullptr && !pod->metadata.creationTimestamp.empty() &&
          !r->metadata.creationTimestamp.empty() &&
          pod->metadata.creationTimestamp < r->metadata.creationTimestamp)
        return Status::ok();
      ReservationPlacement& rp = result_.reservations[i];
      auto placed = reservation::place(*r, state_, *runtime_, options_.extender_weight);
      if (!placed.ok()) {
        rp.message = placed.status().message();
        continue;
      }
      if (placed->node.empty()) {
        rp.message = placed->message;
        continue;
      }
      // What the plugins take for it there (a cpuset), as the reservation loop does: written onto
      // it before it holds capacity; the in-flight entry goes once the Reservation carries it.
      auto annotations = reservation::allocateFor(*r, state_, *runtime_, placed->node);
      if (!annotations.ok()) {
        allocations_.confirm(r->metadata.uid);  // release what the plugins took
        rp.message = annotations.status().message();
        continue;
      }
      auto available = std::make_shared<api::scheduling::Reservation>(*r);
      for (const auto& [key, value] : *annotations)
        available->metadata.annotations[key] = value;
      available->status = reservation::availableStatus(*r, placed->node, placed->allocatable,
                                                       std::chrono::system_clock::time_point());
      Status upserted = reservations_.upsert(available);
      allocations_.confirm(r->metadata.uid);
      KOORD_RETURN_IF_ERROR(upserted.withPrefix("failed to place reservation '" + rp.name + "'"));
      nodes_[node_index_.at(placed->node)] = state_.nodeInfo(placed->node);
      readResourceStatus(*annotations, rp.cpuset, rp.numa_resources);
      rp.phase = std::string(api::scheduling::kReservationAvailable);
      rp.node = placed->node;
      rp.placed = true;
    }
    return Status::ok();
  }

  // Filters nodes from where the previous pod stopped until numFeasibleNodesToFind pass (or every
  // node was seen); records each rejection in `placement`. An error: the runtime's message.
  std::string findFeasible(const framework::PodInfo& info, PodPlacement& placement) {
    feasible_.clear();
    const size_t num_nodes = nodes_.size();
    size_t processed = 0;
    std::string error;
    while (feasible_.size() < to_find_ && processed < num_nodes) {
      const size_t chunk_size = std::min(to_find_ - feasible_.size(), num_nodes - processed);
      chunk_.clear();
      for (size_t i = 0; i < chunk_size; ++i)
        chunk_.push_back(nodes_[(next_start_ + processed + i) % num_nodes]);
      processed += chunk_size;
      framework::Runtime::FilterResult filtered = runtime_->filter(info, chunk_);
      if (filtered.error.code() == framework::Code::kError) {
        error = filtered.error.message();
        break;
      }
      for (const auto& name : filtered.feasible)
        feasible_.push_back(nodes_[node_index_.at(name)]);
      for (const auto& [name, status] : filtered.failed)
        placement.rejections.emplace(name, rejectionOf(status));
    }
    if (num_nodes > 0)
      next_start_ = (next_start_ + processed) % num_nodes;
    return error;
  }

  // Placing one pending pod: filter, score, bind; a placed pod counts on its node from then on.
  Result<PodPlacement> placePod(const std::shared_ptr<const api::core::Pod>& pod) {
    PodPlacement placement;
    placement.key = pod->metadata.namespace_ + "/" + pod->metadata.name;
    if (auto it = input_.sources.find("Pod/" + placement.key); it != input_.sources.end())
      placement.source = it->second;
    placement.priority = pod->spec.priority.value_or(0);
    auto pod_info = framework::PodInfo::create(pod);
    if (!pod_info.ok()) {
      placement.message = pod_info.status().message();
      return placement;
    }
    const framework::PodInfo& info = **pod_info;
    if (std::string error = findFeasible(info, placement); !error.empty()) {
      placement.message = "failed to filter nodes: " + error;
      placement.rejections.clear();
      return placement;
    }
    if (feasible_.empty()) {
      placement.message = fitErrorMessage(nodes_.size(), placement.rejections);
      return placement;
    }
    placement.rejections.clear();
    const std::vector<plugins::kube::NodeScore> scores =
        plugins::kube::prioritize(info, feasible_, *runtime_, options_.extender_weight);
    const auto chosen = feasible_[plugins::kube::bestNode(scores)];
    binder_.reset();
    framework::PluginStatus bound = runtime_->bind(info, *chosen, binder_);
    if (!bound.isSuccess()) {
      placement.message = "failed to bind to '" + chosen->name() + "': " + bound.message();
      return placement;
    }
    const framework::BindPatch patch = binder_.patch();
    auto placed = std::make_shared<api::core::Pod>(*pod);
    placed->spec.nodeName = chosen->name();
    for (const auto& [k, v] : patch.annotations)
      placed->metadata.annotations[k] = v;
    for (const auto& [k, v] : patch.labels)
      placed->metadata.labels[k] = v;
    KOORD_RETURN_IF_ERROR(
        state_.upsertPod(placed).withPrefix("failed to place pod '" + placement.key + "'"));
    nodes_[node_index_.at(chosen->name())] = state_.nodeInfo(chosen->name());
    placement.node = chosen->name();
    if (auto it = patch.annotations.find(std::string(api::kAnnotationReservationAllocated));
        it != patch.annotations.end()) {
      auto allocated = api::extension::parseReservationAllocated(it->second);
      if (allocated.ok()) {
        if (auto r = reservation_index_.find(allocated->name); r != reservation_index_.end())
          result_.reservations[r->second].owners.push_back(placement.key);
      }
    }
    placement.annotations = patch.annotations;
    placement.labels = patch.labels;
    readResourceStatus(placement.annotations, placement.cpuset, placement.numa_resources);
    return placement;
  }

  // How the node's CPUs are divided, for a node with a NodeResourceTopology when NodeNUMAResource
  // is enabled.
  std::optional<plugins::node_numa_resource::CPUSummary> cpusOf(const framework::NodeInfo& node) {
    namespace numa = plugins::node_numa_resource;
    const auto* plugin = dynamic_cast<const numa::NodeNUMAResourcePlugin*>(numa_plugin_.get());
    const auto* nrts = objects_.lister<api::topology::NodeResourceTopology>();
    if (plugin == nullptr || nrts == nullptr || nrts->get(node.name()) == nullptr)
      return std::nullopt;
    const std::shared_ptr<const numa::NodeTopology> topology = plugin->topologyOf(node);
    if (!topology->invalid.empty())
      return numa::summarizeCPUs(*topology, numa::NodeCPUView(*topology, nullptr, {}), nullptr);
    const numa::NodeCPUView view = plugin->viewOf(node, *topology);
    const numa::CPUAllocationSource* source = state_.nodeData<numa::CPUAllocationSource>();
    const numa::NodeCPUAllocations* held = source != nullptr ? source->of(node) : nullptr;
    return numa::summarizeCPUs(*topology, view, held);
  }

  // Reporting: what each node allocates, what its pods request and what it reserves.
  void reportNodes() {
    for (const auto& node : state_.nodeInfos()) {
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
      usage.cpus = cpusOf(*node);
      usage.load = loadOf(*node);
      result_.nodes.push_back(std::move(usage));
    }
  }

  const ClusterInput& input_;
  const SimulationOptions& options_;
  FakeClock clock_;
  framework::AllocationCache allocations_{clock_};
  framework::ClusterState state_;
  plugins::common::ReservationState& reservations_;
  framework::ObjectStore objects_;
  framework::BasicHandle handle_{state_, clock_, log::Logger{}, &objects_, &allocations_};
  std::unique_ptr<framework::Runtime> runtime_;
  std::unique_ptr<framework::Plugin> numa_plugin_;  // NodeNUMAResource for the report; may be null
  std::unique_ptr<framework::Plugin>
      load_plugin_;  // LoadAwareScheduling for the report; may be null
  SimulationResult result_;
  RecordingBinder binder_;
  // Reservations: input indexes of the pending ones (oldest first) and the next to place.
  std::vector<size_t> pending_reservations_;
  size_t next_reservation_ = 0;
  std::map<std::string, size_t> reservation_index_;  // name -> input index
  // Nodes in the ClusterState's order, refreshed as placements change them.
  std::vector<std::shared_ptr<const framework::NodeInfo>> nodes_;
  std::unordered_map<std::string, size_t> node_index_;
  size_t to_find_ = 0;
  size_t next_start_ = 0;
  std::vector<std::shared_ptr<const framework::NodeInfo>> chunk_;
  std::vector<std::shared_ptr<const framework::NodeInfo>> feasible_;
};

}  // namespace

Result<SimulationResult> simulate(const ClusterInput& input, const SimulationOptions& options) {
  return Simulation(input, options).run();
}

}  // namespace koord::extender::simulator
