// gmock of k8s::Client.
#pragma once

#include <gmock/gmock.h>

#include "koord/k8s/client.hpp"

namespace koord::k8s::testing {

class MockClient : public Client {
 public:
  MOCK_METHOD(Result<Json>, get,
              (const GroupVersionResource& gvr, const std::string& ns, const std::string& name),
              (override));
  MOCK_METHOD(Result<ObjectList>, list,
              (const GroupVersionResource& gvr, const std::string& ns, const ListOptions& options),
              (override));
  MOCK_METHOD(Result<Json>, create,
              (const GroupVersionResource& gvr, const std::string& ns, const Json& object),
              (override));
  MOCK_METHOD(Result<Json>, update,
              (const GroupVersionResource& gvr, const std::string& ns, const Json& object),
              (override));
  MOCK_METHOD(Result<Json>, updateStatus,
              (const GroupVersionResource& gvr, const std::string& ns, const Json& object),
              (override));
  MOCK_METHOD(Status, remove,
              (const GroupVersionResource& gvr, const std::string& ns, const std::string& name,
               const api::core::DeleteOptions& options),
              (override));
  MOCK_METHOD(Result<Json>, patch,
              (const GroupVersionResource& gvr, const std::string& ns, const std::string& name,
               PatchType type, const std::string& body, const PatchOptions& options),
              (override));
  MOCK_METHOD(Status, bind,
              (const std::string& ns, const std::string& pod, const std::string& uid,
               const std::string& node),
              (override));
  MOCK_METHOD(Status, evict,
              (const std::string& ns, const std::string& pod,
               const api::core::DeleteOptions& options),
              (override));
  MOCK_METHOD(Result<Json>, createEvent, (const std::string& ns, const api::core::Event& event),
              (override));
  MOCK_METHOD(Status, watch,
              (const GroupVersionResource& gvr, const std::string& ns, const ListOptions& options,
               const std::function<bool(std::string_view)>& on_chunk,
               const StreamOptions& stream_options),
              (override));
};

}  // namespace koord::k8s::testing
