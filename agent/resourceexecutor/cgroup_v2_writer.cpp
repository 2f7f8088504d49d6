#include "agent/resourceexecutor/cgroup_v2_writer.hpp"

#include <cstdint>

#include "agent/resourceexecutor/cgroup_file.hpp"
#include "agent/system/sysfs_file.hpp"

namespace koord::agent::resourceexecutor {

namespace {

constexpr std::string_view kMax = "max";

// cpu.max: "<quota|max> <period>".
struct CpuMax {
  std::string quota;  // "max" or decimal microseconds
  std::string period;
};

Result<CpuMax> readCpuMax(const std::filesystem::path& file) {
  KOORD_ASSIGN_OR_RETURN(std::string text, system::readSysString(file));
  const size_t space = text.find(' ');
  CpuMax cpu_max;
  int64_t number = 0;
  if (space != std::string::npos) {
    cpu_max.quota = text.substr(0, space);
    cpu_max.period = std::string(system::trimSpace(std::string_view(text).substr(space + 1)));
  }
  if (space == std::string::npos ||
      (cpu_max.quota != kMax && !system::parseInt64(cpu_max.quota, &number)) ||
      !system::parseInt64(cpu_max.period, &number)) {
    return Status::invalidArgument("failed to parse '" + file.string() +
                                   "': expected '<quota|max> <period>', got '" + text + "'");
  }
  return cpu_max;
}

// "-1" (canonical) as "max".
std::string maxForUnlimited(const std::string& value) {
  return value == "-1" ? std::string(kMax) : value;
}

// "max" as "-1".
std::string unlimitedForMax(const std::string& value) {
  return value == kMax ? std::string("-1") : value;
}

}  // namespace

Result<std::string> CgroupV2Writer::fileName(CgroupResource resource) const {
  switch (resource) {
    case CgroupResource::kCpuShares:
      return std::string("cpu.weight");
    case CgroupResource::kCpuCfsQuota:
    case CgroupResource::kCpuCfsPeriod:
      return std::string("cpu.max");
    case CgroupResource::kCpuBurst:
      return std::string("cpu.max.burst");
    case CgroupResource::kCpusetCpus:
      return std::string("cpuset.cpus");
    case CgroupResource::kCpusetMems:
      return std::string("cpuset.mems");
    case CgroupResource::kMemoryLimit:
      return std::string("memory.max");
    case CgroupResource::kMemoryMin:
      return std::string("memory.min");
    case CgroupResource::kMemoryLow:
      return std::string("memory.low");
    case CgroupResource::kMemoryHigh:
      return std::string("memory.high");
  }
  return Status::unimplemented("failed to find '" + std::string(cgroupResourceName(resource)) +
                               "': not supported on cgroup v2");
}

Result<std::filesystem::path> CgroupV2Writer::filePath(CgroupResource resource,
                                                       const std::filesystem::path& dir) const {
  KOORD_ASSIGN_OR_RETURN(std::string name, fileName(resource));
  return paths_.cgroup_root / dir / name;
}

Status CgroupV2Writer::write(CgroupResource resource, const std::filesystem::path& dir,
                             std::string_view value) {
  KOORD_ASSIGN_OR_RETURN(std::string text, canonicalValue(resource, value));
  KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath(resource, dir));
  switch (resource) {
    case CgroupResource::kCpuShares: {
      int64_t shares = 0;
      if (!system::parseInt64(text, &shares)) {
        return Status::internal("failed to convert cpu_shares '" + text + "' to cpu.weight");
      }
      return writeCgroupFile(file, std::to_string(cpuWeightFromShares(shares)));
    }
    case CgroupResource::kCpuCfsQuota: {
      KOORD_ASSIGN_OR_RETURN(CpuMax current, readCpuMax(file));
      return writeCgroupFile(file, maxForUnlimited(text) + " " + current.period);
    }
    case CgroupResource::kCpuCfsPeriod: {
      KOORD_ASSIGN_OR_RETURN(CpuMax current, readCpuMax(file));
      return writeCgroupFile(file, current.quota + " " + text);
    }
    case CgroupResource::kMemoryLimit:
    case CgroupResource::kMemoryMin:
    case CgroupResource::kMemoryLow:
    case CgroupResource::kMemoryHigh:
      return writeCgroupFile(file, maxForUnlimited(text));
    case CgroupResource::kCpuBurst:
    case CgroupResource::kCpusetCpus:
    case CgroupResource::kCpusetMems:
      break;
  }
  return writeCgroupFile(file, text);
}

Result<std::string> CgroupV2Writer::read(CgroupResource resource,
                                         const std::filesystem::path& dir) const {
  KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath(resource, dir));
  switch (resource) {
    case CgroupResource::kCpuShares: {
      KOORD_ASSIGN_OR_RETURN(int64_t weight, system::readSysInt(file));
      return std::to_string(sharesFromCpuWeight(weight));
    }
    case CgroupResource::kCpuCfsQuota: {
      KOORD_ASSIGN_OR_RETURN(CpuMax current, readCpuMax(file));
      return unlimitedForMax(current.quota);
    }
    case CgroupResource::kCpuCfsPeriod: {
      KOORD_ASSIGN_OR_RETURN(CpuMax current, readCpuMax(file));
      return current.period;
    }
    case CgroupResource::kMemoryLimit:
    case CgroupResource::kMemoryMin:
    case CgroupResource::kMemoryLow:
    case CgroupResource::kMemoryHigh: {
      KOORD_ASSIGN_OR_RETURN(std::string text, system::readSysString(file));
      return unlimitedForMax(text);
    }
    case CgroupResource::kCpuBurst:
    case CgroupResource::kCpusetCpus:
    case CgroupResource::kCpusetMems:
      break;
  }
  return system::readSysString(file);
}

}  // namespace koord::agent::resourceexecutor
