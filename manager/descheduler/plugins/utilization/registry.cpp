#include "manager/descheduler/plugins/utilization/registry.hpp"

#include <string>

#include "manager/descheduler/plugins/utilization/high_node_utilization.hpp"
#include "manager/descheduler/plugins/utilization/low_node_utilization.hpp"

namespace koord::manager::descheduler::utilization {

std::vector<framework::RegisteredPlugin> utilizationPlugins() {
  return {
      {std::string(kLowNodeUtilizationName), &createLowNodeUtilization},
      {std::string(kHighNodeUtilizationName), &createHighNodeUtilization},
  };
}

}  // namespace koord::manager::descheduler::utilization
