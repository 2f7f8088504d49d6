#include "agent/app/agent_app.hpp"

#include <ostream>

#include "koord/common/program.hpp"
#include "koord/log/flags.hpp"

namespace koord::agent::app {

int runAgent(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags("koord-agent",
                "The node agent (a DaemonSet): reports NodeResourceTopology, Device and "
                "NodeMetric\nfor its node, writes cgroup and resctrl settings, runs CPU "
                "suppress/burst, memory QoS\nand BE eviction.");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-agent", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-agent");
        if (!logger.ok()) {
          err << "koord-agent: " << logger.status().message() << "\n";
          return 2;
        }
        logger->error("no server to run yet: this build has the core library only (see docs/)");
        return 1;
      },
      out, err);
}

}  // namespace koord::agent::app
