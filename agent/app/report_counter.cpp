#include "agent/app/report_counter.hpp"

namespace koord::agent::app {

Result<ReportCounter> ReportCounter::create(metrics::MetricsRegistry& registry) {
  KOORD_ASSIGN_OR_RETURN(
      metrics::CounterFamily family,
      registry.counterFamily("koord_agent_reports_total", "Reports written to the API server.",
                             {"object", "result"}));
  return ReportCounter(family);
}

void ReportCounter::count(std::string_view object,
                          const Result<reporters::SyncOutcome>& outcome) const {
  const char* result = !outcome.ok()                                  ? "failed"
                       : *outcome == reporters::SyncOutcome::kCreated ? "created"
                       : *outcome == reporters::SyncOutcome::kUpdated ? "updated"
                                                                      : "unchanged";
  auto counter = family_.withLabels({object, result});
  if (counter.ok()) {
    counter->inc();
  }
}

}  // namespace koord::agent::app
