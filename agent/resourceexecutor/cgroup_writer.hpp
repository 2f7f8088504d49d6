// CgroupWriter: writes and reads one logical resource (cgroup_resource.hpp) of one cgroup
// folder, hiding whether the node runs cgroup v1 or v2. Only the resource executor calls it;
// no other agent code writes kernel files.
//
// `dir` is always relative to a hierarchy root (cgroup_paths.hpp): the writer joins it under the
// injected SysPaths::cgroup_root (v1: `<cgroup_root>/<subsystem>/<dir>`, v2:
// `<cgroup_root>/<dir>`). The writer does not confine `dir`; the executor does.
//
// Errors, for every implementation:
//   kUnimplemented    "failed to <find|write|read> '<resource>': not supported on cgroup v1"
//   kInvalidArgument  "failed to parse <resource> value '<text>': <rule>" (canonicalValue()), or
//                     the kernel rejected the value (EINVAL, ERANGE)
//   kNotFound         the folder or file does not exist (the cgroup is gone)
//   kPermissionDenied EACCES/EPERM: not root, or a cgroup v1 cpuset that is not a subset of its
//                     parent's
//   kFailedPrecondition EBUSY: a cgroup v1 cpuset parent would no longer hold a child's CPUs
//   kUnavailable      any other I/O error
// I/O errors name the host file: "failed to write '<file>': <strerror> (value '<value>')" or
// "failed to read '<file>': <cause>" (sysfs_file.hpp).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "agent/resourceexecutor/cgroup_resource.hpp"
#include "agent/system/cgroup_types.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor {

class CgroupWriter {
 public:
  virtual ~CgroupWriter() = default;

  [[nodiscard]] virtual system::CgroupVersion version() const = 0;

  // The name of the file that holds `resource` ("cpu.shares", "cpu.max", ...); kUnimplemented
  // when this cgroup version has none. No I/O.
  [[nodiscard]] virtual Result<std::string> fileName(CgroupResource resource) const = 0;

  // The host path of that file for `dir`. May probe the mount layout (v1 `cpu` or
  // `cpu,cpuacct`).
  [[nodiscard]] virtual Result<std::filesystem::path> filePath(
      CgroupResource resource, const std::filesystem::path& dir) const = 0;

  // Writes `value` (v1 units, see cgroup_resource.hpp), converted to this version's format.
  [[nodiscard]] virtual Status write(CgroupResource resource, const std::filesystem::path& dir,
                                     std::string_view value) = 0;

  // The current value, converted back to v1 units: "-1" for unlimited, v2 cpu.weight as shares
  // (lossy, see sharesFromCpuWeight()).
  [[nodiscard]] virtual Result<std::string> read(CgroupResource resource,
                                                 const std::filesystem::path& dir) const = 0;
};

// The writer for `version` over `paths.cgroup_root`. Does no I/O.
[[nodiscard]] std::unique_ptr<CgroupWriter> newCgroupWriter(system::CgroupVersion version,
                                                            const system::SysPaths& paths);

}  // namespace koord::agent::resourceexecutor
