// The koord-agent daemon: discovery once at start, then one loop that collects metrics every
// collect_interval, reports NodeResourceTopology / Device when due or changed, NodeMetric every
// reportIntervalSeconds of its collect policy, and runs the QoS strategies (qosmanager/: for now
// the runtime reconciler, which keeps the pods' cgroups) each on its own interval; /healthz and
// /metrics on listen_host:listen_port.
//
// An API server that goes away stops only the reports: collection and reconciliation go on from
// the informers' last state (the node is left as it was), and reports are retried with
// exponential backoff (1 s doubling to 5 min).
//
// What the agent finds wrong in others' objects (a pod's resource-status cpuset, the NodeMetric's
// collect policy) is corrected as node_topology.hpp and node_metric.hpp say and told as a Warning
// Event on that object, once per problem (ProblemEvents over an EventRecorder).
#pragma once

#include <functional>

#include "agent/app/daemon_options.hpp"
#include "koord/common/status.hpp"
#include "koord/log/logger.hpp"

namespace koord::agent::app {

// Runs the daemon until `wait_for_stop` returns (a termination signal), then stops cleanly.
// Fails before serving when discovery or the API client cannot be set up; the error says what.
[[nodiscard]] Status runDaemon(const DaemonOptions& options, const log::Logger& logger,
                               const std::function<void()>& wait_for_stop);

}  // namespace koord::agent::app
