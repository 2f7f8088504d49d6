#include "extender/simulator/simulate_command.hpp"

#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "extender/simulator/cluster_loader.hpp"
#include "extender/simulator/report.hpp"
#include "extender/simulator/simulator.hpp"

namespace koord::extender::simulator {

namespace {

constexpr std::string_view kUsage =
    "Usage: koord-extender simulate -f <cluster.yaml> [-f <more.yaml> ...] [-o table|json|yaml]\n"
    "\n"
    "Places the pending pods (no spec.nodeName) of the cluster described by the YAML files with\n"
    "kube-scheduler's basic filters (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,\n"
    "NodeResourcesFit) and koord-extender's plugins (PriorityQoS, NodeReservation,\n"
    "BatchResources, DeviceResources, Reservation), and prints where each pending pod and\n"
    "Reservation goes, or why it fits nowhere.\n"
    "\n"
    "Flags:\n"
    "  -f, --filename <path>   YAML file with Nodes, Pods and Koordinator objects (repeatable)\n"
    "  -o, --output <format>   table (default), json or yaml\n"
    "  -h, --help              print this help\n";

struct Options {
  std::vector<std::string> files;
  std::string output = "table";
  bool help = false;
};

// Returns an error message, empty when the arguments parse.
std::string parseArgs(int argc, const char* const* argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string_view name = arg;
    std::string value;
    bool has_value = false;
    if (const size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = std::string(arg.substr(eq + 1));
      has_value = true;
    }
    if (name == "-h" || name == "--help") {
      options.help = true;
      continue;
    }
    const bool is_file = name == "-f" || name == "--filename";
    const bool is_output = name == "-o" || name == "--output";
    if (!is_file && !is_output) {
      return "unknown argument '" + std::string(arg) + "'";
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        return "flag " + std::string(name) + " needs a value";
      }
      value = argv[++i];
    }
    if (is_file) {
      options.files.push_back(std::move(value));
    } else {
      options.output = std::move(value);
    }
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
  Result<SimulationResult> result = simulate(loader.input(), SimulationOptions{});
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
