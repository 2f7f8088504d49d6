// Scheduler: runs koord-agent's QoS strategies, each on its own interval (koordlet's qosmanager
// loop), on an injected Clock. The daemon's loop calls runDue() whenever it wakes; tests call it
// with a FakeClock.
//
// - A strategy is due at the first pass, then `interval()` after the start of its last run; one
//   with runsOnStateChange() is also due when the pass says the node's pods or Node changed.
// - A due strategy that is disabled (named in SchedulerOptions::disabled, or enabled() false for
//   the node's NodeSLO) is not run and is looked at again one interval later.
// - Strategies run one after the other, in registration order, on the caller's thread. A run that
//   fails or throws is logged (warn) and counted; the others still run, and it runs again at its
//   next interval. The scheduler times every run, so strategies never time or count themselves:
//   koord_agent_strategy_runs_total{strategy,result} (result: ok, failed, exception) and
//   koord_agent_strategy_duration_seconds{strategy}.
//
// /debug/qos: debugJson() shows each strategy's last run (when, result, and its debugState()).
//
// Thread-compatible: one caller of runDue() at a time; debugJson() may be called from any thread
// at any time. The clock, the strategies' dependencies and the
// registry must outlive the scheduler.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "agent/qosmanager/framework/strategy.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::framework {

inline constexpr std::string_view kStrategyRunsMetric = "koord_agent_strategy_runs_total";
inline constexpr std::string_view kStrategyDurationMetric = "koord_agent_strategy_duration_seconds";

struct SchedulerOptions {
  // Strategies that never run (e.g. "RuntimeReconcile" under --disable-reconciler); each must
  // name a registered strategy.
  std::set<std::string, std::less<>> disabled;
  log::Logger logger;
};

// What one pass did.
struct SchedulerPass {
  std::vector<std::string> ran;       // strategies run, in order (failed ones included)
  std::vector<std::string> disabled;  // strategies due but disabled
  Clock::TimePoint next_due{};        // when the earliest strategy is due next (max() if none)
};

class Scheduler {
 public:
  // kInvalidArgument naming every problem at once: a null strategy, an empty or repeated name, an
  // interval that is not positive, a disabled name that is not registered; a registry error when
  // the metrics cannot be registered. `registry` may be null (no metrics).
  [[nodiscard]] static Result<std::unique_ptr<Scheduler>> create(
      std::vector<std::unique_ptr<Strategy>> strategies, const Clock& clock,
      SchedulerOptions options, metrics::MetricsRegistry* registry);

  // Runs every strategy that is due at clock.now() (see above); `state_changed` makes those with
  // runsOnStateChange() due too.
  SchedulerPass runDue(const StrategyContext& context, bool state_changed);

  // The registered strategies' names, in run order.
  [[nodiscard]] std::vector<std::string> names() const;

  // {"strategies": [{"name", "interval_seconds", "state": "never run" | "disabled" | "ok" |
  // "failed" | "exception", "error" (when failed), "last_run_seconds_ago", "decision": the
  // strategy's debugState() after its last run}]}, in run order. Thread-safe.
  [[nodiscard]] api::Json debugJson() const;

 private:
  struct Entry {
    std::unique_ptr<Strategy> strategy;
    std::string name;
    Clock::Duration interval{};
    bool on_change = false;
    bool disabled = false;
    Clock::TimePoint next{};  // the epoch of the clock: due at the first pass
    metrics::Counter ok;
    metrics::Counter failed;
    metrics::Counter exception;
    metrics::Histogram duration;
  };
  // What debugJson() shows of one strategy; guarded by debug_mu_.
  struct Debug {
    std::string state = "never run";
    std::string error;
    std::optional<Clock::TimePoint> last_run;
    api::Json decision;
  };

  Scheduler(std::vector<Entry> entries, const Clock& clock, log::Logger logger)
      : entries_(std::move(entries)),
        clock_(clock),
        logger_(std::move(logger)),
        debug_(entries_.size()) {}

  // Runs one strategy and counts the result.
  void runOne(Entry& entry, Debug& debug, const StrategyContext& context);

  std::vector<Entry> entries_;
  const Clock& clock_;
  log::Logger logger_;
  mutable std::mutex debug_mu_;
  std::vector<Debug> debug_;  // guarded by debug_mu_; one per entry, same order
};

}  // namespace koord::agent::qosmanager::framework
