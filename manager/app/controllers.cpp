#include "manager/app/controllers.hpp"

#include <string>
#include <utility>

#include "koord/k8s/resource.hpp"

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
  return source;
}

}  // namespace

Result<Controllers> addControllers(ControllerContext& context, controller::Manager& manager) {
  (void)manager;
  Controllers controllers;
  Result<std::shared_ptr<sloconfig::SloConfigSource>> source = sloConfigSource(context);
  if (!source.ok()) {
    return source.status().withPrefix("failed to watch slo-controller-config");
  }
  controllers.slo_config = *source;
  return controllers;
}

}  // namespace koord::manager::app
