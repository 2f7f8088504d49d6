#include "agent/app/node_metric_report.hpp"

#include <string>
#include <vector>

#include "agent/reporters/object_sync.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::agent::app {

namespace {

// Whether the API server refused a write for its size (413, or etcd's "request is too large"):
// the same write would be refused again.
bool tooLarge(const Status& status) {
  return (status.code() == StatusCode::kResourceExhausted && !k8s::isTooManyRequests(status)) ||
         status.message().find("request is too large") != std::string::npos;
}

}  // namespace

NodeMetricReport::NodeMetricReport(k8s::Client& client,
                                   const statesinformer::StatesInformer& states,
                                   const metriccache::MetricCache& cache,
                                   std::chrono::seconds retention, const ReportCounter& counter,
                                   reporters::ProblemEvents& events, log::Logger logger)
    : client_(client),
      states_(states),
      cache_(cache),
      retention_(retention),
      counter_(counter),
      events_(events),
      logger_(std::move(logger)) {}

reporters::EffectiveCollectPolicy NodeMetricReport::policy() {
  auto metric = states_.nodeMetric();
  reporters::CollectPolicyLimits limits;
  limits.retention = retention_;
  reporters::EffectiveCollectPolicy policy =
      reporters::effectivePolicy(metric ? metric->spec : api::slo::NodeMetricSpec{}, limits);
  std::vector<reporters::ObjectProblem> problems;
  if (metric) {
    problems = reporters::collectPolicyProblems(*metric, policy);
  }
  events_.report("metric-collect-policy", problems);
  return policy;
}

void NodeMetricReport::run(Clock::TimePoint now, const reporters::EffectiveCollectPolicy& policy) {
  auto node = states_.node();
  if (node == nullptr) {
    return;
  }
  auto status = reporters::buildNodeMetricStatus(cache_, policy, states_.pods(),
                                                 std::chrono::system_clock::now());
  // A status over the budget is trimmed; one that cannot fit is not sent at all, and neither is
  // retried with backoff: the next report builds a new one.
  Result<reporters::StatusFit> fit = reporters::fitNodeMetricStatus(status);
  if (!fit.ok()) {
    counter_.count("NodeMetric", fit.status());
    logger_.error("NodeMetric status not written", {{"error", fit.status()}});
    return;
  }
  if (fit->dropped_pods != dropped_pods_ || fit->dropped_aggregates) {
    logger_.warn("NodeMetric status trimmed to its size budget",
                 {{"budgetBytes", reporters::kMaxNodeMetricStatusBytes},
                  {"bytes", fit->bytes},
                  {"droppedPods", fit->dropped_pods},
                  {"droppedAggregatedUsages", fit->dropped_aggregates}});
    dropped_pods_ = fit->dropped_pods;
  }
  auto outcome = reporters::syncNodeMetricStatus(client_, node->metadata, status);
  counter_.count("NodeMetric", outcome);
  if (!outcome.ok() && tooLarge(outcome.status())) {
    logger_.error("the API server refused the NodeMetric status as too large; not retried",
                  {{"bytes", fit->bytes}, {"error", outcome.status()}});
    return;
  }
  if (!outcome.ok()) {
    logger_.warn("NodeMetric report failed; retrying with backoff", {{"error", outcome.status()}});
    backoff_.failed(now);
    return;
  }
  backoff_.succeeded();
}

}  // namespace koord::agent::app
