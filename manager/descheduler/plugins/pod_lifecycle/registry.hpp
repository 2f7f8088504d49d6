// The pod lifecycle descheduling plugins (RemoveFailedPods, PodLifeTime,
// RemovePodsHavingTooManyRestarts), each a Deschedule plugin, with their factories, for the
// koord-descheduler's plugin registry. Each call builds a fresh list; no state is shared.
#pragma once

#include <vector>

#include "manager/descheduler/framework/plugin.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

[[nodiscard]] std::vector<framework::RegisteredPlugin> podLifecyclePlugins();

}  // namespace koord::manager::descheduler::pod_lifecycle
