#include "extender/simulator/basic/basic_plugins.hpp"

#include <string>

#include "extender/plugins/batch_resources/batch_resources.hpp"
#include "extender/plugins/builtin.hpp"
#include "extender/plugins/device_resources/device_resources.hpp"
#include "extender/plugins/node_reservation/node_reservation.hpp"
#include "extender/plugins/priority_qos/priority_qos.hpp"
#include "extender/plugins/reservation/reservation_plugin.hpp"
#include "extender/simulator/basic/node_filters.hpp"
#include "extender/simulator/basic/node_resources_fit.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::simulator::basic {

framework::Registry basicPlugins() {
  framework::Registry registry;
  // Distinct constant names: add() cannot fail.
  (void)registry.add(std::string(kNodeUnschedulableName), createNodeUnschedulable);
  (void)registry.add(std::string(kNodeNameName), createNodeName);
  (void)registry.add(std::string(kTaintTolerationName), createTaintToleration);
  (void)registry.add(std::string(kNodeAffinityName), createNodeAffinity);
  (void)registry.add(std::string(kNodeResourcesFitName), createNodeResourcesFit);
  return registry;
}

namespace {

void add(std::vector<framework::PluginConfig>& configs, std::string_view name, api::Json args) {
  framework::PluginConfig config;
  config.name = std::string(name);
  config.args = std::move(args);
  configs.push_back(std::move(config));
}

}  // namespace

std::vector<framework::PluginConfig> basicPluginConfigs() {
  std::vector<framework::PluginConfig> configs;
  auto add = [&configs](std::string_view name, api::Json args) {
    basic::add(configs, name, std::move(args));
  };
  add(kNodeUnschedulableName, nullptr);
  add(kNodeNameName, nullptr);
  add(kTaintTolerationName, nullptr);
  add(kNodeAffinityName, nullptr);
  // What the shipped scheduler configuration has kube-scheduler leave to koord-extender: the batch
  // and mid resources (BatchResources judges them) and the device resources registered with
  // ignoredByScheduler (DeviceResources judges them).
  add(kNodeResourcesFitName,
      api::Json{{"ignoredResources",
                 {std::string(api::kResourceBatchCPU), std::string(api::kResourceBatchMemory),
                  std::string(api::kResourceMidCPU), std::string(api::kResourceMidMemory),
                  std::string(api::kResourceGPU), std::string(api::kResourceGPUCore),
                  std::string(api::kResourceGPUMemory), std::string(api::kResourceGPUMemoryRatio),
                  std::string(api::kResourceGPUShared), std::string(api::kResourceRDMA)}}});
  return configs;
}

std::vector<framework::PluginConfig> defaultPluginConfigs() {
  std::vector<framework::PluginConfig> configs = basicPluginConfigs();
  add(configs, plugins::priority_qos::kName, nullptr);
  add(configs, plugins::node_reservation::kName, nullptr);
  add(configs, plugins::batch_resources::kName, nullptr);
  add(configs, plugins::device_resources::kName, nullptr);
  add(configs, plugins::reservation::kName, nullptr);
  return configs;
}

framework::Registry simulatorRegistry() {
  framework::Registry registry = basicPlugins();
  const framework::Registry builtin = plugins::builtinPlugins();
  for (const auto& name : builtin.names()) {
    // builtin names differ from the basic ones (kube-scheduler's names).
    (void)registry.add(name, *builtin.find(name));
  }
  return registry;
}

}  // namespace koord::extender::simulator::basic
