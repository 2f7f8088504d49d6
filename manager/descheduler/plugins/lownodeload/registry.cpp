#include "manager/descheduler/plugins/lownodeload/registry.hpp"

#include <string>

#include "manager/descheduler/plugins/lownodeload/low_node_load.hpp"

namespace koord::manager::descheduler::lownodeload {

std::vector<framework::RegisteredPlugin> lowNodeLoadPlugins() {
  return {framework::RegisteredPlugin{std::string(kLowNodeLoadName), createLowNodeLoad}};
}

}  // namespace koord::manager::descheduler::lownodeload
