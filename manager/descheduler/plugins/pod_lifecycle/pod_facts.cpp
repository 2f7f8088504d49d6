#include "manager/descheduler/plugins/pod_lifecycle/pod_facts.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "koord/api/codec.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/time.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

namespace pod_facts_detail {

int32_t int32Member(const Json& obj, std::string_view key) {
  const Json* value = member(obj, key);
  if (value == nullptr || !value->is_number_integer()) {
    return 0;
  }
  int64_t n = value->get<int64_t>();
  if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max()) {
    return 0;
  }
  return static_cast<int32_t>(n);
}

const Json& statusList(const api::core::Pod& pod, ContainerKind kind) {
  static const Json kNull;
  switch (kind) {
    case ContainerKind::kRegular:
      return pod.status.containerStatuses;
    case ContainerKind::kInit:
      if (const Json* list = member(pod.status.extra, "initContainerStatuses")) {
        return *list;
      }
      return kNull;
    case ContainerKind::kEphemeral:
      if (const Json* list = member(pod.status.extra, "ephemeralContainerStatuses")) {
        return *list;
      }
      return kNull;
  }
  return kNull;
}

}  // namespace pod_facts_detail

Result<PodScope> PodScope::create(const std::optional<Namespaces>& namespaces,
                                  const std::optional<api::core::LabelSelector>& selector) {
  PodScope scope;
  if (namespaces) {
    scope.include_ = namespaces->include;
    scope.exclude_ = namespaces->exclude;
  }
  if (selector) {
    if (Status st = api::core::validateLabelSelector(*selector); !st.isOk()) {
      return st;
    }
    scope.selector_ = *selector;
  }
  return scope;
}

bool PodScope::matches(const api::core::Pod& pod) const {
  const std::string& ns = pod.metadata.namespace_;
  if (!include_.empty() && !contains(include_, ns)) {
    return false;
  }
  if (!exclude_.empty() && contains(exclude_, ns)) {
    return false;
  }
  if (selector_) {
    auto matched = api::core::matchesLabelSelector(*selector_, pod.metadata.labels);
    if (!matched.ok() || !*matched) {
      return false;
    }
  }
  return true;
}

std::vector<ContainerStatusFacts> containerStatuses(const api::core::Pod& pod, ContainerKind kind) {
  const Json& list = pod_facts_detail::statusList(pod, kind);
  std::vector<ContainerStatusFacts> out;
  if (!list.is_array()) {
    return out;
  }
  for (const Json& entry : list) {
    if (!entry.is_object()) {
      continue;
    }
    ContainerStatusFacts facts;
    facts.restart_count = pod_facts_detail::int32Member(entry, "restartCount");
    if (const Json* state = member(entry, "state"); state != nullptr && state->is_object()) {
      if (const Json* waiting = member(*state, "waiting"); waiting != nullptr) {
        facts.waiting = true;
        facts.waiting_reason = api::stringOr(*waiting, "reason");
      }
      if (const Json* terminated = member(*state, "terminated"); terminated != nullptr) {
        facts.terminated = true;
        facts.terminated_reason = api::stringOr(*terminated, "reason");
        facts.exit_code = pod_facts_detail::int32Member(*terminated, "exitCode");
      }
    }
    out.push_back(std::move(facts));
  }
  return out;
}

bool hasWaitingReasonIn(const std::vector<ContainerStatusFacts>& statuses,
                        const std::vector<std::string>& states) {
  return std::any_of(statuses.begin(), statuses.end(), [&](const ContainerStatusFacts& cs) {
    return cs.waiting && contains(states, cs.waiting_reason);
  });
}

bool hasTerminatedReasonIn(const std::vector<ContainerStatusFacts>& statuses,
                           const std::vector<std::string>& states) {
  return std::any_of(statuses.begin(), statuses.end(), [&](const ContainerStatusFacts& cs) {
    return cs.terminated && contains(states, cs.terminated_reason);
  });
}

bool contains(const std::vector<std::string>& items, std::string_view item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::chrono::nanoseconds elapsedSince(const std::string& timestamp,
                                      std::chrono::system_clock::time_point now) {
  using std::chrono::duration_cast;
  using std::chrono::nanoseconds;
  using std::chrono::seconds;
  auto parsed = api::core::parseTime(timestamp);
  if (timestamp.empty() || !parsed.ok()) {
    return nanoseconds::max();
  }
  // Whole seconds first, so that a difference beyond the nanosecond range saturates rather than
  // overflows.
  constexpr int64_t kMaxSeconds = std::numeric_limits<int64_t>::max() / 1'000'000'000 - 1;
  int64_t diff_s = duration_cast<seconds>(now.time_since_epoch()).count() -
                   duration_cast<seconds>(parsed->time_since_epoch()).count();
  if (diff_s > kMaxSeconds) {
    return nanoseconds::max();
  }
  if (diff_s < -kMaxSeconds) {
    return nanoseconds::min();
  }
  return duration_cast<nanoseconds>(now - *parsed);
}

uint64_t goUintSeconds(std::chrono::nanoseconds d) {
  return static_cast<uint64_t>(d.count() / 1'000'000'000);
}

std::chrono::system_clock::time_point creationTime(const api::core::Pod& pod) {
  auto parsed = api::core::parseTime(pod.metadata.creationTimestamp);
  if (pod.metadata.creationTimestamp.empty() || !parsed.ok()) {
    return std::chrono::system_clock::time_point::min();
  }
  return *parsed;
}

}  // namespace koord::manager::descheduler::pod_lifecycle
