// How many pods of a workload may be migrating, or unavailable, at once (Koordinator's
// GetMaxUnavailable / GetMaxMigrating, koordinator-reference.md 3(j)).
//
// maxUnavailable(replicas, v):
//   1. v set: an integer as is, a percentage as floor(v% x replicas); a result of 0 becomes 1.
//   2. v unset: more than 10 replicas -> floor(10% x replicas); 4..10 -> 2; fewer -> 1.
//   3. The result never exceeds replicas (so 0 replicas give 0).
// maxMigrating is the same function (Koordinator keeps two names for the two arguments).
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>

#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::migration {

[[nodiscard]] int64_t maxUnavailable(int64_t replicas,
                                     const std::optional<config::IntOrPercent>& value);
[[nodiscard]] int64_t maxMigrating(int64_t replicas,
                                   const std::optional<config::IntOrPercent>& value);

}  // namespace koord::manager::descheduler::migration
