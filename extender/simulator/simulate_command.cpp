#include "extender/simulator/simulate_command.hpp"

#include <charconv>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "extender/simulator/cluster_loader.hpp"
#include "extender/simulator/report.hpp"
#include "extender/simulator/simulator.hpp"
#include "koord/common/command_args.hpp"

namespace koord::extender::simulator {

namespace {

constexpr std::string_view kUsage =
    "Usage: koord-extender simulate -f <cluster.yaml> [-f <more.yaml> ...] [-o table|json|yaml]\n"
    "\n"
    "Places the pending pods (no spec.nodeName) of the cluster described by the YAML files as a\n"
    "stock kube-scheduler with koord-extender would: kube-scheduler's filters (NodeUnschedulable,\n"
    "NodeName, TaintToleration, NodeAffinity, NodeResourcesFit), then koord-extender's plugins\n"
    "(LoadAwareScheduling, NodeReservation, PriorityQoS, BatchResources, DeviceResources,\n"
    "Reservation, NodeNUMAResource); scored with\n"
    "kube-scheduler's default score plugins plus koord-extender's score times the extender's\n"
    "weight. Prints where each pending pod and Reservation goes, or why it fits nowhere.\n"
    "\n"
    "Flags:\n"
    "  -f, --filename <path>       YAML file with Nodes, Pods and Koordinator objects "
    "(repeatable)\n"
    "  -o, --output <format>       table (default), json or yaml\n"
    "      --extender-weight <n>   the weight kube-scheduler gives koord-extender's scores, "
    "1..1000\n"
    "                              (default 10, as deploy/scheduler-config ships it)\n"
    "  -h, --help                  print this help\n";

struct Options {
  std::vector<std::string> files;
  std::string output = "table";
  int64_t extender_weight = plugins::kube::kShippedExtenderWeight;
  bool help = false;
};

// Returns an error message, empty when the arguments parse.
std::string parseArgs(int argc, const char* const* argv, Options& options) {
  CommandArgs args(
      {{"-f", "--filename", true}, {"-o", "--output", false}, {"", "--extender-weight", false}});
  if (std::string problem = args.parse(argc, argv); !problem.empty()) {
    return problem;
  }
  options.help = args.help();
  options.files = args.values("--filename");
  options.output = args.value("--output", "table");
  if (const std::string value = args.value("--extender-weight", ""); !value.empty()) {
    int64_t weight = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), weight);
    if (ec != std::errc() || end != value.data() + value.size() || weight < 1 || weight > 1000) {
      return "flag --extender-weight must be a whole number from 1 to 1000, got '" + value + "'";
    }
    options.extender_weight = weight;
  }
  if (options.help) {
    return "";
  }
  if (options.files.empty()) {
    return "no input: give at least one -f <file>";
  }
  if (options.output != "table" && options.output != "json" && options.output != "yaml") {
    return "flag --output must be table, json or yaml, got '" + options.output + "'";
  }
  return "";
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  Options options;
  if (std::string problem = parseArgs(argc, argv, options); !problem.empty()) {
    err << "koord-extender simulate: " << problem << "\n\n" << kUsage;
    return 2;
  }
  if (options.help) {
    out << kUsage;
    return 0;
  }
  ClusterLoader loader;
  for (const auto& file : options.files) {
    Status status = loader.addFile(file);
    if (!status.isOk()) {
      err << "koord-extender simulate: " << status.message() << '\n';
      return 1;
    }
  }
  SimulationOptions simulation;
  simulation.extender_weight = options.extender_weight;
  Result<SimulationResult> result = simulate(loader.input(), simulation);
  if (!result.ok()) {
    err << "koord-extender simulate: " << result.status().message() << '\n';
    return 1;
  }
  if (options.output == "json") {
    writeJson(*result, out);
  } else if (options.output == "yaml") {
    writeYaml(*result, out);
  } else {
    writeTable(*result, out);
  }
  return 0;
}

}  // namespace

int runSimulate(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  try {
    return run(argc, argv, out, err);
  } catch (const std::exception& e) {
    err << "koord-extender simulate: internal error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace koord::extender::simulator
