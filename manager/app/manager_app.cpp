#include "manager/app/manager_app.hpp"

#include <ostream>

#include "koord/common/program.hpp"
#include "koord/log/flags.hpp"

namespace koord::manager::app {

int runManager(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags(
      "koord-manager",
      "koord-manager is not built yet: it reads these flags and exits 1. NodeSLO, batch/mid\n"
      "node resources, admission webhooks and koord-descheduler are listed in\n"
      "docs/compatibility.md, \"Not built yet\".");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-manager", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-manager");
        if (!logger.ok()) {
          err << "koord-manager: " << logger.status().message() << "\n";
          return 2;
        }
        logger->error(
            "no server to run yet: koord-manager is not built yet (see docs/compatibility.md, "
            "\"Not built yet\")");
        return 1;
      },
      out, err);
}

}  // namespace koord::manager::app
