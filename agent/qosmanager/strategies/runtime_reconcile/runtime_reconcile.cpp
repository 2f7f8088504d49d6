#include "agent/qosmanager/strategies/runtime_reconcile/runtime_reconcile.hpp"

namespace koord::agent::qosmanager::strategies::runtime_reconcile {

Status RuntimeReconcile::run(const framework::StrategyContext& context) {
  if (reconciler_ == nullptr || executor_ != &context.executor) {
    reconciler_ = std::make_unique<runtimehooks::Reconciler>(context.executor, logger_);
    executor_ = &context.executor;
  }
  runtimehooks::PodPlanInputs inputs;
  inputs.pods = context.pods;
  inputs.cpus = context.cpus;
  if (context.shared.be_cpuset.has_value() && !context.shared.be_cpuset->empty()) {
    // CPU suppress (policy cpuset) decides the BE containers' CPUs.
    inputs.cpus.be_pool = *context.shared.be_cpuset;
  }
  runtimehooks::ReconcileStats stats = reconciler_->reconcile(inputs);
  last_ = api::Json{{"pods", stats.pods},
                    {"updates", stats.updates},
                    {"be_cpuset", inputs.cpus.be_pool.toString()},
                    {"status", stats.status.toString()}};
  logger_.debug("reconciled pod cgroups",
                {{"pods", stats.pods}, {"updates", stats.updates}, {"status", stats.status}});
  return stats.status;
}

}  // namespace koord::agent::qosmanager::strategies::runtime_reconcile
