// NodeMetricReport: the daemon's NodeMetric status report. Each run holds the NodeMetric's
// collect policy to the agent's bounds (corrections go to ProblemEvents as source
// "metric-collect-policy"), builds the status from the metric cache, trims it to its size budget
// and syncs it. A status that cannot fit, or that the API server refuses as too large, is not
// retried with backoff (the next report builds a new one); other failures are.
//
// Every reference must outlive the report. Thread-compatible: the daemon's loop calls it.
#pragma once

#include <chrono>
#include <cstddef>

#include "agent/app/backoff.hpp"
#include "agent/app/report_counter.hpp"
#include "agent/metriccache/metric_cache.hpp"
#include "agent/reporters/node_metric.hpp"
#include "agent/reporters/problem_events.hpp"
#include "agent/statesinformer/states_informer.hpp"
#include "koord/common/clock.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::app {

class NodeMetricReport {
 public:
  // `retention` is how far back the node series reach (their capacity × the collect interval).
  NodeMetricReport(k8s::Client& client, const statesinformer::StatesInformer& states,
                   const metriccache::MetricCache& cache, std::chrono::seconds retention,
                   const ReportCounter& counter, reporters::ProblemEvents& events,
                   log::Logger logger);

  // Whether the backoff of a failed report has passed at `now`.
  [[nodiscard]] bool ready(Clock::TimePoint now) const { return backoff_.ready(now); }

  // The NodeMetric's collect policy as the agent uses it; problems are reported as Events.
  [[nodiscard]] reporters::EffectiveCollectPolicy policy();

  // One report at `now` (the wall clock stamps the status). Without the Node in the cache it does
  // nothing.
  void run(Clock::TimePoint now, const reporters::EffectiveCollectPolicy& policy);

 private:
  k8s::Client& client_;
  const statesinformer::StatesInformer& states_;
  const metriccache::MetricCache& cache_;
  std::chrono::seconds retention_;
  const ReportCounter& counter_;
  reporters::ProblemEvents& events_;
  log::Logger logger_;
  ReportBackoff backoff_;
  size_t dropped_pods_ = 0;  // by the last report
};

}  // namespace koord::agent::app
