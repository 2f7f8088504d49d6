#include "agent/resourceexecutor/cgroup_writer.hpp"

#include "agent/resourceexecutor/cgroup_v1_writer.hpp"
#include "agent/resourceexecutor/cgroup_v2_writer.hpp"

namespace koord::agent::resourceexecutor {

std::unique_ptr<CgroupWriter> newCgroupWriter(system::CgroupVersion version,
                                              const system::SysPaths& paths) {
  if (version == system::CgroupVersion::kV2) {
    return std::make_unique<CgroupV2Writer>(paths);
  }
  return std::make_unique<CgroupV1Writer>(paths);
}

}  // namespace koord::agent::resourceexecutor
