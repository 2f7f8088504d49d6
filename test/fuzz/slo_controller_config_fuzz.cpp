// Fuzz target for koord-manager's slo-controller-config reader (manager/sloconfig): any ConfigMap
// data must give a configuration or an error naming the ConfigMap, never a crash; a configuration
// must give a NodeSLO spec and a NodeMetric spec for any node, both encodable.
//
// Input: ConfigMap entries separated by NUL bytes, each "<key>\n<value>" (a key without a newline
// has an empty value). The node's labels come from the keys too, so node strategies can match.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> entries;
  koord::api::core::Node node;
  node.metadata.name = "fuzz-node";
  node.metadata.labels["pool"] = "gpu";
  size_t start = 0;
  while (start <= input.size()) {
    size_t end = input.find('\0', start);
    if (end == std::string_view::npos) {
      end = input.size();
    }
    const std::string_view entry = input.substr(start, end - start);
    const size_t newline = entry.find('\n');
    const std::string key(entry.substr(0, newline));
    entries[key] = newline == std::string_view::npos ? "" : std::string(entry.substr(newline + 1));
    node.metadata.labels["k" + std::to_string(entries.size())] = key;
    start = end + 1;
  }
  auto config = koord::manager::sloconfig::parseSloControllerConfig(entries);
  if (!config.ok()) {
    if (config.status().message().rfind("invalid slo-controller-config: ", 0) != 0) {
      std::abort();  // every error names the ConfigMap
    }
    return 0;
  }
  (void)koord::api::slo::toJson(koord::manager::sloconfig::nodeSLOSpecFor(*config, node)).dump();
  (void)koord::api::slo::toJson(koord::manager::sloconfig::nodeMetricSpecFor(*config, node)).dump();
  return 0;
}
