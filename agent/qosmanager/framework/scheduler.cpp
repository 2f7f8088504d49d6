#include "agent/qosmanager/framework/scheduler.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace koord::agent::qosmanager::framework {

namespace {

// Registers the metrics of one strategy into `entry`'s handles.
template <typename Entry>
Status registerMetrics(metrics::MetricsRegistry& registry, Entry& entry) {
  KOORD_ASSIGN_OR_RETURN(
      metrics::CounterFamily runs,
      registry.counterFamily(std::string(kStrategyRunsMetric),
                             "Runs of koord-agent's QoS strategies.", {"strategy", "result"}));
  KOORD_ASSIGN_OR_RETURN(entry.ok, runs.withLabels({entry.name, "ok"}));
  KOORD_ASSIGN_OR_RETURN(entry.failed, runs.withLabels({entry.name, "failed"}));
  KOORD_ASSIGN_OR_RETURN(entry.exception, runs.withLabels({entry.name, "exception"}));
  KOORD_ASSIGN_OR_RETURN(
      metrics::HistogramFamily durations,
      registry.histogramFamily(std::string(kStrategyDurationMetric),
                               "Wall time of one run of a koord-agent QoS strategy.", {"strategy"},
                               metrics::exponentialBuckets(0.0005, 4, 8)));
  KOORD_ASSIGN_OR_RETURN(entry.duration, durations.withLabels({entry.name}));
  return Status::ok();
}

}  // namespace

Result<std::unique_ptr<Scheduler>> Scheduler::create(
    std::vector<std::unique_ptr<Strategy>> strategies, const Clock& clock, SchedulerOptions options,
    metrics::MetricsRegistry* registry) {
  std::vector<std::string> errors;
  std::vector<Entry> entries;
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < strategies.size(); ++i) {
    if (strategies[i] == nullptr) {
      errors.push_back("strategy " + std::to_string(i) + " is null");
      continue;
    }
    Entry entry;
    entry.name = std::string(strategies[i]->name());
    entry.interval = strategies[i]->interval();
    entry.on_change = strategies[i]->runsOnStateChange();
    if (entry.name.empty()) {
      errors.push_back("strategy " + std::to_string(i) + " has no name");
    } else if (!names.insert(entry.name).second) {
      errors.push_back("strategy '" + entry.name + "' is registered twice");
    }
    if (entry.interval <= Clock::Duration::zero()) {
      errors.push_back("strategy '" + entry.name + "' has an interval that is not positive");
    }
    entry.disabled = options.disabled.count(entry.name) > 0;
    entry.strategy = std::move(strategies[i]);
    entries.push_back(std::move(entry));
  }
  for (const std::string& name : options.disabled) {
    if (names.count(name) == 0) {
      errors.push_back("cannot disable '" + name + "': no such strategy");
    }
  }
  if (!errors.empty()) {
    std::string message = "failed to create the QoS strategy scheduler: " + errors.front();
    for (size_t i = 1; i < errors.size(); ++i) {
      message += "; " + errors[i];
    }
    return Status::invalidArgument(std::move(message));
  }
  if (registry != nullptr) {
    for (Entry& entry : entries) {
      KOORD_RETURN_IF_ERROR(registerMetrics(*registry, entry));
    }
  }
  return std::unique_ptr<Scheduler>(
      new Scheduler(std::move(entries), clock, std::move(options.logger)));
}

SchedulerPass Scheduler::runDue(const StrategyContext& context, bool state_changed) {
  SchedulerPass pass;
  pass.next_due = Clock::TimePoint::max();
  std::shared_ptr<const api::slo::NodeSLO> node_slo;
  bool slo_read = false;
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry& entry = entries_[i];
    const Clock::TimePoint start = clock_.now();
    if (start >= entry.next || (state_changed && entry.on_change)) {
      entry.next = start + entry.interval;
      bool enabled = !entry.disabled;
      if (enabled) {
        if (!slo_read) {
          node_slo = context.states.nodeSLO();
          slo_read = true;
        }
        try {
          enabled = entry.strategy->enabled(node_slo.get());
        } catch (const std::exception& e) {
          logger_.warn("a QoS strategy could not tell whether it is enabled; not run",
                       {{"strategy", entry.name}, {"error", e.what()}});
          entry.exception.inc();
          enabled = false;
        }
      }
      if (enabled) {
        runOne(entry, debug_[i], context);
        pass.ran.push_back(entry.name);
      } else {
        const std::lock_guard<std::mutex> lock(debug_mu_);
        debug_[i].state = "disabled";
        debug_[i].error.clear();
        pass.disabled.push_back(entry.name);
      }
    }
    pass.next_due = std::min(pass.next_due, entry.next);
  }
  return pass;
}

void Scheduler::runOne(Entry& entry, Debug& debug, const StrategyContext& context) {
  const Clock::TimePoint start = clock_.now();
  Status status;
  bool threw = false;
  try {
    status = entry.strategy->run(context);
  } catch (const std::exception& e) {
    threw = true;
    status = Status::internal(std::string("threw: ") + e.what());
  } catch (...) {
    threw = true;
    status = Status::internal("threw a non-standard exception");
  }
  entry.duration.observe(std::chrono::duration<double>(clock_.now() - start).count());
  if (threw) {
    entry.exception.inc();
    logger_.error("a QoS strategy threw; it runs again at its next interval",
                  {{"strategy", entry.name}, {"error", status}});
  } else if (!status.isOk()) {
    entry.failed.inc();
    logger_.warn("a QoS strategy failed; it runs again at its next interval",
                 {{"strategy", entry.name}, {"error", status}});
  } else {
    entry.ok.inc();
  }
  api::Json decision;
  try {
    decision = entry.strategy->debugState();
  } catch (const std::exception& e) {
    decision = api::Json{{"error", std::string("debugState threw: ") + e.what()}};
  }
  const std::lock_guard<std::mutex> lock(debug_mu_);
  debug.state = threw ? "exception" : (status.isOk() ? "ok" : "failed");
  debug.error = status.isOk() ? std::string() : status.toString();
  debug.last_run = start;
  debug.decision = std::move(decision);
}

api::Json Scheduler::debugJson() const {
  const Clock::TimePoint now = clock_.now();
  api::Json list = api::Json::array();
  const std::lock_guard<std::mutex> lock(debug_mu_);
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& entry = entries_[i];
    const Debug& debug = debug_[i];
    api::Json item{{"name", entry.name},
                   {"interval_seconds", std::chrono::duration<double>(entry.interval).count()},
                   {"state", entry.disabled ? std::string("disabled by flag") : debug.state}};
    if (!debug.error.empty()) {
      item["error"] = debug.error;
    }
    if (debug.last_run.has_value()) {
      item["last_run_seconds_ago"] = std::chrono::duration<double>(now - *debug.last_run).count();
    }
    item["decision"] = debug.decision;
    list.push_back(std::move(item));
  }
  return api::Json{{"strategies", std::move(list)}};
}

std::vector<std::string> Scheduler::names() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const Entry& entry : entries_) {
    out.push_back(entry.name);
  }
  return out;
}

}  // namespace koord::agent::qosmanager::framework
