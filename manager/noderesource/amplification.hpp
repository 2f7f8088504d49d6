// Resource amplification (Koordinator v1.6): the node annotation
// node.koordinator.sh/resource-amplification-ratio ({"cpu":1.5}) and what it does to the node's
// allocatable. Pure; thread-safe. Two halves, as in Koordinator:
//
// 1. The ratio (slo-controller resourceamplification plugin; the node resource controller writes
//    it): when the node's resource-amplification-config strategy is enabled, its
//    resourceAmplificationRatio map; then cpu = (the configured cpu ratio, or 1 when none or <= 0)
//    x (the node's CPU normalization ratio, when > 0), set when the product is > 1. Every ratio
//    must be >= 1 (kInvalidArgument otherwise). No ratio: the annotation is removed. The text is
//    Go's json.Marshal of the map: keys sorted, shortest numbers ({"cpu":1.5,"memory":2}).
//
// 2. The allocatable (Koordinator's Node mutating webhook NodeResourceAmplificationPlugin, on
//    every Node UPDATE; amplifyNodeOnUpdate below is that mutation for koord-manager's Node
//    webhook): without the ratio annotation the raw-allocatable annotation is removed and nothing
//    else changes. With it, node.koordinator.sh/raw-allocatable ({"cpu":"32","memory":"100Gi"},
//    cpu and memory of status.allocatable as the kubelet reported them) is written when it is
//    absent or when the update changes allocatable cpu or memory (the kubelet reporting new
//    values); then allocatable[r] = raw[r] x ratio[r] for r in cpu, memory with a ratio > 1
//    (milli precision, truncated: Koordinator's MultiplyMilliQuant). Amplifying always starts from
//    the raw values, so a ratio is never applied twice. Koordinator caps nothing: an amplified
//    allocatable is above the capacity by design (the point of amplification), and so it is here.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"
#include "manager/sloconfig/resource_configs.hpp"

namespace koord::manager::noderesource {

using AmplificationRatios = std::map<std::string, double>;

// Part 1. `cpu_normalization_ratio`: the node's ratio (nullopt when it has none).
[[nodiscard]] Result<AmplificationRatios> amplificationRatiosFor(
    const sloconfig::ResourceAmplificationStrategy& strategy,
    std::optional<double> cpu_normalization_ratio);

// {"cpu":1.5} as Go writes it.
[[nodiscard]] std::string formatAmplificationRatios(const AmplificationRatios& ratios);
// The annotation's map; kInvalidArgument naming the annotation when it is not a JSON object of
// numbers.
[[nodiscard]] Result<AmplificationRatios> parseAmplificationRatios(std::string_view text);

// Part 2: mutates `node` (the object of a Node UPDATE; `old_node` the object before it, may be
// null). Errors (a ratio or raw-allocatable annotation that does not parse) leave `node`
// unchanged; Koordinator's webhook refuses the update with them.
[[nodiscard]] Status amplifyNodeOnUpdate(const api::core::Node* old_node, api::core::Node& node);

// Koordinator's MultiplyMilliQuant: milli x ratio truncated, in `q`'s format.
[[nodiscard]] resource::Quantity multiplyMilli(const resource::Quantity& q, double ratio);

}  // namespace koord::manager::noderesource
