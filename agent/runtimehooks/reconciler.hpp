// Reconciler: the runtime reconciler of standalone mode (koordlet's runtimehooks/reconciler). Each
// pass plans the cgroup settings of every pod on the node (pod_plan.hpp) and hands them to the
// ResourceExecutor, which writes only what changed. Pods that left the node are forgotten by the
// executor's cache, so a pod re-created with the same UID is written again.
//
// Run by the QoS strategy scheduler as the RuntimeReconcile strategy
// (qosmanager/strategies/runtime_reconcile/), on an interval and when the node's pods change;
// tests call reconcile() directly. Thread-compatible: one caller at a time.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "agent/resourceexecutor/resource_executor.hpp"
#include "agent/runtimehooks/pod_plan.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::runtimehooks {

struct ReconcileStats {
  int64_t pods = 0;      // pods planned
  int64_t updates = 0;   // updates handed to the executor
  int64_t problems = 0;  // pods or containers skipped (logged)
  Status status;         // the executor's batch result (logged by the caller)
};

class Reconciler {
 public:
  // `executor` must outlive the reconciler.
  Reconciler(resourceexecutor::ResourceExecutor& executor, log::Logger logger)
      : executor_(executor), logger_(std::move(logger)) {}

  ReconcileStats reconcile(const PodPlanInputs& inputs);

 private:
  resourceexecutor::ResourceExecutor& executor_;
  log::Logger logger_;
  std::set<std::string> pod_dirs_;  // the pod cgroups of the previous pass
};

}  // namespace koord::agent::runtimehooks
