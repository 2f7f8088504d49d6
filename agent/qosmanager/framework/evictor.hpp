// Evictor: how koord-agent's QoS strategies evict pods (koordlet's qosmanager evictor). A strategy
// hands it the pods it would evict and why; the evictor decides which go, in what order, and how
// fast, and carries it out through the Eviction API (POST pods/<name>/eviction, policy/v1), so
// PodDisruptionBudgets are honoured. No strategy uses it yet (BE eviction comes with issue 35).
//
// - Order: candidates go by pod priority (spec.priority, 0 when unset), lowest first, then by
//   usage, highest first, then by namespace/name (so equal pods always go in the same order).
// - Release: with `release` set, candidates are taken in that order until the usage of the pods
//   evicted, already being evicted or gone reaches it; a pod that could not be evicted does not
//   count.
// - Rate limit: at most `max_evictions` accepted evictions in any `window` (a sliding window on
//   the clock; requests in flight count). When it is reached, the next candidate is reported
//   kRateLimited and the rest are not considered.
// - De-duplication: a pod (by UID) whose eviction is in flight, or was accepted (or found gone)
//   within `remember_for`, is never posted again; it is reported kAlreadyEvicted.
// - Refusals: a 429 (a PodDisruptionBudget that allows no disruption now, or the server's own
//   rate limit) is respected: the pod is reported kRefused, gets a Warning Event
//   `EvictionRefused` with the server's message, and is not posted again before `retry_after`
//   (kBackingOff until then). Any other failure is kFailed, logged, and backs off the same way.
// - Reporting: each accepted eviction gets a Warning Event on the pod whose reason is the
//   request's reason and whose message holds the request's figures and the pod's own; every
//   decision except kAlreadyEvicted and kBackingOff is counted in
//   koord_agent_evictions_total{reason,result} (result: evicted, refused, gone, failed,
//   rate_limited) and logged.
//
// Thread safety: evict() may be called from several threads; de-duplication and the rate limit
// hold across them (the state is taken under a lock before each POST, which is sent without it).
// The client, clock and registry must outlive the evictor.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::framework {

// The reason of the Event on a pod whose eviction was refused (429).
inline constexpr std::string_view kReasonEvictionRefused = "EvictionRefused";
inline constexpr std::string_view kEvictionsMetric = "koord_agent_evictions_total";

struct EvictionCandidate {
  std::shared_ptr<const api::core::Pod> pod;  // must not be null
  // What the strategy orders by and releases, in the request's unit (bytes, cores).
  double usage = 0;
  // This pod's figures for its Event and the log ("memory working set 1.5 GiB"); "" for none.
  std::string detail;
};

struct EvictionRequest {
  // The Event reason and the metric's `reason` label: one fixed UpperCamel string per strategy
  // and cause ("EvictPodByNodeMemoryUsage"), never a varying value.
  std::string reason;
  // The figures that caused the eviction, for the Events and the log
  // ("node memory usage 92% >= threshold 70%").
  std::string message;
  std::vector<EvictionCandidate> candidates;
  // How much usage to release (see the header comment); nullopt: every candidate, as the rate
  // limit allows.
  std::optional<double> release;
};

enum class EvictionResult {
  kEvicted,         // the API server accepted the eviction
  kRefused,         // 429: refused by a PodDisruptionBudget (or the server's rate limit)
  kGone,            // 404, or 409 on the UID precondition: the pod is gone or was replaced
  kFailed,          // any other error
  kRateLimited,     // not tried: the evictor's limit is reached
  kAlreadyEvicted,  // not tried: in flight, or accepted or gone within remember_for
  kBackingOff,      // not tried: refused or failed less than retry_after ago
};

// "evicted", "refused", "gone", "failed", "rate_limited", "already_evicted", "backing_off".
[[nodiscard]] std::string_view evictionResultName(EvictionResult result);

struct EvictionOutcome {
  std::string pod;  // "<namespace>/<name>"
  std::string uid;
  EvictionResult result = EvictionResult::kEvicted;
  std::string error;  // kRefused and kFailed: the API server's answer
};

struct EvictionReport {
  std::vector<EvictionOutcome> outcomes;  // in the order the candidates were considered
  double released = 0;                    // usage of the evicted, already evicted and gone pods
  size_t evicted = 0;                     // kEvicted outcomes
};

// The outcomes as the strategies' debugState shows them: [{"pod", "result", "error" (when
// any)}], in order.
[[nodiscard]] api::Json outcomesJson(const EvictionReport& report);

struct EvictorOptions {
  size_t max_evictions = 5;  // accepted evictions per window; 0 evicts nothing
  Clock::Duration window = std::chrono::minutes(1);
  Clock::Duration remember_for = std::chrono::minutes(5);
  Clock::Duration retry_after = std::chrono::seconds(30);
  // The Eviction's deleteOptions.gracePeriodSeconds; nullopt: the pod's own.
  std::optional<int64_t> grace_period_seconds;
};

class Evictor {
 public:
  // Where an Event goes (EventRecorder::event in the daemon, a recording fake in tests).
  using EventSink = std::function<void(const api::core::ObjectReference&, k8s::EventType,
                                       std::string reason, std::string message)>;

  // kInvalidArgument when a duration is negative or `events` is empty; a registry error when the
  // metric family cannot be registered. `registry` may be null (no metric).
  [[nodiscard]] static Result<std::unique_ptr<Evictor>> create(k8s::Client& client,
                                                               const Clock& clock, EventSink events,
                                                               EvictorOptions options,
                                                               log::Logger logger,
                                                               metrics::MetricsRegistry* registry);

  // Evicts what `request` asks for, as the header comment says. Candidates without a pod are
  // ignored. Blocks on one POST per pod tried.
  EvictionReport evict(const EvictionRequest& request);

  // The candidates in eviction order (priority ascending, usage descending, namespace/name).
  [[nodiscard]] static std::vector<EvictionCandidate> order(
      std::vector<EvictionCandidate> candidates);

 private:
  enum class State { kInFlight, kDone, kBackingOff };
  struct Entry {
    State state = State::kInFlight;
    Clock::TimePoint until{};  // kDone and kBackingOff: forgotten then
  };

  Evictor(k8s::Client& client, const Clock& clock, EventSink events, EvictorOptions options,
          log::Logger logger, metrics::CounterFamily counter)
      : client_(client),
        clock_(clock),
        events_(std::move(events)),
        options_(options),
        logger_(std::move(logger)),
        counter_(counter) {}

  // Under mu_: drops expired entries and accepted evictions older than the window.
  void pruneLocked(Clock::TimePoint now);
  // Sends one eviction and turns the answer into a result (the error text in `error`).
  EvictionResult post(const api::core::Pod& pod, std::string& error);
  void count(const std::string& reason, EvictionResult result) const;
  void record(const api::core::Pod& pod, const EvictionRequest& request,
              const EvictionCandidate& candidate, EvictionResult result, const std::string& error);

  k8s::Client& client_;
  const Clock& clock_;
  EventSink events_;
  const EvictorOptions options_;
  log::Logger logger_;
  metrics::CounterFamily counter_;  // default (no-op) without a registry

  std::mutex mu_;
  std::unordered_map<std::string, Entry> pods_;  // guarded by mu_; by UID
  std::deque<Clock::TimePoint> accepted_;        // guarded by mu_; within the window, oldest first
  size_t in_flight_ = 0;                         // guarded by mu_
};

}  // namespace koord::agent::qosmanager::framework
