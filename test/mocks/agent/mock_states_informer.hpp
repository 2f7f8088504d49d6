// gmock of koord-agent's StatesInformer, for code that reads the node's state.
#pragma once

#include <gmock/gmock.h>

#include "agent/statesinformer/states_informer.hpp"

namespace koord::agent::testing {

class MockStatesInformer : public statesinformer::StatesInformer {
 public:
  MOCK_METHOD(std::shared_ptr<const api::core::Node>, node, (), (const, override));
  MOCK_METHOD(std::vector<std::shared_ptr<const api::core::Pod>>, pods, (), (const, override));
  MOCK_METHOD(std::shared_ptr<const api::slo::NodeSLO>, nodeSLO, (), (const, override));
  MOCK_METHOD(std::shared_ptr<const api::slo::NodeMetric>, nodeMetric, (), (const, override));
  MOCK_METHOD(bool, hasSynced, (), (const, override));
  MOCK_METHOD(void, onChange, (Callback callback), (override));
};

}  // namespace koord::agent::testing
