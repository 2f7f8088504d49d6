#include "extender/app/extender_app.hpp"

#include <ostream>

#include "koord/common/program.hpp"
#include "koord/log/flags.hpp"

namespace koord::extender::app {

int runExtender(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags("koord-extender",
                "An HTTP scheduler extender for a stock kube-scheduler: Reservation, fine-grained\n"
                "CPU/NUMA, GPU sharing, ElasticQuota, load-aware placement and gang scheduling.");
  flags.addString("address", "127.0.0.1:10262", "address the extender serves on");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-extender", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-extender");
        if (!logger.ok()) {
          err << "koord-extender: " << logger.status().message() << "\n";
          return 2;
        }
        logger->error("no server to run yet: this build has the core library only (see docs/)");
        return 1;
      },
      out, err);
}

}  // namespace koord::extender::app
