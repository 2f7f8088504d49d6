// GPU discovery for koord-agent: the node's NVIDIA GPUs as NVML reports them, placed on the
// host's NUMA topology through sysfs. This is what koordlet reports in the Device object
// (type gpu: minor, UUID, memory, health, topology).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/devices/nvml.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/common/result.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::devices {

struct GpuDevice {
  uint32_t index = 0;                         // NVML index
  std::string model;                          // nvmlDeviceGetName: "NVIDIA H200"
  std::string uuid;                           // "GPU-4a27d843-..."
  int32_t minor = -1;                         // /dev/nvidia<minor>; -1 when unknown
  uint64_t memory_total_bytes = 0;            // frame-buffer memory; 0 when unknown
  std::string driver_version;                 // the node's driver, "580.159.04"
  bool healthy = false;                       // handle, identity, memory and PCI queries answered
  std::string unhealthy_reason;               // the first failed query's error; empty when healthy
  std::string pci_bus_id;                     // sysfs form "0000:00:06.0"; empty when unknown
  int32_t numa_node = -1;                     // <bus id>/numa_node; -1 when unknown (missing or -1)
  cpuset::CpuSet local_cpus;                  // <bus id>/local_cpulist; empty when unknown
  std::optional<GpuUtilization> utilization;  // absent where NVML does not report it

  friend bool operator==(const GpuDevice&, const GpuDevice&) = default;
};

// The GPUs `nvml` reports, sorted by index. A null `nvml` (no NVML library on the node) gives an
// empty list. Calls nvml->init() (idempotent) and leaves NVML initialised for the next call: the
// owner of `nvml` shuts it down by destroying it.
//
// For each index: the handle, name, UUID, minor number, memory and PCI info are queried; the
// first of them that fails marks the device unhealthy (with that error in unhealthy_reason) and
// leaves its field unknown; the remaining queries still run (none after a failed handle), so one
// broken GPU never hides the others or the rest of its own fields. Utilization is optional and
// never affects health. With a PCI bus id, the device's
// sysfs folder <sys_root>/bus/pci/devices/<bus id>/ gives numa_node and local_cpulist; a missing
// file (a VM without NUMA emulation, an older kernel) leaves them unknown.
//
// Errors: NVML's own error from init(), driverVersion() or deviceCount() (the node's NVML is
// unusable); the file-named error of sysfs_file.hpp when numa_node or local_cpulist exists but
// cannot be read or parsed. Not thread-safe for one `nvml` (see Nvml).
[[nodiscard]] Result<std::vector<GpuDevice>> discoverGpus(Nvml* nvml,
                                                          const system::SysPaths& paths);

// NVML's PCI bus id ("00000000:3B:00.0": 8-digit domain, upper-case) in the form sysfs names
// the device folder ("0000:3b:00.0": at least 4 domain digits, lower-case). The sysfs form is
// accepted and returned unchanged. kInvalidArgument, naming the id, for anything that is not
// <domain>:<bus>:<device>.<function> in hex (1-8, 2, 2 and 1 digits).
[[nodiscard]] Result<std::string> sysfsPciBusId(std::string_view nvml_bus_id);

}  // namespace koord::agent::devices
