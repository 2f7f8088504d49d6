// Taints and tolerations with Kubernetes semantics (core/v1 Toleration.ToleratesTaint and the
// scheduler's TaintToleration filter). Pure functions; thread-safe.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::api::core {

inline constexpr const char* kTaintEffectNoSchedule = "NoSchedule";
inline constexpr const char* kTaintEffectPreferNoSchedule = "PreferNoSchedule";
inline constexpr const char* kTaintEffectNoExecute = "NoExecute";

// Toleration.ToleratesTaint: an empty effect matches every effect; an empty key matches every key
// (only meaningful with Exists); operator "" or Equal compares values, Exists ignores them; any
// other operator tolerates nothing.
[[nodiscard]] bool tolerates(const Toleration& toleration, const Taint& taint);

// Some toleration in the list tolerates the taint.
[[nodiscard]] bool tolerationsTolerateTaint(const std::vector<Toleration>& tolerations,
                                            const Taint& taint);

// The first taint (in node order) for which `include` is true and no toleration tolerates it.
// A null `include` considers every taint.
[[nodiscard]] std::optional<Taint> findUntoleratedTaint(
    const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations,
    const std::function<bool(const Taint&)>& include);

// The first NoSchedule or NoExecute taint of the node the pod does not tolerate (what the
// scheduler's TaintToleration filter rejects on).
[[nodiscard]] std::optional<Taint> findUntoleratedSchedulingTaint(const Pod& pod, const Node& node);

// Taint.ToString(): "key=value:effect", "key:effect" when the value is empty.
[[nodiscard]] std::string taintToString(const Taint& taint);

}  // namespace koord::api::core
