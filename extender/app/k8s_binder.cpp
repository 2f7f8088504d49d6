#include "extender/app/k8s_binder.hpp"

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

Status K8sBinder::patchPod(const framework::PodInfo& pod, const framework::BindPatch& patch) {
  const api::core::ObjectMeta& meta = pod.pod->metadata;
  Result<k8s::Json> patched = client_.patch(k8s::kPods, meta.namespace_, meta.name,
                                            k8s::PatchType::kMerge, mergePatchBody(patch), {});
  if (!patched.ok()) {
    return patched.status().withPrefix("failed to patch pod '" + pod.key + "'");
  }
  return Status::ok();
}

Status K8sBinder::bindPod(const framework::PodInfo& pod, const std::string& node) {
  const api::core::ObjectMeta& meta = pod.pod->metadata;
  return client_.bind(meta.namespace_, meta.name, pod.uid, node)
      .withPrefix("failed to bind pod '" + pod.key + "' to node '" + node + "'");
}

}  // namespace koord::extender::app
