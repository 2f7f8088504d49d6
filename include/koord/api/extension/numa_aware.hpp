// Pod-level CPU and NUMA payloads (apis/extension/numa_aware.go):
//   scheduling.koordinator.sh/resource-spec       ResourceSpec      (user input)
//   scheduling.koordinator.sh/resource-status     ResourceStatus    (written by the scheduler)
//   scheduling.koordinator.sh/numa-topology-spec  NUMATopologySpec  (user input)
// Models keep unknown keys in `extra`; see annotation.hpp for the error format.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/extension/enum_codec.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

enum class CPUBindPolicy { kDefault, kFullPCPUs, kSpreadByPCPUs, kConstrainedBurst };
constexpr std::array<EnumName<CPUBindPolicy>, 4> enumNames(CPUBindPolicy) {
  return {{{CPUBindPolicy::kDefault, "Default"},
           {CPUBindPolicy::kFullPCPUs, "FullPCPUs"},
           {CPUBindPolicy::kSpreadByPCPUs, "SpreadByPCPUs"},
           {CPUBindPolicy::kConstrainedBurst, "ConstrainedBurst"}}};
}
KOORD_API_ENUM_CODEC(CPUBindPolicy)

enum class CPUExclusivePolicy { kNone, kPCPULevel, kNUMANodeLevel };
constexpr std::array<EnumName<CPUExclusivePolicy>, 3> enumNames(CPUExclusivePolicy) {
  return {{{CPUExclusivePolicy::kNone, "None"},
           {CPUExclusivePolicy::kPCPULevel, "PCPULevel"},
           {CPUExclusivePolicy::kNUMANodeLevel, "NUMANodeLevel"}}};
}
KOORD_API_ENUM_CODEC(CPUExclusivePolicy)

// Also the value of the node label node.koordinator.sh/numa-topology-policy; kNone is "".
enum class NUMATopologyPolicy { kNone, kBestEffort, kRestricted, kSingleNUMANode };
constexpr std::array<EnumName<NUMATopologyPolicy>, 4> enumNames(NUMATopologyPolicy) {
  return {{{NUMATopologyPolicy::kNone, ""},
           {NUMATopologyPolicy::kBestEffort, "BestEffort"},
           {NUMATopologyPolicy::kRestricted, "Restricted"},
           {NUMATopologyPolicy::kSingleNUMANode, "SingleNUMANode"}}};
}
KOORD_API_ENUM_CODEC(NUMATopologyPolicy)

enum class NumaTopologyExclusive { kPreferred, kRequired };
constexpr std::array<EnumName<NumaTopologyExclusive>, 2> enumNames(NumaTopologyExclusive) {
  return {{{NumaTopologyExclusive::kPreferred, "Preferred"},
           {NumaTopologyExclusive::kRequired, "Required"}}};
}
KOORD_API_ENUM_CODEC(NumaTopologyExclusive)

struct ResourceSpec {
  std::optional<CPUBindPolicy> requiredCPUBindPolicy;
  std::optional<CPUBindPolicy> preferredCPUBindPolicy;
  std::optional<CPUExclusivePolicy> preferredCPUExclusivePolicy;
  Json extra;

  bool operator==(const ResourceSpec&) const = default;
};

struct NUMANodeResource {
  int32_t node = 0;  // always written
  resource::ResourceList resources;
  Json extra;

  bool operator==(const NUMANodeResource&) const = default;
};

struct ResourceStatus {
  std::string cpuset;  // Linux CPU list, e.g. "0-3"
  std::vector<NUMANodeResource> numaNodeResources;
  Json extra;

  bool operator==(const ResourceStatus&) const = default;
};

struct NUMATopologySpec {
  NUMATopologyPolicy numaTopologyPolicy = NUMATopologyPolicy::kNone;  // omitted when kNone
  std::optional<NumaTopologyExclusive> singleNUMANodeExclusive;
  Json extra;

  bool operator==(const NUMATopologySpec&) const = default;
};

Status fromJson(const Json& j, ResourceSpec& out, const std::string& path);
Status fromJson(const Json& j, NUMANodeResource& out, const std::string& path);
Status fromJson(const Json& j, ResourceStatus& out, const std::string& path);
Status fromJson(const Json& j, NUMATopologySpec& out, const std::string& path);
Json toJson(const ResourceSpec& v);
Json toJson(const NUMANodeResource& v);
Json toJson(const ResourceStatus& v);
Json toJson(const NUMATopologySpec& v);

[[nodiscard]] Result<ResourceSpec> parseResourceSpec(std::string_view value);
[[nodiscard]] std::string formatResourceSpec(const ResourceSpec& spec);
[[nodiscard]] Result<ResourceStatus> parseResourceStatus(std::string_view value);
[[nodiscard]] std::string formatResourceStatus(const ResourceStatus& status);
[[nodiscard]] Result<NUMATopologySpec> parseNUMATopologySpec(std::string_view value);
[[nodiscard]] std::string formatNUMATopologySpec(const NUMATopologySpec& spec);

}  // namespace koord::api::extension
