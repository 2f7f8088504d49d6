// MemoryQOS: koordlet's CgroupReconcile memory QoS (qosmanager/plugins/cgreconcile) as a QoS
// strategy. Every interval it computes memory.min, memory.low and memory.high of every running
// pod's containers from the NodeSLO's spec.resourceQOSStrategy (per class, merged with koordlet's
// defaults) and the pod's koordinator.sh/memoryQOS annotation (memory_qos_config.hpp), with
// koordlet's formulas (memory_qos_formula.hpp), and hands them to the executor in one batch,
// top-down as koordlet's leveled update does:
//   1. the QoS folders: kubepods (every pod: the Guaranteed folder is the ancestor of the other
//      two, so it holds the sum of all, as koordlet's completeCgroupSummaryForQoS), then
//      burstable and besteffort (sums over the pods of that Kubernetes QoS class): min and low;
//   2. each pod's folder: the sums of its containers' min and low;
//   3. each started container: min, low and high.
// Pods in a terminal phase are left out. Container requests and limits are resources.memory, or
// kubernetes.io/batch-memory (with the deprecated koordinator.sh/batch-memory as a fallback) for
// pods labelled koordinator.sh/qosClass=BE. A container without a memory limit throttles against
// the Node's status.allocatable memory.
//
// cgroup v1: memory.min, memory.low and memory.high do not exist on a stock v1 kernel (only on
// Anolis), so on a v1 node the strategy writes nothing: koord_agent_memory_qos_supported is 0, one
// warning is logged (the first run only) and debugState says why.
//
// A disabled class (memoryQOS.enable not true) gets min 0, low 0 and high "max": koordlet resets
// it to the kernel's defaults rather than leaving stale values (its statesinformer's
// mergeNoneMemoryQOSIfDisabled). Like koordlet's, the strategy runs whenever the NodeSLO has a
// resourceQOSStrategy: koordlet turns the whole plugin off with its CgroupReconcile feature gate
// (default off); here that is the daemon's --disable set.
//
// Errors: a percentage outside 0..100 in the NodeSLO is kInvalidArgument naming the field and
// nothing is written. A pod whose annotation is malformed keeps the node's settings (as koordlet,
// which ignores an annotation it cannot parse) and is named in debugState's "problems". A cgroup
// that vanished mid-write (kNotFound from the executor: the pod ended) is not an error.
//
// Metrics (when a registry is given): koord_agent_memory_qos_supported (1 on cgroup v2, 0 on v1),
// koord_agent_memory_qos_containers (containers given values in the last run).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "agent/qosmanager/framework/strategy.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies::memory_qos {

class MemoryQos final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "MemoryQOS";

  // `interval`: koordlet runs CgroupReconcile on --reconcile-interval-seconds (1 s); the daemon
  // passes its reconcile interval. `registry` may be null (no metrics) and must outlive the
  // strategy. `page_size` rounds memory.high; 0 takes the system's page size.
  MemoryQos(Clock::Duration interval, log::Logger logger, metrics::MetricsRegistry* registry,
            int64_t page_size = 0);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return interval_; }
  // New pods get their values at once.
  [[nodiscard]] bool runsOnStateChange() const override { return true; }
  // True when the NodeSLO has a spec.resourceQOSStrategy (koordlet skips the run otherwise).
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* node_slo) const override;
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // {"supported", "reason" (when not supported or skipped), "node_allocatable_memory",
  //  "page_size", "classes": {"LSR"|"LS"|"BE"|"SYSTEM": {"enabled", "minLimitPercent",
  //  "lowLimitPercent", "throttlingPercent"}}, "pods": [{"pod", "qos", "kube_qos", "policy",
  //  "minLimitPercent", "lowLimitPercent", "throttlingPercent", "min", "low", "containers":
  //  [{"name", "request", "limit", "min", "low", "high" ("max", bytes or null), "written"}]}],
  //  "qos_dirs": [{"dir", "min", "low"}], "updates", "containers", "problems", "status"}.
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  Clock::Duration interval_;
  log::Logger logger_;
  int64_t page_size_;
  metrics::Gauge supported_;  // no-op without a registry
  metrics::Gauge containers_;
  bool logged_unsupported_ = false;
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::memory_qos
