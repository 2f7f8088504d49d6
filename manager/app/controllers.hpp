// koord-manager's controllers, built on the shared informers and added to the Manager (they run
// while this replica leads): the slo-controller-config source every controller reads, then one
// line per controller.
#pragma once

#include <memory>

#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/controller/manager.hpp"
#include "manager/sloconfig/config_source.hpp"

namespace koord::manager::app {

struct ControllerContext {
  k8s::Client& client;
  k8s::SharedInformerFactory& factory;  // informers are created here; the caller starts them
  k8s::EventRecorder& events;
  metrics::MetricsRegistry& metrics;
  log::Logger logger;
};

// The controllers' shared state; lives as long as the controllers.
struct Controllers {
  std::shared_ptr<sloconfig::SloConfigSource> slo_config;
  int count = 0;  // controllers added to the Manager
};

// Creates the slo-controller-config informer (koordinator-system/slo-controller-config) and
// source, every controller and their informers, and adds the controllers to `manager`. Fails
// naming the controller that could not be built.
[[nodiscard]] Result<Controllers> addControllers(ControllerContext& context,
                                                 controller::Manager& manager);

}  // namespace koord::manager::app
