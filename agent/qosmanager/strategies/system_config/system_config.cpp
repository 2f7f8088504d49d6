#include "agent/qosmanager/strategies/system_config/system_config.hpp"

#include <string>
#include <utility>

#include "agent/qosmanager/strategies/system_config/system_config_formula.hpp"
#include "agent/qosmanager/strategies/system_config/system_config_settings.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::qosmanager::strategies::system_config {

namespace {

using resourceexecutor::SystemSetting;

api::Json optionalJson(const std::optional<int64_t>& value) {
  return value.has_value() ? api::Json(*value) : api::Json(nullptr);
}

}  // namespace

SystemConfig::SystemConfig(Clock::Duration interval, log::Logger logger,
                           metrics::MetricsRegistry* registry)
    : interval_(interval), logger_(std::move(logger)) {
  if (registry != nullptr) {
    Result<metrics::GaugeFamily> family = registry->gaugeFamily(
        "koord_agent_system_config_value",
        "The value of a node-wide kernel setting after the last system config run "
        "(min_free_kbytes in KiB, watermark_scale_factor in 1/10000 of memory).",
        {"setting"});
    if (family.ok()) {
      values_ = *family;
    } else {
      logger_.warn("failed to register metric",
                   {{"metric", "koord_agent_system_config_value"}, {"error", family.status()}});
    }
  }
}

bool SystemConfig::enabled(const api::slo::NodeSLO* node_slo) const {
  return node_slo != nullptr && node_slo->spec.systemStrategy.has_value();
}

Status SystemConfig::run(const framework::StrategyContext& context) {
  const std::shared_ptr<const api::slo::NodeSLO> node_slo = context.states.nodeSLO();
  if (node_slo == nullptr || !node_slo->spec.systemStrategy.has_value()) {
    last_ = api::Json{{"reason", "the NodeSLO has no systemStrategy: nothing written"},
                      {"status", "OK"}};
    return Status::ok();
  }
  Result<SystemConfigSettings> settings = systemConfigSettingsFrom(*node_slo->spec.systemStrategy);
  if (!settings.ok()) {
    last_ = api::Json{{"status", settings.status().toString()}};
    return settings.status();
  }
  resourceexecutor::SystemConfigExecutor* executor = context.system_config;
  if (executor == nullptr) {
    last_ = api::Json{
        {"reason", "no system config executor in this daemon: vm settings are not written"},
        {"status", "OK"}};
    return Status::ok();
  }
  int64_t capacity = 0;
  if (const std::shared_ptr<const api::core::Node> node = context.states.node()) {
    const auto it = node->status.capacity.find(api::kResourceMemory);
    capacity = it == node->status.capacity.end() ? 0 : it->second.value();
  }
  if (capacity <= 0) {
    last_ = api::Json{{"memory_capacity_bytes", capacity},
                      {"reason", "the Node's memory capacity is not known: nothing written"},
                      {"status", "OK"}};
    return Status::ok();
  }

  Status first_error;
  // Sets koord_agent_system_config_value{setting}.
  auto report = [&](SystemSetting setting, int64_t value) {
    if (!values_) {
      return;
    }
    const Result<metrics::Gauge> gauge =
        values_->withLabels({resourceexecutor::systemSettingName(setting)});
    if (gauge.ok()) {
      gauge->set(static_cast<double>(value));
    }
  };
  // Applies `value` to `setting` and fills `entry`'s "current", "action" and "why".
  auto apply = [&](SystemSetting setting, int64_t value, const std::string& reason,
                   api::Json& entry) {
    const Result<int64_t> current = executor->get(setting);
    entry["current"] = current.ok() ? api::Json(*current) : api::Json(nullptr);
    bool known = current.ok();  // whether `after` is the value the kernel holds now
    int64_t after = current.ok() ? *current : 0;
    if (current.ok() && *current == value) {
      entry["action"] = "unchanged";
    } else if (const Status status = executor->set(setting, value, reason); status.isOk()) {
      entry["action"] = "written";
      known = true;
      after = value;
    } else {
      entry["action"] = "failed";
      entry["why"] = status.toString();
      if (status.code() != StatusCode::kNotFound && first_error.isOk()) {
        first_error = status;
      }
    }
    if (known) {
      report(setting, after);
    }
  };

  api::Json min_free = api::Json{{"factor", optionalJson(settings->min_free_kbytes_factor)}};
  if (!settings->min_free_kbytes_factor.has_value()) {
    min_free["action"] = "not configured";
  } else {
    const int64_t factor = *settings->min_free_kbytes_factor;
    const int64_t kbytes = minFreeKbytes(capacity, factor);
    min_free["computed"] = kbytes;
    if (!minFreeKbytesInRange(kbytes)) {
      const Result<int64_t> current = executor->get(SystemSetting::kMinFreeKbytes);
      min_free["current"] = current.ok() ? api::Json(*current) : api::Json(nullptr);
      if (current.ok()) {
        report(SystemSetting::kMinFreeKbytes, *current);
      }
      min_free["action"] = "out of range";
      min_free["why"] = "computed " + std::to_string(kbytes) + " KiB is outside [" +
                        std::to_string(kMinFreeKbytesLowest) + ", " +
                        std::to_string(kMinFreeKbytesHighest) + "] KiB";
    } else {
      apply(SystemSetting::kMinFreeKbytes, kbytes,
            "system_config: minFreeKbytesFactor " + std::to_string(factor) + " of " +
                std::to_string(capacity / 1024) + " KiB",
            min_free);
    }
  }

  api::Json watermark = api::Json{{"configured", optionalJson(settings->watermark_scale_factor)}};
  if (!settings->watermark_scale_factor.has_value()) {
    watermark["action"] = "not configured";
  } else {
    apply(
        SystemSetting::kWatermarkScaleFactor, *settings->watermark_scale_factor,
        "system_config: watermarkScaleFactor " + std::to_string(*settings->watermark_scale_factor),
        watermark);
  }

  last_ = api::Json{{"memory_capacity_bytes", capacity},
                    {"settings",
                     {{"min_free_kbytes", std::move(min_free)},
                      {"watermark_scale_factor", std::move(watermark)}}},
                    {"status", first_error.toString()}};
  logger_.debug("applied system config", {{"status", first_error}});
  return first_error;
}

}  // namespace koord::agent::qosmanager::strategies::system_config
