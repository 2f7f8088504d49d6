// The kernel targets other than cgroup files that the resource executor writes
// (target_executor.hpp), and the rules their values follow. Nothing in koord-agent writes them
// yet: the resctrl and net-QoS strategies that will are not built.
//
//   kResctrlSchemata  <resctrl root>/<group>/schemata: one or more lines "<RESOURCE>:<id>=<value>"
//                     joined by ';' per domain, e.g. "L3:0=7ff;1=7ff" and "MB:0=100;1=100"; the
//                     canonical text has one line per resource, spaces removed, lines joined by
//                     '\n' in the given order
//   kResctrlTasks     <resctrl root>/<group>/tasks: one task id, 1..4194304 (PID_MAX_LIMIT); the
//                     kernel moves that task into the group
//   kNetQosClass      an HTB class of a network device: "rate=<bit/s> ceil=<bit/s>" (either order,
//                     whitespace separated), rate > 0 and ceil >= rate; canonical
//                     "rate=<n> ceil=<n>"
//
// Pure functions; thread-safe.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor {

enum class KernelTarget {
  kResctrlSchemata,
  kResctrlTasks,
  kNetQosClass,
};

inline constexpr std::array<KernelTarget, 3> kAllKernelTargets = {
    KernelTarget::kResctrlSchemata, KernelTarget::kResctrlTasks, KernelTarget::kNetQosClass};

// "resctrl_schemata", "resctrl_tasks", "net_qos_class": the `resource` label of
// koord_agent_executor_writes_total, and the name in logs.
[[nodiscard]] std::string_view kernelTargetName(KernelTarget target);

// True for the resctrl targets, false for kNetQosClass.
[[nodiscard]] bool isResctrlTarget(KernelTarget target);

// The canonical text of a value (see above), so that equal values compare equal.
// kInvalidArgument "failed to parse <name> value '<text>': <rule>" when it breaks the rules.
[[nodiscard]] Result<std::string> canonicalTargetValue(KernelTarget target, std::string_view text);

}  // namespace koord::agent::resourceexecutor
