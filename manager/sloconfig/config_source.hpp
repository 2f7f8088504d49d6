// SloConfigSource: the slo-controller-config koord-manager's controllers run on (the NodeSLO and
// NodeMetric controllers, the node resource controller), fed by the ConfigMap informer.
//
//   auto source = SloConfigSource::create({.metrics = &registry, .events = &recorder, ...});
//   configmap_informer->addHandlers(source->handlers());  //
//   koordinator-system/slo-controller-config source->subscribe([&] { nodeslo->enqueueAll(); }); //
//   every node again on a change std::shared_ptr<const SloControllerConfig> config =
//   source->current();
//
// Contract:
// - current() starts at Koordinator's defaults (SloControllerConfig{}) and is never null.
// - A ConfigMap added or updated (only koordinator-system/slo-controller-config is looked at; any
//   other is ignored) is parsed with parseSloControllerConfig. When it parses, the new config
//   replaces current() (only when it differs) and every subscriber is called. When it does not,
//   current() keeps the last good config, lastError() holds the parse error, a Warning Event with
//   reason "InvalidSloControllerConfig" and the error as message is recorded on the ConfigMap,
//   one log line says so, and the metrics below show it.
// - The ConfigMap deleted: current() returns to the defaults (Koordinator runs on its defaults
//   without the ConfigMap) and subscribers are called.
// - Subscribers are called on the thread that delivered the change, without any lock of the
//   source held; they must not block (enqueue work, do not do it).
//
// Metrics (options.metrics):
//   koord_manager_slo_config_valid            gauge: 1 while the latest ConfigMap parsed (or there
//                                             is none), 0 while the last good config is kept
//   koord_manager_slo_config_errors_total     counter: ConfigMap versions that did not parse
//   koord_manager_slo_config_updates_total    counter: configs taken into use
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "koord/api/core/objects.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/informer.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::sloconfig {

inline constexpr std::string_view kInvalidConfigReason = "InvalidSloControllerConfig";

struct SloConfigSourceOptions {
  metrics::MetricsRegistry* metrics = nullptr;  // must outlive the source; nullptr: none
  k8s::EventRecorder* events = nullptr;         // must outlive the source; nullptr: no Events
  log::Logger logger;
};

class SloConfigSource {
 public:
  // kAlreadyExists when the metric families clash with others in options.metrics.
  [[nodiscard]] static Result<std::shared_ptr<SloConfigSource>> create(
      SloConfigSourceOptions options);

  // The ConfigMap as an informer delivers it (see the contract).
  void onConfigMap(const api::core::ConfigMap& config_map);
  void onConfigMapDeleted(const api::core::ConfigMap& config_map);

  // Informer handlers calling the two above.
  [[nodiscard]] k8s::ResourceEventHandlers<api::core::ConfigMap> handlers();

  // Called after every change of current().
  void subscribe(std::function<void()> on_change);

  [[nodiscard]] std::shared_ptr<const SloControllerConfig> current() const;

  // Whether current() reflects the ConfigMap as the API server has it: the ConfigMap informer has
  // synced (the function given to setSynced; true when none was given). Until then current() is
  // the defaults only because nothing was read yet, and a controller must not act on it (it
  // would, for example, turn colocation off on every node at start-up).
  void setSynced(std::function<bool()> synced);
  [[nodiscard]] bool synced() const;
  // The parse error of the latest ConfigMap version, OK when it parsed or there is none.
  [[nodiscard]] Status lastError() const;

 private:
  explicit SloConfigSource(SloConfigSourceOptions options);
  Status initMetrics();
  void replace(std::shared_ptr<const SloControllerConfig> config);

  SloConfigSourceOptions options_;
  metrics::Gauge valid_;
  metrics::Counter errors_, updates_;

  mutable std::mutex mu_;
  std::shared_ptr<const SloControllerConfig> current_;  // guarded by mu_
  Status last_error_;                                   // guarded by mu_
  std::vector<std::function<void()>> subscribers_;      // guarded by mu_
  std::function<bool()> synced_;                        // guarded by mu_
};

// True for koordinator-system/slo-controller-config.
[[nodiscard]] bool isSloControllerConfig(const api::core::ObjectMeta& meta);

}  // namespace koord::manager::sloconfig
