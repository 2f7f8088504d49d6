// The memory QoS settings of each pod, from the NodeSLO's spec.resourceQOSStrategy merged with
// koordlet's defaults and the pod's koordinator.sh/memoryQOS annotation
// (koordlet cgreconcile's getMergedPodResourceQoS and statesinformer's
// mergeNoneMemoryQOSIfDisabled).
//
// Per Koordinator QoS class (LSE uses the LSR class, as in koordlet), the class's memoryQOS is
// merged field by field onto koordlet's DefaultMemoryQOS(class) (reference 5.1: minLimitPercent
// 0, lowLimitPercent 0, throttlingPercent 0 for every class). A class whose `enable` is not true
// (unset reads as false, koordlet's default) gets NoneMemoryQOS instead: 0, 0, 0, i.e. memory.min
// 0, memory.low 0 and memory.high "max" (the kernel's defaults, so a disabled class is reset).
//
// The annotation `koordinator.sh/memoryQOS` is {"policy": "auto"|"default"|"none", ...fields}:
//   none     NoneMemoryQOS, whatever the node or the other fields say;
//   auto     koordlet's built-in DefaultMemoryQOS of the pod's class (0, 0, 0 for every class:
//            koordlet's recommended profile turns the three memcg knobs off), then the fields;
//   default  (or no policy) the node's class settings, then the fields.
// The fields (minLimitPercent, lowLimitPercent, throttlingPercent; the other MemoryQOS fields are
// accepted and ignored) override one by one, as koordlet's MergeCfg does.
//
// Only the three knobs koord-agent writes are modelled: the wmark*, priority and oomKillGroup
// fields are Anolis-kernel files that no CgroupResource covers; they are accepted and not written.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "koord/api/slo/resource_qos.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::qosmanager::strategies::memory_qos {

// Percentages, each 0..100.
struct MemoryQosProfile {
  int64_t min_limit_percent = 0;   // memory.min = request × this / 100
  int64_t low_limit_percent = 0;   // memory.low = request × this / 100
  int64_t throttling_percent = 0;  // memory.high between request and limit; 0: "max"

  bool operator==(const MemoryQosProfile&) const = default;
};

// koordlet's DefaultMemoryQOS(qos) for the three knobs (the `auto` policy): 0, 0, 0 for every
// class.
[[nodiscard]] MemoryQosProfile defaultMemoryQosProfile(api::QoSClass qos);
// koordlet's NoneMemoryQOS (a disabled class, the `none` policy): 0, 0, 0.
[[nodiscard]] MemoryQosProfile noneMemoryQosProfile();

// One class's settings as the node configures them.
struct ClassMemoryQos {
  bool enabled = false;      // memoryQOS.enable == true
  MemoryQosProfile profile;  // the merged profile when enabled, NoneMemoryQOS otherwise
};

struct MemoryQosConfig {
  ClassMemoryQos lsr;
  ClassMemoryQos ls;
  ClassMemoryQos be;
  ClassMemoryQos system;

  // The settings of `qos`'s class (LSE: LSR's); null for kNone.
  [[nodiscard]] const ClassMemoryQos* forClass(api::QoSClass qos) const;
};

// The node's settings per class. kInvalidArgument naming the field
// ("resourceQOSStrategy.lsClass.memoryQOS.minLimitPercent is 150: must be 0..100") when a present
// percentage is outside 0..100, in any class (enabled or not).
[[nodiscard]] Result<MemoryQosConfig> memoryQosConfigFrom(
    const api::slo::ResourceQOSStrategy& strategy);

enum class PodMemoryQosPolicy { kDefault, kAuto, kNone };

// "default", "auto", "none".
[[nodiscard]] std::string_view podMemoryQosPolicyName(PodMemoryQosPolicy policy);

// A pod's koordinator.sh/memoryQOS annotation.
struct PodMemoryQosOverride {
  PodMemoryQosPolicy policy = PodMemoryQosPolicy::kDefault;  // "" reads as default
  std::optional<int64_t> min_limit_percent;
  std::optional<int64_t> low_limit_percent;
  std::optional<int64_t> throttling_percent;
};

// The pod's annotation; nullopt without one. kInvalidArgument
// "annotation koordinator.sh/memoryQOS: <why>" for text that is not a JSON object, a policy other
// than "auto", "default", "none" or "", a field of the wrong type or a percentage outside 0..100.
[[nodiscard]] Result<std::optional<PodMemoryQosOverride>> parsePodMemoryQos(
    const std::map<std::string, std::string>& annotations);

// What one pod gets.
struct PodMemoryQos {
  // "node" (no annotation), or the annotation's policy name.
  std::string policy;
  MemoryQosProfile profile;
};

// The pod's settings from its class's node settings and its annotation (see the header comment).
[[nodiscard]] PodMemoryQos resolvePodMemoryQos(const ClassMemoryQos& node_class, api::QoSClass qos,
                                               const std::optional<PodMemoryQosOverride>& pod);

}  // namespace koord::agent::qosmanager::strategies::memory_qos
