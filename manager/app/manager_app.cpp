#include "manager/app/manager_app.hpp"

#include <ostream>

#include "koord/common/program.hpp"

namespace koord::manager::app {

int runManager(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags(
      "koord-manager",
      "The control-plane manager: NodeSLO, batch/mid node resources and admission webhooks.");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  flags.addString("log-level", "info", "trace, debug, info, warn, error or off");
  flags.addString("log-format", "text", "text or json");
  return runProgram(
      flags, "koord-manager", argc, argv,
      [&](const FlagSet&) {
        err << "koord-manager: not built yet (see docs/)\n";
        return 1;
      },
      out, err);
}

}  // namespace koord::manager::app
