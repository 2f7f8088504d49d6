// The metric every write of the resource executor is counted in, whatever its target (a cgroup
// file, a resctrl file, a network class): one family, so that a dashboard sums them.
#pragma once

#include <string_view>

namespace koord::agent::resourceexecutor {

// koord_agent_executor_writes_total{resource,result}: `resource` is cgroupResourceName() or
// kernelTargetName(); `result` is writeResultName().
inline constexpr std::string_view kExecutorWritesMetric = "koord_agent_executor_writes_total";
inline constexpr std::string_view kExecutorWritesHelp =
    "Cgroup updates of the resource executor by logical resource and result (ok, skipped, "
    "failed, refused).";

}  // namespace koord::agent::resourceexecutor
