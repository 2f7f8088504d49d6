#include "extender/plugins/builtin.hpp"

#include <string>

#include "extender/plugins/batch_resources/batch_resources.hpp"
#include "extender/plugins/device_resources/device_resources.hpp"
#include "extender/plugins/node_reservation/node_reservation.hpp"
#include "extender/plugins/priority_qos/priority_qos.hpp"
#include "extender/plugins/reservation/reservation_plugin.hpp"

namespace koord::extender::plugins {

framework::Registry builtinPlugins() {
  framework::Registry registry;
  // The names are distinct constants, so add() cannot fail here.
  (void)registry.add(std::string(node_reservation::kName), node_reservation::create);
  (void)registry.add(std::string(priority_qos::kName), priority_qos::create);
  (void)registry.add(std::string(batch_resources::kName), batch_resources::create);
  (void)registry.add(std::string(device_resources::kName), device_resources::create);
  (void)registry.add(std::string(reservation::kName), reservation::create);
  return registry;
}

}  // namespace koord::extender::plugins
