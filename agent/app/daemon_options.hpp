// What koord-agent is told on its command line (agent_app.cpp parses the flags into this).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "agent/system/cgroup_types.hpp"
#include "agent/system/sys_paths.hpp"

namespace koord::agent::app {

struct DaemonOptions {
  std::string node_name;   // required: the Node this agent runs on
  std::string kubeconfig;  // "": in-cluster config
  // The host's /proc, /sys, /sys/fs/cgroup and /sys/fs/resctrl (SysPaths::under(--host-root)).
  system::SysPaths paths;
  // Where the kubelet keeps cpu_manager_state and (by default) config.yaml.
  std::filesystem::path kubelet_root_dir = "/var/lib/kubelet";
  std::filesystem::path kubelet_config;               // "": <kubelet_root_dir>/config.yaml
  std::optional<system::CgroupDriver> cgroup_driver;  // nullopt: detect
  std::optional<std::string> kubelet_cgroup_root;     // nullopt: the kubelet config's, or "/"
  std::string nvml_library = "libnvidia-ml.so.1";
  std::string listen_host = "127.0.0.1";
  uint16_t listen_port = 9316;
  std::chrono::milliseconds collect_interval{1000};
  // How often NodeResourceTopology and Device are compared with the cluster (they are also
  // refreshed at once when the node's pods or annotations change).
  std::chrono::milliseconds report_interval{60000};
  std::chrono::milliseconds reconcile_interval{10000};
  bool reconciler = true;  // the runtime reconciler (standalone mode)
  // --feature-gates: koordlet's gates of the QoS strategies (qosmanager/strategies/builtin.hpp,
  // kStrategyGates); a gate not named keeps its default.
  std::map<std::string, bool, std::less<>> feature_gates;
};

}  // namespace koord::agent::app
