// ReportCounter: koord_agent_reports_total{object,result}, one count per report the agent tries
// ("NodeResourceTopology", "Device", "NodeMetric"; result "created", "updated", "unchanged" or
// "failed"). Thread-safe; the registry must outlive it.
#pragma once

#include <string_view>

#include "agent/reporters/object_sync.hpp"
#include "koord/common/result.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::app {

class ReportCounter {
 public:
  // Registers the family. Errors: the registry's.
  [[nodiscard]] static Result<ReportCounter> create(metrics::MetricsRegistry& registry);

  // Counts one report of `object` with its outcome (an error is "failed").
  void count(std::string_view object, const Result<reporters::SyncOutcome>& outcome) const;

 private:
  explicit ReportCounter(metrics::CounterFamily family) : family_(family) {}

  metrics::CounterFamily family_;
};

}  // namespace koord::agent::app
