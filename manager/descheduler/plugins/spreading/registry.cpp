#include "manager/descheduler/plugins/spreading/registry.hpp"

#include <string>

#include "manager/descheduler/plugins/spreading/pod_anti_affinity.hpp"
#include "manager/descheduler/plugins/spreading/remove_duplicates.hpp"
#include "manager/descheduler/plugins/spreading/topology_spread.hpp"

namespace koord::manager::descheduler::plugins::spreading {

std::vector<framework::RegisteredPlugin> spreadingPlugins() {
  return {
      {std::string(kRemoveDuplicatesName), createRemoveDuplicates},
      {std::string(kRemovePodsViolatingInterPodAntiAffinityName),
       createRemovePodsViolatingInterPodAntiAffinity},
      {std::string(kRemovePodsViolatingTopologySpreadConstraintName),
       createRemovePodsViolatingTopologySpreadConstraint},
  };
}

}  // namespace koord::manager::descheduler::plugins::spreading
