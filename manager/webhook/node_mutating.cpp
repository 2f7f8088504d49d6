#include "manager/webhook/node_mutating.hpp"

#include <optional>
#include <string>
#include <utility>

#include "koord/api/core/node.hpp"
#include "manager/noderesource/amplification.hpp"
#include "manager/webhook/json_patch.hpp"

namespace koord::manager::webhook {

using api::Json;
using api::admission::AdmissionRequest;
using api::admission::AdmissionResponse;

AdmissionResponse NodeMutatingHandler::admit(const AdmissionRequest& request) const {
  const bool node_request = request.resource.group.empty() &&
                            request.resource.resource == "nodes" &&
                            (request.subResource.empty() || request.subResource == "status");
  if (!node_request || request.operation != "UPDATE") {
    return api::admission::allowResponse(request);
  }
  api::core::Node node;
  if (!request.object.is_object()) {
    return api::admission::denyResponse(
        request, 400, "failed to decode Node: request.object: expected object", "BadRequest");
  }
  if (Status s = fromJson(request.object, node, "object"); !s.isOk()) {
    return api::admission::denyResponse(request, 400, "failed to decode Node: " + s.message(),
                                        "BadRequest");
  }
  std::optional<api::core::Node> old_node;
  if (request.oldObject.is_object()) {
    api::core::Node decoded;
    if (fromJson(request.oldObject, decoded, "oldObject").isOk()) {
      old_node = std::move(decoded);
    }
  }
  if (Status s = noderesource::amplifyNodeOnUpdate(old_node ? &*old_node : nullptr, node);
      !s.isOk()) {
    logger_.warn("node amplification refused", {{"node", node.metadata.name}, {"error", s}});
    return api::admission::denyResponse(request, 403, s.message(), "Forbidden");
  }
  // Only the two fields the amplification touches are compared, so that nothing else of the
  // object is rewritten by a round trip through the model.
  Json mutated = request.object;
  if (node.metadata.annotations.empty()) {
    if (mutated.contains("metadata")) {
      mutated["metadata"].erase("annotations");
    }
  } else {
    Json annotations = Json::object();
    for (const auto& [key, value] : node.metadata.annotations) {
      annotations[key] = value;
    }
    mutated["metadata"]["annotations"] = std::move(annotations);
  }
  api::core::Node original;
  (void)fromJson(request.object, original, "object");  // decoded above already
  for (const char* name : {"cpu", "memory"}) {
    auto now = node.status.allocatable.find(name);
    auto before = original.status.allocatable.find(name);
    if (now == node.status.allocatable.end()) {
      continue;
    }
    if (before == original.status.allocatable.end() || !(before->second == now->second)) {
      mutated["status"]["allocatable"][name] = now->second.toString();
    }
  }
  Json patch = createJsonPatch(request.object, mutated);
  if (patch.empty()) {
    return api::admission::allowResponse(request);
  }
  auto response = api::admission::patchResponse(request, patch);
  if (!response.ok()) {
    return api::admission::denyResponse(request, 500, response.status().message(), "InternalError");
  }
  return std::move(response).value();
}

}  // namespace koord::manager::webhook
