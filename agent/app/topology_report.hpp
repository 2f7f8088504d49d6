// TopologyReport: the daemon's NodeResourceTopology and Device report. Each run builds the
// NodeResourceTopology from discovery, the node's pods and the kubelet's files (cpuset problems go
// to ProblemEvents as source "cpuset"), syncs it, and, on a node where NVML loaded at start, loads
// NVML, discovers the GPUs, unloads it and syncs the Device. Each outcome is counted; a failed sync
// holds the next run back with exponential backoff (backoff.hpp).
//
// Every reference must outlive the report. Thread-compatible: the daemon's loop calls it.
#pragma once

#include <string>

#include "agent/app/backoff.hpp"
#include "agent/app/daemon_options.hpp"
#include "agent/app/host.hpp"
#include "agent/app/report_counter.hpp"
#include "agent/reporters/problem_events.hpp"
#include "agent/statesinformer/states_informer.hpp"
#include "agent/system/cpu_pools.hpp"
#include "koord/common/clock.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::app {

class TopologyReport {
 public:
  TopologyReport(const DaemonOptions& options, const Host& host, k8s::Client& client,
                 const statesinformer::StatesInformer& states, const ReportCounter& counter,
                 reporters::ProblemEvents& events, log::Logger logger);

  // Whether the backoff of a failed report has passed at `now`.
  [[nodiscard]] bool ready(Clock::TimePoint now) const { return backoff_.ready(now); }

  // One report at `now`. Without the Node in the cache it logs and does nothing. Otherwise `cpus`
  // gets the pools of the node's CPU allocation (reporters/cpu_allocation.hpp), the same result
  // the NodeResourceTopology's pool annotations are formatted from, even when the sync fails.
  void run(Clock::TimePoint now, system::CpuPools& cpus);

 private:
  const DaemonOptions& options_;
  const Host& host_;
  k8s::Client& client_;
  const statesinformer::StatesInformer& states_;
  const ReportCounter& counter_;
  reporters::ProblemEvents& events_;
  log::Logger logger_;
  ReportBackoff backoff_;
};

}  // namespace koord::agent::app
