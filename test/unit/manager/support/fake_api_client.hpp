// FakeApiClient: a small in-memory API server behind k8s::Client for koord-manager controller
// tests (the NodeSLO / NodeMetric and Device -> Node controllers). Objects are kept as JSON per
// resource and name; every write bumps one resourceVersion counter and is recorded (verb,
// resource, name, body) so tests can count the controller's writes; watch() streams the events of
// every write after the requested resourceVersion and then waits for more, so real informers run
// against it.
//
// Semantics kept from the API server, as far as the tests need them:
// - create: AlreadyExists when the name is taken; sets resourceVersion, uid, creationTimestamp.
// - update: NotFound; Conflict when the body's resourceVersion is set and stale. For resources
//   with a status subresource (has_status_subresource) the stored status is kept.
// - patch (merge only): NotFound; Conflict when the patch's metadata.resourceVersion is set and
//   stale. Subresource "status" applies only the patch's status; the main resource ignores the
//   patch's status (as for Nodes, NodeSLOs and NodeMetrics).
// - remove: NotFound when absent.
// failNext(verb, resource, status) makes the next such call fail with `status` (not recorded).
//
// Thread safety: every method is thread-safe.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "koord/k8s/client.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::testing {

class FakeApiClient final : public k8s::Client {
 public:
  struct Write {
    std::string verb;  // create, update, patch, delete
    std::string resource;
    std::string name;
    std::string subresource;
    k8s::Json body;  // the object, the patch, or null for a delete
  };

  // Stores `object` as if created by someone else (recorded as a write by nobody: not in
  // writes()); returns its resourceVersion.
  std::string seed(const k8s::GroupVersionResource& gvr, k8s::Json object) {
    std::lock_guard lock(mu_);
    return store(gvr, std::move(object), "ADDED");
  }

  // The stored object, or null.
  k8s::Json object(const k8s::GroupVersionResource& gvr, const std::string& name) const {
    std::lock_guard lock(mu_);
    const auto it = objects_.find({gvr.resource, name});
    return it == objects_.end() ? k8s::Json() : it->second;
  }

  std::vector<Write> writes() const {
    std::lock_guard lock(mu_);
    return writes_;
  }
  void clearWrites() {
    std::lock_guard lock(mu_);
    writes_.clear();
  }
  size_t writeCount() const {
    std::lock_guard lock(mu_);
    return writes_.size();
  }

  void failNext(const std::string& verb, const std::string& resource, Status status) {
    std::lock_guard lock(mu_);
    failures_[{verb, resource}].push_back(std::move(status));
  }

  // Changes without the controller (someone else's edit): merge-patches the stored object.
  Status editBehind(const k8s::GroupVersionResource& gvr, const std::string& name,
                    const k8s::Json& patch) {
    std::lock_guard lock(mu_);
    const auto it = objects_.find({gvr.resource, name});
    if (it == objects_.end()) {
      return Status::notFound("NotFound: " + name);
    }
    k8s::Json next = it->second;
    next.merge_patch(patch);
    store(gvr, std::move(next), "MODIFIED");
    return Status::ok();
  }
  Status removeBehind(const k8s::GroupVersionResource& gvr, const std::string& name) {
    std::lock_guard lock(mu_);
    return erase(gvr, name);
  }

  Result<k8s::Json> get(const k8s::GroupVersionResource& gvr, const std::string&,
                        const std::string& name) override {
    std::lock_guard lock(mu_);
    const auto it = objects_.find({gvr.resource, name});
    if (it == objects_.end()) {
      return notFound(gvr, name);
    }
    return it->second;
  }

  Result<k8s::ObjectList> list(const k8s::GroupVersionResource& gvr, const std::string&,
                               const k8s::ListOptions&) override {
    std::lock_guard lock(mu_);
    k8s::ObjectList out;
    out.metadata.resourceVersion = std::to_string(rv_);
    for (const auto& [key, obj] : objects_) {
      if (key.first == gvr.resource) {
        out.items.push_back(obj);
      }
    }
    return out;
  }

  Result<k8s::Json> create(const k8s::GroupVersionResource& gvr, const std::string&,
                           const k8s::Json& object) override {
    std::lock_guard lock(mu_);
    const std::string name = object["metadata"].value("name", "");
    KOORD_RETURN_IF_ERROR(injected("create", gvr));
    if (objects_.count({gvr.resource, name}) != 0) {
      return Status::alreadyExists("AlreadyExists: " + gvr.resource + " \"" + name +
                                   "\" already exists");
    }
    writes_.push_back({"create", gvr.resource, name, "", object});
    k8s::Json stored = object;
    stored["metadata"]["uid"] = "uid-" + name;
    stored["metadata"]["creationTimestamp"] = "2026-01-01T00:00:00Z";
    store(gvr, stored, "ADDED");
    return objects_.at({gvr.resource, name});
  }

  Result<k8s::Json> update(const k8s::GroupVersionResource& gvr, const std::string&,
                           const k8s::Json& object) override {
    std::lock_guard lock(mu_);
    const std::string name = object["metadata"].value("name", "");
    KOORD_RETURN_IF_ERROR(injected("update", gvr));
    const auto it = objects_.find({gvr.resource, name});
    if (it == objects_.end()) {
      return notFound(gvr, name);
    }
    const std::string rv = object["metadata"].value("resourceVersion", "");
    if (!rv.empty() && rv != it->second["metadata"].value("resourceVersion", "")) {
      return conflict(gvr, name);
    }
    writes_.push_back({"update", gvr.resource, name, "", object});
    k8s::Json next = object;
    if (it->second.contains("status")) {
      next["status"] = it->second["status"];
    } else {
      next.erase("status");
    }
    store(gvr, std::move(next), "MODIFIED");
    return objects_.at({gvr.resource, name});
  }

  Result<k8s::Json> updateStatus(const k8s::GroupVersionResource&, const std::string&,
                                 const k8s::Json&) override {
    return Status::unimplemented("updateStatus");
  }

  Status remove(const k8s::GroupVersionResource& gvr, const std::string&, const std::string& name,
                const api::core::DeleteOptions&) override {
    std::lock_guard lock(mu_);
    KOORD_RETURN_IF_ERROR(injected("delete", gvr));
    if (objects_.count({gvr.resource, name}) == 0) {
      return notFound(gvr, name);
    }
    writes_.push_back({"delete", gvr.resource, name, "", k8s::Json()});
    return erase(gvr, name);
  }

  Result<k8s::Json> patch(const k8s::GroupVersionResource& gvr, const std::string&,
                          const std::string& name, k8s::PatchType type, const std::string& body,
                          const k8s::PatchOptions& options) override {
    std::lock_guard lock(mu_);
    if (type != k8s::PatchType::kMerge) {
      return Status::unimplemented("only merge patches");
    }
    KOORD_RETURN_IF_ERROR(injected("patch", gvr));
    const auto it = objects_.find({gvr.resource, name});
    if (it == objects_.end()) {
      return notFound(gvr, name);
    }
    k8s::Json patch = k8s::Json::parse(body);
    if (patch.contains("metadata") && patch["metadata"].contains("resourceVersion") &&
        patch["metadata"]["resourceVersion"] != it->second["metadata"]["resourceVersion"]) {
      return conflict(gvr, name);
    }
    writes_.push_back({"patch", gvr.resource, name, options.subresource, patch});
    if (patch.contains("metadata")) {
      patch["metadata"].erase("resourceVersion");
    }
    if (options.subresource == "status") {
      k8s::Json only = k8s::Json::object();
      if (patch.contains("status")) {
        only["status"] = patch["status"];
      }
      patch = std::move(only);
    } else {
      patch.erase("status");
    }
    k8s::Json next = it->second;
    next.merge_patch(patch);
    store(gvr, std::move(next), "MODIFIED");
    return objects_.at({gvr.resource, name});
  }

  Status bind(const std::string&, const std::string&, const std::string&,
              const std::string&) override {
    return Status::unimplemented("bind");
  }
  Status evict(const std::string&, const std::string&, const api::core::DeleteOptions&) override {
    return Status::unimplemented("evict");
  }
  Result<k8s::Json> createEvent(const std::string&, const api::core::Event&) override {
    return Status::unimplemented("createEvent");
  }

  Status watch(const k8s::GroupVersionResource& gvr, const std::string&,
               const k8s::ListOptions& options,
               const std::function<bool(std::string_view)>& on_chunk,
               const k8s::StreamOptions& stream_options) override {
    uint64_t after = options.resourceVersion.empty() ? 0 : std::stoull(options.resourceVersion);
    std::unique_lock lock(mu_);
    while (stream_options.stop == nullptr || !stream_options.stop->load()) {
      std::vector<std::string> chunks;
      for (const Event& event : events_) {
        if (event.rv > after && event.resource == gvr.resource) {
          chunks.push_back(k8s::Json{{"type", event.type}, {"object", event.object}}.dump() + "\n");
          after = event.rv;
        }
      }
      if (!chunks.empty()) {
        lock.unlock();
        for (const std::string& chunk : chunks) {
          if (!on_chunk(chunk)) {
            return Status::ok();
          }
        }
        lock.lock();
        continue;
      }
      cv_.wait_for(lock, std::chrono::milliseconds(5));
    }
    return Status::cancelled("failed to watch: stopped");
  }

 private:
  struct Event {
    uint64_t rv;
    std::string resource;
    std::string type;
    k8s::Json object;
  };

  // mu_ held.
  std::string store(const k8s::GroupVersionResource& gvr, k8s::Json object, const char* type) {
    const std::string name = object["metadata"].value("name", "");
    const std::string rv = std::to_string(++rv_);
    object["metadata"]["resourceVersion"] = rv;
    objects_[{gvr.resource, name}] = object;
    events_.push_back({rv_, gvr.resource, type, std::move(object)});
    cv_.notify_all();
    return rv;
  }
  Status erase(const k8s::GroupVersionResource& gvr, const std::string& name) {
    const auto it = objects_.find({gvr.resource, name});
    if (it == objects_.end()) {
      return notFound(gvr, name);
    }
    k8s::Json last = it->second;
    objects_.erase(it);
    last["metadata"]["resourceVersion"] = std::to_string(++rv_);
    events_.push_back({rv_, gvr.resource, "DELETED", std::move(last)});
    cv_.notify_all();
    return Status::ok();
  }
  Status injected(const std::string& verb, const k8s::GroupVersionResource& gvr) {
    auto it = failures_.find({verb, gvr.resource});
    if (it == failures_.end() || it->second.empty()) {
      return Status::ok();
    }
    Status status = it->second.front();
    it->second.erase(it->second.begin());
    return status;
  }
  static Status notFound(const k8s::GroupVersionResource& gvr, const std::string& name) {
    return k8s::apiErrorStatus(404, "", "GET", "/" + gvr.resource + "/" + name);
  }
  static Status conflict(const k8s::GroupVersionResource& gvr, const std::string& name) {
    return k8s::apiErrorStatus(
        409, R"({"kind":"Status","reason":"Conflict","message":"the object has been modified"})",
        "PATCH", "/" + gvr.resource + "/" + name);
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t rv_ = 100;
  std::map<std::pair<std::string, std::string>, k8s::Json> objects_;
  std::vector<Event> events_;
  std::vector<Write> writes_;
  std::map<std::pair<std::string, std::string>, std::vector<Status>> failures_;
};

}  // namespace koord::testing
