// The CPU topology Koordinator's NodeNUMAResource plugin works on (cpu_topology.go CPUTopology):
// each logical CPU with its core, NUMA node and socket, plus the per-core/node/socket sizes that
// takeCPUs uses. Pure value type, no I/O.
//
// fromNRT() builds it from the NodeResourceTopology annotation node.koordinator.sh/cpu-topology the
// way topology_options.go does: the core id becomes socket<<16 | core so that core ids are unique
// across sockets. The plain constructor keeps the ids it is given (Koordinator's tests do that).
#pragma once

#include <map>
#include <vector>

#include "koord/api/extension/cpu_topology.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_numa_resource {

struct CPUInfo {
  int cpu = 0;
  int core = 0;
  int node = 0;
  int socket = 0;

  bool operator==(const CPUInfo&) const = default;
};

class CPUTopologyDetails {
 public:
  CPUTopologyDetails() = default;
  // A CPU listed twice keeps its last entry.
  explicit CPUTopologyDetails(const std::vector<CPUInfo>& cpus);
  [[nodiscard]] static CPUTopologyDetails fromNRT(const api::extension::CPUTopology& topology);

  [[nodiscard]] const std::map<int, CPUInfo>& details() const { return details_; }
  // nullptr when the CPU is not in the topology.
  [[nodiscard]] const CPUInfo* find(int cpu) const;

  [[nodiscard]] int numCPUs() const { return static_cast<int>(details_.size()); }
  [[nodiscard]] int numCores() const { return numCores_; }
  [[nodiscard]] int numNodes() const { return numNodes_; }
  [[nodiscard]] int numSockets() const { return numSockets_; }
  // NumCPUs / NumCores etc., 0 when the divisor is 0 (as in Koordinator).
  [[nodiscard]] int cpusPerCore() const { return numCores_ == 0 ? 0 : numCPUs() / numCores_; }
  [[nodiscard]] int cpusPerNode() const { return numNodes_ == 0 ? 0 : numCPUs() / numNodes_; }
  [[nodiscard]] int cpusPerSocket() const { return numSockets_ == 0 ? 0 : numCPUs() / numSockets_; }
  // Koordinator's IsValid: at least one CPU, core, node and socket.
  [[nodiscard]] bool valid() const {
    return numCPUs() > 0 && numCores_ > 0 && numNodes_ > 0 && numSockets_ > 0;
  }

  [[nodiscard]] cpuset::CpuSet cpus() const;
  [[nodiscard]] cpuset::CpuSet cpusInSocket(int socket) const;

 private:
  std::map<int, CPUInfo> details_;
  int numCores_ = 0;
  int numNodes_ = 0;
  int numSockets_ = 0;
};

}  // namespace koord::extender::plugins::node_numa_resource
