// Node-level reservations (apis/extension/node_reservation.go, system_qos.go):
//   node.koordinator.sh/reservation          NodeReservation (on the Node, copied to the NRT)
//   node.koordinator.sh/system-qos-resource  SystemQOSResource
// As in Koordinator, an empty node.koordinator.sh/reservation value reads as no reservation.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/extension/enum_codec.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

enum class NodeReservationApplyPolicy { kDefault, kReservedCPUsOnly };
constexpr std::array<EnumName<NodeReservationApplyPolicy>, 2> enumNames(
    NodeReservationApplyPolicy) {
  return {{{NodeReservationApplyPolicy::kDefault, "Default"},
           {NodeReservationApplyPolicy::kReservedCPUsOnly, "ReservedCPUsOnly"}}};
}
KOORD_API_ENUM_CODEC(NodeReservationApplyPolicy)

struct NodeReservation {
  resource::ResourceList resources;
  std::string reservedCPUs;  // Linux CPU list; overrides the cpu quantity when set
  std::optional<NodeReservationApplyPolicy> applyPolicy;  // unset reads as kDefault
  Json extra;

  bool operator==(const NodeReservation&) const = default;
};

// Koordinator's GetReservedCPUs count: with reservedCPUs set, 0 (the list itself is the
// reservation); otherwise the cpu quantity rounded up to whole cores (0 when absent).
[[nodiscard]] int64_t reservedCPUCount(const NodeReservation& reservation);

struct SystemQOSResource {
  std::string cpuset;                   // Linux CPU list for SYSTEM QoS pods
  std::optional<bool> cpusetExclusive;  // unset reads as true
  Json extra;

  bool operator==(const SystemQOSResource&) const = default;
};

[[nodiscard]] inline bool isCPUSetExclusive(const SystemQOSResource& r) {
  return r.cpusetExclusive.value_or(true);
}

Status fromJson(const Json& j, NodeReservation& out, const std::string& path);
Status fromJson(const Json& j, SystemQOSResource& out, const std::string& path);
Json toJson(const NodeReservation& v);
Json toJson(const SystemQOSResource& v);

[[nodiscard]] Result<NodeReservation> parseNodeReservation(std::string_view value);
[[nodiscard]] std::string formatNodeReservation(const NodeReservation& reservation);
[[nodiscard]] Result<SystemQOSResource> parseSystemQOSResource(std::string_view value);
[[nodiscard]] std::string formatSystemQOSResource(const SystemQOSResource& resource);

}  // namespace koord::api::extension
