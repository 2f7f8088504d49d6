#include "agent/qosmanager/framework/strategy_metrics.hpp"

namespace koord::agent::qosmanager::framework {

metrics::Gauge strategyGauge(metrics::MetricsRegistry* registry, const log::Logger& logger,
                             const std::string& name, const std::string& help,
                             const std::vector<std::pair<std::string, std::string>>& labels) {
  if (registry == nullptr) {
    return {};
  }
  std::vector<std::string> names;
  std::vector<std::string> values;
  for (const auto& [label, value] : labels) {
    names.push_back(label);
    values.push_back(value);
  }
  Result<metrics::GaugeFamily> family = registry->gaugeFamily(name, help, names);
  Result<metrics::Gauge> gauge =
      family.ok() ? family->withLabels(values) : Result<metrics::Gauge>(family.status());
  if (!gauge.ok()) {
    logger.warn("cannot register a metric", {{"metric", name}, {"error", gauge.status()}});
    return {};
  }
  return *gauge;
}

}  // namespace koord::agent::qosmanager::framework
