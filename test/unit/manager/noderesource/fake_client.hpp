// An in-memory k8s::Client for the node resource controller tests: records every patch and
// update (resource, name, body, subresource) and answers them with OK, or with a Status a test
// sets. Every other verb fails with kFailedPrecondition (the controller must not call it).
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "koord/k8s/client.hpp"

namespace koord::manager::noderesource::fake {

struct Call {
  std::string verb;  // "patch", "update"
  std::string resource;
  std::string name;
  std::string subresource;
  api::Json body;
};

class FakeClient final : public k8s::Client {
 public:
  std::vector<Call> calls;
  Status fail_with = Status::ok();  // returned by patch and update when set

  // The calls of one verb on one resource (and subresource).
  std::vector<Call> of(const std::string& verb, const std::string& resource,
                       const std::string& subresource = "") const {
    std::vector<Call> out;
    for (const auto& call : calls) {
      if (call.verb == verb && call.resource == resource && call.subresource == subresource) {
        out.push_back(call);
      }
    }
    return out;
  }

  Result<k8s::Json> get(const k8s::GroupVersionResource&, const std::string&,
                        const std::string&) override {
    return unexpected();
  }
  Result<k8s::ObjectList> list(const k8s::GroupVersionResource&, const std::string&,
                               const k8s::ListOptions&) override {
    return unexpected();
  }
  Result<k8s::Json> create(const k8s::GroupVersionResource&, const std::string&,
                           const k8s::Json&) override {
    return unexpected();
  }
  Result<k8s::Json> update(const k8s::GroupVersionResource& gvr, const std::string&,
                           const k8s::Json& object) override {
    std::string name = object["metadata"]["name"].get<std::string>();
    calls.push_back({"update", gvr.resource, name, "", object});
    if (!fail_with.isOk()) {
      return fail_with;
    }
    return object;
  }
  Result<k8s::Json> updateStatus(const k8s::GroupVersionResource&, const std::string&,
                                 const k8s::Json&) override {
    return unexpected();
  }
  Status remove(const k8s::GroupVersionResource&, const std::string&, const std::string&,
                const api::core::DeleteOptions&) override {
    return unexpected();
  }
  Result<k8s::Json> patch(const k8s::GroupVersionResource& gvr, const std::string&,
                          const std::string& name, k8s::PatchType type, const std::string& body,
                          const k8s::PatchOptions& options) override {
    if (type != k8s::PatchType::kMerge) {
      return Status::invalidArgument("not a merge patch");
    }
    calls.push_back({"patch", gvr.resource, name, options.subresource, api::Json::parse(body)});
    if (!fail_with.isOk()) {
      return fail_with;
    }
    return api::Json::object();
  }
  Status bind(const std::string&, const std::string&, const std::string&,
              const std::string&) override {
    return unexpected();
  }
  Status evict(const std::string&, const std::string&, const api::core::DeleteOptions&) override {
    return unexpected();
  }
  Result<k8s::Json> createEvent(const std::string&, const api::core::Event&) override {
    return unexpected();
  }
  Status watch(const k8s::GroupVersionResource&, const std::string&, const k8s::ListOptions&,
               const std::function<bool(std::string_view)>&, const k8s::StreamOptions&) override {
    return unexpected();
  }

 private:
  static Status unexpected() { return Status::failedPrecondition("unexpected call"); }
};

}  // namespace koord::manager::noderesource::fake
