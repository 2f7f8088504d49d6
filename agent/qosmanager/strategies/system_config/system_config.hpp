// SystemConfig: koordlet's system config reconcile (qosmanager/plugins/sysreconcile) as a QoS
// strategy. Every interval it applies the NodeSLO's spec.systemStrategy to the node's kernel
// through the context's SystemConfigExecutor:
//   vm/min_free_kbytes        from minFreeKbytesFactor and the Node's status.capacity memory
//                             (system_config_formula.hpp), when the factor is set and the result
//                             lies in [10 MiB, 10 GiB];
//   vm/watermark_scale_factor watermarkScaleFactor, when set (10..400).
// Nothing is written when the NodeSLO has no systemStrategy (enabled() is false), for a field
// that is unset, or when the Node or its memory capacity is not known (koordlet skips the whole
// run then). Without a SystemConfigExecutor in the context (tests, a daemon without one) the run
// writes nothing and debugState says so.
//
// Errors: a field out of range is kInvalidArgument naming it (system_config_settings.hpp), and
// nothing is written. A setting the kernel lacks (kNotFound from the executor) is skipped, not an
// error; another write error is returned after both settings were tried.
//
// Metrics (when a registry is given): koord_agent_system_config_value{setting} is the value the
// setting holds after the run ("min_free_kbytes", "watermark_scale_factor"): the value applied,
// or the value read when it was not applied.
#pragma once

#include <optional>
#include <string_view>

#include "agent/qosmanager/framework/strategy.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies::system_config {

class SystemConfig final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "SystemConfig";

  // `interval`: koordlet runs it on --reconcile-interval-seconds (1 s); the daemon passes its
  // reconcile interval. `registry` may be null (no metrics) and must outlive the strategy.
  SystemConfig(Clock::Duration interval, log::Logger logger, metrics::MetricsRegistry* registry);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return interval_; }
  [[nodiscard]] bool runsOnStateChange() const override { return false; }
  // True when the NodeSLO has a spec.systemStrategy.
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* node_slo) const override;
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // {"memory_capacity_bytes", "reason" (when the run was skipped), "settings":
  //  {"min_free_kbytes": {"factor", "computed", "current", "action", "why"},
  //   "watermark_scale_factor": {"configured", "current", "action", "why"}}, "status"}.
  // "current" is the value read before the run (null when unreadable); "action" is "written",
  // "unchanged" (already the value), "not configured", "out of range" or "failed".
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  Clock::Duration interval_;
  log::Logger logger_;
  std::optional<metrics::GaugeFamily> values_;
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::system_config
