#include "manager/app/manager_app.hpp"

#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "koord/api/extension/duration.hpp"
#include "koord/common/program.hpp"
#include "koord/common/termination_signals.hpp"
#include "koord/log/flags.hpp"
#include "manager/app/calculate_command.hpp"
#include "manager/app/serve.hpp"

namespace koord::manager::app {
namespace {

Status parseDurationFlag(const FlagSet& flags, const std::string& name,
                         std::chrono::milliseconds& out) {
  auto parsed = api::extension::parseDuration(flags.get(name));
  if (!parsed.ok() || parsed->count() <= 0) {
    return Status::invalidArgument("invalid --" + name + " '" + flags.get(name) +
                                   "': want a positive duration such as 15s or 500ms");
  }
  out = std::chrono::duration_cast<std::chrono::milliseconds>(*parsed);
  return Status::ok();
}

// The options from the parsed flags; every problem is reported at once.
Result<ServeOptions> optionsFromFlags(const FlagSet& flags) {
  ServeOptions options;
  std::vector<std::string> problems;
  options.kubeconfig = flags.get("kubeconfig");
  const std::string listen = flags.get("listen-address");
  const size_t colon = listen.rfind(':');
  const std::string port_text = colon == std::string::npos ? "" : listen.substr(colon + 1);
  char* end = nullptr;
  const long port = port_text.empty() ? -1 : std::strtol(port_text.c_str(), &end, 10);
  if (colon == std::string::npos || end == nullptr || *end != '\0' || port < 0 || port > 65535) {
    problems.push_back("invalid --listen-address '" + listen + "': want host:port");
  } else {
    options.listen_host = colon == 0 ? "0.0.0.0" : listen.substr(0, colon);
    options.listen_port = static_cast<uint16_t>(port);
  }
  const std::string elect = flags.get("leader-elect");
  if (elect == "true") {
    options.election.leader_elect = true;
  } else if (elect == "false") {
    options.election.leader_elect = false;
  } else {
    problems.push_back("invalid --leader-elect '" + elect + "': want true or false");
  }
  options.election.lease_name = flags.get("leader-elect-resource-name");
  options.election.lease_namespace = flags.get("leader-elect-resource-namespace");
  for (const auto& [name, field] :
       {std::pair{"leader-elect-lease-duration", &options.election.lease_duration},
        std::pair{"leader-elect-renew-deadline", &options.election.renew_deadline},
        std::pair{"leader-elect-retry-period", &options.election.retry_period}}) {
    if (Status status = parseDurationFlag(flags, name, *field); !status.isOk()) {
      problems.push_back(status.message());
    }
  }
  if (options.election.leader_elect && problems.empty()) {
    if (options.election.lease_name.empty() || options.election.lease_namespace.empty()) {
      problems.emplace_back(
          "--leader-elect-resource-name and --leader-elect-resource-namespace must not be empty");
    }
    if (options.election.lease_duration < std::chrono::seconds(1)) {
      problems.emplace_back("--leader-elect-lease-duration must be at least 1s");
    }
    if (options.election.lease_duration <= options.election.renew_deadline) {
      problems.emplace_back(
          "--leader-elect-lease-duration must be longer than --leader-elect-renew-deadline");
    }
    if (options.election.renew_deadline.count() * 10 <=
        options.election.retry_period.count() * 12) {
      problems.emplace_back(
          "--leader-elect-renew-deadline must be longer than 1.2 x --leader-elect-retry-period");
    }
  }
  const std::string webhook_port = flags.get("webhook-port");
  end = nullptr;
  const long wport = std::strtol(webhook_port.c_str(), &end, 10);
  if (webhook_port.empty() || *end != '\0' || wport < 0 || wport > 65535) {
    problems.push_back("invalid --webhook-port '" + webhook_port + "': want 0..65535");
  } else {
    options.webhook.port = static_cast<uint16_t>(wport);
  }
  options.webhook.cert_dir = flags.get("webhook-cert-dir");
  options.webhook.ns = flags.get("webhook-namespace");
  options.webhook.service_name = flags.get("webhook-service-name");
  options.webhook.secret_name = flags.get("webhook-secret-name");
  options.webhook.mutating_configuration = flags.get("webhook-mutating-configuration");
  options.webhook.validating_configuration = flags.get("webhook-validating-configuration");
  std::string alt_names = flags.get("webhook-cert-alt-names");
  for (size_t start = 0; start <= alt_names.size();) {
    size_t comma = alt_names.find(',', start);
    if (comma == std::string::npos) {
      comma = alt_names.size();
    }
    if (comma > start) {
      options.webhook.alt_names.push_back(alt_names.substr(start, comma - start));
    }
    start = comma + 1;
  }
  if (!problems.empty()) {
    std::string message;
    for (const std::string& problem : problems) {
      message += (message.empty() ? "" : "; ") + problem;
    }
    return Status::invalidArgument(message);
  }
  return options;
}

}  // namespace

int runManager(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  if (argc >= 2 && std::string_view(argv[1]) == "calculate") {
    return runCalculate(argc - 1, argv + 1, out, err);
  }
  FlagSet flags(
      "koord-manager",
      "koord-manager: Koordinator's colocation control loop. One replica leads (a Lease) and\n"
      "runs the controllers: one NodeSLO and one NodeMetric spec per node from the\n"
      "slo-controller-config ConfigMap (nodeslo); batch and mid resources on each Node's status,\n"
      "explained in its koord-manager.koordinator.sh/resource-calculation annotation\n"
      "(noderesource); each node's GPU resources and labels from its Device (nodedevice).\n"
      "Serves /healthz, /readyz and /metrics (koord_manager_leader is 1 on the leader).\n"
      "`koord-manager calculate --help` computes batch and mid offline from YAML.\n"
      "Not built yet: docs/compatibility.md; manual: docs/koord-manager.md.");
  flags.addString("kubeconfig", "",
                  "path to a kubeconfig; $KUBECONFIG, else in-cluster config when empty");
  flags.addString("listen-address", "0.0.0.0:8000", "host:port of /healthz, /readyz and /metrics");
  flags.addString("leader-elect", "true",
                  "true: campaign for the Lease and run controllers only while leading; false: "
                  "run them at once");
  flags.addString("leader-elect-resource-name", "koord-manager", "the Lease's name");
  flags.addString("leader-elect-resource-namespace", "koordinator-system", "the Lease's namespace");
  flags.addString("leader-elect-lease-duration", "15s",
                  "how long followers wait after the last renewal before taking the Lease over");
  flags.addString("leader-elect-renew-deadline", "10s",
                  "how long the leader retries a failed renewal before it stops leading");
  flags.addString("leader-elect-retry-period", "2s",
                  "the interval between tries to acquire or renew the Lease");
  flags.addString("webhook-port", "9876",
                  "HTTPS port of the admission webhooks (every replica serves them); 0: none");
  flags.addString("webhook-cert-dir", "/tmp/koordinator-webhook-certs",
                  "where the serving certificate and key are written (tls.crt, tls.key)");
  flags.addString("webhook-namespace", "koordinator-system",
                  "namespace of the certificate Secret and the webhook Service");
  flags.addString("webhook-service-name", "koordinator-webhook-service",
                  "the Service kube-apiserver calls; the certificate names it");
  flags.addString("webhook-secret-name", "koordinator-webhook-certs",
                  "the Secret holding the CA and the serving certificate");
  flags.addString("webhook-cert-alt-names", "",
                  "comma-separated extra DNS names or IP addresses of the serving certificate");
  flags.addString("webhook-mutating-configuration", "koordinator-mutating-webhook-configuration",
                  "the MutatingWebhookConfiguration whose caBundle koord-manager keeps");
  flags.addString("webhook-validating-configuration",
                  "koordinator-validating-webhook-configuration",
                  "the ValidatingWebhookConfiguration whose caBundle koord-manager keeps");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-manager", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-manager");
        if (!logger.ok()) {
          err << "koord-manager: " << logger.status().message() << "\n";
          return 2;
        }
        Result<ServeOptions> options = optionsFromFlags(parsed);
        if (!options.ok()) {
          err << "koord-manager: " << options.status().message() << "\n";
          return 2;
        }
        const sigset_t signals = blockTerminationSignals();
        const Status served = serve(*options, *logger, [&] {
          const int signal = waitForTerminationSignal(signals);
          logger->info("received a termination signal", {{"signal", signal}});
        });
        if (!served.isOk()) {
          logger->error("koord-manager failed", {{"error", served.message()}});
          err << "koord-manager: " << served.message() << "\n";
          return 1;
        }
        return 0;
      },
      out, err);
}

}  // namespace koord::manager::app
