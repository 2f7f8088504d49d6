#include "extender/app/extender_app.hpp"

#include <ostream>

#include "koord/common/program.hpp"

namespace koord::extender::app {

int runExtender(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags("koord-extender",
                "An HTTP scheduler extender for a stock kube-scheduler: Reservation, fine-grained\n"
                "CPU/NUMA, GPU sharing, ElasticQuota, load-aware placement and gang scheduling.");
  flags.addString("address", "127.0.0.1:10262", "address the extender serves on");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  flags.addString("log-level", "info", "trace, debug, info, warn, error or off");
  flags.addString("log-format", "text", "text or json");
  return runProgram(
      flags, "koord-extender", argc, argv,
      [&](const FlagSet&) {
        err << "koord-extender: the extender server is not built yet (see docs/)\n";
        return 1;
      },
      out, err);
}

}  // namespace koord::extender::app
