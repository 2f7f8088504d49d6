// The built-in QoS strategies of koord-agent, listed in one place (no self-registration). Adding a
// strategy means its folder under strategies/ and one line in builtinStrategies().
#pragma once

#include <memory>
#include <vector>

#include "agent/qosmanager/framework/strategy.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies {

// What the built-in strategies are made from (the daemon's options).
struct StrategyArgs {
  Clock::Duration reconcile_interval = std::chrono::seconds(10);  // RuntimeReconcile
  log::Logger logger;
  // Where strategies register the metrics of what they decided; null: no metrics. Must outlive
  // the strategies.
  metrics::MetricsRegistry* registry = nullptr;
};

// Every built-in strategy, in run order: RuntimeReconcile.
[[nodiscard]] std::vector<std::unique_ptr<framework::Strategy>> builtinStrategies(
    const StrategyArgs& args);

}  // namespace koord::agent::qosmanager::strategies
