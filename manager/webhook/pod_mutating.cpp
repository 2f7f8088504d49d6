#include "manager/webhook/pod_mutating.hpp"

#include <string>
#include <utility>

#include "manager/webhook/json_patch.hpp"

namespace koord::manager::webhook {

using api::Json;
using api::admission::AdmissionRequest;
using api::admission::AdmissionResponse;

bool isPodRequest(const AdmissionRequest& request) {
  return request.resource.group.empty() && request.resource.resource == "pods" &&
         request.subResource.empty();
}

PodMutatingHandler::PodMutatingHandler(ColocationProfileSources sources, log::Logger logger)
    : sources_(std::move(sources)), logger_(std::move(logger)) {
  if (!sources_.randomIntn) {
    sources_.randomIntn = defaultRandomIntn();
  }
}

AdmissionResponse PodMutatingHandler::admit(const AdmissionRequest& request) const {
  if (!isPodRequest(request) || request.operation != "CREATE") {
    return api::admission::allowResponse(request);
  }
  if (!request.object.is_object()) {
    return api::admission::denyResponse(request, 400,
                                        "failed to decode Pod: request.object: "
                                        "expected object",
                                        "BadRequest");
  }
  api::core::Pod pod;
  if (Status s = fromJson(request.object, pod, "object"); !s.isOk()) {
    return api::admission::denyResponse(request, 400, "failed to decode Pod: " + s.message(),
                                        "BadRequest");
  }
  const std::string ns =
      pod.metadata.namespace_.empty() ? request.namespace_ : pod.metadata.namespace_;
  Json mutated = request.object;
  auto outcome = applyColocationProfiles(sources_, pod, ns, mutated, logger_);
  if (!outcome.ok()) {
    logger_.warn("pod mutation failed", {{"error", outcome.status()}});
    return api::admission::denyResponse(request, 500, outcome.status().message(), "InternalError");
  }
  auto annotated = syncExtendedResourceSpec(mutated);
  if (!annotated.ok()) {
    return api::admission::denyResponse(
        request, 500,
        "failed to mutate Pod by ExtendedResourceSpec: " + annotated.status().message(),
        "InternalError");
  }
  Json patch = createJsonPatch(request.object, mutated);
  if (patch.empty()) {
    return api::admission::allowResponse(request);
  }
  // Only a profile's patch can leave something that is not a Pod; check it then.
  api::core::Pod check;
  if (Status s = outcome->patchApplied ? fromJson(mutated, check, "object") : Status::ok();
      !s.isOk()) {
    std::string names;
    for (const auto& n : outcome->applied) {
      names += (names.empty() ? "'" : ", '") + n + "'";
    }
    return api::admission::denyResponse(request, 500,
                                        "failed to mutate Pod: the ClusterColocationProfiles " +
                                            names +
                                            " leave an object that is not a Pod: " + s.message(),
                                        "InternalError");
  }
  auto response = api::admission::patchResponse(request, patch);
  if (!response.ok()) {
    return api::admission::denyResponse(request, 500, response.status().message(), "InternalError");
  }
  return std::move(response).value();
}

}  // namespace koord::manager::webhook
