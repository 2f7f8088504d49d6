#include "extender/plugins/node_numa_resource/cpu_topology_details.hpp"

#include <cstdint>
#include <set>

namespace koord::extender::plugins::node_numa_resource {

CPUTopologyDetails::CPUTopologyDetails(const std::vector<CPUInfo>& cpus) {
  for (const CPUInfo& info : cpus) {
    details_[info.cpu] = info;
  }
  std::set<int> cores;
  std::set<int> nodes;
  std::set<int> sockets;
  for (const auto& [cpu, info] : details_) {
    cores.insert(info.core);
    nodes.insert(info.node);
    sockets.insert(info.socket);
  }
  numCores_ = static_cast<int>(cores.size());
  numNodes_ = static_cast<int>(nodes.size());
  numSockets_ = static_cast<int>(sockets.size());
}

CPUTopologyDetails CPUTopologyDetails::fromNRT(const api::extension::CPUTopology& topology) {
  std::vector<CPUInfo> cpus;
  cpus.reserve(topology.detail.size());
  for (const api::extension::CPUInfo& info : topology.detail) {
    cpus.push_back(CPUInfo{.cpu = info.id,
                           .core = static_cast<int>((static_cast<uint32_t>(info.socket) << 16) |
                                                    static_cast<uint32_t>(info.core)),
                           .node = info.node,
                           .socket = info.socket});
  }
  return CPUTopologyDetails(cpus);
}

const CPUInfo* CPUTopologyDetails::find(int cpu) const {
  auto it = details_.find(cpu);
  return it == details_.end() ? nullptr : &it->second;
}

cpuset::CpuSet CPUTopologyDetails::cpus() const {
  std::set<int> out;
  for (const auto& [cpu, info] : details_) {
    out.insert(cpu);
  }
  return cpuset::CpuSet(std::move(out));
}

cpuset::CpuSet CPUTopologyDetails::cpusInSocket(int socket) const {
  std::set<int> out;
  for (const auto& [cpu, info] : details_) {
    if (info.socket == socket) {
      out.insert(cpu);
    }
  }
  return cpuset::CpuSet(std::move(out));
}

}  // namespace koord::extender::plugins::node_numa_resource
