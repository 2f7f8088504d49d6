#include "extender/app/k8s_binder.hpp"

#include <chrono>
#include <string_view>

#include "koord/k8s/client.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::extender::app {

std::string K8sBinder::mergePatchBody(const framework::BindPatch& patch) {
  api::Json metadata = api::Json::object();
  if (!patch.annotations.empty()) {
    metadata["annotations"] = patch.annotations;
  }
  if (!patch.labels.empty()) {
    metadata["labels"] = patch.labels;
  }
  return api::Json{{"metadata", metadata}}.dump(-1, ' ', false,
                                                api::Json::error_handler_t::replace);
}

namespace {

// The options of one call that must end by `deadline` (everything counted: the rate limit, a free
// connection, retries), or kDeadlineExceeded when no time is left to send it at all.
Result<k8s::RequestOptions> until(framework::BindDeadline deadline, std::string_view what) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    return Status::deadlineExceeded("not sent: the bind's " + std::string(what) +
                                    " had no time left within bindTimeout");
  }
  k8s::RequestOptions options;
  options.call_timeout = left;
  return options;
}

}  // namespace

Status K8sBinder::patchPod(const framework::PodInfo& pod, const framework::BindPatch& patch,
                           framework::BindDeadline deadline) {
  const api::core::ObjectMeta& meta = pod.pod->metadata;
  Result<k8s::RequestOptions> options = until(deadline, "patch");
  if (!options.ok()) {
    return options.status();
  }
  k8s::RestApiClient client(rest_, *options);
  Result<k8s::Json> patched = client.patch(k8s::kPods, meta.namespace_, meta.name,
                                           k8s::PatchType::kMerge, mergePatchBody(patch), {});
  if (!patched.ok()) {
    return patched.status();
  }
  return Status::ok();
}

Status K8sBinder::bindPod(const framework::PodInfo& pod, const std::string& node,
                          framework::BindDeadline deadline) {
  const api::core::ObjectMeta& meta = pod.pod->metadata;
  Result<k8s::RequestOptions> options = until(deadline, "binding");
  if (!options.ok()) {
    return options.status();
  }
  k8s::RestApiClient client(rest_, *options);
  return client.bind(meta.namespace_, meta.name, pod.uid, node);
}

Result<std::shared_ptr<const api::core::Pod>> K8sBinder::getPod(const std::string& ns,
                                                                const std::string& name,
                                                                framework::BindDeadline deadline) {
  Result<k8s::RequestOptions> options = until(deadline, "pod lookup");
  if (!options.ok()) {
    return options.status();
  }
  k8s::RestApiClient client(rest_, *options);
  KOORD_ASSIGN_OR_RETURN(api::core::Pod pod,
                         k8s::getAs<api::core::Pod>(client, k8s::kPods, ns, name));
  return std::shared_ptr<const api::core::Pod>(std::make_shared<api::core::Pod>(std::move(pod)));
}

}  // namespace koord::extender::app
