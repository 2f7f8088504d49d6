// Resctrl (Intel RDT / AMD PQoS) discovery: what the CPU advertises in /proc/cpuinfo and what the
// mounted resctrl filesystem offers, under the injected SysPaths roots.
#pragma once

#include <cstdint>
#include <string>

#include "agent/system/sys_paths.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::system {

struct ResctrlSupport {
  // "Intel" (GenuineIntel), "AMD" (AuthenticAMD), else the raw vendor_id ("" when cpuinfo has
  // none, as on arm64).
  std::string vendor = {};
  bool cpu_cat_l3 = false;  // the `cat_l3` CPU flag (L3 cache allocation; Intel and AMD)
  bool cpu_mba = false;     // the `mba` CPU flag (memory bandwidth allocation)
  bool cpu_rdt = false;     // the `rdt_a` CPU flag (Intel RDT allocation; AMD may lack it)
  bool mounted = false;     // <resctrl_root>/schemata exists
  // From the mounted filesystem; 0 / "" when not mounted or when the file is absent.
  int64_t num_closids = 0;        // info/L3/num_closids
  std::string l3_cbm_mask = {};   // info/L3/cbm_mask, e.g. "7ff"
  int64_t mba_min_bandwidth = 0;  // info/MB/min_bandwidth (percent on Intel)

  // Resctrl can be used for QoS: it is mounted and the CPU offers L3 allocation or MBA.
  [[nodiscard]] bool supported() const { return mounted && (cpu_cat_l3 || cpu_mba); }

  friend bool operator==(const ResctrlSupport&, const ResctrlSupport&) = default;
};

// Reads <proc_root>/cpuinfo (vendor_id and flags of the first processor; flags are matched as
// whole words) and, when <resctrl_root>/schemata exists, info/L3/num_closids, info/L3/cbm_mask and
// info/MB/min_bandwidth, each optional.
//
// Errors name the file: cpuinfo's read errors (kNotFound when it is missing), and, for an info file
// that exists, its read errors or kInvalidArgument when a number does not parse. A resctrl root
// that is absent or not mounted is not an error (mounted is false). Stateless; thread-safe.
[[nodiscard]] Result<ResctrlSupport> discoverResctrl(const SysPaths& paths);

}  // namespace koord::agent::system
