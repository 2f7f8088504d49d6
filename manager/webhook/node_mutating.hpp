// NodeMutatingHandler: koord-manager's Node mutating webhook (path /mutate-node), Koordinator's
// NodeResourceAmplificationPlugin: on a Node UPDATE (the object or its status subresource) with the
// node.koordinator.sh/resource-amplification-ratio annotation, status.allocatable's cpu and
// memory become the raw allocatable times the ratio, and node.koordinator.sh/raw-allocatable
// keeps what the kubelet reported (noderesource::amplifyNodeOnUpdate; the node resource controller
// writes the ratio). Without the annotation, a raw-allocatable annotation is removed. The answer
// is a JSONPatch touching only metadata.annotations and status.allocatable.
//
// Allowed unchanged: other resources, operations other than UPDATE, a Node whose annotations do
// not ask for anything. Denied: 400 when the object does not decode as a Node; 403 with the
// annotation's error when the ratio or raw-allocatable annotation does not parse (Koordinator's
// webhook refuses such an update too).
//
// Thread safety: as AdmissionHandler.
#pragma once

#include <string_view>

#include "koord/log/logger.hpp"
#include "manager/webhook/handler.hpp"

namespace koord::manager::webhook {

class NodeMutatingHandler final : public AdmissionHandler {
 public:
  static constexpr std::string_view kName = "node-mutating";
  static constexpr std::string_view kPath = "/mutate-node";

  explicit NodeMutatingHandler(log::Logger logger) : logger_(std::move(logger)) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view path() const override { return kPath; }
  [[nodiscard]] api::admission::AdmissionResponse admit(
      const api::admission::AdmissionRequest& request) const override;

 private:
  log::Logger logger_;
};

}  // namespace koord::manager::webhook
