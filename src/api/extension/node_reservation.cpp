#include "koord/api/extension/node_reservation.hpp"

#include "koord/api/extension/annotation.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {

int64_t reservedCPUCount(const NodeReservation& reservation) {
  if (!reservation.reservedCPUs.empty()) {
    return 0;
  }
  int64_t milli = resource::get(reservation.resources, kResourceCPU).milliValue();
  if (milli <= 0) {
    return 0;
  }
  return (milli + 999) / 1000;
}

constexpr auto kNodeReservationFields = std::tuple{
    field("resources", &NodeReservation::resources),
    field("reservedCPUs", &NodeReservation::reservedCPUs),
    field("applyPolicy", &NodeReservation::applyPolicy),
};

Status fromJson(const Json& j, NodeReservation& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeReservationFields);
}

Json toJson(const NodeReservation& v) {
  return encodeFields(v, kNodeReservationFields);
}

constexpr auto kSystemQOSResourceFields = std::tuple{
    field("cpuset", &SystemQOSResource::cpuset),
    field("cpusetExclusive", &SystemQOSResource::cpusetExclusive),
};

Status fromJson(const Json& j, SystemQOSResource& out, const std::string& path) {
  return decodeFields(j, out, path, kSystemQOSResourceFields);
}

Json toJson(const SystemQOSResource& v) {
  return encodeFields(v, kSystemQOSResourceFields);
}

Result<NodeReservation> parseNodeReservation(std::string_view value) {
  if (value.empty()) {
    return NodeReservation{};
  }
  return parseAnnotationJson<NodeReservation>(kAnnotationNodeReservation, value);
}
std::string formatNodeReservation(const NodeReservation& reservation) {
  return formatAnnotationJson(reservation);
}

Result<SystemQOSResource> parseSystemQOSResource(std::string_view value) {
  return parseAnnotationJson<SystemQOSResource>(kAnnotationNodeSystemQOSResource, value);
}
std::string formatSystemQOSResource(const SystemQOSResource& resource) {
  return formatAnnotationJson(resource);
}

}  // namespace koord::api::extension
