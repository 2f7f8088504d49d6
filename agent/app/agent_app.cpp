#include "agent/app/agent_app.hpp"

#include <cstdlib>
#include <ostream>

#include "agent/app/run_daemon.hpp"
#include "agent/qosmanager/strategies/builtin.hpp"
#include "agent/system/cgroup_layout.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/common/program.hpp"
#include "koord/common/termination_signals.hpp"
#include "koord/log/flags.hpp"

namespace koord::agent::app {

namespace {

Status parseInterval(const FlagSet& flags, const std::string& name,
                     std::chrono::milliseconds& out) {
  auto parsed = api::extension::parseDuration(flags.get(name));
  if (!parsed.ok() || parsed->count() <= 0) {
    return Status::invalidArgument("invalid --" + name + " '" + flags.get(name) +
                                   "': want a positive duration such as 1s or 500ms");
  }
  out = std::chrono::duration_cast<std::chrono::milliseconds>(*parsed);
  return Status::ok();
}

// The options from the parsed flags; every problem is reported at once.
Result<DaemonOptions> optionsFromFlags(const FlagSet& flags) {
  DaemonOptions options;
  std::vector<std::string> problems;
  options.node_name = flags.get("node-name");
  if (options.node_name.empty()) {
    const char* env = std::getenv("NODE_NAME");
    options.node_name = env == nullptr ? "" : env;
  }
  if (options.node_name.empty()) {
    problems.emplace_back("--node-name (or the NODE_NAME environment variable) is required");
  }
  options.kubeconfig = flags.get("kubeconfig");
  const std::string host_root = flags.get("host-root");
  if (host_root != "/") {
    options.paths = system::SysPaths::under(host_root);
  }
  options.kubelet_root_dir = flags.get("kubelet-root-dir");
  options.kubelet_config = flags.get("kubelet-config");
  if (!flags.get("cgroup-driver").empty()) {
    auto driver = system::parseCgroupDriver(flags.get("cgroup-driver"));
    if (driver.ok()) {
      options.cgroup_driver = *driver;
    } else {
      problems.push_back(driver.status().message());
    }
  }
  if (!flags.get("kubelet-cgroup-root").empty()) {
    options.kubelet_cgroup_root = flags.get("kubelet-cgroup-root");
  }
  options.nvml_library = flags.get("nvml-library");
  const std::string listen = flags.get("listen-address");
  const size_t colon = listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos) {
    port = std::atoi(listen.c_str() + colon + 1);
  }
  if (colon == std::string::npos || port < 0 || port > 65535) {
    problems.push_back("invalid --listen-address '" + listen + "': want host:port");
  } else {
    options.listen_host = listen.substr(0, colon);
    options.listen_port = static_cast<uint16_t>(port);
  }
  for (const auto& [name, field] : {std::pair{"collect-interval", &options.collect_interval},
                                    std::pair{"report-interval", &options.report_interval},
                                    std::pair{"reconcile-interval", &options.reconcile_interval}}) {
    Status status = parseInterval(flags, name, *field);
    if (!status.isOk()) {
      problems.push_back(status.message());
    }
  }
  options.reconciler = !flags.getBool("disable-reconciler");
  auto gates = qosmanager::strategies::parseFeatureGates(flags.get("feature-gates"));
  if (gates.ok()) {
    options.feature_gates = std::move(*gates);
  } else {
    problems.push_back(gates.status().message());
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

int runAgent(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  FlagSet flags("koord-agent",
                "The node agent (a DaemonSet): reports NodeResourceTopology, Device (NVIDIA "
                "GPUs)\nand NodeMetric for its node, reconciles its pods' cgroups (cpusets, "
                "and BE pods'\nCPU and memory from their batch resources) and runs koordlet's "
                "QoS strategies from\nthe node's NodeSLO: CPU suppress, CPU burst, memory QoS, "
                "BE eviction by memory and\nCPU satisfaction, system config. /debug/qos "
                "(from the node only) shows their\ndecisions. Not built yet (resctrl, group "
                "identity...): docs/compatibility.md.");
  flags.addString("kubeconfig", "", "path to a kubeconfig; in-cluster config when empty");
  flags.addString("node-name", "", "the Node this agent runs on (default: $NODE_NAME)");
  flags.addString("host-root", "/",
                  "where the host's /proc and /sys (with /sys/fs/cgroup) are mounted");
  flags.addString("kubelet-root-dir", "/var/lib/kubelet",
                  "the kubelet's root directory (cpu_manager_state, config.yaml)");
  flags.addString("kubelet-config", "",
                  "the kubelet's configuration file (default: <kubelet-root-dir>/config.yaml)");
  flags.addString("cgroup-driver", "", "cgroupfs or systemd; empty detects");
  flags.addString("kubelet-cgroup-root", "",
                  "the kubelet's --cgroup-root; empty: from its config file, else /");
  flags.addString("nvml-library", "libnvidia-ml.so.1", "NVML library loaded for GPU discovery");
  flags.addString("listen-address", "127.0.0.1:9316",
                  "host:port of /healthz, /readyz and /metrics");
  flags.addString("collect-interval", "1s", "how often node and pod usage is collected");
  flags.addString("report-interval", "60s",
                  "how often NodeResourceTopology and Device are checked against the cluster");
  flags.addString("reconcile-interval", "10s", "how often pods' cgroups are reconciled");
  flags.addBool("disable-reconciler", "do not write pods' cgroups (report only)");
  flags.addString("feature-gates", "",
                  "QoS strategies on or off, koordlet's gates: BECPUSuppress, CPUBurst (on by "
                  "default),\nCgroupReconcile (memory QoS), BEMemoryEvict, BECPUEvict, "
                  "SystemConfig (off by default);\ne.g. BEMemoryEvict=true,CPUBurst=false");
  log::addLogFlags(flags);
  return runProgram(
      flags, "koord-agent", argc, argv,
      [&](const FlagSet& parsed) {
        auto logger = log::loggerFromFlags(parsed, err, "koord-agent");
        if (!logger.ok()) {
          err << "koord-agent: " << logger.status().message() << "\n";
          return 2;
        }
        Result<DaemonOptions> options = optionsFromFlags(parsed);
        if (!options.ok()) {
          logger->error("invalid command line", {{"error", options.status().message()}});
          return 1;
        }
        const sigset_t signals = blockTerminationSignals();
        Status status = runDaemon(*options, *logger, [&] {
          const int signal = waitForTerminationSignal(signals);
          logger->info("received a termination signal", {{"signal", signal}});
        });
        if (!status.isOk()) {
          logger->error("koord-agent failed", {{"error", status}});
          return 1;
        }
        return 0;
      },
      out, err);
}

}  // namespace koord::agent::app
