#include "koord/api/extension/node_reservation.hpp"

#include "koord/api/extension/annotation.hpp"
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

Status fromJson(const Json& j, NodeReservation& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resources", out.resources)
      .field("reservedCPUs", out.reservedCPUs)
      .field("applyPolicy", out.applyPolicy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const NodeReservation& v) {
  return ObjectEncoder()
      .field("resources", v.resources)
      .field("reservedCPUs", v.reservedCPUs)
      .field("applyPolicy", v.applyPolicy)
      .finish(v.extra);
}

Status fromJson(const Json& j, SystemQOSResource& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("cpuset", out.cpuset).field("cpusetExclusive", out.cpusetExclusive);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const SystemQOSResource& v) {
  return ObjectEncoder()
      .field("cpuset", v.cpuset)
      .field("cpusetExclusive", v.cpusetExclusive)
      .finish(v.extra);
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
