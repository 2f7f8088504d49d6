#include "manager/descheduler/app/descheduler_app.hpp"

#include <ostream>
#include <string>

#include "koord/common/program.hpp"
#include "koord/common/termination_signals.hpp"
#include "koord/log/flags.hpp"
#include "manager/descheduler/app/descheduler_serve.hpp"
#include "manager/descheduler/app/registry.hpp"
#include "manager/descheduler/config/descheduler_config.hpp"

namespace koord::manager::descheduler::app {

namespace deschedulerapp_detail {

std::string summary(const PluginRegistry& registry) {
  std::string plugins;
  for (const std::string& name : registry.names()) {
    plugins += (plugins.empty() ? "" : ", ") + name;
  }
  return "koord-descheduler: Koordinator's descheduler. Every deschedulingInterval it runs the\n"
         "profiles of a DeschedulerConfiguration (descheduler/v1alpha2) over the cluster, and "
         "each\n"
         "victim becomes a PodMigrationJob (MigrationController is the evictor); the\n"
         "PodMigrationJob controller (arbitration, ReservationFirst or EvictDirectly, scavenging)\n"
         "runs in the same process. One replica leads (the config's Lease). Serves /healthz,\n"
         "/readyz and /metrics (koord_descheduler_*).\n"
         "Plugins built: " +
         plugins +
         ".\n"
         "What is not built (other community plugins, evicting without a PodMigrationJob, ...) is\n"
         "listed in docs/compatibility.md.";
}

}  // namespace deschedulerapp_detail

int runDescheduler(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const PluginRegistry registry = PluginRegistry::builtIn();
  FlagSet flags("koord-descheduler", deschedulerapp_detail::summary(registry));
  flags.addString("config", "", "path to the DeschedulerConfiguration file (required)");
  flags.addString("kubeconfig", "",
                  "path to a kubeconfig; overrides clientConnection.kubeconfig ($KUBECONFIG, "
                  "else in-cluster config, when both are empty)");
  flags.addBool("dry-run",
                "create no PodMigrationJob; print one line per victim on stdout instead");
  flags.addBool("once", "run one descheduling pass and exit (no controller, no server, no Lease)");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-descheduler", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-descheduler");
        if (!logger.ok()) {
          err << "koord-descheduler: " << logger.status().message() << "\n";
          return 2;
        }
        const std::string& path = parsed.get("config");
        if (path.empty()) {
          err << "koord-descheduler: --config is required\n";
          return 2;
        }
        auto loaded = config::loadDeschedulerConfigurationFile(path);
        if (!loaded.ok()) {
          err << "koord-descheduler: " << loaded.status().message() << "\n";
          return 1;
        }
        for (const std::string& warning : loaded->warnings) {
          logger->warn("DeschedulerConfiguration", {{"warning", warning}});
        }
        DeschedulerOptions options;
        options.config = std::move(*loaded);
        options.kubeconfig = parsed.get("kubeconfig").empty()
                                 ? options.config.client_connection.kubeconfig
                                 : parsed.get("kubeconfig");
        options.dry_run = options.config.dry_run || parsed.getBool("dry-run");
        options.dry_run_out = &out;
        if (parsed.getBool("once")) {
          const Status status = runOnce(options, registry, *logger);
          if (!status.isOk()) {
            err << "koord-descheduler: " << status.message() << "\n";
            return 1;
          }
          return 0;
        }
        const sigset_t signals = blockTerminationSignals();
        const Status served = serve(options, registry, *logger, [&] {
          const int signal = waitForTerminationSignal(signals);
          logger->info("received a termination signal", {{"signal", signal}});
        });
        if (!served.isOk()) {
          logger->error("koord-descheduler failed", {{"error", served.message()}});
          err << "koord-descheduler: " << served.message() << "\n";
          return 1;
        }
        return 0;
      },
      out, err);
}

}  // namespace koord::manager::descheduler::app
