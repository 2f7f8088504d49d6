// The built-in QoS strategies of koord-agent, listed in one place (no self-registration). Adding a
// strategy means its folder under strategies/ and one line in builtinStrategies() (and a line in
// kStrategyGates when a koordlet feature gate turns it on or off).
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "agent/qosmanager/framework/strategy.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies {

// What the built-in strategies are made from (the daemon's options).
struct StrategyArgs {
  // RuntimeReconcile, MemoryQOS and SystemConfig (koordlet's reconcile interval).
  Clock::Duration reconcile_interval = std::chrono::seconds(10);
  log::Logger logger;
  // Where strategies register the metrics of what they decided; null: no metrics. Must outlive
  // the strategies.
  metrics::MetricsRegistry* registry = nullptr;
};

// Every built-in strategy, in run order: RuntimeReconcile, CPUSuppress, CPUBurst, MemoryQOS,
// BEMemoryEvict, BECPUEvict, SystemConfig. CPU suppress runs before the reconciler's next pass
// reads its BE cpuset, and before BE CPU eviction reads the BE real limit.
[[nodiscard]] std::vector<std::unique_ptr<framework::Strategy>> builtinStrategies(
    const StrategyArgs& args);

// koordlet's feature gate for a built-in strategy, with koordlet's default.
struct StrategyGate {
  std::string_view gate;
  std::string_view strategy;
  bool default_on = false;
};

inline constexpr std::array<StrategyGate, 6> kStrategyGates = {{
    {"BECPUSuppress", "CPUSuppress", true},
    {"CPUBurst", "CPUBurst", true},
    {"CgroupReconcile", "MemoryQOS", false},
    {"BEMemoryEvict", "BEMemoryEvict", false},
    {"BECPUEvict", "BECPUEvict", false},
    {"SystemConfig", "SystemConfig", false},
}};

// Parses --feature-gates ("BEMemoryEvict=true,CPUBurst=false"; "" is none). kInvalidArgument
// naming the entry for one that is not "<gate>=<true|false>" or names a gate not in
// kStrategyGates.
[[nodiscard]] Result<std::map<std::string, bool, std::less<>>> parseFeatureGates(
    std::string_view text);

// The strategies the gates leave off: each gate's value in `gates`, else its default.
[[nodiscard]] std::set<std::string, std::less<>> strategiesOffByGates(
    const std::map<std::string, bool, std::less<>>& gates);

}  // namespace koord::agent::qosmanager::strategies
