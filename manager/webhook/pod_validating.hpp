// PodValidatingHandler: koord-manager's pod validating webhook (path /validate-pod), the
// QoS-class and priority rules of Koordinator's pkg/webhook/pod/validating/
// cluster_colocation_profile.go. The pod's QoS class is its koordinator.sh/qosClass label (absent
// or unknown: none); its priority class the koordinator.sh/priority-class label, else the band of
// spec.priority. On CREATE and UPDATE of a pod:
//   - batch resources (a non-zero kubernetes.io/batch-cpu or batch-memory in the pod's requests)
//     need QoS BE;
//   - mid resources (kubernetes.io/mid-cpu or mid-memory) need priority class koord-mid;
//   - BE cannot go with no priority class or koord-prod; LSR and LSE cannot go with none,
//     koord-mid, koord-batch or koord-free;
//   - LSR and LSE pods must request a whole number of CPUs (more than zero);
// and on UPDATE the QoS class, the priority class and the koordinator.sh/priority label cannot
// change. Every violation is reported (Kubernetes field-error wording, several joined as
// "[a, b]") in one denial with code 403.
//
// Allowed unchanged: another resource than pods, a subresource, DELETE and CONNECT. Denied with
// 400: an object (or, on UPDATE, oldObject) that is missing or does not decode as a Pod.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/log/logger.hpp"
#include "manager/webhook/handler.hpp"

namespace koord::manager::webhook {

// The violations of the rules above for `pod` (and `old_pod` on UPDATE), in the order listed.
[[nodiscard]] std::vector<std::string> validatePodColocation(const api::core::Pod& pod,
                                                             const api::core::Pod* old_pod);

// Kubernetes' aggregate of field errors: "" for none, the error for one, "[a, b, ...]" else.
[[nodiscard]] std::string aggregateErrors(const std::vector<std::string>& errors);

class PodValidatingHandler final : public AdmissionHandler {
 public:
  static constexpr std::string_view kName = "pod-validating";
  static constexpr std::string_view kPath = "/validate-pod";

  explicit PodValidatingHandler(log::Logger logger) : logger_(std::move(logger)) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view path() const override { return kPath; }
  [[nodiscard]] api::admission::AdmissionResponse admit(
      const api::admission::AdmissionRequest& request) const override;

 private:
  log::Logger logger_;
};

}  // namespace koord::manager::webhook
