// FakeApi: an in-memory API server behind the gmock MockClient, for the webhook certificate
// tests: get, create and update of any resource by (resource, namespace, name), with
// resourceVersion checks (409 Conflict on a stale one, 409 AlreadyExists on a second create, 404
// NotFound), write counters, and hooks that let a test play another replica writing just before
// this one's next create or update.
#pragma once

#include <gmock/gmock.h>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

#include "test/mocks/k8s/mock_client.hpp"

namespace koord::manager::cert::testing {

class FakeApi {
 public:
  FakeApi();

  k8s::Client& client() { return client_; }
  ::testing::NiceMock<k8s::testing::MockClient>& mock() { return client_; }

  // Stores `object` as is (a new resourceVersion), as another writer would.
  void put(const k8s::GroupVersionResource& resource, const std::string& ns, k8s::Json object);
  void erase(const k8s::GroupVersionResource& resource, const std::string& ns,
             const std::string& name);
  [[nodiscard]] std::optional<k8s::Json> object(const k8s::GroupVersionResource& resource,
                                                const std::string& ns,
                                                const std::string& name) const;
  // Successful creates and updates of `resource` by the client.
  [[nodiscard]] int writes(const k8s::GroupVersionResource& resource) const;

  // Run once, just before the client's next create (or update) is applied.
  void beforeNextCreate(std::function<void()> hook);
  void beforeNextUpdate(std::function<void()> hook);

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // resource, ns, name
  static Key key(const k8s::GroupVersionResource& resource, const std::string& ns,
                 const std::string& name);
  void store(const Key& key, k8s::Json object);  // requires mu_

  ::testing::NiceMock<k8s::testing::MockClient> client_;
  mutable std::mutex mu_;
  std::map<Key, k8s::Json> objects_;
  std::map<std::string, int> writes_;
  int next_version_ = 1;
  std::function<void()> before_create_;
  std::function<void()> before_update_;
};

}  // namespace koord::manager::cert::testing
