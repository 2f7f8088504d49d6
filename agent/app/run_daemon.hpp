// runDaemon: koord-agent as a process. Discovers the host, connects to the API server, starts the
// node's informers, the Event recorder, the Daemon (daemon.hpp) and the /healthz, /readyz and
// /metrics routes on listen_host:listen_port, and stops them all, in that order, once
// `wait_for_stop` returns.
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
