#include "manager/descheduler/plugins/node_rules/registry.hpp"

#include <string>

#include "manager/descheduler/plugins/node_rules/node_affinity.hpp"
#include "manager/descheduler/plugins/node_rules/node_taints.hpp"

namespace koord::manager::descheduler::plugins::node_rules {

std::vector<framework::RegisteredPlugin> nodeRulesPlugins() {
  return {
      {std::string(kRemovePodsViolatingNodeAffinityName), createRemovePodsViolatingNodeAffinity},
      {std::string(kRemovePodsViolatingNodeTaintsName), createRemovePodsViolatingNodeTaints},
  };
}

}  // namespace koord::manager::descheduler::plugins::node_rules
