#include "manager/app/calculate_command.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iomanip>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/time.hpp"
#include "koord/common/command_args.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/app/cluster_input.hpp"
#include "manager/noderesource/node_plan.hpp"

namespace koord::manager::app {
namespace {

constexpr std::string_view kUsage =
    "Usage: koord-manager calculate -f <cluster.yaml> [-f <more.yaml> ...] [-o text|json]\n"
    "                               [--now <RFC 3339 time>]\n"
    "\n"
    "Prints, for each Node of the cluster described by the YAML files, the batch and mid\n"
    "resources koord-manager would write to it (kubernetes.io/batch-cpu, batch-memory, mid-cpu,\n"
    "mid-memory) and every term of the calculation: capacity, safety margin, reservations,\n"
    "system and high-priority usage, policy and result. Input: v1 Nodes and Pods (a pod counts on\n"
    "the node of spec.nodeName), NodeMetrics, NodeResourceTopologies and the ConfigMap\n"
    "koordinator-system/slo-controller-config (Koordinator's defaults without it).\n"
    "\n"
    "Flags:\n"
    "  -f, --filename <path>   YAML file (repeatable)\n"
    "  -o, --output <format>   text (default) or json\n"
    "      --now <time>        judge NodeMetric staleness at this time; default: the newest\n"
    "                          NodeMetric status.updateTime in the input, else the current time\n"
    "  -h, --help              print this help\n";

constexpr std::string_view kResourceNames[] = {"kubernetes.io/batch-cpu",
                                               "kubernetes.io/batch-memory",
                                               "kubernetes.io/mid-cpu", "kubernetes.io/mid-memory"};

struct Options {
  std::vector<std::string> files;
  std::string output = "text";
  std::string now;
  bool help = false;
};

std::string parseArgs(int argc, const char* const* argv, Options& options) {
  CommandArgs args({{"-f", "--filename", true}, {"-o", "--output", false}, {"", "--now", false}});
  if (std::string problem = args.parse(argc, argv); !problem.empty()) {
    return problem;
  }
  options.help = args.help();
  options.files = args.values("--filename");
  options.output = args.value("--output", "text");
  options.now = args.value("--now", "");
  if (options.help) {
    return "";
  }
  if (options.files.empty()) {
    return "no input: give at least one -f <file>";
  }
  if (options.output != "text" && options.output != "json") {
    return "flag --output must be text or json, got '" + options.output + "'";
  }
  return "";
}

// --now, else the newest NodeMetric updateTime, else the clock.
Result<noderesource::TimePoint> judgeTime(const Options& options, const ClusterInput& input) {
  if (!options.now.empty()) {
    Result<noderesource::TimePoint> parsed = api::core::parseTime(options.now);
    if (!parsed.ok()) {
      return Status::invalidArgument(
          "flag --now must be an RFC 3339 time such as "
          "2026-01-01T12:00:00Z, got '" +
          options.now + "'");
    }
    return *parsed;
  }
  std::optional<noderesource::TimePoint> newest;
  for (const auto& [name, metric] : input.metrics) {
    if (!metric.status.updateTime) {
      continue;
    }
    if (Result<noderesource::TimePoint> t = api::core::parseTime(*metric.status.updateTime);
        t.ok() && (!newest || *t > *newest)) {
      newest = *t;
    }
  }
  return newest.value_or(std::chrono::system_clock::now());
}

struct NodeReport {
  std::string name;
  noderesource::NodePlan plan;
  std::vector<std::string> lines;
};

// "-" where the resource is removed from the node (degraded, or a strategy it cannot use).
std::string cell(const noderesource::NodePlan& plan, std::string_view resource) {
  if (!plan.strategyError.isOk() || plan.degradeReason()) {
    return "-";
  }
  const resource::ResourceList resources = plan.resources();
  auto it = resources.find(resource);
  return it == resources.end() ? "0" : it->second.toString();
}

void writeText(const std::vector<NodeReport>& reports, noderesource::TimePoint now,
               std::ostream& out) {
  out << "Calculated at " << noderesource::formatRFC3339(now) << " for " << reports.size()
      << (reports.size() == 1 ? " node" : " nodes") << ".\n\n";
  std::vector<std::vector<std::string>> rows = {
      {"NODE", "BATCH-CPU", "BATCH-MEMORY", "MID-CPU", "MID-MEMORY", "STATE"}};
  for (const NodeReport& report : reports) {
    std::string state = "ok";
    if (!report.plan.strategyError.isOk()) {
      state = "invalid strategy";
    } else if (report.plan.degradeReason()) {
      state = "degraded";
    }
    std::vector<std::string> row = {report.name};
    for (std::string_view resource : kResourceNames) {
      row.push_back(cell(report.plan, resource));
    }
    row.push_back(state);
    rows.push_back(std::move(row));
  }
  std::vector<size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      out << row[i];
      if (i + 1 < row.size()) {
        out << std::string(widths[i] - row[i].size() + 2, ' ');
      }
    }
    out << '\n';
  }
  for (const NodeReport& report : reports) {
    out << "\nNode " << report.name << ":\n";
    for (const std::string& line : report.lines) {
      out << "  " << line << '\n';
    }
  }
}

void writeJson(const std::vector<NodeReport>& reports, noderesource::TimePoint now,
               std::ostream& out) {
  api::Json nodes = api::Json::array();
  for (const NodeReport& report : reports) {
    api::Json node = {{"name", report.name}, {"explanation", report.lines}};
    if (!report.plan.strategyError.isOk()) {
      node["error"] = report.plan.strategyError.message();
    } else {
      api::Json resources = api::Json::object();
      for (const auto& [name, quantity] : report.plan.resources()) {
        resources[name] = quantity.toString();
      }
      node["resources"] = std::move(resources);
      if (report.plan.degradeReason()) {
        node["degradeReason"] = *report.plan.degradeReason();
      }
    }
    nodes.push_back(std::move(node));
  }
  out << api::Json{{"calculatedAt", noderesource::formatRFC3339(now)}, {"nodes", nodes}}.dump(2)
      << '\n';
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  Options options;
  if (std::string problem = parseArgs(argc, argv, options); !problem.empty()) {
    err << "koord-manager calculate: " << problem << "\n\n" << kUsage;
    return 2;
  }
  if (options.help) {
    out << kUsage;
    return 0;
  }
  ClusterInputLoader loader;
  for (const std::string& file : options.files) {
    if (Status status = loader.addFile(file); !status.isOk()) {
      err << "koord-manager calculate: " << status.message() << '\n';
      return 1;
    }
  }
  const ClusterInput& input = loader.input();
  Result<noderesource::TimePoint> now = judgeTime(options, input);
  if (!now.ok()) {
    err << "koord-manager calculate: " << now.status().message() << "\n\n" << kUsage;
    return 2;
  }
  sloconfig::SloControllerConfig config;
  if (input.slo_config) {
    std::map<std::string, std::string> data(input.slo_config->data.begin(),
                                            input.slo_config->data.end());
    config = *sloconfig::parseSloControllerConfig(data);  // the loader checked that it parses
  }
  std::vector<NodeReport> reports;
  const std::vector<api::core::Pod> no_pods;
  for (const api::core::Node& node : input.nodes) {
    auto pods_it = input.pods_by_node.find(node.metadata.name);
    const std::vector<api::core::Pod>& pods =
        pods_it == input.pods_by_node.end() ? no_pods : pods_it->second;
    noderesource::PodRefs refs;
    refs.reserve(pods.size());
    for (const api::core::Pod& pod : pods) {
      refs.push_back(&pod);
    }
    auto metric_it = input.metrics.find(node.metadata.name);
    auto nrt_it = input.topologies.find(node.metadata.name);
    noderesource::NodePlanInputs inputs{
        node,
        refs,
        metric_it == input.metrics.end() ? nullptr : &metric_it->second,
        nrt_it == input.topologies.end() ? nullptr : &nrt_it->second,
        config,
        *now};
    NodeReport report{node.metadata.name, noderesource::planNode(inputs), {}};
    if (!report.plan.strategyError.isOk()) {
      report.lines.push_back("invalid colocation strategy: " + report.plan.strategyError.message());
    } else {
      report.lines = noderesource::explainPlan(report.plan, *now);
    }
    reports.push_back(std::move(report));
  }
  if (options.output == "json") {
    writeJson(reports, *now, out);
  } else {
    writeText(reports, *now, out);
  }
  return 0;
}

}  // namespace

int runCalculate(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  try {
    return run(argc, argv, out, err);
  } catch (const std::exception& e) {
    err << "koord-manager calculate: internal error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace koord::manager::app
