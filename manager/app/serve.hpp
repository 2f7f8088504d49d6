// Running koord-manager: the API client, the shared informers, the controller Manager under the
// Lease, and the probe and metrics server.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "koord/common/status.hpp"
#include "koord/log/logger.hpp"
#include "manager/controller/manager.hpp"

namespace koord::manager::app {

// The admission webhooks (manager/app/webhooks.hpp): served over HTTPS on every replica with a
// certificate koord-manager makes, keeps in a Secret and renews (docs/webhook-certificates.md).
struct WebhookServeOptions {
  uint16_t port = 9876;  // 0: no webhooks, no certificate
  std::string cert_dir = "/tmp/koordinator-webhook-certs";
  std::string ns = "koordinator-system";
  std::string service_name = "koordinator-webhook-service";
  std::string secret_name = "koordinator-webhook-certs";
  std::vector<std::string> alt_names;  // extra DNS names or IPs of the serving certificate
  std::string mutating_configuration = "koordinator-mutating-webhook-configuration";
  std::string validating_configuration = "koordinator-validating-webhook-configuration";
};

struct ServeOptions {
  std::string kubeconfig;  // "" : $KUBECONFIG, else in-cluster
  std::string listen_host = "0.0.0.0";
  uint16_t listen_port = 8000;
  controller::LeaderElectionOptions election;
  WebhookServeOptions webhook;
};

// Builds everything, serves, calls `wait_for_stop` (which blocks until the process should stop),
// then stops: the controllers stop, the Lease is released when held, the HTTP server answers what
// is in flight (up to 10 s) and the informers stop. Returns the first failure of start-up (API
// client, election options, listening), each naming what failed; ok after a clean stop.
//
// /healthz answers 200 while the process runs. /readyz answers 200 once the informers have synced
// and (with leader election) the Lease has been read at least once, leader or follower alike; 503
// before, naming what it waits for. /metrics: the registry (koord_manager_leader and the
// controllers' series).
[[nodiscard]] Status serve(const ServeOptions& options, const log::Logger& logger,
                           const std::function<void()>& wait_for_stop);

}  // namespace koord::manager::app
