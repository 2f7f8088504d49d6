#include "extender/plugins/kube/kube_plugins.hpp"

#include <string>
#include <utility>

#include "extender/plugins/kube/node_filters.hpp"
#include "extender/plugins/kube/node_resources_fit.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::kube {

framework::Registry kubePlugins() {
  framework::Registry registry;
  // Distinct constant names: add() cannot fail.
  (void)registry.add(std::string(kNodeUnschedulableName), createNodeUnschedulable);
  (void)registry.add(std::string(kNodeNameName), createNodeName);
  (void)registry.add(std::string(kTaintTolerationName), createTaintToleration);
  (void)registry.add(std::string(kNodeAffinityName), createNodeAffinity);
  (void)registry.add(std::string(kNodeResourcesFitName), createNodeResourcesFit);
  return registry;
}

std::vector<framework::PluginConfig> filterConfigs() {
  std::vector<framework::PluginConfig> configs;
  auto add = [&configs](std::string_view name, api::Json args) {
    framework::PluginConfig config;
    config.name = std::string(name);
    config.args = std::move(args);
    configs.push_back(std::move(config));
  };
  add(kNodeUnschedulableName, nullptr);
  add(kNodeNameName, nullptr);
  add(kTaintTolerationName, nullptr);
  add(kNodeAffinityName, nullptr);
  add(kNodeResourcesFitName,
      api::Json{{"ignoredResources",
                 {std::string(api::kResourceBatchCPU), std::string(api::kResourceBatchMemory),
                  std::string(api::kResourceMidCPU), std::string(api::kResourceMidMemory),
                  std::string(api::kResourceGPU), std::string(api::kResourceGPUCore),
                  std::string(api::kResourceGPUMemory), std::string(api::kResourceGPUMemoryRatio),
                  std::string(api::kResourceGPUShared), std::string(api::kResourceRDMA)}}});
  return configs;
}

}  // namespace koord::extender::plugins::kube
