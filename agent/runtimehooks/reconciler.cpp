#include "agent/runtimehooks/reconciler.hpp"

#include <utility>

namespace koord::agent::runtimehooks {

ReconcileStats Reconciler::reconcile(const PodPlanInputs& inputs) {
  PodPlan plan = planPodResources(inputs);
  ReconcileStats stats;
  stats.pods = static_cast<int64_t>(inputs.pods.pods().size());
  stats.updates = static_cast<int64_t>(plan.updates.size());
  stats.problems = static_cast<int64_t>(plan.problems.size());
  for (const std::string& problem : plan.problems) {
    logger_.warn("skipped a pod's cgroup settings", {{"problem", problem}});
  }
  std::set<std::string> pod_dirs;
  for (const resourceexecutor::PodCgroup& pod : inputs.pods.pods()) {
    if (pod.dir.ok()) {
      pod_dirs.insert(pod.dir->string());
    }
  }
  for (const std::string& gone : pod_dirs_) {
    if (pod_dirs.count(gone) == 0) {
      executor_.forget(gone);
    }
  }
  pod_dirs_ = std::move(pod_dirs);
  stats.status = executor_.updateBatch(std::move(plan.updates));
  return stats;
}

}  // namespace koord::agent::runtimehooks
