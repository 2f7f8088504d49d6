#include "manager/nodedevice/nodedevice_controller.hpp"

#include <string>
#include <utility>
#include <vector>

#include "koord/k8s/resource.hpp"
#include "manager/nodedevice/device_decoder.hpp"
#include "manager/nodedevice/events.hpp"

namespace koord::manager::nodedevice {

Result<std::shared_ptr<controller::Controller>> newNodeDeviceController(NodeDeviceDeps deps) {
  const log::Logger logger = deps.logger.child(std::string(kName));
  KOORD_ASSIGN_OR_RETURN(auto nodes, deps.informers.informerFor<api::core::Node>(k8s::kNodes));
  KOORD_ASSIGN_OR_RETURN(auto devices, deps.informers.informerFor<api::scheduling::Device>(
                                           k8s::kDevices, {}, deviceDecoder(logger)));

  NodeDeviceSources sources;
  sources.node = [nodes](const std::string& name) { return nodes->store().get(name); };
  sources.device = [devices](const std::string& name) { return devices->store().get(name); };
  sources.synced = [nodes, devices] { return nodes->hasSynced() && devices->hasSynced(); };
  KOORD_ASSIGN_OR_RETURN(
      std::shared_ptr<NodeDeviceReconciler> reconciler,
      NodeDeviceReconciler::create(deps.client, std::move(sources), deps.metrics, logger));

  controller::ControllerOptions options;
  options.name = std::string(kName);
  options.workers = deps.workers;
  options.reconcile = [reconciler](std::stop_token, const std::string& key) {
    return reconciler->reconcile(key);
  };
  options.list_keys = [nodes] { return nodes->store().listKeys(); };
  options.rate_limiter = std::move(deps.rate_limiter);
  options.clock = deps.clock;
  options.metrics = deps.metrics;
  options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::shared_ptr<controller::Controller> ctrl,
                         controller::Controller::create(std::move(options)));

  EnqueueNode enqueue = controller::weakEnqueuer(ctrl);
  nodes->addHandlers(nodeHandlers(enqueue));
  devices->addHandlers(deviceHandlers(enqueue));
  return ctrl;
}

}  // namespace koord::manager::nodedevice
