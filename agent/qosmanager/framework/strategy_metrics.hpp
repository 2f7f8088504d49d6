// How a QoS strategy registers the gauges of what it decided: a strategy works the same with or
// without metrics, so a missing registry or a failed registration gives a no-op gauge (the
// failure is logged once, naming the metric) rather than an error.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::framework {

// The gauge `name` with the given label names and values (none: an unlabelled gauge); a no-op
// gauge when `registry` is null or the registry refuses it (logged as a warning).
[[nodiscard]] metrics::Gauge strategyGauge(
    metrics::MetricsRegistry* registry, const log::Logger& logger, const std::string& name,
    const std::string& help, const std::vector<std::pair<std::string, std::string>>& labels = {});

}  // namespace koord::agent::qosmanager::framework
