#include "manager/app/controllers.hpp"

#include <string>
#include <utility>

#include "koord/k8s/resource.hpp"
#include "manager/nodedevice/nodedevice_controller.hpp"
#include "manager/noderesource/node_resource_controller.hpp"
#include "manager/nodeslo/nodeslo_controller.hpp"

namespace koord::manager::app {
namespace {

Result<std::shared_ptr<sloconfig::SloConfigSource>> sloConfigSource(ControllerContext& context) {
  sloconfig::SloConfigSourceOptions options;
  options.metrics = &context.metrics;
  options.events = &context.events;
  options.logger = context.logger;
  KOORD_ASSIGN_OR_RETURN(auto source, sloconfig::SloConfigSource::create(std::move(options)));
  k8s::InformerScope scope;
  scope.ns = std::string(sloconfig::kSloControllerConfigNamespace);
  scope.field_selector = "metadata.name=" + std::string(sloconfig::kSloControllerConfigName);
  KOORD_ASSIGN_OR_RETURN(
      auto informer, context.factory.informerFor<api::core::ConfigMap>(k8s::kConfigMaps, scope));
  informer->addHandlers(source->handlers());
  source->setSynced([informer] { return informer->hasSynced(); });
  return source;
}

}  // namespace

Result<Controllers> addControllers(ControllerContext& context, controller::Manager& manager) {
  Controllers controllers;
  Result<std::shared_ptr<sloconfig::SloConfigSource>> source = sloConfigSource(context);
  if (!source.ok()) {
    return source.status().withPrefix("failed to watch slo-controller-config");
  }
  controllers.slo_config = *source;
  auto add = [&](Result<std::shared_ptr<controller::Controller>> built,
                 std::string_view name) -> Status {
    if (!built.ok()) {
      return built.status().withPrefix("failed to build the " + std::string(name) + " controller");
    }
    KOORD_RETURN_IF_ERROR(manager.add(*built));
    ++controllers.count;
    return Status::ok();
  };
  // The Device informer first: nodedevice registers it with its own decoder (a Device entry that
  // does not parse is skipped, not the whole Device).
  nodedevice::NodeDeviceDeps device{context.client, context.factory};
  device.metrics = &context.metrics;
  device.logger = context.logger;
  KOORD_RETURN_IF_ERROR(add(nodedevice::newNodeDeviceController(std::move(device)), "nodedevice"));
  nodeslo::NodeSloDeps slo{context.client, context.factory, controllers.slo_config};
  slo.metrics = &context.metrics;
  slo.logger = context.logger;
  KOORD_RETURN_IF_ERROR(add(nodeslo::newNodeSloController(std::move(slo)), "nodeslo"));
  noderesource::NodeResourceDeps resources{context.client,
                                           context.factory,
                                           controllers.slo_config,
                                           &context.metrics,
                                           context.logger,
                                           nullptr,
                                           {},
                                           2};
  KOORD_RETURN_IF_ERROR(
      add(noderesource::newNodeResourceController(std::move(resources)), "noderesource"));
  return controllers;
}

}  // namespace koord::manager::app
