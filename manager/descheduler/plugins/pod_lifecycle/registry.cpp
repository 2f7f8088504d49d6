#include "manager/descheduler/plugins/pod_lifecycle/registry.hpp"

#include <string>

#include "manager/descheduler/plugins/pod_lifecycle/pod_lifetime.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/remove_failed_pods.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/too_many_restarts.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

std::vector<framework::RegisteredPlugin> podLifecyclePlugins() {
  return {
      {std::string(kRemoveFailedPodsName), createRemoveFailedPods},
      {std::string(kPodLifeTimeName), createPodLifeTime},
      {std::string(kRemovePodsHavingTooManyRestartsName), createRemovePodsHavingTooManyRestarts},
  };
}

}  // namespace koord::manager::descheduler::pod_lifecycle
