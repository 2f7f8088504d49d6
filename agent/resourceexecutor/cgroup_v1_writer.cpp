#include "agent/resourceexecutor/cgroup_v1_writer.hpp"

#include <cstdint>
#include <limits>
#include <system_error>

#include "agent/resourceexecutor/cgroup_file.hpp"
#include "agent/system/cgroup_layout.hpp"
#include "agent/system/sysfs_file.hpp"

namespace koord::agent::resourceexecutor {

namespace {

// The kernel prints PAGE_COUNTER_MAX * PAGE_SIZE for "no limit": INT64_MAX rounded down to a
// page. Anything within 1 MiB of INT64_MAX is that.
constexpr int64_t kUnlimitedThreshold = std::numeric_limits<int64_t>::max() - (int64_t{1} << 20);

Status unsupported(std::string_view verb, CgroupResource resource) {
  return Status::unimplemented("failed to " + std::string(verb) + " '" +
                               std::string(cgroupResourceName(resource)) +
                               "': not supported on cgroup v1");
}

// The subsystem folder name; empty when the resource has no v1 file.
std::string_view subsystemOf(CgroupResource resource) {
  switch (resource) {
    case CgroupResource::kCpuShares:
    case CgroupResource::kCpuCfsQuota:
    case CgroupResource::kCpuCfsPeriod:
    case CgroupResource::kCpuBurst:
      return "cpu";
    case CgroupResource::kCpusetCpus:
    case CgroupResource::kCpusetMems:
      return "cpuset";
    case CgroupResource::kMemoryLimit:
      return "memory";
    case CgroupResource::kMemoryMin:
    case CgroupResource::kMemoryLow:
    case CgroupResource::kMemoryHigh:
      break;
  }
  return {};
}

}  // namespace

Result<std::string> CgroupV1Writer::fileName(CgroupResource resource) const {
  switch (resource) {
    case CgroupResource::kCpuShares:
      return std::string("cpu.shares");
    case CgroupResource::kCpuCfsQuota:
      return std::string("cpu.cfs_quota_us");
    case CgroupResource::kCpuCfsPeriod:
      return std::string("cpu.cfs_period_us");
    case CgroupResource::kCpuBurst:
      return std::string("cpu.cfs_burst_us");
    case CgroupResource::kCpusetCpus:
      return std::string("cpuset.cpus");
    case CgroupResource::kCpusetMems:
      return std::string("cpuset.mems");
    case CgroupResource::kMemoryLimit:
      return std::string("memory.limit_in_bytes");
    case CgroupResource::kMemoryMin:
    case CgroupResource::kMemoryLow:
    case CgroupResource::kMemoryHigh:
      break;
  }
  return unsupported("find", resource);
}

Result<std::filesystem::path> CgroupV1Writer::filePath(CgroupResource resource,
                                                       const std::filesystem::path& dir) const {
  KOORD_ASSIGN_OR_RETURN(std::string name, fileName(resource));
  const std::string_view subsystem = subsystemOf(resource);
  // The first folder the controller is mounted under (`cpu` or `cpu,cpuacct`, ...), as discovery
  // finds it.
  return system::subsystemRoot(paths_, system::CgroupVersion::kV1, subsystem) / dir / name;
}

Status CgroupV1Writer::write(CgroupResource resource, const std::filesystem::path& dir,
                             std::string_view value) {
  if (subsystemOf(resource).empty()) {
    return unsupported("write", resource);
  }
  KOORD_ASSIGN_OR_RETURN(std::string text, canonicalValue(resource, value));
  KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath(resource, dir));
  return writeCgroupFile(file, text);
}

Result<std::string> CgroupV1Writer::read(CgroupResource resource,
                                         const std::filesystem::path& dir) const {
  if (subsystemOf(resource).empty()) {
    return unsupported("read", resource);
  }
  KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath(resource, dir));
  KOORD_ASSIGN_OR_RETURN(std::string text, system::readSysString(file));
  int64_t number = 0;
  if (resource == CgroupResource::kMemoryLimit && system::parseInt64(text, &number) &&
      number >= kUnlimitedThreshold) {
    return std::string("-1");
  }
  return text;
}

}  // namespace koord::agent::resourceexecutor
