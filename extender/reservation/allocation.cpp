#include "extender/reservation/allocation.hpp"

#include <memory>
#include <utility>

#include "extender/framework/binder.hpp"
#include "extender/plugins/common/reservation_info.hpp"

namespace koord::extender::reservation {

namespace {

// Keeps the patch; binds nothing (a Reservation is not a pod).
class RecordingBinder final : public framework::Binder {
 public:
  Status patchPod(const framework::PodInfo& /*pod*/, const framework::BindPatch& patch,
                  framework::BindDeadline /*deadline*/) override {
    patch_ = patch;
    return Status::ok();
  }
  Status bindPod(const framework::PodInfo& /*pod*/, const std::string& /*node*/,
                 framework::BindDeadline /*deadline*/) override {
    return Status::ok();
  }
  [[nodiscard]] const framework::BindPatch& patch() const { return patch_; }

 private:
  framework::BindPatch patch_;
};

}  // namespace

Result<std::map<std::string, std::string>> allocateFor(const api::scheduling::Reservation& r,
                                                       const framework::ClusterState& cluster,
                                                       framework::Runtime& runtime,
                                                       const std::string& node) {
  auto info = cluster.nodeInfo(node);
  if (info == nullptr)
    return Status::notFound("failed to allocate for reservation '" + r.metadata.name + "': node '" +
                            node + "' is not known");
  // A pre-allocating reservation was placed as if the node's pods were gone (placement.hpp): it
  // takes what they hold as they leave, so it is allocated on the same view.
  if (r.spec.preAllocation)
    info = cluster.buildNodeInfo(info->nodePtr(), {});
  std::shared_ptr<api::core::Pod> pod = plugins::common::reservePod(r);
  if (pod == nullptr)
    return Status::invalidArgument("failed to allocate for reservation '" + r.metadata.name +
                                   "': it has neither spec.template nor spec.resources");
  pod->spec.nodeName.clear();
  auto pod_info = framework::PodInfo::create(std::move(pod));
  if (!pod_info.ok())
    return pod_info.status();
  RecordingBinder binder;
  framework::PluginStatus status = runtime.bind(**pod_info, *info, binder);
  if (!status.isSuccess())
    return Status(StatusCode::kFailedPrecondition, "failed to allocate for reservation '" +
                                                       r.metadata.name + "' on node '" + node +
                                                       "': " + status.message());
  return binder.patch().annotations;
}

}  // namespace koord::extender::reservation
