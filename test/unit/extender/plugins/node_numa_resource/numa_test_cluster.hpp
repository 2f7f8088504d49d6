// Builders for the NodeNUMAResource tests: NodeResourceTopologies of SMT machines laid out as Linux
// numbers them (thread siblings N CPUs apart), LSR/LS pods with their annotations, and a cluster
// (ClusterState with the plugin's node data, a mutable NRT lister, a Handle) to run the plugin in.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/handle.hpp"
#include "extender/plugins/common/nominated_reservation.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/plugins/node_numa_resource/cpu_allocations.hpp"
#include "extender/plugins/node_numa_resource/node_numa_resource.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/api/well_known.hpp"
#include "test/unit/extender/plugins/plugin_test_util.hpp"

namespace koord::extender::testing {

struct MachineShape {
  int sockets = 2;
  int cores_per_socket = 8;
  int threads = 2;
  int numa_per_socket = 1;
  int64_t memory_gib_per_numa = 64;
};

// CPU id = thread * (sockets * cores) + socket * cores + core; NUMA node = socket * numa_per_socket
// + core / (cores / numa_per_socket).
inline std::shared_ptr<api::topology::NodeResourceTopology> makeNRT(const std::string& node,
                                                                    const MachineShape& m = {}) {
  auto nrt = std::make_shared<api::topology::NodeResourceTopology>();
  nrt->metadata.name = node;
  nrt->topologyPolicies = {"None"};
  api::extension::CPUTopology topology;
  std::map<int, int> per_numa;
  const int cores_per_numa = m.cores_per_socket / m.numa_per_socket;
  for (int t = 0; t < m.threads; ++t) {
    for (int s = 0; s < m.sockets; ++s) {
      for (int c = 0; c < m.cores_per_socket; ++c) {
        api::extension::CPUInfo cpu;
        cpu.id = t * m.sockets * m.cores_per_socket + s * m.cores_per_socket + c;
        cpu.core = c;
        cpu.socket = s;
        cpu.node = s * m.numa_per_socket + c / cores_per_numa;
        ++per_numa[cpu.node];
        topology.detail.push_back(cpu);
      }
    }
  }
  nrt->metadata.annotations[std::string(api::kAnnotationNodeCPUTopology)] =
      api::extension::formatCPUTopology(topology);
  for (const auto& [id, count] : per_numa) {
    api::topology::Zone zone;
    zone.name = "node-" + std::to_string(id);
    zone.type = "Node";
    api::topology::ResourceInfo cpu;
    cpu.name = "cpu";
    cpu.capacity = resource::Quantity::fromInt(count);
    cpu.allocatable = cpu.capacity;
    cpu.available = cpu.capacity;
    api::topology::ResourceInfo memory;
    memory.name = "memory";
    memory.capacity = *resource::Quantity::parse(std::to_string(m.memory_gib_per_numa) + "Gi");
    memory.allocatable = memory.capacity;
    memory.available = memory.capacity;
    zone.resources = {cpu, memory};
    nrt->zones.push_back(std::move(zone));
  }
  return nrt;
}

inline std::shared_ptr<api::core::Pod> lsrPod(const std::string& name, const std::string& cpu,
                                              const std::string& resource_spec = "",
                                              const std::string& numa_spec = "") {
  auto pod = makePod(
      name, {{"cpu", cpu}, {"memory", "1Gi"}},
      {{"koordinator.sh/qosClass", "LSR"}, {"koordinator.sh/priority-class", "koord-prod"}});
  if (!resource_spec.empty())
    pod->metadata.annotations[std::string(api::kAnnotationResourceSpec)] = resource_spec;
  if (!numa_spec.empty())
    pod->metadata.annotations[std::string(api::kAnnotationNUMATopologySpec)] = numa_spec;
  return pod;
}

inline std::shared_ptr<api::core::Pod> lsPod(const std::string& name, const std::string& cpu) {
  return makePod(
      name, {{"cpu", cpu}, {"memory", "1Gi"}},
      {{"koordinator.sh/qosClass", "LS"}, {"koordinator.sh/priority-class", "koord-prod"}});
}

// NRTs by node name; set() replaces one, as the informer would.
class NRTLister final : public framework::Lister<api::topology::NodeResourceTopology> {
 public:
  void set(std::shared_ptr<const api::topology::NodeResourceTopology> nrt) {
    std::lock_guard lock(mu_);
    by_name_[nrt->metadata.name] = std::move(nrt);
    ++changes_;
  }
  uint64_t changes() const override {
    std::lock_guard lock(mu_);
    return changes_;
  }
  std::shared_ptr<const api::topology::NodeResourceTopology> get(
      const std::string& key) const override {
    std::lock_guard lock(mu_);
    auto it = by_name_.find(key);
    return it == by_name_.end() ? nullptr : it->second;
  }
  std::vector<std::shared_ptr<const api::topology::NodeResourceTopology>> list() const override {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<const api::topology::NodeResourceTopology>> out;
    for (const auto& [name, nrt] : by_name_)
      out.push_back(nrt);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const api::topology::NodeResourceTopology>> by_name_;
  uint64_t changes_ = 0;
};

// A cluster with the plugin: nodes, their NRTs and pods go in; the plugin runs on it.
class NUMACluster {
 public:
  explicit NUMACluster(const api::Json& args = api::Json::object()) {
    objects_.set<api::topology::NodeResourceTopology>(lister_);
    auto plugin = plugins::node_numa_resource::create(args, handle_);
    EXPECT_TRUE(plugin.ok()) << plugin.status();
    plugin_ = std::move(*plugin);
    typed_ = dynamic_cast<plugins::node_numa_resource::NodeNUMAResourcePlugin*>(plugin_.get());
    EXPECT_NE(typed_, nullptr);
  }

  // A node with `shape`'s CPUs as allocatable cpu, and its NRT (unless `with_nrt` is false).
  void addNode(const std::string& name, const MachineShape& shape = {},
               const std::map<std::string, std::string>& labels = {}, bool with_nrt = true) {
    const int cpus = shape.sockets * shape.cores_per_socket * shape.threads;
    auto node = makeNode(
        name,
        {{"cpu", std::to_string(cpus)},
         {"memory",
          std::to_string(shape.memory_gib_per_numa * shape.sockets * shape.numa_per_socket) + "Gi"},
         {"pods", "110"}});
    node->metadata.labels = labels;
    state_.upsertNode(node);
    if (with_nrt)
      lister_->set(makeNRT(name, shape));
  }
  void setNRT(std::shared_ptr<const api::topology::NodeResourceTopology> nrt) {
    lister_->set(std::move(nrt));
  }
  // A pod bound to `node`, as the informer delivers it.
  void addBoundPod(std::shared_ptr<api::core::Pod> pod, const std::string& node) {
    pod->spec.nodeName = node;
    pod->status.phase = "Running";
    EXPECT_TRUE(state_.upsertPod(std::move(pod)).isOk());
  }

  // preFilter then filter: preFilter's status when it is not a success (kSkip: the plugin has
  // nothing to say about the pod anywhere).
  framework::PluginStatus filter(const std::shared_ptr<api::core::Pod>& pod,
                                 const std::string& node) {
    framework::CycleState cycle;
    auto info = podInfo(pod);
    auto pre = typed_->preFilter(cycle, *info);
    if (!pre.isSuccess())
      return pre;
    return typed_->filter(cycle, *info, *state_.nodeInfo(node));
  }

  // preFilter, reserve and preBind on `node`: the resource-status written ("" when none), or the
  // failure's message prefixed with "error: ". `nominated`: the UID of the reservation the
  // Reservation plugin's reserve() chose for the pod ("" for none), `restricted` its
  // allocatePolicy being Restricted.
  std::string bind(const std::shared_ptr<api::core::Pod>& pod, const std::string& node,
                   const std::string& nominated = "", bool restricted = false) {
    framework::CycleState cycle;
    if (!nominated.empty()) {
      auto chosen = std::make_unique<plugins::common::NominatedReservation>();
      chosen->uid = nominated;
      chosen->restricted = restricted;
      cycle.write(plugins::common::nominatedReservationKey(), std::move(chosen));
    }
    auto info = podInfo(pod);
    auto pre = typed_->preFilter(cycle, *info);
    if (pre.isRejected())
      return "error: " + pre.message();
    auto reserved = typed_->reserve(cycle, *info, *state_.nodeInfo(node));
    if (!reserved.isSuccess())
      return "error: " + reserved.message();
    framework::BindPatch patch;
    (void)typed_->preBind(cycle, *info, *state_.nodeInfo(node), patch);
    auto it = patch.annotations.find(std::string(api::kAnnotationResourceStatus));
    return it == patch.annotations.end() ? "" : it->second;
  }

  // The cpuset of a bind's resource-status ("" when none, the error text when it failed).
  std::string bindCPUs(const std::shared_ptr<api::core::Pod>& pod, const std::string& node,
                       const std::string& nominated = "") {
    std::string written = bind(pod, node, nominated);
    if (written.empty() || written.rfind("error: ", 0) == 0)
      return written;
    auto status = api::extension::parseResourceStatus(written);
    EXPECT_TRUE(status.ok()) << written;
    return status.ok() ? status->cpuset : "";
  }

  int64_t score(const std::shared_ptr<api::core::Pod>& pod, const std::string& node) {
    framework::CycleState cycle;
    auto info = podInfo(pod);
    EXPECT_TRUE(typed_->preFilter(cycle, *info).isSuccess());
    EXPECT_TRUE(typed_->scores(cycle, *info));
    return typed_->score(cycle, *info, *state_.nodeInfo(node));
  }

  plugins::node_numa_resource::NodeNUMAResourcePlugin& plugin() { return *typed_; }
  plugins::common::ReservationState& reservations() {
    return plugins::common::ReservationState::install(state_);
  }
  framework::ClusterState& state() { return state_; }
  framework::AllocationCache& allocations() { return allocations_; }

 private:
  FakeClock clock_;
  framework::AllocationCache allocations_{clock_};
  framework::ClusterState state_{clock_, std::chrono::seconds(30), &allocations_};
  plugins::node_numa_resource::CPUAllocationSource& source_ =
      plugins::node_numa_resource::CPUAllocationSource::install(state_);
  plugins::node_numa_resource::NodeLabelPolicies& label_policies_ =
      plugins::node_numa_resource::NodeLabelPolicies::install(state_);
  std::shared_ptr<NRTLister> lister_ = std::make_shared<NRTLister>();
  framework::ObjectStore objects_;
  framework::BasicHandle handle_{state_, clock_, log::Logger{}, &objects_, &allocations_};
  std::unique_ptr<framework::Plugin> plugin_;
  plugins::node_numa_resource::NodeNUMAResourcePlugin* typed_ = nullptr;
};

}  // namespace koord::extender::testing
