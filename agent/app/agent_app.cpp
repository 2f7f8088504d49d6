#include "agent/app/agent_app.hpp"

#include <ostream>

#include "koord/common/program.hpp"

namespace koord::agent::app {

int runAgent(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags("koord-agent",
                "The node agent (a DaemonSet): reports NodeResourceTopology, Device and "
                "NodeMetric\nfor its node, writes cgroup and resctrl settings, runs CPU "
                "suppress/burst, memory QoS\nand BE eviction.");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  flags.addString("log-level", "info", "trace, debug, info, warn, error or off");
  flags.addString("log-format", "text", "text or json");
  return runProgram(
      flags, "koord-agent", argc, argv,
      [&](const FlagSet&) {
        err << "koord-agent: not built yet (see docs/)\n";
        return 1;
      },
      out, err);
}

}  // namespace koord::agent::app
