// Daemon: koord-agent's one loop, and the wiring of the parts it drives. Every
// collect_interval it collects metrics (metricsadvisor/); once the node's informers have synced
// it reports NodeResourceTopology / Device when due or when the node's pods or Node change
// (topology_report.hpp), NodeMetric every reportIntervalSeconds of its collect policy
// (node_metric_report.hpp), and runs the QoS strategies that are due (qosmanager/: for now the
// runtime reconciler, which keeps the pods' cgroups), each on its own interval. Every interval
// is measured on the injected Clock.
//
// An API server that goes away stops only the reports: collection and reconciliation go on from
// the informers' last state (the node is left as it was), and reports are retried with
// exponential backoff (1 s doubling to 5 min).
//
// What the agent finds wrong in others' objects (a pod's resource-status cpuset, the NodeMetric's
// collect policy) is corrected as cpu_allocation.hpp and node_metric.hpp say and told as a Warning
// Event on that object, once per problem (ProblemEvents over the injected sink).
//
// Metrics (on the injected registry): koord_agent_collect_errors_total{collector} and
// koord_agent_collect_duration_seconds (collect_metrics.hpp), koord_agent_reports_total
// (report_counter.hpp), koord_agent_resident_memory_bytes, and those of the resource executor,
// the strategy scheduler and the evictor.
//
// Lifecycle: create() builds every part or fails; start() starts the loop's thread; stop() (also
// run by the destructor) stops it. Thread safety: start() and stop() from one thread;
// healthy() from any.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "agent/app/daemon_options.hpp"
#include "agent/app/host.hpp"
#include "agent/app/node_metric_report.hpp"
#include "agent/app/report_counter.hpp"
#include "agent/app/topology_report.hpp"
#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/collect_metrics.hpp"
#include "agent/metricsadvisor/metrics_advisor.hpp"
#include "agent/qosmanager/framework/evictor.hpp"
#include "agent/qosmanager/framework/scheduler.hpp"
#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/reporters/problem_events.hpp"
#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "agent/resourceexecutor/cgroup_resource_executor.hpp"
#include "agent/resourceexecutor/pod_cgroups.hpp"
#include "agent/resourceexecutor/proc_sys_config_executor.hpp"
#include "agent/statesinformer/states_informer.hpp"
#include "agent/system/cpu_pools.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::app {

// What the daemon borrows; each must outlive it. create() registers an onChange callback on
// `states` that refers to the daemon: stop the informers before the daemon is destroyed.
struct DaemonDeps {
  k8s::Client& client;                     // the reports and the evictor
  statesinformer::StatesInformer& states;  // the node's Node, pods, NodeSLO and NodeMetric
  metrics::MetricsRegistry& registry;      // where every series of the agent goes
  const Clock& clock;                      // every interval, backoff and health deadline
  reporters::ProblemEvents::Sink events;   // Warning Events (an EventRecorder in production)
};

class Daemon {
 public:
  // Builds every part from what discovery found. Errors: kInvalidArgument when node_name is
  // empty or an interval is not positive; the errors of the resource executor (a kubepods folder
  // it refuses), of the scheduler and evictor, and of the registry (a series registered with
  // other labels). Nothing runs and no file is written until start().
  [[nodiscard]] static Result<std::unique_ptr<Daemon>> create(DaemonOptions options,
                                                              log::Logger logger, Host host,
                                                              DaemonDeps deps);

  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Starts the loop on its own thread ("agent-loop"); its first pass collects at once.
  void start();
  // Wakes the loop and joins it; a pass in progress finishes first. Idempotent.
  void stop();

  // Whether the loop has collected within 10 collect intervals plus 30 s (false before the first
  // cycle): /healthz.
  [[nodiscard]] bool healthy() const;

  // /debug/qos: every QoS strategy's last run and decision (Scheduler::debugJson). Thread-safe.
  [[nodiscard]] api::Json qosDebug() const { return parts_.scheduler->debugJson(); }

 private:
  // The parts create() builds before the daemon exists (each can fail).
  struct Parts {
    std::unique_ptr<resourceexecutor::CgroupResourceExecutor> executor;
    std::unique_ptr<resourceexecutor::ProcSysConfigExecutor> system_config;
    std::unique_ptr<qosmanager::framework::Evictor> evictor;
    std::unique_ptr<qosmanager::framework::Scheduler> scheduler;
    metricsadvisor::CollectMetrics collect_metrics;
    ReportCounter reports;
    metrics::Gauge rss_bytes;
  };

  Daemon(DaemonOptions options, log::Logger logger, Host host, DaemonDeps deps, Parts parts);

  void loop();
  void collect();
  // Runs the QoS strategies that are due; returns when the next one is.
  Clock::TimePoint runStrategies(bool state_changed);

  const DaemonOptions options_;
  const log::Logger logger_;
  const Host host_;
  DaemonDeps deps_;
  const resourceexecutor::KubeletCgroupNaming naming_;
  const metriccache::MetricCacheConfig cache_config_;  // before cache_
  const std::shared_ptr<metriccache::MetricCache> cache_;
  Parts parts_;
  metricsadvisor::MetricsAdvisor advisor_;
  // The QoS strategies' own reader (cpu.stat throttling); loop thread only.
  std::unique_ptr<metricsadvisor::CgroupReader> qos_reader_;
  qosmanager::framework::SharedDecisions shared_;  // loop thread only
  reporters::ProblemEvents events_;                // loop thread only
  system::CpuPools cpus_;               // the last topology pass's pools; loop thread only
  resourceexecutor::PodCgroups pods_;   // resolved at the start of each pass; loop thread only
  TopologyReport topology_report_;      // loop thread only
  NodeMetricReport metric_report_;      // loop thread only
  std::atomic<bool> dirty_{true};       // the node's pods or Node changed
  std::atomic<int64_t> last_cycle_{0};  // the clock's time of the last collection, in ticks
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace koord::agent::app
