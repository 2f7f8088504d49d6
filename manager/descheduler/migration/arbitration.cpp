#include "manager/descheduler/migration/arbitration.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "koord/api/core/time.hpp"
#include "koord/api/well_known.hpp"
#include "manager/descheduler/migration/job_status.hpp"
#include "manager/descheduler/migration/max_unavailable.hpp"

namespace koord::manager::descheduler::migration {

namespace core = api::core;
namespace sched = api::scheduling;

namespace {

using JobPtr = std::shared_ptr<const sched::PodMigrationJob>;
using PodPtr = std::shared_ptr<const core::Pod>;

struct Judgement {
  Verdict verdict = Verdict::kPass;
  std::string reason;
};

Judgement pass() {
  return {};
}
Judgement retry(std::string reason) {
  return {Verdict::kRetry, std::move(reason)};
}
Judgement fail(std::string reason) {
  return {Verdict::kFail, std::move(reason)};
}

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

bool hasMaxEvictionCost(const core::Pod& pod) {
  const auto it = pod.metadata.annotations.find(std::string(api::kAnnotationEvictionCost));
  if (it == pod.metadata.annotations.end()) {
    return false;
  }
  int32_t cost = 0;
  const std::string& text = it->second;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), cost);
  return ec == std::errc() && end == text.data() + text.size() &&
         cost == std::numeric_limits<int32_t>::max();
}

bool hasEvictAnnotation(const core::Pod& pod) {
  return pod.metadata.annotations.count(std::string(api::kAnnotationDeschedulerEvict)) != 0;
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string joined(const std::vector<std::string>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    out += (i == 0 ? "" : ", ") + list[i];
  }
  return out + "]";
}

// One job counted as migrating, with its pod resolved once.
struct Migrating {
  JobPtr job;
  PodPtr pod;
};

class Arbiter {
 public:
  Arbiter(const ArbitrationSnapshot& snapshot, const config::MigrationControllerArgs& args)
      : snapshot_(snapshot), args_(args) {}

  void addMigrating(const JobPtr& job, PodPtr pod) { migrating_.push_back({job, std::move(pod)}); }

  PodPtr podOf(const sched::PodMigrationJob& job) const {
    if (!job.spec.podRef || job.spec.podRef->namespace_.empty() || job.spec.podRef->name.empty()) {
      return nullptr;
    }
    return snapshot_.pod(job.spec.podRef->namespace_, job.spec.podRef->name);
  }

  Judgement judge(const JobPtr& job, const PodPtr& pod) const {
    if (pod == nullptr) {
      return pass();
    }
    Judgement j = judgeNonRetryable(*job, *pod);
    if (j.verdict != Verdict::kPass || hasEvictAnnotation(*pod)) {
      return j;
    }
    return judgeRetryable(*pod);
  }

  // The retryable checks alone, skipped for a pod annotated to be evicted (kPass or kRetry).
  Judgement limits(const core::Pod& pod) const {
    return hasEvictAnnotation(pod) ? pass() : judgeRetryable(pod);
  }

 private:
  bool skipped(std::string_view gate) const {
    return std::find(args_.skip_eviction_gates.begin(), args_.skip_eviction_gates.end(), gate) !=
           args_.skip_eviction_gates.end();
  }

  // The other migrating jobs: those for pods other than `pod`.
  std::vector<const Migrating*> others(const core::Pod& pod) const {
    std::vector<const Migrating*> out;
    for (const Migrating& m : migrating_) {
      if (!refersTo(*m.job, pod)) {
        out.push_back(&m);
      }
    }
    return out;
  }

  std::optional<Workload> workloadOf(const core::Pod& pod,
                                     const core::OwnerReference& controller) const {
    return snapshot_.workload(pod.metadata.namespace_, controller);
  }

  static std::string workloadName(const core::OwnerReference& c) {
    return c.kind + " " + quoted(c.name);
  }

  Judgement judgeNonRetryable(const sched::PodMigrationJob& job, const core::Pod& pod) const {
    const std::string& ns = pod.metadata.namespace_;
    if (args_.namespaces) {
      if (!args_.namespaces->include.empty() && !contains(args_.namespaces->include, ns)) {
        return fail("namespace " + quoted(ns) + " is not among the included namespaces");
      }
      if (contains(args_.namespaces->exclude, ns)) {
        return fail("namespace " + quoted(ns) + " is excluded");
      }
    }
    if (hasMaxEvictionCost(pod)) {
      return fail("the pod's " + std::string(api::kAnnotationEvictionCost) +
                  " is MaxInt32 (never evict)");
    }
    for (const Migrating& m : migrating_) {
      if (m.job->metadata.name != job.metadata.name && refersTo(*m.job, pod)) {
        return fail("PodMigrationJob " + quoted(m.job->metadata.name) +
                    " already migrates the pod");
      }
    }
    if (!isEvictDirectly(job, args_) && !contains(args_.scheduler_names, pod.spec.schedulerName)) {
      return fail("ReservationFirst needs a pod of schedulerName " + joined(args_.scheduler_names) +
                  ", the pod's is " + quoted(pod.spec.schedulerName));
    }
    const core::OwnerReference* controller = core::controllerOf(pod.metadata);
    if (controller == nullptr || args_.skip_check_expected_replicas ||
        skipped(kGateExpectedReplicas)) {
      return pass();
    }
    auto workload = workloadOf(pod, *controller);
    if (!workload) {
      return retry("the pod's workload " + workloadName(*controller) + " is unknown");
    }
    const int64_t replicas = workload->expected_replicas;
    const int64_t max_migrating = maxMigrating(replicas, args_.max_migrating_per_workload);
    const int64_t max_unavailable = maxUnavailable(replicas, args_.max_unavailable_per_workload);
    if (replicas == 1 || replicas == max_migrating || replicas == max_unavailable) {
      return fail("workload " + workloadName(*controller) + " expects " + std::to_string(replicas) +
                  " replicas (maxMigrating " + std::to_string(max_migrating) + ", maxUnavailable " +
                  std::to_string(max_unavailable) + ")");
    }
    return pass();
  }

  Judgement judgeRetryable(const core::Pod& pod) const {
    const std::vector<const Migrating*> migrating = others(pod);
    if (args_.max_migrating_globally && *args_.max_migrating_globally > 0 &&
        !skipped(kGateMaxMigratingGlobally) &&
        static_cast<int64_t>(migrating.size()) >= *args_.max_migrating_globally) {
      return retry(std::to_string(migrating.size()) + " pods are migrating, maxMigratingGlobally " +
                   std::to_string(*args_.max_migrating_globally));
    }
    const std::string& node = pod.spec.nodeName;
    if (!node.empty() && args_.max_migrating_per_node && *args_.max_migrating_per_node > 0 &&
        !skipped(kGateMaxMigratingPerNode)) {
      std::set<std::string> on_node;
      for (const Migrating* m : migrating) {
        if (m->pod != nullptr && m->pod->spec.nodeName == node) {
          on_node.insert(podKey(m->pod->metadata));
        }
      }
      const auto count = static_cast<int64_t>(on_node.size());
      if (count >= *args_.max_migrating_per_node) {
        return retry(std::to_string(count) + " pods of node " + quoted(node) +
                     " are migrating, maxMigratingPerNode " +
                     std::to_string(*args_.max_migrating_per_node));
      }
    }
    const std::string& ns = pod.metadata.namespace_;
    if (args_.max_migrating_per_namespace && *args_.max_migrating_per_namespace > 0 &&
        !skipped(kGateMaxMigratingPerNamespace)) {
      const auto count = std::count_if(migrating.begin(), migrating.end(), [&](const Migrating* m) {
        return m->job->spec.podRef && m->job->spec.podRef->namespace_ == ns;
      });
      if (count >= *args_.max_migrating_per_namespace) {
        return retry(std::to_string(count) + " pods of namespace " + quoted(ns) +
                     " are migrating, maxMigratingPerNamespace " +
                     std::to_string(*args_.max_migrating_per_namespace));
      }
    }
    return judgeWorkload(pod, migrating);
  }

  Judgement judgeWorkload(const core::Pod& pod,
                          const std::vector<const Migrating*>& migrating) const {
    const bool check_migrating = !skipped(kGateMaxMigratingPerWorkload);
    const bool check_unavailable = !skipped(kGateMaxUnavailablePerWorkload);
    const core::OwnerReference* controller = core::controllerOf(pod.metadata);
    if (controller == nullptr || (!check_migrating && !check_unavailable)) {
      return pass();
    }
    auto workload = workloadOf(pod, *controller);
    if (!workload) {
      return retry("the pod's workload " + workloadName(*controller) + " is unknown");
    }
    const int64_t replicas = workload->expected_replicas;
    std::set<std::string> migrating_pods;
    for (const Migrating* m : migrating) {
      if (m->pod == nullptr) {
        continue;
      }
      const core::OwnerReference* c = core::controllerOf(m->pod->metadata);
      if (c != nullptr && c->uid == controller->uid) {
        migrating_pods.insert(podKey(m->pod->metadata));
      }
    }
    const int64_t max_migrating = maxMigrating(replicas, args_.max_migrating_per_workload);
    if (check_migrating && !migrating_pods.empty() &&
        static_cast<int64_t>(migrating_pods.size()) >= max_migrating) {
      return retry(std::to_string(migrating_pods.size()) + " pods of workload " +
                   workloadName(*controller) + " are migrating, maxMigrating " +
                   std::to_string(max_migrating));
    }
    if (!check_unavailable) {
      return pass();
    }
    std::set<std::string> unavailable = migrating_pods;
    for (const PodPtr& p : workload->pods) {
      if (p != nullptr && !(isPodActive(*p) && isPodReady(*p))) {
        unavailable.insert(podKey(p->metadata));
      }
    }
    const int64_t max_unavailable = maxUnavailable(replicas, args_.max_unavailable_per_workload);
    if (static_cast<int64_t>(unavailable.size()) >= max_unavailable) {
      return retry(std::to_string(unavailable.size()) + " pods of workload " +
                   workloadName(*controller) + " are unavailable or migrating, maxUnavailable " +
                   std::to_string(max_unavailable));
    }
    return pass();
  }

  const ArbitrationSnapshot& snapshot_;
  const config::MigrationControllerArgs& args_;
  std::vector<Migrating> migrating_;
};

// Creation time for ordering; jobs without a readable one sort last.
std::optional<std::chrono::system_clock::time_point> createdAt(const sched::PodMigrationJob& job) {
  auto t = core::parseTime(job.metadata.creationTimestamp);
  return t.ok() ? std::optional(*t) : std::nullopt;
}

}  // namespace

std::string_view verdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "Pass";
    case Verdict::kRetry:
      return "Retry";
    case Verdict::kFail:
      return "Fail";
  }
  return "Unknown";
}

std::optional<std::string> migrationLimitReached(const ArbitrationSnapshot& snapshot,
                                                 const core::Pod& pod,
                                                 const config::MigrationControllerArgs& args) {
  Arbiter arbiter(snapshot, args);
  for (const JobPtr& job : snapshot.jobs()) {
    if (job != nullptr &&
        (job->status.phase == sched::kPodMigrationJobRunning || isPending(*job))) {
      arbiter.addMigrating(job, arbiter.podOf(*job));
    }
  }
  Judgement j = arbiter.limits(pod);
  if (j.verdict == Verdict::kPass) {
    return std::nullopt;
  }
  return std::move(j.reason);
}

std::vector<Arbitration> arbitrate(const ArbitrationSnapshot& snapshot,
                                   const config::MigrationControllerArgs& args) {
  Arbiter arbiter(snapshot, args);
  struct Waiting {
    JobPtr job;
    std::optional<std::chrono::system_clock::time_point> created;
  };
  std::vector<Waiting> waiting;
  for (const JobPtr& job : snapshot.jobs()) {
    if (job == nullptr || isTerminal(*job)) {
      continue;
    }
    if (isActive(*job)) {
      arbiter.addMigrating(job, arbiter.podOf(*job));
    } else if (isPending(*job) && !job->spec.paused) {
      waiting.push_back({job, createdAt(*job)});
    }
  }
  std::stable_sort(waiting.begin(), waiting.end(), [](const Waiting& a, const Waiting& b) {
    if (a.created.has_value() != b.created.has_value()) {
      return a.created.has_value();
    }
    if (a.created && *a.created != *b.created) {
      return *a.created < *b.created;
    }
    return a.job->metadata.name < b.job->metadata.name;
  });
  std::vector<Arbitration> out;
  out.reserve(waiting.size());
  for (const Waiting& w : waiting) {
    PodPtr pod = arbiter.podOf(*w.job);
    Judgement j = arbiter.judge(w.job, pod);
    if (j.verdict == Verdict::kPass) {
      arbiter.addMigrating(w.job, pod);
    }
    out.push_back({w.job, j.verdict, std::move(j.reason)});
  }
  return out;
}

}  // namespace koord::manager::descheduler::migration
