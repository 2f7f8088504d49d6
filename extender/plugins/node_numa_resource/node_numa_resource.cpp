#include "extender/plugins/node_numa_resource/node_numa_resource.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "extender/plugins/common/nominated_reservation.hpp"
#include "extender/plugins/node_numa_resource/numa_policy.hpp"
#include "extender/plugins/node_numa_resource/numa_split.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_numa_resource {

namespace plugin_impl {

using api::extension::CPUBindPolicy;
using api::extension::NUMATopologyPolicy;
using framework::NodeInfo;
using framework::PluginStatus;
using framework::PodInfo;

struct PreState final : framework::StateData {
  PodCPURequest request;
};

struct Taken final : framework::StateData {
  api::extension::ResourceStatus status;
};

const std::string& stateKey() {
  static const std::string key = std::string(kName) + "/state";
  return key;
}
const std::string& takenKey() {
  static const std::string key = std::string(kName) + "/taken";
  return key;
}

// A Result's failure as a filter status: policy and input problems do not go away by evicting
// pods (unresolvable); a shortage may (unschedulable).
PluginStatus toStatus(const Status& status) {
  if (status.code() == StatusCode::kResourceExhausted)
    return PluginStatus::unschedulable(status.message());
  return PluginStatus::unresolvable(status.message());
}

// Every CPU of every core the set touches is in the set.
bool wholeCores(const CPUTopologyDetails& details, const cpuset::CpuSet& cpus) {
  std::map<int, int> in_set;
  std::map<int, int> in_core;
  for (const auto& [cpu, info] : details.details())
    ++in_core[info.core];
  for (int cpu : cpus.cpus()) {
    if (const CPUInfo* info = details.find(cpu))
      ++in_set[info->core];
  }
  return std::all_of(in_set.begin(), in_set.end(),
                     [&](const auto& entry) { return in_core[entry.first] == entry.second; });
}

int64_t weightedScore(const ScoringStrategy& strategy, const framework::Resource& allocatable,
                      const framework::Resource& requested) {
  int64_t sum = 0;
  int64_t weights = 0;
  for (const auto& [name, weight] : strategy.weights) {
    const int64_t alloc = allocatable.get(name);
    if (alloc <= 0)
      continue;
    const int64_t req = requested.get(name);
    int64_t s = 0;
    if (strategy.most_allocated)
      s = std::min(req, alloc) * 100 / alloc;
    else
      s = req > alloc ? 0 : (alloc - req) * 100 / alloc;
    sum += s * weight;
    weights += weight;
  }
  return weights == 0 ? 0 : sum / weights;
}

// Leaves the pod only the NUMA nodes of `within` (what a reservation holds there); `restricted`
// caps each of them at what the reservation holds (a resource it holds none of: 0).
void keepWithin(std::vector<NUMANodeResources>& nodes,
                const std::map<int, framework::Resource>& within, bool restricted) {
  for (auto& n : nodes) {
    auto held = within.find(n.node);
    if (held == within.end()) {
      for (auto& [name, value] : n.available)
        value = 0;
      n.free_cpus = n.free_cpus < 0 ? n.free_cpus : 0;
      continue;
    }
    if (!restricted)
      continue;
    for (auto& [name, value] : n.available)
      value = std::min(value, held->second.get(name));
    if (n.free_cpus > 0)
      n.free_cpus = std::min<int>(n.free_cpus, static_cast<int>(held->second.milli_cpu / 1000));
  }
}

}  // namespace plugin_impl

using namespace plugin_impl;  // NOLINT(google-build-using-namespace)

std::shared_ptr<const NodeTopology> TopologyCache::get(
    const NodeInfo& node,
    const std::shared_ptr<const api::topology::NodeResourceTopology>& nrt) const {
  {
    std::shared_lock lock(mu_);
    auto it = entries_.find(node.name());
    if (it != entries_.end() && it->second.node == node.nodePtr() && it->second.nrt == nrt)
      return it->second.topology;
  }
  auto topology = NodeTopology::build(node.node(), nrt.get());
  std::unique_lock lock(mu_);
  entries_[node.name()] = Entry{node.nodePtr(), nrt, topology};
  return topology;
}

std::shared_ptr<const NodeTopology> TopologyCache::last(const NodeInfo& node) const {
  std::shared_lock lock(mu_);
  auto it = entries_.find(node.name());
  return it != entries_.end() && it->second.node == node.nodePtr() ? it->second.topology : nullptr;
}

NodeNUMAResourcePlugin::NodeNUMAResourcePlugin(const framework::Handle& handle,
                                               NodeNUMAResourceArgs args)
    : handle_(handle),
      args_(std::move(args)),
      allocations_(handle.cluster().nodeData<CPUAllocationSource>()),
      label_policies_(handle.cluster().nodeData<NodeLabelPolicies>()),
      reservations_(handle.cluster().nodeData<common::ReservationState>()) {
  numa_scoring_.most_allocated = args_.numa_scoring.most_allocated;
  numa_scoring_.weights = {args_.numa_scoring.weights.begin(), args_.numa_scoring.weights.end()};
}

std::shared_ptr<const NodeTopology> NodeNUMAResourcePlugin::topologyOf(const NodeInfo& node) const {
  std::shared_ptr<const api::topology::NodeResourceTopology> nrt;
  if (const auto* lister = handle_.objects().lister<api::topology::NodeResourceTopology>())
    nrt = lister->get(node.name());
  return topologies_.get(node, nrt);
}

NodeCPUView NodeNUMAResourcePlugin::viewOf(const NodeInfo& node,
                                           const NodeTopology& topology) const {
  const NodeCPUAllocations* held = allocations_ != nullptr ? allocations_->of(node) : nullptr;
  if (handle_.allocations().empty())
    return NodeCPUView(topology, held, {});
  return NodeCPUView(topology, held, handle_.allocations().onNode(kName, node.name()));
}

void NodeNUMAResourcePlugin::lendReserved(NodeCPUView& view, const PodInfo& pod,
                                          const NodeInfo& node,
                                          const std::string* nominated_uid) const {
  if (!view.holdsReservations())
    return;
  if (nominated_uid != nullptr) {
    view.lendReservation(*nominated_uid);
    return;
  }
  if (reservations_ == nullptr || !reservations_->mayOwn(*pod.pod))
    return;
  auto usable = reservations_->restorable(*pod.pod, node);
  if (!usable.ok())
    return;
  for (const auto& info : *usable)
    view.lendReservation(info->uid);
}

Result<NodePlan> NodeNUMAResourcePlugin::plan(const PodCPURequest& request,
                                              const NodeTopology& topology) const {
  NodePlan out;
  out.request = request;
  auto numa = mergeTopologyPolicy(topology.numa_policy, request.numa_policy);
  if (!numa.ok())
    return numa.status();
  out.numa_policy = *numa;
  auto bind = requestsCPUBindOn(out.request, topology.bind_policy);
  if (!bind.ok())
    return bind.status();
  if (*bind) {
    if (!topology.invalid.empty())
      return Status(StatusCode::kFailedPrecondition, topology.invalid);
    std::optional<CPUBindPolicy> node_required;
    if (topology.bind_policy == api::extension::NodeCPUBindPolicy::kFullPCPUsOnly)
      node_required = CPUBindPolicy::kFullPCPUs;
    else if (topology.bind_policy == api::extension::NodeCPUBindPolicy::kSpreadByPCPUs)
      node_required = CPUBindPolicy::kSpreadByPCPUs;
    const int per_core = std::max(1, topology.details.cpusPerCore());
    if ((node_required == CPUBindPolicy::kFullPCPUs ||
         request.required_policy == CPUBindPolicy::kFullPCPUs) &&
        out.request.num_cpus % per_core != 0)
      return Status(StatusCode::kFailedPrecondition, kErrSMTAlignment);
    if (node_required && request.required_policy && *node_required != *request.required_policy)
      return Status(StatusCode::kFailedPrecondition, kErrCPUBindPolicyConflict);
    out.required = node_required ? node_required : request.required_policy;
    if (out.required)
      out.request.bind_policy = *out.required;
  }
  if (out.numa_policy != NUMATopologyPolicy::kNone) {
    if (!topology.invalid.empty())
      return Status(StatusCode::kFailedPrecondition, topology.invalid);
    if (topology.zones.empty())
      return Status(
          StatusCode::kFailedPrecondition,
          std::string(kErrInvalidCPUTopology) + ": the NodeResourceTopology lists no NUMA zones");
  }
  out.numa_strategy = topology.numa_strategy.value_or(args_.numa_scoring.most_allocated
                                                          ? NUMAAllocateStrategy::kMostAllocated
                                                          : NUMAAllocateStrategy::kLeastAllocated);
  return out;
}

Result<NodeNUMAResourcePlugin::NUMAPlacement> NodeNUMAResourcePlugin::admit(
    const NodePlan& plan, const PodInfo& pod, const NodeCPUView& view,
    const std::map<int, framework::Resource>* within, bool restricted) const {
  NUMAPlacement out;
  if (pod.requests.milli_cpu > 0)
    out.request.requests[std::string(api::kResourceCPU)] = pod.requests.milli_cpu;
  if (pod.requests.memory > 0)
    out.request.requests[std::string(api::kResourceMemory)] = pod.requests.memory;
  for (const auto& [name, value] : pod.requests.scalar)
    out.request.requests[name] = value;
  const bool bind = plan.request.request_cpu_bind;
  out.request.cpu_bind = bind;
  out.request.full_pcpus = bind && plan.required == CPUBindPolicy::kFullPCPUs;
  out.request.cpus_per_core = std::max(1, view.topology().details.cpusPerCore());
  out.nodes = view.numaNodes(bind, out.request.full_pcpus);
  if (within != nullptr)
    keepWithin(out.nodes, *within, restricted);
  auto hint = admitByNUMA(plan.numa_policy, plan.request.numa_exclusive, out.request, out.nodes,
                          numa_scoring_);
  if (!hint.ok())
    return hint.status();
  out.hint = *hint;
  return out;
}

PluginStatus NodeNUMAResourcePlugin::fits(const NodePlan& plan, const NodeCPUView& view) {
  if (!plan.request.request_cpu_bind)
    return PluginStatus::success();
  const int n = plan.request.num_cpus;
  const bool ok = plan.required == CPUBindPolicy::kFullPCPUs
                      ? view.freeWholeCores() * view.topology().details.cpusPerCore() >= n
                      : view.freeCPUs() >= n;
  return ok ? PluginStatus::success() : PluginStatus::unschedulable(kNotEnoughCPUs);
}

PluginStatus NodeNUMAResourcePlugin::preFilter(framework::CycleState& state,
                                               const PodInfo& pod) const {
  auto request = podCPURequest(pod, args_.default_bind_policy);
  if (!request.ok())
    return PluginStatus::unresolvable(request.status().message());
  // A pod that asks for nothing is only concerned by nodes with a policy of their own.
  if (!request->skip && !request->request_cpu_bind &&
      request->numa_policy == NUMATopologyPolicy::kNone && label_policies_ != nullptr &&
      label_policies_->nodesWithAPolicy() == 0 &&
      !nrt_policies_.anySetsAPolicy(
          handle_.objects().lister<api::topology::NodeResourceTopology>()))
    request->skip = true;
  const bool skip = request->skip;
  auto st = std::make_unique<PreState>();
  st->request = *request;
  state.write(stateKey(), std::move(st));
  return skip ? PluginStatus::skip() : PluginStatus::success();
}

PluginStatus NodeNUMAResourcePlugin::filter(const framework::CycleState& state, const PodInfo& pod,
                                            const NodeInfo& node) const {
  const PreState* st = state.read<PreState>(stateKey());
  if (st == nullptr)
    return PluginStatus::error("the NodeNUMAResource plugin's preFilter did not run");
  const PodCPURequest& request = st->request;
  if (request.skip)
    return PluginStatus::success();
  auto topology = topologyOf(node);
  auto p = plan(request, *topology);
  if (!p.ok())
    return toStatus(p.status());
  if (!p->request.request_cpu_bind && p->numa_policy == NUMATopologyPolicy::kNone)
    return PluginStatus::success();
  NodeCPUView view = viewOf(node, *topology);
  lendReserved(view, pod, node, nullptr);
  if (p->numa_policy == NUMATopologyPolicy::kNone)
    return fits(*p, view);
  auto placement = admit(*p, pod, view);
  return placement.ok() ? PluginStatus::success() : toStatus(placement.status());
}

bool NodeNUMAResourcePlugin::scores(const framework::CycleState& state,
                                    const PodInfo& /*pod*/) const {
  const PreState* st = state.read<PreState>(stateKey());
  return st != nullptr && !st->request.skip &&
         (st->request.request_cpu_bind || st->request.numa_policy != NUMATopologyPolicy::kNone);
}

int64_t NodeNUMAResourcePlugin::score(const framework::CycleState& state, const PodInfo& pod,
                                      const NodeInfo& node) const {
  const PreState* st = state.read<PreState>(stateKey());
  if (st == nullptr || st->request.skip)
    return 0;
  auto topology = topologies_.last(node);
  if (topology == nullptr)
    topology = topologyOf(node);
  auto p = plan(st->request, *topology);
  if (!p.ok())
    return 0;
  if (p->numa_policy == NUMATopologyPolicy::kNone) {
    framework::Resource requested = node.requested();
    requested.add(pod.requests);
    return weightedScore(args_.scoring, node.allocatable(), requested);
  }
  NodeCPUView view = viewOf(node, *topology);
  lendReserved(view, pod, node, nullptr);
  auto placement = admit(*p, pod, view);
  if (!placement.ok())
    return 0;
  return scoreHint(numa_scoring_.most_allocated, numa_scoring_.weights, placement->hint,
                   placement->request, placement->nodes);
}

PluginStatus NodeNUMAResourcePlugin::reserve(framework::CycleState& state, const PodInfo& pod,
                                             const NodeInfo& node) {
  const PreState* st = state.read<PreState>(stateKey());
  if (st == nullptr)
    return PluginStatus::error("the NodeNUMAResource plugin's preFilter did not run");
  if (st->request.skip)
    return PluginStatus::success();
  std::lock_guard lock(reserve_mu_);
  auto topology = topologyOf(node);
  auto p = plan(st->request, *topology);
  if (!p.ok())
    return toStatus(p.status());
  if (!p->request.request_cpu_bind && p->numa_policy == NUMATopologyPolicy::kNone)
    return PluginStatus::success();
  NodeCPUView view = viewOf(node, *topology);
  const auto* nominated =
      state.read<common::NominatedReservation>(common::nominatedReservationKey());
  lendReserved(view, pod, node, nominated != nullptr ? &nominated->uid : nullptr);
  // The CPUs the nominated reservation holds for the pod are taken first (takePreferredCPUs).
  const cpuset::CpuSet preferred =
      nominated != nullptr ? view.reservationCPUs(nominated->uid) : cpuset::CpuSet();
  const CPUTopologyDetails& details = topology->details;
  const bool bind = p->request.request_cpu_bind;
  const auto exclusive = p->request.exclusive;
  api::extension::ResourceStatus result;
  cpuset::CpuSet cpus;
  // Takes n CPUs of `available`, those of the nominated reservation first (takePreferredCPUs).
  auto take = [&](const cpuset::CpuSet& available, int n) -> Result<cpuset::CpuSet> {
    const cpuset::CpuSet from_reservation = preferred.intersection(available);
    const int first = std::min<int>(n, static_cast<int>(from_reservation.size()));
    cpuset::CpuSet out;
    if (first > 0) {
      auto taken = takeCPUs(details, 1, from_reservation, view.refs(), first,
                            p->request.bind_policy, exclusive, p->numa_strategy);
      if (!taken.ok())
        return taken.status();
      out = std::move(*taken);
    }
    if (n > first) {
      auto taken = takeCPUs(details, 1, available.difference(out), view.refs(), n - first,
                            p->request.bind_policy, exclusive, p->numa_strategy);
      if (!taken.ok())
        return taken.status();
      out = out.unionWith(*taken);
    }
    return out;
  };
  if (p->numa_policy != NUMATopologyPolicy::kNone) {
    // v1.6: an owner goes on the NUMA nodes its reservation holds when they admit it; under
    // Restricted only there, and within what the reservation holds.
    const auto* reserved_numa =
        nominated != nullptr ? view.reservationNUMA(nominated->uid) : nullptr;
    Result<NUMAPlacement> placement = Status(StatusCode::kNotFound, "");
    if (reserved_numa != nullptr) {
      placement = admit(*p, pod, view, reserved_numa, nominated->restricted);
      if (!placement.ok() && nominated->restricted)
        return toStatus(
            Status(placement.status().code(), "Reservation(s) " + placement.status().message()));
    }
    if (!placement.ok())
      placement = admit(*p, pod, view);
    if (!placement.ok())
      return toStatus(placement.status());
    if (placement->hint.mask != 0) {
      auto split = splitByHint(placement->hint, placement->request, placement->nodes);
      if (!split.ok())
        return toStatus(split.status());
      result.numaNodeResources = std::move(*split);
    }
    if (bind && placement->hint.mask != 0) {
      for (const auto& share : result.numaNodeResources) {
        auto it = share.resources.find(std::string(api::kResourceCPU));
        const int k =
            it == share.resources.end() ? 0 : static_cast<int>(it->second.milliValue() / 1000);
        if (k == 0)
          continue;
        auto taken = take(view.availableOn(share.node), k);
        if (!taken.ok())
          return toStatus(taken.status());
        cpus = cpus.unionWith(*taken);
      }
    } else if (bind) {
      auto taken = take(view.available(), p->request.num_cpus);
      if (!taken.ok())
        return toStatus(taken.status());
      cpus = std::move(*taken);
    }
  } else {
    PluginStatus fit = fits(*p, view);
    if (!fit.isSuccess())
      return fit;
    auto taken = take(view.available(), p->request.num_cpus);
    if (!taken.ok())
      return toStatus(taken.status());
    cpus = std::move(*taken);
  }
  if (bind && (static_cast<int>(cpus.size()) != p->request.num_cpus ||
               (p->required == CPUBindPolicy::kFullPCPUs && !wholeCores(details, cpus))))
    return PluginStatus::unschedulable(kNotEnoughCPUs);
  result.cpuset = cpus.toString();
  framework::AllocationCache::Allocation allocation;
  allocation.pod_id = std::string(framework::AllocationCache::podId(pod));
  allocation.pod_key = pod.key;
  allocation.plugin = std::string(kName);
  allocation.node = node.name();
  allocation.target = std::string(api::extension::toString(exclusive));
  allocation.detail = api::extension::formatResourceStatus(result);
  handle_.allocations().add(std::move(allocation));
  auto taken = std::make_unique<Taken>();
  taken->status = std::move(result);
  state.write(takenKey(), std::move(taken));
  return PluginStatus::success();
}

void NodeNUMAResourcePlugin::unreserve(framework::CycleState& state, const PodInfo& pod,
                                       const std::string& /*node*/) {
  handle_.allocations().release(framework::AllocationCache::podId(pod), kName);
  state.write(takenKey(), nullptr);
}

PluginStatus NodeNUMAResourcePlugin::preBind(framework::CycleState& state, const PodInfo& /*pod*/,
                                             const NodeInfo& /*node*/,
                                             framework::BindPatch& patch) {
  const Taken* taken = state.read<Taken>(takenKey());
  if (taken == nullptr)
    return PluginStatus::skip();
  patch.annotations[std::string(api::kAnnotationResourceStatus)] =
      api::extension::formatResourceStatus(taken->status);
  return PluginStatus::success();
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& handle) {
  auto decoded = decodeArgs(args, std::string(kName));
  if (!decoded.ok())
    return decoded.status();
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<NodeNUMAResourcePlugin>(handle, std::move(*decoded)));
}

}  // namespace koord::extender::plugins::node_numa_resource
