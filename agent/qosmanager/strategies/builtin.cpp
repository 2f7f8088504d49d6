#include "agent/qosmanager/strategies/builtin.hpp"

#include "agent/qosmanager/strategies/cpu_burst/cpu_burst.hpp"
#include "agent/qosmanager/strategies/cpu_evict/cpu_evict.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/cpu_suppress.hpp"
#include "agent/qosmanager/strategies/memory_evict/memory_evict.hpp"
#include "agent/qosmanager/strategies/memory_qos/memory_qos.hpp"
#include "agent/qosmanager/strategies/runtime_reconcile/runtime_reconcile.hpp"
#include "agent/qosmanager/strategies/system_config/system_config.hpp"

namespace koord::agent::qosmanager::strategies {

std::vector<std::unique_ptr<framework::Strategy>> builtinStrategies(const StrategyArgs& args) {
  std::vector<std::unique_ptr<framework::Strategy>> out;
  out.push_back(
      std::make_unique<runtime_reconcile::RuntimeReconcile>(args.reconcile_interval, args.logger));
  out.push_back(std::make_unique<cpu_suppress::CpuSuppress>(cpu_suppress::CpuSuppressOptions{},
                                                            args.logger, args.registry));
  out.push_back(
      std::make_unique<cpu_burst::CpuBurst>(std::chrono::seconds(1), args.logger, args.registry));
  out.push_back(
      std::make_unique<memory_qos::MemoryQos>(args.reconcile_interval, args.logger, args.registry));
  out.push_back(std::make_unique<memory_evict::MemoryEvict>(memory_evict::MemoryEvictOptions{},
                                                            args.logger, args.registry));
  out.push_back(std::make_unique<cpu_evict::CpuEvict>(cpu_evict::CpuEvictOptions{}, args.logger,
                                                      args.registry));
  out.push_back(std::make_unique<system_config::SystemConfig>(args.reconcile_interval, args.logger,
                                                              args.registry));
  return out;
}

Result<std::map<std::string, bool, std::less<>>> parseFeatureGates(std::string_view text) {
  std::map<std::string, bool, std::less<>> gates;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view entry = text.substr(start, end - start);
    while (!entry.empty() && entry.front() == ' ') {
      entry.remove_prefix(1);
    }
    while (!entry.empty() && entry.back() == ' ') {
      entry.remove_suffix(1);
    }
    start = end + 1;
    if (entry.empty()) {
      continue;
    }
    const size_t equals = entry.find('=');
    const std::string_view name = entry.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : entry.substr(equals + 1);
    if (value != "true" && value != "false") {
      return Status::invalidArgument("invalid --feature-gates entry '" + std::string(entry) +
                                     "': want <gate>=true or <gate>=false");
    }
    bool known = false;
    for (const StrategyGate& gate : kStrategyGates) {
      known = known || gate.gate == name;
    }
    if (!known) {
      std::string names;
      for (const StrategyGate& gate : kStrategyGates) {
        names += (names.empty() ? "" : ", ") + std::string(gate.gate);
      }
      return Status::invalidArgument("unknown feature gate '" + std::string(name) +
                                     "' in --feature-gates: known gates are " + names);
    }
    gates[std::string(name)] = value == "true";
  }
  return gates;
}

std::set<std::string, std::less<>> strategiesOffByGates(
    const std::map<std::string, bool, std::less<>>& gates) {
  std::set<std::string, std::less<>> off;
  for (const StrategyGate& gate : kStrategyGates) {
    const auto found = gates.find(gate.gate);
    if (!(found == gates.end() ? gate.default_on : found->second)) {
      off.insert(std::string(gate.strategy));
    }
  }
  return off;
}

}  // namespace koord::agent::qosmanager::strategies
