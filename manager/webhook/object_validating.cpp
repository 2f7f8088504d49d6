#include "manager/webhook/object_validating.hpp"

#include <string>
#include <utility>

#include "koord/api/core/objects.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::webhook {
namespace {

using api::admission::AdmissionRequest;
using api::admission::AdmissionResponse;

template <typename T>
Status decodeObject(const api::Json& j, const char* field, T& out) {
  if (!j.is_object()) {
    return Status::invalidArgument(std::string("request.") + field + ": expected object");
  }
  return fromJson(j, out, field);
}

bool isCreateOrUpdate(const AdmissionRequest& request) {
  return request.operation == "CREATE" || request.operation == "UPDATE";
}

}  // namespace

AdmissionResponse ReservationValidatingHandler::admit(const AdmissionRequest& request) const {
  if (request.resource.group != "scheduling.koordinator.sh" ||
      request.resource.resource != "reservations" || !request.subResource.empty() ||
      !isCreateOrUpdate(request)) {
    return api::admission::allowResponse(request);
  }
  api::scheduling::Reservation reservation;
  if (Status s = decodeObject(request.object, "object", reservation); !s.isOk()) {
    return api::admission::denyResponse(
        request, 400, "failed to decode Reservation: " + s.message(), "BadRequest");
  }
  Status verdict;
  if (request.operation == "CREATE") {
    verdict = api::scheduling::validateReservation(reservation);
  } else {
    api::scheduling::Reservation old;
    if (Status s = decodeObject(request.oldObject, "oldObject", old); !s.isOk()) {
      return api::admission::denyResponse(
          request, 400, "failed to decode Reservation: " + s.message(), "BadRequest");
    }
    verdict = api::scheduling::validateReservationUpdate(old, reservation);
  }
  if (verdict.isOk()) {
    return api::admission::allowResponse(request);
  }
  logger_.debug("reservation denied",
                {{"reservation", reservation.metadata.name}, {"reason", verdict.message()}});
  return api::admission::denyResponse(request, 403, verdict.message(), "Forbidden");
}

AdmissionResponse ConfigMapValidatingHandler::admit(const AdmissionRequest& request) const {
  if (!request.resource.group.empty() || request.resource.resource != "configmaps" ||
      !request.subResource.empty() || !isCreateOrUpdate(request)) {
    return api::admission::allowResponse(request);
  }
  api::core::ConfigMap config_map;
  if (Status s = decodeObject(request.object, "object", config_map); !s.isOk()) {
    return api::admission::denyResponse(request, 400, "failed to decode ConfigMap: " + s.message(),
                                        "BadRequest");
  }
  const std::string& ns =
      config_map.metadata.namespace_.empty() ? request.namespace_ : config_map.metadata.namespace_;
  const std::string& name =
      config_map.metadata.name.empty() ? request.name : config_map.metadata.name;
  if (ns != namespace_ || name != name_) {
    return api::admission::allowResponse(request);
  }
  auto parsed = sloconfig::parseSloControllerConfig(config_map.data);
  if (parsed.ok()) {
    return api::admission::allowResponse(request);
  }
  logger_.debug("slo-controller-config denied", {{"reason", parsed.status().message()}});
  return api::admission::denyResponse(request, 403, parsed.status().message(), "Forbidden");
}

}  // namespace koord::manager::webhook
