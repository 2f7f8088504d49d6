#include "extender/simulator/report.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "koord/api/well_known.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::extender::simulator {

namespace {

using api::Json;

struct Column {
  std::string_view title;
  std::string_view resource;  // Resource::get() name; "pods" for the pod count
};

constexpr Column kColumns[] = {
    {"CPU", "cpu"},
    {"MEMORY", "memory"},
    {"PODS", "pods"},
    {"BATCH-CPU", api::kResourceBatchCPU},
    {"BATCH-MEMORY", api::kResourceBatchMemory},
};

std::string quantityText(std::string_view resource, int64_t value) {
  if (resource == "cpu") {
    return resource::Quantity::fromMilli(value).toString();
  }
  if (resource == "memory" || resource == api::kResourceBatchMemory) {
    return resource::Quantity::fromInt(value, resource::QuantityFormat::kBinarySI).toString();
  }
  return std::to_string(value);
}

int64_t amount(const framework::Resource& r, std::string_view resource) {
  if (resource == "pods") {
    return r.pods;
  }
  return r.get(resource);
}

int64_t requestedAmount(const NodeUsage& node, std::string_view resource) {
  return resource == "pods" ? node.pod_count : amount(node.requested, resource);
}

std::string reservedText(const NodeUsage& node) {
  if (!node.reservation_error.empty()) {
    return "invalid annotation (ignored)";
  }
  std::vector<std::string> parts;
  if (node.reserved.milli_cpu > 0) {
    parts.push_back("cpu " + quantityText("cpu", node.reserved.milli_cpu));
  }
  if (node.reserved.memory > 0) {
    parts.push_back("memory " + quantityText("memory", node.reserved.memory));
  }
  if (node.reserved.ephemeral_storage > 0) {
    parts.push_back("ephemeral-storage " + quantityText("memory", node.reserved.ephemeral_storage));
  }
  for (const auto& [name, value] : node.reserved.scalar) {
    parts.push_back(name + " " + std::to_string(value));
  }
  if (parts.empty()) {
    return "-";
  }
  std::string text;
  for (const auto& part : parts) {
    text += text.empty() ? part : ", " + part;
  }
  return text;
}

void writeRows(const std::vector<std::vector<std::string>>& rows, std::ostream& out) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line += std::string(widths[i] - row[i].size() + 3, ' ');
      }
    }
    out << line << '\n';
  }
}

std::string rejectionText(const NodeRejection& rejection) {
  std::string text;
  for (const auto& reason : rejection.reasons) {
    text += text.empty() ? reason : ", " + reason;
  }
  if (!rejection.plugin.empty()) {
    text += " (" + rejection.plugin + ")";
  }
  return text;
}

void writeYamlValue(const Json& value, int indent, std::ostream& out);

void writeYamlScalar(const Json& value, std::ostream& out) {
  out << value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool isCollection(const Json& value) {
  return (value.is_object() || value.is_array()) && !value.empty();
}

void writeYamlValue(const Json& value, int indent, std::ostream& out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      out << pad << Json(it.key()).dump() << ":";
      if (isCollection(it.value())) {
        out << '\n';
        writeYamlValue(it.value(), indent + 2, out);
      } else {
        out << ' ';
        if (it.value().is_object()) {
          out << "{}";
        } else if (it.value().is_array()) {
          out << "[]";
        } else {
          writeYamlScalar(it.value(), out);
        }
        out << '\n';
      }
    }
    return;
  }
  for (const auto& item : value) {
    out << pad << "-";
    if (isCollection(item)) {
      out << '\n';
      writeYamlValue(item, indent + 2, out);
    } else {
      out << ' ';
      if (item.is_object()) {
        out << "{}";
      } else if (item.is_array()) {
        out << "[]";
      } else {
        writeYamlScalar(item, out);
      }
      out << '\n';
    }
  }
}

// "cpu 4, memory 4Gi" for one NUMA node's share.
std::string numaResourcesText(const resource::ResourceList& resources) {
  std::string text;
  for (const auto& [name, quantity] : resources)
    text += (text.empty() ? "" : ", ") + name + " " + quantity.toString();
  return text;
}

// "node 0: cpu 2, memory 2Gi; node 1: cpu 2, memory 2Gi", "-" when none.
std::string numaText(const std::vector<api::extension::NUMANodeResource>& numa) {
  std::string text;
  for (const auto& n : numa)
    text += (text.empty() ? "" : "; ") + ("node " + std::to_string(n.node) + ": ") +
            numaResourcesText(n.resources);
  return text.empty() ? "-" : text;
}

Json numaJson(const std::vector<api::extension::NUMANodeResource>& numa) {
  Json out = Json::array();
  for (const auto& n : numa) {
    Json resources = Json::object();
    for (const auto& [name, quantity] : n.resources)
      resources[name] = quantity.toString();
    out.push_back({{"node", n.node}, {"resources", std::move(resources)}});
  }
  return out;
}

// "2: 0-1" (count, then the CPU list), "0" when empty.
std::string cpusText(const cpuset::CpuSet& cpus) {
  return cpus.empty() ? "0" : std::to_string(cpus.size()) + ": " + cpus.toString();
}

Json cpusJson(const cpuset::CpuSet& cpus) {
  return {{"count", cpus.size()}, {"cpuset", cpus.toString()}};
}

Json cpuSummaryJson(const plugins::node_numa_resource::CPUSummary& s) {
  Json reserved = cpusJson(s.reserved);
  reserved["kubeletPinnedPods"] = s.kubelet_pinned_pods;
  Json exclusive = cpusJson(s.exclusive);
  Json holders = Json::array();
  for (const auto& h : s.holders) {
    holders.push_back({{"pod", h.pod},
                       {"cpuset", h.cpus.toString()},
                       {"exclusivePolicy", std::string(api::extension::toString(h.exclusive))}});
  }
  exclusive["pods"] = std::move(holders);
  Json out = {{"total", s.total},
              {"reserved", std::move(reserved)},
              {"exclusive", std::move(exclusive)},
              {"shared", cpusJson(s.shared)},
              {"free", {{"count", s.free}, {"wholeCores", s.free_whole_cores}}}};
  if (!s.unreadable.empty())
    out["unreadableResourceStatus"] = s.unreadable;
  return out;
}

// The CPUSETS section: placed pods, then Reservations placed by this run ("Reservation <name>"),
// that got a cpuset or NUMA resources (nothing when none did).
void writeCpusets(const SimulationResult& result, std::ostream& out) {
  std::vector<std::vector<std::string>> rows = {{"POD", "NODE", "CPUSET", "NUMA NODES"}};
  for (const auto& p : result.placements) {
    if (p.node.empty() || (p.cpuset.empty() && p.numa_resources.empty()))
      continue;
    rows.push_back({p.key, p.node, p.cpuset.empty() ? "-" : p.cpuset, numaText(p.numa_resources)});
  }
  const size_t pod_rows = rows.size() - 1;
  for (const auto& r : result.reservations) {
    if (!r.placed || (r.cpuset.empty() && r.numa_resources.empty()))
      continue;
    rows.push_back({"Reservation " + r.name, r.node, r.cpuset.empty() ? "-" : r.cpuset,
                    numaText(r.numa_resources)});
  }
  if (rows.size() == 1)
    return;
  out << (rows.size() - 1 == pod_rows ? "\nCPUSETS (placed pods, from resource-status)\n"
                                      : "\nCPUSETS (placed pods and reservations, from "
                                        "resource-status)\n");
  writeRows(rows, out);
}

// The CPUS section: nodes with a NodeResourceTopology (nothing when none has one).
void writeNodeCpus(const SimulationResult& result, std::ostream& out) {
  std::vector<std::vector<std::string>> rows = {
      {"NODE", "CPUS", "RESERVED", "EXCLUSIVE", "SHARED", "FREE FOR CPUSETS"}};
  std::vector<std::string> invalid;
  std::vector<std::string> holders;
  for (const auto& n : result.nodes) {
    if (!n.cpus)
      continue;
    const auto& s = *n.cpus;
    if (!s.invalid.empty()) {
      invalid.push_back(n.name + ": " + s.invalid);
      continue;
    }
    rows.push_back({n.name, std::to_string(s.total), cpusText(s.reserved), cpusText(s.exclusive),
                    cpusText(s.shared),
                    std::to_string(s.free) + " (" + std::to_string(s.free_whole_cores) +
                        (s.free_whole_cores == 1 ? " whole core)" : " whole cores)")});
    for (const auto& h : s.holders) {
      std::string line = n.name + "  " + h.pod + "  " + h.cpus.toString();
      if (h.exclusive != api::extension::CPUExclusivePolicy::kNone)
        line += " (" + std::string(api::extension::toString(h.exclusive)) + ")";
      holders.push_back(std::move(line));
    }
    for (const auto& pod : s.kubelet_pinned_pods)
      holders.push_back(n.name + "  " + pod + "  pinned by the kubelet (in RESERVED)");
    for (const auto& what : s.unreadable)
      holders.push_back(n.name + "  " + what + "  (unreadable resource-status: holds nothing)");
  }
  if (rows.size() == 1 && invalid.empty())
    return;
  out << "\nCPUS (nodes with a NodeResourceTopology, after placement)\n";
  if (rows.size() > 1)
    writeRows(rows, out);
  for (const auto& line : invalid)
    out << line << '\n';
  if (!holders.empty()) {
    out << "held by:\n";
    for (const auto& line : holders)
      out << "  " << line << '\n';
  }
}

// An estimate is rarely a whole number of Mi: memory shows rounded to Mi unless exact.
std::string loadQuantityText(std::string_view resource, int64_t value) {
  constexpr int64_t kMi = int64_t{1} << 20;
  if (resource == "memory" && value % kMi != 0)
    return std::to_string((value + kMi / 2) / kMi) + "Mi";
  return quantityText(resource, value);
}

// "<percent>% (<amount>)" of one resource of a node's load.
std::string loadText(const NodeLoadUsage& load, size_t i, const std::vector<int64_t>& values) {
  const int64_t total = load.allocatable[i];
  std::string text = loadQuantityText(load.resources[i], values[i]);
  if (total > 0)
    text = std::to_string((values[i] * 100 + total / 2) / total) + "% (" + text + ")";
  return text;
}

Json loadJson(const NodeLoadUsage& load) {
  Json reported = Json::object();
  Json estimated = Json::object();
  Json allocatable = Json::object();
  for (size_t i = 0; i < load.resources.size(); ++i) {
    reported[load.resources[i]] = loadQuantityText(load.resources[i], load.reported[i]);
    estimated[load.resources[i]] = loadQuantityText(load.resources[i], load.estimated[i]);
    allocatable[load.resources[i]] = loadQuantityText(load.resources[i], load.allocatable[i]);
  }
  return {{"updateTime", load.update_time},
          {"expired", load.expired},
          {"reported", std::move(reported)},
          {"estimated", std::move(estimated)},
          {"allocatable", std::move(allocatable)}};
}

// The LOAD section: nodes with a NodeMetric, when LoadAwareScheduling is enabled.
void writeNodeLoad(const SimulationResult& result, std::ostream& out) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : result.nodes) {
    if (!n.load)
      continue;
    const NodeLoadUsage& load = *n.load;
    if (rows.empty()) {
      std::vector<std::string> header = {"NODE"};
      for (const auto& name : load.resources) {
        std::string upper = name;
        for (char& ch : upper)
          ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        header.push_back(upper + " REPORTED");
        header.push_back(upper + " ESTIMATED");
      }
      header.emplace_back("NODEMETRIC");
      rows.push_back(std::move(header));
    }
    std::vector<std::string> row = {n.name};
    for (size_t i = 0; i < load.resources.size(); ++i) {
      row.push_back(loadText(load, i, load.reported));
      row.push_back(loadText(load, i, load.estimated));
    }
    row.push_back(load.update_time + (load.expired ? " (expired)" : ""));
    rows.push_back(std::move(row));
  }
  if (rows.empty())
    return;
  out << "\nLOAD (LoadAwareScheduling: NodeMetric usage, and estimated with the pods it does not "
         "show yet, after placement)\n";
  writeRows(rows, out);
}

}  // namespace

Json reportJson(const SimulationResult& result) {
  Json pods = Json::array();
  size_t scheduled = 0;
  for (const auto& p : result.placements) {
    Json pod = {{"pod", p.key},
                {"source", p.source},
                {"priority", p.priority},
                {"scheduled", !p.node.empty()},
                {"node", p.node.empty() ? Json(nullptr) : Json(p.node)},
                {"annotations", Json(p.annotations)},
                {"labels", Json(p.labels)}};
    if (!p.node.empty()) {
      scheduled++;
      if (!p.cpuset.empty())
        pod["cpuset"] = p.cpuset;
      if (!p.numa_resources.empty())
        pod["numaNodeResources"] = numaJson(p.numa_resources);
    } else {
      pod["message"] = p.message;
      Json rejections = Json::object();
      for (const auto& [node, rejection] : p.rejections) {
        rejections[node] = {{"plugin", rejection.plugin}, {"reasons", rejection.reasons}};
      }
      pod["rejections"] = std::move(rejections);
    }
    pods.push_back(std::move(pod));
  }
  Json nodes = Json::array();
  for (const auto& n : result.nodes) {
    Json resources = Json::object();
    for (const auto& column : kColumns) {
      Json entry = {
          {"requested", quantityText(column.resource, requestedAmount(n, column.resource))},
          {"allocatable", quantityText(column.resource, amount(n.allocatable, column.resource))}};
      if (column.resource != "pods") {
        entry["reserved"] = quantityText(column.resource, amount(n.reserved, column.resource));
      }
      resources[std::string(column.resource)] = std::move(entry);
    }
    Json node = {{"name", n.name}, {"pods", n.pod_count}, {"resources", std::move(resources)}};
    if (!n.reservation_error.empty()) {
      node["reservationError"] = n.reservation_error;
    }
    if (n.cpus && !n.cpus->invalid.empty()) {
      node["cpuTopologyError"] = n.cpus->invalid;
    } else if (n.cpus) {
      node["cpus"] = cpuSummaryJson(*n.cpus);
    }
    if (n.load)
      node["load"] = loadJson(*n.load);
    nodes.push_back(std::move(node));
  }
  Json reservations = Json::array();
  for (const auto& r : result.reservations) {
    Json entry = {{"reservation", r.name}, {"source", r.source},
                  {"phase", r.phase},      {"node", r.node.empty() ? Json(nullptr) : Json(r.node)},
                  {"placed", r.placed},    {"owners", r.owners}};
    if (!r.message.empty())
      entry["message"] = r.message;
    if (r.placed && !r.cpuset.empty())
      entry["cpuset"] = r.cpuset;
    if (r.placed && !r.numa_resources.empty())
      entry["numaNodeResources"] = numaJson(r.numa_resources);
    reservations.push_back(std::move(entry));
  }
  Json summary = {{"nodes", result.nodes.size()},
                  {"boundPods", result.bound_pods},
                  {"pendingPods", result.placements.size()},
                  {"scheduled", scheduled},
                  {"unschedulable", result.placements.size() - scheduled},
                  {"reservations", result.reservations.size()},
                  {"otherObjects", Json(result.other_kinds)}};
  return {{"summary", std::move(summary)},
          {"pods", std::move(pods)},
          {"reservations", std::move(reservations)},
          {"nodes", std::move(nodes)}};
}

void writeJson(const SimulationResult& result, std::ostream& out) {
  out << reportJson(result).dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void writeYaml(const SimulationResult& result, std::ostream& out) {
  writeYamlValue(reportJson(result), 0, out);
}

void writeTable(const SimulationResult& result, std::ostream& out) {
  size_t scheduled = 0;
  for (const auto& p : result.placements) {
    scheduled += p.node.empty() ? 0 : 1;
  }
  out << "PODS (" << result.placements.size() << " pending: " << scheduled << " scheduled, "
      << result.placements.size() - scheduled << " unschedulable; " << result.bound_pods
      << " already bound)\n";
  std::vector<std::vector<std::string>> rows = {{"POD", "PRIORITY", "NODE", "RESULT"}};
  for (const auto& p : result.placements) {
    rows.push_back({p.key, std::to_string(p.priority), p.node.empty() ? "<none>" : p.node,
                    p.node.empty() ? p.message : "Scheduled"});
  }
  writeRows(rows, out);

  bool any_unschedulable = false;
  for (const auto& p : result.placements) {
    if (!p.node.empty() || p.rejections.empty()) {
      continue;
    }
    if (!any_unschedulable) {
      out << "\nWHY NOT (per node)\n";
      any_unschedulable = true;
    }
    out << p.key << (p.source.empty() ? "" : " (" + p.source + ")") << ":\n";
    for (const auto& [node, rejection] : p.rejections) {
      out << "  " << node << ": " << rejectionText(rejection) << '\n';
    }
  }

  if (!result.reservations.empty()) {
    out << "\nRESERVATIONS\n";
    std::vector<std::vector<std::string>> reservation_rows = {
        {"RESERVATION", "PHASE", "NODE", "USED BY / WHY NOT"}};
    for (const auto& r : result.reservations) {
      std::string used;
      for (const auto& owner : r.owners)
        used += (used.empty() ? "" : ", ") + owner;
      if (used.empty())
        used = r.message.empty() ? "-" : r.message;
      reservation_rows.push_back({r.name, r.phase + (r.placed ? " (placed)" : ""),
                                  r.node.empty() ? "<none>" : r.node, used});
    }
    writeRows(reservation_rows, out);
  }

  out << "\nBIND ANNOTATIONS\n";
  bool any_patch = false;
  for (const auto& p : result.placements) {
    for (const auto& [key, value] : p.annotations) {
      out << p.key << "  " << key << "=" << value << '\n';
      any_patch = true;
    }
    for (const auto& [key, value] : p.labels) {
      out << p.key << "  label " << key << "=" << value << '\n';
      any_patch = true;
    }
  }
  if (!any_patch) {
    out << "(none: no enabled plugin writes annotations at bind)\n";
  }
  writeCpusets(result, out);

  out << "\nNODES (requested/allocatable)\n";
  std::vector<std::vector<std::string>> node_rows;
  std::vector<std::string> header = {"NODE"};
  for (const auto& column : kColumns) {
    header.emplace_back(column.title);
  }
  header.emplace_back("RESERVED");
  node_rows.push_back(std::move(header));
  for (const auto& n : result.nodes) {
    std::vector<std::string> row = {n.name};
    for (const auto& column : kColumns) {
      row.push_back(quantityText(column.resource, requestedAmount(n, column.resource)) + "/" +
                    quantityText(column.resource, amount(n.allocatable, column.resource)));
    }
    row.push_back(reservedText(n));
    node_rows.push_back(std::move(row));
  }
  writeRows(node_rows, out);
  writeNodeCpus(result, out);
  writeNodeLoad(result, out);
  if (!result.other_kinds.empty()) {
    out << "\nOTHER OBJECTS (validated, not placed)\n";
    for (const auto& [kind, count] : result.other_kinds) {
      out << kind << ": " << count << '\n';
    }
  }
}

}  // namespace koord::extender::simulator
