#include "agent/system/numa_memory.hpp"

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "agent/system/sysfs_file.hpp"

namespace koord::agent::system {

namespace {

namespace fs = std::filesystem;

Status numaParseError(const fs::path& path, const std::string& cause) {
  return Status::invalidArgument("failed to parse '" + path.string() + "': " + cause);
}

// "<value> kB" (or a bare number) in bytes.
Result<int64_t> parseKb(std::string_view value, std::string_view line, const fs::path& path) {
  value = trimSpace(value);
  int64_t multiplier = 1;
  if (value.size() >= 2 && value.substr(value.size() - 2) == "kB") {
    value = trimSpace(value.substr(0, value.size() - 2));
    multiplier = 1024;
  }
  int64_t number = 0;
  if (!parseInt64(value, &number) || number < 0 ||
      number > std::numeric_limits<int64_t>::max() / multiplier) {
    return numaParseError(path, "invalid line '" + std::string(line) + "'");
  }
  return number * multiplier;
}

// MemTotal and MemFree of one meminfo file. With `node`, lines must read "Node <node> Key: ...".
Result<NumaMemory> readMeminfo(const fs::path& path, std::optional<int32_t> node) {
  KOORD_ASSIGN_OR_RETURN(std::string content, readSysFile(path));
  std::optional<int64_t> total;
  std::optional<int64_t> free;
  const std::string node_prefix = node ? "Node " + std::to_string(*node) + " " : "";
  std::string_view rest = content;
  while (!rest.empty()) {
    const size_t eol = rest.find('\n');
    const std::string_view raw = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    std::string_view line = trimSpace(raw);
    if (line.empty()) {
      continue;
    }
    if (node) {
      if (line.substr(0, node_prefix.size()) != node_prefix) {
        return numaParseError(
            path, "line '" + std::string(line) + "' does not start with '" + node_prefix + "'");
      }
      line.remove_prefix(node_prefix.size());
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    const std::string_view key = trimSpace(line.substr(0, colon));
    if (key != "MemTotal" && key != "MemFree") {
      continue;
    }
    KOORD_ASSIGN_OR_RETURN(int64_t bytes, parseKb(line.substr(colon + 1), trimSpace(raw), path));
    (key == "MemTotal" ? total : free) = bytes;
  }
  if (!total || !free) {
    return numaParseError(path, !total ? "no MemTotal" : "no MemFree");
  }
  return NumaMemory{node.value_or(0), *total, *free};
}

}  // namespace

Result<std::vector<NumaMemory>> discoverNumaMemory(const fs::path& root) {
  const fs::path dir = root / "sys" / "devices" / "system" / "node";
  auto listed = listNumbered(dir, "node");
  if (!listed.ok() && listed.status().code() != StatusCode::kNotFound) {
    return listed.status();
  }
  std::vector<NumaMemory> nodes;
  if (!listed.ok() || listed->empty()) {
    KOORD_ASSIGN_OR_RETURN(NumaMemory memory, readMeminfo(root / "proc" / "meminfo", std::nullopt));
    nodes.push_back(memory);
    return nodes;
  }
  for (int32_t node : *listed) {
    KOORD_ASSIGN_OR_RETURN(NumaMemory memory,
                           readMeminfo(dir / ("node" + std::to_string(node)) / "meminfo", node));
    nodes.push_back(memory);
  }
  return nodes;
}

}  // namespace koord::agent::system
