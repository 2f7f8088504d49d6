// The calculation's ColocationStrategy (strategy.hpp) from slo-controller-config's
// colocation-config (koord_manager_sloconfig), for one node. Pure; thread-safe.
//
// toCalculationStrategy converts a sloconfig::ColocationStrategy (optional fields, policies as
// text) field by field; a field that is not set takes Koordinator's default (the value of a
// default-constructed noderesource::ColocationStrategy). It fails with kInvalidArgument when a
// value cannot be used: a cpuCalculatePolicy other than "usage" or "maxUsageRequest" (as
// Koordinator's IsColocationStrategyValid, "request" included), a memoryCalculatePolicy
// other than "usage", "request" or "maxUsageRequest", a midReclaimMode other than "dynamic" or
// "static", or any value validate() refuses. Every problem is named at once:
//   invalid colocation strategy: cpuCalculatePolicy "fast" is not one of usage, maxUsageRequest;
//   degradeTimeMinutes 0 must be > 0
//
// strategyForNode is the strategy the node resource controller runs a node on: the node's merged
// strategy (sloconfig::ColocationConfig::forNode: cluster fields, the first matching
// nodeConfigs[] entry, the node's colocation-strategy annotation and ratio labels) converted as
// above, except that `enable` is true only when the cluster-level colocation-config enables
// colocation too (Koordinator's isColocationCfgDisabled: a node cannot turn colocation on while the
// cluster has it off).
#pragma once

#include "koord/api/core/node.hpp"
#include "koord/common/result.hpp"
#include "manager/noderesource/strategy.hpp"
#include "manager/sloconfig/colocation.hpp"

namespace koord::manager::noderesource {

[[nodiscard]] Result<ColocationStrategy> toCalculationStrategy(
    const sloconfig::ColocationStrategy& config);

[[nodiscard]] Result<ColocationStrategy> strategyForNode(const sloconfig::ColocationConfig& config,
                                                         const api::core::Node& node);

}  // namespace koord::manager::noderesource
