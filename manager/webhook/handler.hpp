// AdmissionHandler: one koord-manager admission webhook (admission.k8s.io/v1) as a pure function
// from an AdmissionRequest to an AdmissionResponse. No HTTP and no TLS here: the server decodes
// the POST body with review_io.hpp (or calls serveAdmission()) and routes path() to admit().
//
// Contract for every implementation:
// - admit() never throws and never blocks on I/O: what it reads (profiles, namespaces,
//   PriorityClasses) comes from functions over informer caches that it was built with.
// - The response has the request's uid. A denial carries an HTTP-like code in result.code (403
//   for a policy denial, 400 for an object that does not decode, 500 for a failure of the webhook
//   itself) and a message the API server shows to the user.
// - Requests the webhook is not about (another resource, a subresource, an operation it does not
//   check) are allowed unchanged.
// - Thread-safe: admit() is const and may run on many threads at once, as long as the functions
//   the handler was given are thread-safe.
#pragma once

#include <string_view>

#include "koord/api/admission/review.hpp"

namespace koord::manager::webhook {

class AdmissionHandler {
 public:
  virtual ~AdmissionHandler() = default;

  // The handler's name (logs, metrics), e.g. "pod-mutating".
  [[nodiscard]] virtual std::string_view name() const = 0;
  // The URL path the API server calls it on, e.g. "/mutate-pod".
  [[nodiscard]] virtual std::string_view path() const = 0;
  [[nodiscard]] virtual api::admission::AdmissionResponse admit(
      const api::admission::AdmissionRequest& request) const = 0;
};

}  // namespace koord::manager::webhook
