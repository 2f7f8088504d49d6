#include "agent/metricsadvisor/cgroup_reader.hpp"

#include "agent/metricsadvisor/cgroup_v1_reader.hpp"
#include "agent/metricsadvisor/cgroup_v2_reader.hpp"

namespace koord::agent::metricsadvisor {

std::unique_ptr<CgroupReader> newCgroupReader(const system::SysPaths& paths,
                                              system::CgroupVersion version,
                                              size_t max_open_files) {
  if (version == system::CgroupVersion::V2) {
    return std::make_unique<CgroupV2Reader>(paths, max_open_files);
  }
  return std::make_unique<CgroupV1Reader>(paths, max_open_files);
}

}  // namespace koord::agent::metricsadvisor
