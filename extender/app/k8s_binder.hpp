// The Binder of the running extender: bind's side effects on the real cluster through
// k8s::Client (the simulator has its own, recording one).
#pragma once

#include <string>

#include "extender/framework/binder.hpp"
#include "koord/k8s/client.hpp"

namespace koord::extender::app {

class K8sBinder final : public framework::Binder {
 public:
  // `client` must outlive the binder. Thread-safe (the client is).
  explicit K8sBinder(k8s::Client& client) : client_(client) {}

  // One JSON merge patch of the pod's metadata: {"metadata":{"annotations":{..},"labels":{..}}}.
  Status patchPod(const framework::PodInfo& pod, const framework::BindPatch& patch) override;
  // POST pods/<name>/binding, with the pod's UID as a precondition.
  Status bindPod(const framework::PodInfo& pod, const std::string& node) override;

  // The merge-patch body for `patch` (maps that are empty are left out).
  [[nodiscard]] static std::string mergePatchBody(const framework::BindPatch& patch);

 private:
  k8s::Client& client_;
};

}  // namespace koord::extender::app
