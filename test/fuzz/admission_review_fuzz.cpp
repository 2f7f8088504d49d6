// Fuzz target for koord-manager's admission webhooks (manager/webhook): any request body must
// give a reply, never a crash, through the review decoder and each of the four handlers (pod
// mutating with three ClusterColocationProfiles, pod validating, Reservation validating,
// slo-controller-config validating). Checked for every reply: the body is an AdmissionReview
// with a response; a decoded review (status 200) is answered with its own uid; a mutating
// response's JSONPatch applies to the request's object and leaves a Pod.
//
// Input: the POST body, as kube-apiserver would send it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/admission/review.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/core/pod.hpp"
#include "manager/webhook/colocation_profile.hpp"
#include "manager/webhook/object_validating.hpp"
#include "manager/webhook/pod_mutating.hpp"
#include "manager/webhook/pod_validating.hpp"
#include "manager/webhook/review_io.hpp"

namespace {

using koord::api::Json;
using koord::manager::webhook::AdmissionHandler;

std::shared_ptr<const koord::api::config::ClusterColocationProfile> profile(std::string_view text) {
  koord::api::config::ClusterColocationProfile p;
  auto parsed = koord::api::parseJson(text);
  if (!parsed.ok() || !fromJson(*parsed, p, "").isOk()) {
    std::abort();
  }
  return std::make_shared<const koord::api::config::ClusterColocationProfile>(std::move(p));
}

koord::manager::webhook::ColocationProfileSources sources() {
  koord::manager::webhook::ColocationProfileSources s;
  std::vector<std::shared_ptr<const koord::api::config::ClusterColocationProfile>> profiles = {
      profile(R"({"metadata": {"name": "batch"}, "spec": {
          "namespaceSelector": {"matchLabels": {"colocation": "true"}},
          "selector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]},
          "qosClass": "BE", "priorityClassName": "koord-batch", "koordinatorPriority": 7,
          "labelKeysMapping": {"app": "koordinator.sh/app"}, "labelSuffixes": {"app": "-b"}}})"),
      profile(R"({"metadata": {"name": "mid"}, "spec": {"probability": "50%",
          "selector": {"matchLabels": {"tier": "mid"}}, "priorityClassName": "koord-mid",
          "patch": {"spec": {"containers": [{"name": "main", "env": [{"name": "M", "value": "1"}]}],
                             "tolerations": [{"key": "mid", "operator": "Exists"}]}}}})"),
      profile(R"({"metadata": {"name": "missing-class"}, "spec": {
          "selector": {"matchLabels": {"class": "missing"}}, "priorityClassName": "koord-free"}})")};
  s.profiles = [profiles] { return profiles; };
  s.namespaceLabels = [](std::string_view ns) -> std::optional<koord::api::core::StringMap> {
    if (ns == "gone") {
      return std::nullopt;
    }
    return koord::api::core::StringMap{{"colocation", ns == "default" ? "true" : "false"}};
  };
  s.priorityClass =
      [](std::string_view name) -> std::optional<koord::manager::webhook::PriorityClassInfo> {
    if (name == "koord-batch") {
      return koord::manager::webhook::PriorityClassInfo{5000, "Never"};
    }
    if (name == "koord-mid") {
      return koord::manager::webhook::PriorityClassInfo{7000, ""};
    }
    return std::nullopt;
  };
  auto counter = std::make_shared<int>(0);
  s.randomIntn = [counter](int n) { return (*counter)++ % n; };
  return s;
}

void checkReply(const AdmissionHandler& handler, std::string_view body,
                const koord::api::admission::AdmissionReview* review) {
  auto reply = koord::manager::webhook::serveAdmission(handler, body);
  auto parsed = koord::api::parseJson(reply.body);
  if (!parsed.ok()) {
    std::abort();  // the reply is always JSON
  }
  koord::api::admission::AdmissionReview answer;
  if (!fromJson(*parsed, answer, "").isOk() || !answer.response) {
    std::abort();  // ... and an AdmissionReview with a response
  }
  if ((review != nullptr) != (reply.http_status == 200)) {
    std::abort();  // 200 exactly when the review decoded
  }
  if (review == nullptr) {
    if (answer.response->allowed) {
      std::abort();
    }
    return;
  }
  if (answer.response->uid != review->request->uid) {
    std::abort();
  }
  if (answer.response->patch.empty()) {
    return;
  }
  if (!answer.response->allowed || handler.name() != "pod-mutating") {
    std::abort();  // only the mutating webhook patches, and only when it allows
  }
  auto ops = koord::api::parseJson(answer.response->patch);
  if (!ops.ok() || !ops->is_array()) {
    std::abort();
  }
  Json result;
  try {
    result = review->request->object.patch(*ops);
  } catch (const std::exception&) {
    std::abort();  // the patch applies to the object it was computed from
  }
  koord::api::core::Pod pod;
  if (!fromJson(result, pod, "object").isOk()) {
    std::abort();  // ... and leaves a Pod
  }
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const koord::manager::webhook::PodMutatingHandler mutating(sources(), {});
  static const koord::manager::webhook::PodValidatingHandler pod_validating({});
  static const koord::manager::webhook::ReservationValidatingHandler reservation({});
  static const koord::manager::webhook::ConfigMapValidatingHandler config_map({});
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  auto review = koord::manager::webhook::decodeAdmissionReview(body);
  const koord::api::admission::AdmissionReview* decoded = review.ok() ? &*review : nullptr;
  for (const AdmissionHandler* handler : std::initializer_list<const AdmissionHandler*>{
           &mutating, &pod_validating, &reservation, &config_map}) {
    checkReply(*handler, body, decoded);
  }
  return 0;
}
