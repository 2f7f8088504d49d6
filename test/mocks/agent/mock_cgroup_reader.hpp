// gmock of koord-agent's CgroupReader, for collectors tested without a cgroup tree.
#pragma once

#include <gmock/gmock.h>

#include "agent/metricsadvisor/cgroup_reader.hpp"

namespace koord::agent::testing {

class MockCgroupReader : public metricsadvisor::CgroupReader {
 public:
  MOCK_METHOD(system::CgroupVersion, version, (), (const, override));
  MOCK_METHOD(Result<uint64_t>, cpuUsageNanos, (std::string_view relative_dir), (const, override));
  MOCK_METHOD(Result<uint64_t>, memoryWorkingSetBytes, (std::string_view relative_dir),
              (const, override));
  MOCK_METHOD(Result<metricsadvisor::CpuThrottlingStats>, cpuThrottling,
              (std::string_view relative_dir), (const, override));
};

}  // namespace koord::agent::testing
