// PodMutatingHandler: koord-manager's pod mutating webhook (path /mutate-pod), Koordinator's
// pkg/webhook/pod/mutating for CREATE: ClusterColocationProfile injection and the batch/mid
// resource conversion (colocation_profile.hpp), then the node.koordinator.sh/extended-resource-spec
// annotation. The answer is an RFC 6902 JSONPatch (patchType JSONPatch) from the object as sent
// to the object as mutated: only what changed appears, in a deterministic order (object keys
// sorted, profiles by name); no patch when nothing changed.
//
// Allowed unchanged: another resource than core/v1 pods, a subresource, an operation other than
// CREATE. Denied: 400 when request.object is missing or does not decode as a Pod; 500 with
// "failed to mutate Pod '<ns>/<name>' by ClusterColocationProfile '<profile>': <cause>" when a
// profile names a PriorityClass that does not exist or its patch cannot be merged, or when the
// mutated object is no longer a Pod. A pod without metadata.namespace is matched against the
// request's namespace (and the patch leaves its namespace alone).
//
// Thread safety: as AdmissionHandler, given thread-safe sources.
#pragma once

#include <string_view>

#include "koord/log/logger.hpp"
#include "manager/webhook/colocation_profile.hpp"
#include "manager/webhook/handler.hpp"

namespace koord::manager::webhook {

class PodMutatingHandler final : public AdmissionHandler {
 public:
  static constexpr std::string_view kName = "pod-mutating";
  static constexpr std::string_view kPath = "/mutate-pod";

  // An empty sources.randomIntn becomes defaultRandomIntn().
  PodMutatingHandler(ColocationProfileSources sources, log::Logger logger);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view path() const override { return kPath; }
  [[nodiscard]] api::admission::AdmissionResponse admit(
      const api::admission::AdmissionRequest& request) const override;

 private:
  ColocationProfileSources sources_;
  log::Logger logger_;
};

// True when the request is about core/v1 pods themselves (no subresource), the only requests the
// pod webhooks look at.
[[nodiscard]] bool isPodRequest(const api::admission::AdmissionRequest& request);

}  // namespace koord::manager::webhook
