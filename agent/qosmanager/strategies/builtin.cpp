#include "agent/qosmanager/strategies/builtin.hpp"

#include "agent/qosmanager/strategies/runtime_reconcile/runtime_reconcile.hpp"

namespace koord::agent::qosmanager::strategies {

std::vector<std::unique_ptr<framework::Strategy>> builtinStrategies(const StrategyArgs& args) {
  std::vector<std::unique_ptr<framework::Strategy>> out;
  out.push_back(
      std::make_unique<runtime_reconcile::RuntimeReconcile>(args.reconcile_interval, args.logger));
  return out;
}

}  // namespace koord::agent::qosmanager::strategies
