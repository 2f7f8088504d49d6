// The Binder of the running extender: bind's side effects on the real cluster through the API
// client (the simulator has its own, recording one).
#pragma once

#include <memory>
#include <string>

#include "extender/framework/binder.hpp"
#include "koord/k8s/rest_client.hpp"

namespace koord::extender::app {

class K8sBinder final : public framework::Binder {
 public:
  // Shares `rest` (its connections and rate limit) with the rest of the extender. Thread-safe (the
  // client is). Errors are the client's as they are: Runtime::bind names the pod and the node.
  explicit K8sBinder(std::shared_ptr<k8s::RestClient> rest) : rest_(std::move(rest)) {}

  // One JSON merge patch of the pod's metadata: {"metadata":{"annotations":{..},"labels":{..}}}.
  Status patchPod(const framework::PodInfo& pod, const framework::BindPatch& patch,
                  framework::BindDeadline deadline) override;
  // POST pods/<name>/binding, with the pod's UID as a precondition.
  Status bindPod(const framework::PodInfo& pod, const std::string& node,
                 framework::BindDeadline deadline) override;

  // GET the pod (a bind that came before the pod informer delivered it).
  Result<std::shared_ptr<const api::core::Pod>> getPod(const std::string& ns,
                                                       const std::string& name,
                                                       framework::BindDeadline deadline) override;

  // The merge-patch body for `patch` (maps that are empty are left out).
  [[nodiscard]] static std::string mergePatchBody(const framework::BindPatch& patch);

 private:
  std::shared_ptr<k8s::RestClient> rest_;
};

}  // namespace koord::extender::app
