// Cgroup layout discovery: the cgroup version, where each subsystem's hierarchy is mounted, how the
// kubelet names its cgroups (driver and cgroup root, hence the kubepods folder) and whether the
// kernel offers CFS burst; every host path under the injected SysPaths::cgroup_root.
//
// All functions are stateless and thread-safe; they read the tree each time they are called
// (discovery runs once at agent start).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/system/cgroup_types.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::system {

// Where kubeadm and most distributions put the kubelet's configuration file.
inline constexpr std::string_view kDefaultKubeletConfigPath = "/var/lib/kubelet/config.yaml";

// "v1" or "v2".
[[nodiscard]] std::string_view toString(CgroupVersion version);

// The kubelet's word for the driver: "cgroupfs" or "systemd".
[[nodiscard]] std::string_view toString(CgroupDriver driver);

// The kubelet's words "cgroupfs" and "systemd" (surrounding whitespace ignored, case-sensitive as
// in the kubelet). Anything else is kInvalidArgument
// "failed to parse cgroup driver '<text>': expected 'cgroupfs' or 'systemd'".
[[nodiscard]] Result<CgroupDriver> parseCgroupDriver(std::string_view text);

// V2 when <cgroup_root>/cgroup.controllers exists (cgroup_root is the unified mount itself); V1
// when <cgroup_root> holds a `cpu` (or `cpu,cpuacct`) folder and a `cpuset` folder. A hybrid host
// (v1 controllers plus a controller-less `unified/` v2 mount) is V1. Neither: kNotFound
// "failed to detect cgroup version of '<cgroup_root>': ..." saying what was looked for.
[[nodiscard]] Result<CgroupVersion> detectCgroupVersion(const SysPaths& paths);

// The folder names distributions mount a v1 controller's hierarchy under, canonical first: cpu:
// `cpu`, `cpu,cpuacct`, `cpuacct,cpu`; cpuacct: `cpuacct`, `cpu,cpuacct`, `cpuacct,cpu`; io and
// blkio: `blkio`; net_cls / net_prio: the name, then `net_cls,net_prio`, `net_prio,net_cls`; any
// other: its own name. The one list discovery, the metric readers and the cgroup writers probe.
[[nodiscard]] std::vector<std::string> v1SubsystemMounts(std::string_view subsystem);

// The folder holding `subsystem`'s hierarchy (cpu, cpuacct, cpuset, memory, blkio or io, pids, or
// any other v1 controller name). Under V2 this is always <cgroup_root>. Under V1 it is the first
// existing folder among the names distributions mount the controller under: cpu: `cpu`,
// `cpu,cpuacct`, `cpuacct,cpu`; cpuacct: `cpuacct`, `cpu,cpuacct`, `cpuacct,cpu`; io and blkio:
// `blkio`; net_cls / net_prio: the name, then `net_cls,net_prio`; any other: its own name. When
// none exists the first (canonical) name is returned, so callers get a path naming what is missing.
[[nodiscard]] std::filesystem::path subsystemRoot(const SysPaths& paths, CgroupVersion version,
                                                  std::string_view subsystem);

// The kubelet's pod-level parent cgroup, relative to a subsystem root, for its --cgroup-root
// (absolute or not; "/" and "" are the top) and driver, computed as the kubelet computes it:
//   cgroupfs: "/" -> "kubepods", "/custom" -> "custom/kubepods";
//   systemd:  "/" -> "kubepods.slice", "/custom" -> "custom.slice/custom-kubepods.slice"
//             ('-' inside a component becomes '_', as systemd slice names require).
// A root with a "." or ".." component (it would leave the subsystem root) is kInvalidArgument
// "failed to parse cgroup root '<root>': '..' is not a cgroup name".
[[nodiscard]] Result<std::filesystem::path> kubepodsPath(CgroupDriver driver,
                                                         std::string_view cgroup_root);

struct CgroupLayout {
  CgroupVersion version = CgroupVersion::kV1;
  CgroupDriver driver = CgroupDriver::kCgroupfs;
  // The kubelet's cgroupRoot, normalised: "/" or "/a/b" (no trailing slash).
  std::string cgroup_root = "/";
  // Relative to a subsystem root: "kubepods", "kubepods.slice", "custom/kubepods", ...
  std::filesystem::path kubepods = {};
  // Whether the kernel offers CFS burst (see detectCfsBurst).
  bool cfs_burst = false;

  friend bool operator==(const CgroupLayout&, const CgroupLayout&) = default;
};

struct CgroupLayoutOptions {
  // The kubelet's --cgroup-driver / cgroupDriver, when the operator states it.
  std::optional<CgroupDriver> driver = std::nullopt;
  // The kubelet's --cgroup-root / cgroupRoot, when the operator states it.
  std::optional<std::string> cgroup_root = std::nullopt;
  // The kubelet's configuration file, as this process sees it (in a container, the host file's
  // mount point). Empty: no file is read. A file that does not exist is skipped.
  std::filesystem::path kubelet_config = std::filesystem::path(kDefaultKubeletConfigPath);
};

// CFS burst support. V1: `cpu.cfs_burst_us` exists in the cpu subsystem's kubepods folder or,
// when that folder is absent, in the cpu subsystem root. V2 (the root cgroup has no cpu.max):
// `cpu.max.burst` exists in the kubepods folder or, when that folder is absent, in any direct
// child folder of <cgroup_root>. A tree that cannot be read is "no burst".
[[nodiscard]] bool detectCfsBurst(const SysPaths& paths, const CgroupLayout& layout);

// The node's cgroup layout. version: detectCgroupVersion(). driver and cgroup_root, each with
// this precedence: the option > the kubelet config file's top-level `cgroupDriver:` /
// `cgroupRoot:` key > for the driver, probing the tree, for the root, "/". Probing looks in the
// cpu subsystem root (V1) or <cgroup_root> (V2) for the kubepods folder of each driver
// (kubepodsPath()): exactly one present picks its driver. kubepods: kubepodsPath(driver, root);
// it need not exist yet. cfs_burst: detectCfsBurst(). The config file is read only when an option
// is unset; the first YAML document counts, other keys are ignored.
//
// Errors: detectCgroupVersion()'s; a kubelet config file that exists but cannot be read or parsed,
// or whose cgroupDriver / cgroupRoot is not a valid string (codes of koord::config::loadYamlFile,
// or kInvalidArgument naming the file); an invalid cgroup root (kInvalidArgument); probing that
// finds neither kubepods folder (kNotFound) or both (kFailedPrecondition), with a message naming
// both folders looked for and a hint to set the cgroup driver option.
[[nodiscard]] Result<CgroupLayout> discoverCgroupLayout(const SysPaths& paths,
                                                        const CgroupLayoutOptions& options);

}  // namespace koord::agent::system
