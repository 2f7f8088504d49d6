#include "agent/qosmanager/framework/evictor.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "agent/qosmanager/framework/be_pods.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::agent::qosmanager::framework {

namespace {

api::core::ObjectReference podReference(const api::core::Pod& pod) {
  api::core::ObjectReference ref;
  ref.kind = "Pod";
  ref.apiVersion = "v1";
  ref.namespace_ = pod.metadata.namespace_;
  ref.name = pod.metadata.name;
  ref.uid = pod.metadata.uid;
  return ref;
}

// Whether the pod's usage counts toward the release: it is (or will soon be) freed.
bool releases(EvictionResult result) {
  return result == EvictionResult::kEvicted || result == EvictionResult::kAlreadyEvicted ||
         result == EvictionResult::kGone;
}

}  // namespace

std::string_view evictionResultName(EvictionResult result) {
  switch (result) {
    case EvictionResult::kEvicted:
      return "evicted";
    case EvictionResult::kRefused:
      return "refused";
    case EvictionResult::kGone:
      return "gone";
    case EvictionResult::kFailed:
      return "failed";
    case EvictionResult::kRateLimited:
      return "rate_limited";
    case EvictionResult::kAlreadyEvicted:
      return "already_evicted";
    case EvictionResult::kBackingOff:
      return "backing_off";
  }
  return "unknown";
}

Result<std::unique_ptr<Evictor>> Evictor::create(k8s::Client& client, const Clock& clock,
                                                 EventSink events, EvictorOptions options,
                                                 log::Logger logger,
                                                 metrics::MetricsRegistry* registry) {
  std::vector<std::string> errors;
  if (!events) {
    errors.emplace_back("an event sink is required");
  }
  if (options.window.count() < 0 || options.remember_for.count() < 0 ||
      options.retry_after.count() < 0) {
    errors.emplace_back("window, remember_for and retry_after must not be negative");
  }
  if (!errors.empty()) {
    std::string message = "failed to create the evictor: " + errors.front();
    for (size_t i = 1; i < errors.size(); ++i) {
      message += "; " + errors[i];
    }
    return Status::invalidArgument(std::move(message));
  }
  metrics::CounterFamily counter;
  if (registry != nullptr) {
    KOORD_ASSIGN_OR_RETURN(
        counter, registry->counterFamily(std::string(kEvictionsMetric),
                                         "Pod evictions decided by koord-agent's QoS strategies.",
                                         {"reason", "result"}));
  }
  return std::unique_ptr<Evictor>(
      new Evictor(client, clock, std::move(events), options, std::move(logger), counter));
}

std::vector<EvictionCandidate> Evictor::order(std::vector<EvictionCandidate> candidates) {
  candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                  [](const EvictionCandidate& c) { return c.pod == nullptr; }),
                   candidates.end());
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const EvictionCandidate& a, const EvictionCandidate& b) {
                     const int64_t pa = priorityOf(*a.pod);
                     const int64_t pb = priorityOf(*b.pod);
                     if (pa != pb) {
                       return pa < pb;
                     }
                     if (a.usage != b.usage) {
                       return a.usage > b.usage;
                     }
                     return std::tie(a.pod->metadata.namespace_, a.pod->metadata.name) <
                            std::tie(b.pod->metadata.namespace_, b.pod->metadata.name);
                   });
  return candidates;
}

void Evictor::pruneLocked(Clock::TimePoint now) {
  for (auto it = pods_.begin(); it != pods_.end();) {
    if (it->second.state != State::kInFlight && now >= it->second.until) {
      it = pods_.erase(it);
    } else {
      ++it;
    }
  }
  while (!accepted_.empty() && now - accepted_.front() >= options_.window) {
    accepted_.pop_front();
  }
}

EvictionReport Evictor::evict(const EvictionRequest& request) {
  EvictionReport report;
  for (const EvictionCandidate& candidate : order(request.candidates)) {
    if (request.release && report.released >= *request.release) {
      break;
    }
    const api::core::Pod& pod = *candidate.pod;
    EvictionOutcome outcome;
    outcome.pod = podKey(pod);
    outcome.uid = pod.metadata.uid;
    {
      std::lock_guard lock(mu_);
      pruneLocked(clock_.now());
      auto it = pods_.find(pod.metadata.uid);
      if (it != pods_.end()) {
        outcome.result = it->second.state == State::kBackingOff ? EvictionResult::kBackingOff
                                                                : EvictionResult::kAlreadyEvicted;
      } else if (accepted_.size() + in_flight_ >= options_.max_evictions) {
        outcome.result = EvictionResult::kRateLimited;
      } else {
        pods_[pod.metadata.uid] = Entry{State::kInFlight, {}};
        ++in_flight_;
      }
    }
    if (outcome.result == EvictionResult::kAlreadyEvicted ||
        outcome.result == EvictionResult::kBackingOff) {
      if (releases(outcome.result)) {
        report.released += candidate.usage;
      }
      report.outcomes.push_back(std::move(outcome));
      continue;
    }
    if (outcome.result == EvictionResult::kRateLimited) {
      count(request.reason, outcome.result);
      logger_.warn("eviction rate limit reached; the remaining pods wait",
                   {{"pod", outcome.pod},
                    {"reason", request.reason},
                    {"maxEvictions", options_.max_evictions},
                    {"window", options_.window}});
      report.outcomes.push_back(std::move(outcome));
      break;
    }
    outcome.result = post(pod, outcome.error);
    {
      std::lock_guard lock(mu_);
      const Clock::TimePoint now = clock_.now();
      --in_flight_;
      Entry& entry = pods_[pod.metadata.uid];
      if (releases(outcome.result)) {
        entry = Entry{State::kDone, now + options_.remember_for};
        if (outcome.result == EvictionResult::kEvicted) {
          accepted_.push_back(now);
        }
      } else {
        entry = Entry{State::kBackingOff, now + options_.retry_after};
      }
    }
    if (releases(outcome.result)) {
      report.released += candidate.usage;
    }
    if (outcome.result == EvictionResult::kEvicted) {
      ++report.evicted;
    }
    count(request.reason, outcome.result);
    record(pod, request, candidate, outcome.result, outcome.error);
    report.outcomes.push_back(std::move(outcome));
  }
  return report;
}

EvictionResult Evictor::post(const api::core::Pod& pod, std::string& error) {
  api::core::DeleteOptions options;
  options.gracePeriodSeconds = options_.grace_period_seconds;
  api::core::Preconditions preconditions;
  preconditions.uid = pod.metadata.uid;
  options.preconditions = std::move(preconditions);
  const Status status = client_.evict(pod.metadata.namespace_, pod.metadata.name, options);
  if (status.isOk()) {
    return EvictionResult::kEvicted;
  }
  error = status.message();
  if (k8s::isTooManyRequests(status)) {
    return EvictionResult::kRefused;
  }
  if (k8s::isNotFound(status) || k8s::isConflict(status)) {
    return EvictionResult::kGone;
  }
  return EvictionResult::kFailed;
}

void Evictor::count(const std::string& reason, EvictionResult result) const {
  auto counter = counter_.withLabels({reason, std::string(evictionResultName(result))});
  if (counter.ok()) {
    counter->inc();
  }
}

void Evictor::record(const api::core::Pod& pod, const EvictionRequest& request,
                     const EvictionCandidate& candidate, EvictionResult result,
                     const std::string& error) {
  const std::string key = podKey(pod);
  std::string figures = request.message;
  if (!candidate.detail.empty()) {
    figures += figures.empty() ? candidate.detail : "; this pod: " + candidate.detail;
  }
  switch (result) {
    case EvictionResult::kEvicted:
      logger_.info("evicted a pod",
                   {{"pod", key}, {"reason", request.reason}, {"figures", figures}});
      events_(podReference(pod), k8s::EventType::kWarning, request.reason,
              "Evicted by koord-agent: " + figures);
      break;
    case EvictionResult::kRefused:
      logger_.warn("eviction refused; not retried before the backoff ends",
                   {{"pod", key},
                    {"reason", request.reason},
                    {"retryAfter", options_.retry_after},
                    {"error", error}});
      events_(podReference(pod), k8s::EventType::kWarning, std::string(kReasonEvictionRefused),
              "koord-agent could not evict the pod (" + request.reason + ": " + figures +
                  "): " + error);
      break;
    case EvictionResult::kGone:
      logger_.info("pod to evict is already gone", {{"pod", key}, {"error", error}});
      break;
    default:
      logger_.warn("eviction failed; not retried before the backoff ends",
                   {{"pod", key},
                    {"reason", request.reason},
                    {"retryAfter", options_.retry_after},
                    {"error", error}});
      break;
  }
}

api::Json outcomesJson(const EvictionReport& report) {
  api::Json outcomes = api::Json::array();
  for (const EvictionOutcome& outcome : report.outcomes) {
    api::Json entry = {{"pod", outcome.pod},
                       {"result", std::string(evictionResultName(outcome.result))}};
    if (!outcome.error.empty()) {
      entry["error"] = outcome.error;
    }
    outcomes.push_back(std::move(entry));
  }
  return outcomes;
}

}  // namespace koord::agent::qosmanager::framework
