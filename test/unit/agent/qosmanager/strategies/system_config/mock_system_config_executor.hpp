// A gmock SystemConfigExecutor for the SystemConfig strategy's tests.
#pragma once

#include <gmock/gmock.h>

#include <string>

#include "agent/resourceexecutor/system_config_executor.hpp"

namespace koord::agent::testing {

class MockSystemConfigExecutor : public resourceexecutor::SystemConfigExecutor {
 public:
  MOCK_METHOD(Result<int64_t>, get, (resourceexecutor::SystemSetting setting), (const, override));
  MOCK_METHOD(Status, set,
              (resourceexecutor::SystemSetting setting, int64_t value, const std::string& reason),
              (override));
};

}  // namespace koord::agent::testing
