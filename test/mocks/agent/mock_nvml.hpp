// gmock of koord-agent's Nvml (most tests use the table-driven StaticNvml of
// test/unit/agent/devices/ instead).
#pragma once

#include <gmock/gmock.h>

#include "agent/devices/nvml.hpp"

namespace koord::agent::testing {

class MockNvml : public devices::Nvml {
 public:
  MOCK_METHOD(Status, init, (), (override));
  MOCK_METHOD(Status, shutdown, (), (override));
  MOCK_METHOD(Result<std::string>, driverVersion, (), (override));
  MOCK_METHOD(Result<uint32_t>, deviceCount, (), (override));
  MOCK_METHOD(Status, deviceHandle, (uint32_t index), (override));
  MOCK_METHOD(Result<std::string>, deviceName, (uint32_t index), (override));
  MOCK_METHOD(Result<std::string>, deviceUuid, (uint32_t index), (override));
  MOCK_METHOD(Result<uint32_t>, deviceMinorNumber, (uint32_t index), (override));
  MOCK_METHOD(Result<devices::GpuMemoryInfo>, deviceMemory, (uint32_t index), (override));
  MOCK_METHOD(Result<devices::GpuPciInfo>, devicePciInfo, (uint32_t index), (override));
  MOCK_METHOD(Result<devices::GpuUtilization>, deviceUtilization, (uint32_t index), (override));
};

}  // namespace koord::agent::testing
