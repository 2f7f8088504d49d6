#include "extender/plugins/node_numa_resource/node_topology.hpp"

#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "extender/plugins/node_numa_resource/numa_policy.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_numa_resource {

namespace topology_impl {

const std::string* findKey(const std::map<std::string, std::string>& map, std::string_view key) {
  auto it = map.find(std::string(key));
  return it == map.end() ? nullptr : &it->second;
}

// The node's own annotation, else the copy koord-agent keeps on the NRT.
const std::string* nodeOrNRT(const api::core::Node& node,
                             const api::topology::NodeResourceTopology* nrt, std::string_view key) {
  if (const std::string* v = findKey(node.metadata.annotations, key))
    return v;
  return nrt != nullptr ? findKey(nrt->metadata.annotations, key) : nullptr;
}

// Parses a Linux CPU list found in `what`; the error names it.
Result<cpuset::CpuSet> cpuList(std::string_view what, const std::string& text) {
  auto cpus = cpuset::CpuSet::parse(text);
  if (!cpus.ok())
    return Status(cpus.status().code(),
                  "malformed " + std::string(what) + ": " + cpus.status().message());
  return cpus;
}

// The NUMA node id of a zone named "node-<id>"; -1 when the name is not of that form.
int zoneNode(const std::string& name) {
  constexpr std::string_view kPrefix = "node-";
  if (name.size() <= kPrefix.size() || name.compare(0, kPrefix.size(), kPrefix) != 0 ||
      name.size() > kPrefix.size() + 4)
    return -1;
  int id = 0;
  for (size_t i = kPrefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9')
      return -1;
    id = id * 10 + (name[i] - '0');
  }
  return id;
}

// Fills everything but `invalid`; returns what is wrong, "" when nothing is.
std::string fill(NodeTopology& t, const api::core::Node& node,
                 const api::topology::NodeResourceTopology* nrt) {
  const auto& labels = node.metadata.labels;
  if (const std::string* s = findKey(labels, api::kLabelNodeNUMAAllocateStrategy)) {
    if (*s == api::kNUMAMostAllocated)
      t.numa_strategy = NUMAAllocateStrategy::kMostAllocated;
    else if (*s == api::kNUMALeastAllocated)
      t.numa_strategy = NUMAAllocateStrategy::kLeastAllocated;
  }
  if (nrt == nullptr) {
    t.bind_policy = api::extension::nodeCPUBindPolicyOf(labels, std::nullopt);
    t.numa_policy = nodeNUMAPolicy(labels, {});
    return "the node has no NodeResourceTopology (koord-agent reports it)";
  }
  const auto& nrt_annotations = nrt->metadata.annotations;

  std::optional<api::extension::KubeletCPUManagerPolicy> kubelet;
  if (const std::string* v = findKey(nrt_annotations, api::kAnnotationKubeletCPUManagerPolicy)) {
    auto parsed = api::extension::parseKubeletCPUManagerPolicy(*v);
    if (!parsed.ok())
      return parsed.status().message();
    kubelet = std::move(*parsed);
  }
  t.bind_policy = api::extension::nodeCPUBindPolicyOf(labels, kubelet);
  t.numa_policy = nodeNUMAPolicy(labels, nrt->topologyPolicies);

  const std::string* topology_text = findKey(nrt_annotations, api::kAnnotationNodeCPUTopology);
  if (topology_text == nullptr)
    return "the NodeResourceTopology has no " + std::string(api::kAnnotationNodeCPUTopology);
  auto topology = api::extension::parseCPUTopology(*topology_text);
  if (!topology.ok())
    return topology.status().message();
  std::set<int> seen;
  for (const auto& cpu : topology->detail) {
    if (cpu.id < 0 || cpu.id >= cpuset::CpuSet::kMaxCpus || cpu.core < 0 || cpu.socket < 0 ||
        cpu.socket > 0xffff || cpu.core > 0xffff || cpu.node < 0 || cpu.node > 1023)
      return std::string(api::kAnnotationNodeCPUTopology) + ": CPU " + std::to_string(cpu.id) +
             " has an id, core, socket or node out of range";
    if (!seen.insert(cpu.id).second)
      return std::string(api::kAnnotationNodeCPUTopology) + ": CPU " + std::to_string(cpu.id) +
             " is listed twice";
  }
  t.details = CPUTopologyDetails::fromNRT(*topology);
  if (!t.details.valid())
    return std::string(api::kAnnotationNodeCPUTopology) + " lists no CPUs";
  std::map<int, std::vector<int>> by_core;
  std::map<int, CpuMask> by_node;
  for (const auto& [cpu, info] : t.details.details()) {
    t.all.set(cpu);
    by_core[info.core].push_back(cpu);
    by_node[info.node].set(cpu);
  }
  for (auto& [core, cpus] : by_core)
    t.cores.push_back(std::move(cpus));

  // Zones: each "node-<id>" zone must be a NUMA node of the topology, and every NUMA node of the
  // topology must have its zone when the NRT lists zones at all.
  std::map<int, NUMAZone> zones;
  for (const auto& zone : nrt->zones) {
    if (zone.type != api::topology::kZoneTypeNode)
      continue;
    const int id = zoneNode(zone.name);
    if (id < 0)
      return "zone '" + zone.name + "' is not named node-<id>";
    auto cpus = by_node.find(id);
    if (cpus == by_node.end())
      return "zone " + zone.name + " has no CPUs in " +
             std::string(api::kAnnotationNodeCPUTopology);
    NUMAZone z;
    z.node = id;
    z.cpus = cpus->second;
    for (const auto& r : zone.resources) {
      if (r.name == api::kResourceCPU) {
        const int64_t count = cpus->second.count();
        if (r.capacity.milliValue() != count * 1000)
          return "zone " + zone.name + " has cpu capacity " + r.capacity.toString() + " but " +
                 std::string(api::kAnnotationNodeCPUTopology) + " puts " + std::to_string(count) +
                 " CPUs on NUMA node " + std::to_string(id);
        z.allocatable.milli_cpu = r.allocatable.milliValue();
      } else {
        z.allocatable.set(r.name, r.allocatable.value());
      }
    }
    zones[id] = std::move(z);
  }
  if (!zones.empty()) {
    for (const auto& [id, cpus] : by_node) {
      if (zones.count(id) == 0)
        return "NUMA node " + std::to_string(id) + " of " +
               std::string(api::kAnnotationNodeCPUTopology) + " has no zone node-" +
               std::to_string(id);
    }
  }
  for (auto& [id, zone] : zones)
    t.zones.push_back(std::move(zone));

  // Reserved CPUs.
  if (kubelet && !kubelet->reservedCPUs.empty()) {
    auto cpus = cpuList(std::string(api::kAnnotationKubeletCPUManagerPolicy) + " reservedCPUs",
                        kubelet->reservedCPUs);
    if (!cpus.ok())
      return cpus.status().message();
    t.reserved.add(CpuMask(*cpus));
  }
  if (const std::string* v = findKey(nrt_annotations, api::kAnnotationNodeCPUAllocs)) {
    auto allocs = api::extension::parsePodCPUAllocs(*v);
    if (!allocs.ok())
      return allocs.status().message();
    for (const auto& alloc : *allocs) {
      if (!alloc.managedByKubelet)
        continue;
      auto cpus = cpuList(
          std::string(api::kAnnotationNodeCPUAllocs) + " of " + alloc.namespace_ + "/" + alloc.name,
          alloc.cpuset);
      if (!cpus.ok())
        return cpus.status().message();
      t.reserved.add(CpuMask(*cpus));
      t.kubelet_pinned_pods.push_back(alloc.namespace_ + "/" + alloc.name);
    }
  }
  if (const std::string* v = nodeOrNRT(node, nrt, api::kAnnotationNodeReservation)) {
    auto reservation = api::extension::parseNodeReservation(*v);
    if (!reservation.ok())
      return reservation.status().message();
    if (!reservation->reservedCPUs.empty()) {
      auto cpus = cpuList(std::string(api::kAnnotationNodeReservation) + " reservedCPUs",
                          reservation->reservedCPUs);
      if (!cpus.ok())
        return cpus.status().message();
      t.reserved.add(CpuMask(*cpus));
    }
  }
  if (const std::string* v = nodeOrNRT(node, nrt, api::kAnnotationNodeSystemQOSResource)) {
    auto system = api::extension::parseSystemQOSResource(*v);
    if (!system.ok())
      return system.status().message();
    if (api::extension::isCPUSetExclusive(*system) && !system->cpuset.empty()) {
      auto cpus =
          cpuList(std::string(api::kAnnotationNodeSystemQOSResource) + " cpuset", system->cpuset);
      if (!cpus.ok())
        return cpus.status().message();
      t.reserved.add(CpuMask(*cpus));
    }
  }
  t.reserved.keep(t.all);
  t.usable = t.all;
  t.usable.remove(t.reserved);
  return "";
}

}  // namespace topology_impl

using namespace topology_impl;  // NOLINT(google-build-using-namespace)

std::shared_ptr<const NodeTopology> NodeTopology::build(
    const api::core::Node& node, const api::topology::NodeResourceTopology* nrt) {
  auto t = std::make_shared<NodeTopology>();
  std::string problem = fill(*t, node, nrt);
  if (!problem.empty())
    t->invalid = std::string(kErrInvalidCPUTopology) + ": " + problem;
  return t;
}

}  // namespace koord::extender::plugins::node_numa_resource
