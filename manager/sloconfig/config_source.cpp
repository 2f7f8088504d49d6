#include "manager/sloconfig/config_source.hpp"

#include <utility>

namespace koord::manager::sloconfig {

bool isSloControllerConfig(const api::core::ObjectMeta& meta) {
  return meta.name == kSloControllerConfigName && meta.namespace_ == kSloControllerConfigNamespace;
}

Result<std::shared_ptr<SloConfigSource>> SloConfigSource::create(SloConfigSourceOptions options) {
  std::shared_ptr<SloConfigSource> source(new SloConfigSource(std::move(options)));
  KOORD_RETURN_IF_ERROR(source->initMetrics());
  return source;
}

SloConfigSource::SloConfigSource(SloConfigSourceOptions options)
    : options_(std::move(options)), current_(std::make_shared<const SloControllerConfig>()) {}

Status SloConfigSource::initMetrics() {
  metrics::MetricsRegistry* registry = options_.metrics;
  if (registry == nullptr) {
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(auto valid,
                         registry->gaugeFamily("koord_manager_slo_config_valid",
                                               "1 while the latest slo-controller-config parsed "
                                               "(or there is none), 0 while the last good "
                                               "configuration is kept."));
  KOORD_ASSIGN_OR_RETURN(valid_, valid.withLabels({}));
  valid_.set(1);
  KOORD_ASSIGN_OR_RETURN(
      auto errors, registry->counterFamily("koord_manager_slo_config_errors_total",
                                           "slo-controller-config versions that did not parse."));
  KOORD_ASSIGN_OR_RETURN(errors_, errors.withLabels({}));
  KOORD_ASSIGN_OR_RETURN(auto updates,
                         registry->counterFamily("koord_manager_slo_config_updates_total",
                                                 "slo-controller-config versions taken into use."));
  KOORD_ASSIGN_OR_RETURN(updates_, updates.withLabels({}));
  return Status::ok();
}

void SloConfigSource::onConfigMap(const api::core::ConfigMap& config_map) {
  if (!isSloControllerConfig(config_map.metadata)) {
    return;
  }
  std::map<std::string, std::string> data(config_map.data.begin(), config_map.data.end());
  Result<SloControllerConfig> parsed = parseSloControllerConfig(data);
  if (!parsed.ok()) {
    {
      std::lock_guard lock(mu_);
      last_error_ = parsed.status();
    }
    valid_.set(0);
    errors_.inc();
    options_.logger.warn("slo-controller-config rejected; keeping the last good configuration",
                         {{"resourceVersion", config_map.metadata.resourceVersion},
                          {"error", parsed.status().message()}});
    if (options_.events != nullptr) {
      api::core::ObjectReference ref;
      ref.apiVersion = "v1";
      ref.kind = "ConfigMap";
      ref.namespace_ = config_map.metadata.namespace_;
      ref.name = config_map.metadata.name;
      ref.uid = config_map.metadata.uid;
      ref.resourceVersion = config_map.metadata.resourceVersion;
      options_.events->event(ref, k8s::EventType::kWarning, std::string(kInvalidConfigReason),
                             parsed.status().message());
    }
    return;
  }
  {
    std::lock_guard lock(mu_);
    last_error_ = Status::ok();
  }
  valid_.set(1);
  replace(std::make_shared<const SloControllerConfig>(std::move(*parsed)));
}

void SloConfigSource::onConfigMapDeleted(const api::core::ConfigMap& config_map) {
  if (!isSloControllerConfig(config_map.metadata)) {
    return;
  }
  {
    std::lock_guard lock(mu_);
    last_error_ = Status::ok();
  }
  valid_.set(1);
  options_.logger.info("slo-controller-config deleted; running on Koordinator's defaults");
  replace(std::make_shared<const SloControllerConfig>());
}

void SloConfigSource::replace(std::shared_ptr<const SloControllerConfig> config) {
  std::vector<std::function<void()>> subscribers;
  {
    std::lock_guard lock(mu_);
    if (*current_ == *config) {
      return;
    }
    current_ = std::move(config);
    subscribers = subscribers_;
  }
  updates_.inc();
  options_.logger.info("slo-controller-config taken into use");
  for (const auto& subscriber : subscribers) {
    subscriber();
  }
}

k8s::ResourceEventHandlers<api::core::ConfigMap> SloConfigSource::handlers() {
  k8s::ResourceEventHandlers<api::core::ConfigMap> h;
  h.onAdd = [this](const std::shared_ptr<const api::core::ConfigMap>& cm) { onConfigMap(*cm); };
  h.onUpdate = [this](const std::shared_ptr<const api::core::ConfigMap>&,
                      const std::shared_ptr<const api::core::ConfigMap>& cm) { onConfigMap(*cm); };
  h.onDelete = [this](const std::shared_ptr<const api::core::ConfigMap>& cm) {
    onConfigMapDeleted(*cm);
  };
  return h;
}

void SloConfigSource::subscribe(std::function<void()> on_change) {
  std::lock_guard lock(mu_);
  subscribers_.push_back(std::move(on_change));
}

std::shared_ptr<const SloControllerConfig> SloConfigSource::current() const {
  std::lock_guard lock(mu_);
  return current_;
}

void SloConfigSource::setSynced(std::function<bool()> synced) {
  std::lock_guard lock(mu_);
  synced_ = std::move(synced);
}

bool SloConfigSource::synced() const {
  std::function<bool()> synced;
  {
    std::lock_guard lock(mu_);
    synced = synced_;
  }
  return !synced || synced();
}

Status SloConfigSource::lastError() const {
  std::lock_guard lock(mu_);
  return last_error_;
}

}  // namespace koord::manager::sloconfig
