// The koord-descheduler configuration file: apiVersion descheduler/v1alpha2,
// kind DeschedulerConfiguration, as Koordinator reads it (reference section 5.3).
//
// loadDeschedulerConfiguration() is strict at every level it models: the top level,
// leaderElection, clientConnection, profiles[], profiles[].plugins, each plugin set
// (deschedule, balance, evict, filter), and pluginConfig[]. A key out of place there is an error
// naming the file and the key's line, so a mis-indented file fails instead of silently running
// with fewer plugins:
//   failed to load DeschedulerConfiguration 'x.yaml': line 17: profiles[0]: unknown field
//   "deschedule"
// (koord::config::FieldReader's format, the same as every koord config loader's).
// The args of MigrationController and LowNodeLoad are decoded and defaulted (plugin_args.hpp);
// keys they do not model, and the args of other plugins, are kept as written.
//
// Defaults (SetDefaults_DeschedulerConfiguration): one profile "koord-descheduler" when none is
// given (or a single unnamed one), MigrationController enabled as the evict plugin unless disabled,
// defaulted args appended for MigrationController and LowNodeLoad when enabled without a
// pluginConfig, leader election on a Lease koordinator-system/koord-descheduler (15s/10s/2s),
// client QPS 50 and burst 100, healthz and metrics on 0.0.0.0:10251, profiling on.
//
// Functions are pure and thread-safe; nothing throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::config {

inline constexpr char kApiVersion[] = "descheduler/v1alpha2";
inline constexpr char kKind[] = "DeschedulerConfiguration";
inline constexpr char kDefaultProfileName[] = "koord-descheduler";
inline constexpr int kDefaultInsecurePort = 10251;

struct LeaderElectionConfiguration {
  bool leader_elect = true;
  Duration lease_duration = std::chrono::seconds(15);
  Duration renew_deadline = std::chrono::seconds(10);
  Duration retry_period = std::chrono::seconds(2);
  std::string resource_lock = "leases";
  std::string resource_name = "koord-descheduler";
  std::string resource_namespace = "koordinator-system";
};

struct ClientConnectionConfiguration {
  std::string kubeconfig;  // empty: the in-cluster service account
  std::string accept_content_types;
  std::string content_type = "application/vnd.kubernetes.protobuf";
  double qps = 50;
  int32_t burst = 100;
};

// Plugin names enabled and disabled at one extension point ("*" disables all defaults).
struct PluginSet {
  std::vector<std::string> enabled;
  std::vector<std::string> disabled;

  [[nodiscard]] bool isEnabled(std::string_view name) const;
};

struct Plugins {
  PluginSet deschedule;
  PluginSet balance;
  PluginSet evict;
  PluginSet filter;
};

struct PluginConfig {
  std::string name;
  Json args;  // as written (null when absent), apiVersion/kind included
  // Set when name is MigrationController / LowNodeLoad: the decoded, defaulted args.
  std::optional<MigrationControllerArgs> migration_controller;
  std::optional<LowNodeLoadArgs> low_node_load;
};

struct DeschedulerProfile {
  std::string name;
  Plugins plugins;  // after merging with the defaults
  std::vector<PluginConfig> plugin_config;
  std::optional<api::core::LabelSelector> node_selector;

  // The config entry of a plugin, or nullptr.
  [[nodiscard]] const PluginConfig* pluginConfig(std::string_view plugin) const;
};

struct DeschedulerConfiguration {
  LeaderElectionConfiguration leader_election;
  ClientConnectionConfiguration client_connection;
  bool enable_profiling = true;
  bool enable_contention_profiling = true;
  std::string healthz_bind_address = "0.0.0.0:10251";
  std::string metrics_bind_address = "0.0.0.0:10251";
  Duration descheduling_interval{0};  // 0: run once
  bool dry_run = false;
  std::vector<DeschedulerProfile> profiles;
  std::optional<api::core::LabelSelector> node_selector;
  std::optional<int64_t> max_no_of_pods_to_evict_per_node;
  std::optional<int64_t> max_no_of_pods_to_evict_per_namespace;
  std::optional<int64_t> max_no_of_pods_to_evict_total;
  // Non-fatal findings, each "line <n>: ...": unknown keys inside plugin args.
  std::vector<std::string> warnings;
};

// Parses, checks and defaults one DeschedulerConfiguration document. Errors are
// kInvalidArgument "failed to load DeschedulerConfiguration '<source_name>': <cause>", where the
// cause names the line (YAML syntax errors included) and, for a field, its path; all problems
// found are reported, joined by "; ".
[[nodiscard]] Result<DeschedulerConfiguration> loadDeschedulerConfiguration(
    std::string_view text, std::string_view source_name);

// Reads the file, then loadDeschedulerConfiguration() with the path as source name.
[[nodiscard]] Result<DeschedulerConfiguration> loadDeschedulerConfigurationFile(
    const std::string& path);

}  // namespace koord::manager::descheduler::config
