// The pods the metric collectors read, from the pass's PodCgroups: every pod that is not in a
// terminal phase and has a cgroup folder, with its started containers that have one.
#pragma once

#include <memory>
#include <vector>

#include "agent/metricsadvisor/pod_collector.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"

namespace koord::agent::app {

[[nodiscard]] std::shared_ptr<const std::vector<metricsadvisor::PodCgroup>> collectedPods(
    const resourceexecutor::PodCgroups& pods);

}  // namespace koord::agent::app
