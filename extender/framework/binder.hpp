// Binder: the side effects of a bind, kept out of the runtime so that the app writes to the API
// server (k8s::Client) and the simulator records. Runtime::bind() calls patchPod() at most once
// (only when some PreBind plugin wrote to the patch), then bindPod(), both with the same
// `deadline`: the bind's start plus RuntimeOptions::bind_timeout. A binder that talks to the API
// server sends nothing after it and gives up on a reply by then (kDeadlineExceeded), so that the
// bind is answered while kube-scheduler still waits for it.
//
// Thread safety: implementations are thread-safe; binds of different pods run concurrently.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "extender/framework/plugin.hpp"
#include "extender/framework/pod_info.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"

namespace koord::extender::framework {

using BindDeadline = std::chrono::steady_clock::time_point;

class Binder {
 public:
  virtual ~Binder() = default;
  // One merge patch of the pod's metadata (annotations and labels in `patch`).
  [[nodiscard]] virtual Status patchPod(const PodInfo& pod, const BindPatch& patch,
                                        BindDeadline deadline) = 0;
  // POST pods/<name>/binding to `node`.
  [[nodiscard]] virtual Status bindPod(const PodInfo& pod, const std::string& node,
                                       BindDeadline deadline) = 0;
  // The pod as the API server holds it now, for a bind that arrives before the pod informer has
  // delivered the pod (kube-scheduler watches pods on its own connection and may bind a pod a few
  // milliseconds after it was created). kNotFound when there is no such pod. Default: kNotFound (a
  // binder without an API server: the simulator's, tests').
  [[nodiscard]] virtual Result<std::shared_ptr<const api::core::Pod>> getPod(
      const std::string& ns, const std::string& name, BindDeadline /*deadline*/) {
    return Status::notFound("pod '" + ns + "/" + name + "' not found");
  }
};

}  // namespace koord::extender::framework
