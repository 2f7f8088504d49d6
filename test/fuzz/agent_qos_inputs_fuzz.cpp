// Fuzz target for what koord-agent's QoS strategies read from users: the NodeSLO (decoded, then
// read by every strategy's settings reader), the pod annotations koordinator.sh/cpuBurst and
// koordinator.sh/memoryQOS, and the --feature-gates flag. Any input must give settings or an
// error, never a crash.
//
// Input: four parts separated by NUL bytes: the NodeSLO as JSON, the cpuBurst annotation, the
// memoryQOS annotation, the feature gates (missing parts are empty).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "agent/qosmanager/strategies/builtin.hpp"
#include "agent/qosmanager/strategies/cpu_burst/cpu_burst_config.hpp"
#include "agent/qosmanager/strategies/cpu_evict/cpu_evict_config.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/suppress_config.hpp"
#include "agent/qosmanager/strategies/memory_evict/memory_evict_config.hpp"
#include "agent/qosmanager/strategies/memory_qos/memory_qos_config.hpp"
#include "agent/qosmanager/strategies/system_config/system_config_settings.hpp"
#include "koord/api/slo/node_slo.hpp"

namespace {

namespace strategies = koord::agent::qosmanager::strategies;

void readNodeSlo(std::string_view text) {
  koord::api::Json json = koord::api::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    return;
  }
  koord::api::slo::NodeSLO slo;
  if (!koord::api::slo::fromJson(json, slo, "").isOk()) {
    return;
  }
  (void)strategies::cpu_suppress::suppressConfigFrom(slo);
  (void)strategies::cpu_burst::nodeConfig(slo);
  if (const auto& section = slo.spec.resourceUsedThresholdWithBE) {
    if (auto memory = strategies::memory_evict::memoryEvictConfig(*section); memory.ok()) {
      (void)strategies::memory_evict::toJson(*memory).dump();
    }
    if (auto cpu = strategies::cpu_evict::cpuEvictConfig(*section, std::chrono::seconds(1));
        cpu.ok()) {
      (void)strategies::cpu_evict::toJson(*cpu).dump();
    }
  }
  if (slo.spec.resourceQOSStrategy) {
    (void)strategies::memory_qos::memoryQosConfigFrom(*slo.spec.resourceQOSStrategy);
  }
  if (slo.spec.systemStrategy) {
    (void)strategies::system_config::systemConfigSettingsFrom(*slo.spec.systemStrategy);
  }
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (parts.size() < 3) {
    const size_t end = input.find('\0', start);
    if (end == std::string_view::npos) {
      break;
    }
    parts.push_back(input.substr(start, end - start));
    start = end + 1;
  }
  parts.push_back(start <= input.size() ? input.substr(start) : std::string_view());
  parts.resize(4);

  readNodeSlo(parts[0]);
  const std::map<std::string, std::string> annotations{
      {"koordinator.sh/cpuBurst", std::string(parts[1])},
      {"koordinator.sh/memoryQOS", std::string(parts[2])}};
  const strategies::cpu_burst::BurstConfig node;
  strategies::cpu_burst::PodConfig pod = strategies::cpu_burst::podConfig(node, annotations);
  (void)strategies::cpu_burst::toJson(pod.config).dump();
  (void)strategies::memory_qos::parsePodMemoryQos(annotations);
  if (auto gates = strategies::parseFeatureGates(parts[3]); gates.ok()) {
    (void)strategies::strategiesOffByGates(*gates);
  }
  return 0;
}
