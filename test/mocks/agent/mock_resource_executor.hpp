// gmock of koord-agent's ResourceExecutor, for code that hands it cgroup updates.
#pragma once

#include <gmock/gmock.h>

#include "agent/resourceexecutor/resource_executor.hpp"

namespace koord::agent::testing {

class MockResourceExecutor : public resourceexecutor::ResourceExecutor {
 public:
  MOCK_METHOD(Status, update, (const resourceexecutor::ResourceUpdate& update), (override));
  MOCK_METHOD(Status, updateBatch, (std::vector<resourceexecutor::ResourceUpdate> updates),
              (override));
  MOCK_METHOD(void, forget, (const std::filesystem::path& dir), (override));
};

}  // namespace koord::agent::testing
