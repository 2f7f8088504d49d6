#include "agent/metricsadvisor/cgroup_reader.hpp"

#include "agent/metricsadvisor/cgroup_v1_reader.hpp"
#include "agent/metricsadvisor/cgroup_v2_reader.hpp"

namespace koord::agent::metricsadvisor {

std::unique_ptr<CgroupReader> newCgroupReader(const system::SysPaths& paths,
                                              system::CgroupVersion version, size_t max_open_files,
                                              uint32_t inactive_file_period) {
  if (version == system::CgroupVersion::kV2) {
    return std::make_unique<CgroupV2Reader>(paths, max_open_files, inactive_file_period);
  }
  return std::make_unique<CgroupV1Reader>(paths, max_open_files, inactive_file_period);
}

}  // namespace koord::agent::metricsadvisor
