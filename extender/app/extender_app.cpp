#include "extender/app/extender_app.hpp"

#include <ostream>
#include <string>
#include <string_view>

#include "extender/app/probe_command.hpp"
#include "extender/app/serve.hpp"
#include "extender/config/extender_config.hpp"
#include "extender/simulator/simulate_command.hpp"
#include "koord/common/program.hpp"
#include "koord/common/termination_signals.hpp"
#include "koord/log/flags.hpp"

namespace koord::extender::app {
namespace {

// The configuration file (or every default), with the --address and --kubeconfig overrides.
Result<config::KoordExtenderConfiguration> loadConfiguration(const FlagSet& flags) {
  config::KoordExtenderConfiguration loaded = config::defaultConfiguration();
  if (!flags.get("config").empty()) {
    KOORD_ASSIGN_OR_RETURN(loaded, config::loadExtenderConfiguration(flags.get("config")));
  }
  if (!flags.get("address").empty()) {
    Result<config::HostPort> address = config::splitHostPort(flags.get("address"));
    if (!address.ok()) {
      return address.status().withPrefix("--address");
    }
    loaded.server.address = flags.get("address");
  }
  if (!flags.get("kubeconfig").empty()) {
    loaded.client_connection.kubeconfig = flags.get("kubeconfig");
  }
  return loaded;
}

}  // namespace

int runExtender(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  if (argc >= 2 && std::string_view(argv[1]) == "simulate") {
    return simulator::runSimulate(argc - 1, argv + 1, out, err);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "probe") {
    return runProbe(argc - 1, argv + 1, out, err);
  }
  FlagSet flags(
      "koord-extender",
      "An HTTP scheduler extender for a stock kube-scheduler (filter, prioritize, preempt,\n"
      "bind). Its plugins: LoadAwareScheduling (node load from NodeMetrics, with estimates\n"
      "of pods placed since the last report), PriorityQoS (QoS class and priority band),\n"
      "NodeReservation "
      "(node.koordinator.sh/reservation), BatchResources (batch/mid resources),\n"
      "NodeNUMAResource (cpusets for LSE/LSR pods, NUMA topology policies),\n"
      "DeviceResources (GPU and RDMA requests against node totals) and Reservation; it also\n"
      "places, updates and expires Reservations. Not built yet: docs/compatibility.md.\n"
      "Configured by a KoordExtenderConfiguration file (docs/extender.md).\n"
      "`koord-extender simulate --help` places pods of a cluster read from YAML offline;\n"
      "`koord-extender probe --help` checks a running extender's health (exec probes).");
  flags.addString("config", "",
                  "path to a KoordExtenderConfiguration file; every default when empty");
  flags.addString("address", "",
                  "host:port to serve on; overrides server.address (default 127.0.0.1:10262)");
  flags.addString("kubeconfig", "",
                  "path to a kubeconfig; overrides clientConnection.kubeconfig (in-cluster "
                  "config when both are empty)");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-extender", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-extender");
        if (!logger.ok()) {
          err << "koord-extender: " << logger.status().message() << "\n";
          return 2;
        }
        Result<config::KoordExtenderConfiguration> loaded = loadConfiguration(parsed);
        if (!loaded.ok()) {
          err << "koord-extender: " << loaded.status().message() << "\n";
          return 2;
        }
        const sigset_t signals = blockTerminationSignals();
        const Status served = serve(*loaded, *logger, [&] {
          const int signal = waitForTerminationSignal(signals);
          logger->info("received a termination signal", {{"signal", signal}});
        });
        if (!served.isOk()) {
          logger->error("koord-extender failed", {{"error", served.message()}});
          err << "koord-extender: " << served.message() << "\n";
          return 1;
        }
        return 0;
      },
      out, err);
}

}  // namespace koord::extender::app
