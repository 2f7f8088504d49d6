// RuntimeReconcile: the runtime reconciler of standalone mode (runtimehooks/reconciler.hpp) run as
// a QoS strategy. Every `interval`, and at once when the node's pods or Node change, it plans the
// cgroup settings of every pod on the node from its QoS class (runtimehooks/pod_plan.hpp) and
// hands them to the context's executor; what it writes is exactly what the Reconciler writes,
// except that BE containers get CPU suppress's cpuset (SharedDecisions::be_cpuset) when it has
// one, instead of the BE pool.
//
// Always enabled (koordlet's reconciler does not depend on the NodeSLO); the daemon turns it off
// with --disable-reconciler by naming it in SchedulerOptions::disabled.
#pragma once

#include <memory>
#include <string_view>

#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/runtimehooks/reconciler.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::qosmanager::strategies::runtime_reconcile {

class RuntimeReconcile final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "RuntimeReconcile";

  RuntimeReconcile(Clock::Duration interval, log::Logger logger)
      : interval_(interval), logger_(std::move(logger)) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return interval_; }
  [[nodiscard]] bool runsOnStateChange() const override { return true; }
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* /*node_slo*/) const override { return true; }
  // The executor's batch result: an error when some updates were not applied (each is in the
  // executor's log and metric); pods that were skipped are logged, not an error.
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // {"pods", "updates", "be_cpuset" (the CPUs BE containers were given), "status"}.
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  Clock::Duration interval_;
  log::Logger logger_;
  // Made at the first run over the context's executor (the same one on every run); it remembers
  // the pod folders of the previous pass, so that those of pods that left are forgotten.
  std::unique_ptr<runtimehooks::Reconciler> reconciler_;
  const resourceexecutor::ResourceExecutor* executor_ = nullptr;
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::runtime_reconcile
