// Fuzz target for the files koord-agent reads off its host: the kubelet's CPU manager checkpoint
// and configuration, /proc/stat and /proc/meminfo. The first byte picks the parser, the rest is the
// file. Any content must give a value or an error that names the file, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "agent/metricsadvisor/node_collector.hpp"
#include "agent/reporters/kubelet_state.hpp"

namespace {

void requireNamed(const koord::Status& status, std::string_view source) {
  if (!status.isOk() && status.message().find(source) == std::string::npos) {
    std::abort();  // every error names the file it is about
  }
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      auto state = koord::agent::reporters::parseKubeletCpuState(text, "cpu_manager_state");
      requireNamed(state.status(), "cpu_manager_state");
      if (state.ok()) {
        for (const auto& [uid, containers] : state->entries) {
          for (const auto& [name, cpus] : containers) {
            auto again = koord::cpuset::CpuSet::parse(cpus.toString());
            if (!again.ok() || again->toString() != cpus.toString()) {
              std::abort();  // what the agent reports parses back to the same CPUs
            }
          }
        }
      }
      break;
    }
    case 1: {
      auto config = koord::agent::reporters::parseKubeletConfig(text, "config.yaml");
      requireNamed(config.status(), "config.yaml");
      if (config.ok()) {
        (void)koord::agent::reporters::topologyPolicyWord(*config);
      }
      break;
    }
    case 2:
      requireNamed(koord::agent::metricsadvisor::parseProcStat(text, "/proc/stat").status(),
                   "/proc/stat");
      break;
    default:
      requireNamed(
          koord::agent::metricsadvisor::parseMeminfoUsedBytes(text, "/proc/meminfo").status(),
          "/proc/meminfo");
      break;
  }
  return 0;
}
