#include "fake_api.hpp"

#include <utility>

#include "koord/k8s/errors.hpp"

namespace koord::manager::cert::testing {
namespace {

using ::testing::_;

Status apiError(int code, const std::string& reason, const std::string& method,
                const std::string& what) {
  return k8s::apiErrorStatus(k8s::ApiError{code, reason, what, 0}, method, "/fake/" + what);
}

std::string nameOf(const k8s::Json& object) {
  return object.at("metadata").at("name").get<std::string>();
}

}  // namespace

FakeApi::FakeApi() {
  ON_CALL(client_, get(_, _, _))
      .WillByDefault([this](const k8s::GroupVersionResource& resource, const std::string& ns,
                            const std::string& name) -> Result<k8s::Json> {
        std::lock_guard<std::mutex> lock(mu_);
        const auto it = objects_.find(key(resource, ns, name));
        if (it == objects_.end()) {
          return apiError(404, "NotFound", "GET", resource.resource + "/" + name);
        }
        return it->second;
      });
  ON_CALL(client_, create(_, _, _))
      .WillByDefault([this](const k8s::GroupVersionResource& resource, const std::string& ns,
                            const k8s::Json& object) -> Result<k8s::Json> {
        std::function<void()> hook;
        {
          std::lock_guard<std::mutex> lock(mu_);
          hook = std::exchange(before_create_, nullptr);
        }
        if (hook) {
          hook();
        }
        std::lock_guard<std::mutex> lock(mu_);
        const Key k = key(resource, ns, nameOf(object));
        if (objects_.count(k) != 0) {
          return apiError(409, "AlreadyExists", "POST", resource.resource + "/" + nameOf(object));
        }
        store(k, object);
        ++writes_[resource.resource];
        return objects_[k];
      });
  ON_CALL(client_, update(_, _, _))
      .WillByDefault([this](const k8s::GroupVersionResource& resource, const std::string& ns,
                            const k8s::Json& object) -> Result<k8s::Json> {
        std::function<void()> hook;
        {
          std::lock_guard<std::mutex> lock(mu_);
          hook = std::exchange(before_update_, nullptr);
        }
        if (hook) {
          hook();
        }
        std::lock_guard<std::mutex> lock(mu_);
        const Key k = key(resource, ns, nameOf(object));
        const auto it = objects_.find(k);
        if (it == objects_.end()) {
          return apiError(404, "NotFound", "PUT", resource.resource + "/" + nameOf(object));
        }
        if (object["metadata"].value("resourceVersion", "") !=
            it->second["metadata"]["resourceVersion"].get<std::string>()) {
          return apiError(409, "Conflict", "PUT", resource.resource + "/" + nameOf(object));
        }
        store(k, object);
        ++writes_[resource.resource];
        return objects_[k];
      });
}

FakeApi::Key FakeApi::key(const k8s::GroupVersionResource& resource, const std::string& ns,
                          const std::string& name) {
  return {resource.resource, resource.namespaced ? ns : "", name};
}

void FakeApi::store(const Key& k, k8s::Json object) {
  object["metadata"]["resourceVersion"] = std::to_string(next_version_++);
  objects_[k] = std::move(object);
}

void FakeApi::put(const k8s::GroupVersionResource& resource, const std::string& ns,
                  k8s::Json object) {
  const Key k = key(resource, ns, nameOf(object));
  std::lock_guard<std::mutex> lock(mu_);
  store(k, std::move(object));
}

void FakeApi::erase(const k8s::GroupVersionResource& resource, const std::string& ns,
                    const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  objects_.erase(key(resource, ns, name));
}

std::optional<k8s::Json> FakeApi::object(const k8s::GroupVersionResource& resource,
                                         const std::string& ns, const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = objects_.find(key(resource, ns, name));
  return it == objects_.end() ? std::nullopt : std::optional<k8s::Json>(it->second);
}

int FakeApi::writes(const k8s::GroupVersionResource& resource) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = writes_.find(resource.resource);
  return it == writes_.end() ? 0 : it->second;
}

void FakeApi::beforeNextCreate(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(mu_);
  before_create_ = std::move(hook);
}

void FakeApi::beforeNextUpdate(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(mu_);
  before_update_ = std::move(hook);
}

}  // namespace koord::manager::cert::testing
