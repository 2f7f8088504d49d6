// gmock of koord::extender::server::ExtenderService, for tests of the HTTP server and of
// anything else that drives the four extender verbs.
#pragma once

#include <gmock/gmock.h>

#include <optional>

#include "extender/server/extender_service.hpp"

namespace koord::extender::testing {

class MockExtenderService : public server::ExtenderService {
 public:
  MOCK_METHOD(api::extender::ExtenderFilterResult, filter, (const api::extender::ExtenderArgs&),
              (override));
  MOCK_METHOD(api::extender::HostPriorityList, prioritize, (const api::extender::ExtenderArgs&),
              (override));
  MOCK_METHOD(std::optional<api::extender::ExtenderFilterResult>, filterKnownPod,
              (const server::wire::ExtenderArgsKey&), (override));
  MOCK_METHOD(std::optional<api::extender::HostPriorityList>, prioritizeKnownPod,
              (const server::wire::ExtenderArgsKey&), (override));
  MOCK_METHOD(api::extender::ExtenderBindingResult, bind,
              (const api::extender::ExtenderBindingArgs&), (override));
  MOCK_METHOD(api::extender::ExtenderPreemptionResult, preempt,
              (const api::extender::ExtenderPreemptionArgs&), (override));
  MOCK_METHOD(bool, ready, (), (const, override));
};

}  // namespace koord::extender::testing
