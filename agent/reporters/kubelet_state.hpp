// What the agent reads from the kubelet's files (never from its API): the CPU manager's
// checkpoint (`<kubelet root>/cpu_manager_state`) and the few KubeletConfiguration fields the
// NodeResourceTopology reports (`<kubelet root>/config.yaml` or the file the kubelet was given).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::reporters {

// The CPU manager checkpoint: {"policyName":"static","defaultCpuSet":"0,3-7",
// "entries":{"<pod uid>":{"<container>":"1-2"}},"checksum":...}.
struct KubeletCpuState {
  std::string policy_name;  // "none" or "static"
  cpuset::CpuSet default_cpuset;
  // Exclusive CPUs the kubelet gave to containers, by pod UID then container name.
  std::map<std::string, std::map<std::string, cpuset::CpuSet>> entries;
};

// Parses the checkpoint's JSON. Errors: kInvalidArgument naming `source` and the bad field.
[[nodiscard]] Result<KubeletCpuState> parseKubeletCpuState(std::string_view json,
                                                           std::string_view source);

// Reads and parses `path`; nullopt when the file does not exist (no static CPU manager).
[[nodiscard]] Result<std::optional<KubeletCpuState>> readKubeletCpuState(
    const std::filesystem::path& path);

// The KubeletConfiguration fields the agent reports. Defaults are the kubelet's own.
struct KubeletConfigInfo {
  std::string cpu_manager_policy = "none";
  std::map<std::string, std::string> cpu_manager_policy_options;
  std::string reserved_system_cpus;
  std::string topology_manager_policy = "none";      // none|best-effort|restricted|single-numa-node
  std::string topology_manager_scope = "container";  // container|pod
};

// Parses a KubeletConfiguration YAML (unknown fields ignored). Errors name `source`.
[[nodiscard]] Result<KubeletConfigInfo> parseKubeletConfig(std::string_view yaml,
                                                           std::string_view source);

// Reads and parses `path`; the kubelet's defaults when the file does not exist.
[[nodiscard]] Result<KubeletConfigInfo> readKubeletConfig(const std::filesystem::path& path);

// The NodeResourceTopology topologyPolicies word for a kubelet topology manager policy and
// scope, as koordlet reports it: "None", "BestEffortPodLevel", "RestrictedContainerLevel",
// "SingleNUMANodePodLevel", ... Unknown policies read as "None".
[[nodiscard]] std::string topologyPolicyWord(const KubeletConfigInfo& config);

}  // namespace koord::agent::reporters
