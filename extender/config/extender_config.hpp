// The koord-extender configuration file: apiVersion config.koordinator.sh/v1alpha1,
// kind KoordExtenderConfiguration, one YAML document (docs/extender.md, "Configuration").
//
//   apiVersion: config.koordinator.sh/v1alpha1
//   kind: KoordExtenderConfiguration
//   clientConnection: {kubeconfig: "", qps: 50, burst: 100}
//   server: {address: "127.0.0.1:10262", urlPrefix: /scheduler, tlsCertFile: "", tlsKeyFile: "",
//            maxRequestBytes: 1048576, maxBufferedBytes: 4194304}
//   parallelism: 0                      # filter/score workers; 0: one per CPU we may use
//   bindTimeout: 4s                     # a bind answers within this (under httpTimeout, 5s)
//   leaderElection: {leaderElect: true, leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s,
//                    resourceNamespace: koordinator-system, resourceName: koord-extender}
//   plugins: [{name: NodeReservation, weight: 1, args: {...}}, ...]
//
// Loading is strict at every level it models: an unknown key is an error naming its line. Plugin
// args are kept as written; the plugin factories validate them when the runtime is created. Every
// problem found is reported at once, one per line of the message:
//   failed to load KoordExtenderConfiguration 'extender.yaml':
//   line 4: server: unknown field "adress" (did you mean "address"?)
//   line 9: leaderElection.renewDeadline: must be shorter than leaseDuration (15s)
// Functions are pure and thread-safe; nothing throws.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::config {

inline constexpr char kApiVersion[] = "config.koordinator.sh/v1alpha1";
inline constexpr char kKind[] = "KoordExtenderConfiguration";
inline constexpr char kDefaultAddress[] = "127.0.0.1:10262";
// kube-scheduler's node-cache-capable requests carry a pod and node names: tens to hundreds of KiB
// (about 30 bytes a node). Decoding a body can take up to about 50 times its size (small JSON
// objects), so the caps also bound memory: 4 requests at the cap decode in about 200 MB at most.
// Clusters that send whole Nodes (nodeCacheCapable: false) raise both (docs/security.md).
inline constexpr int64_t kDefaultMaxRequestBytes = int64_t{1} << 20;
// The request bodies held at once, all connections together: four requests at the cap.
inline constexpr int64_t kDefaultMaxBufferedBytes = int64_t{4} << 20;

struct ClientConnectionConfiguration {
  std::string kubeconfig;  // empty: the in-cluster service account
  double qps = 50;
  int32_t burst = 100;
};

struct ServerConfiguration {
  // host:port; kube-scheduler calls the extender over localhost in the same pod.
  std::string address = kDefaultAddress;
  std::string url_prefix = "/scheduler";
  std::string tls_cert_file;  // HTTPS when both files are set
  std::string tls_key_file;
  int64_t max_request_bytes = kDefaultMaxRequestBytes;
  int64_t max_buffered_bytes = kDefaultMaxBufferedBytes;  // >= max_request_bytes

  // The host and port of `address` (validated by the loader).
  [[nodiscard]] std::string host() const;
  [[nodiscard]] uint16_t port() const;
};

struct LeaderElectionConfiguration {
  bool leader_elect = true;
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
  std::string resource_namespace = "koordinator-system";
  std::string resource_name = "koord-extender";
};

struct PluginConfiguration {
  std::string name;
  int64_t weight = 1;  // score weight, >= 1
  api::Json args;      // as written; null when absent (every default)

  bool operator==(const PluginConfiguration&) const = default;
};

struct KoordExtenderConfiguration {
  ClientConnectionConfiguration client_connection;
  ServerConfiguration server;
  int32_t parallelism = 0;  // 0: one per CPU the process may use (cpuset, cgroup CPU limit)
  // A bind, from its start, sends nothing to the API server after this (rate limiter, free
  // connection and retries included), so that koord-extender answers, and undoes its reservation,
  // before kube-scheduler's httpTimeout (5s in the shipped configuration) gives up on the bind: a
  // binding sent after that would place a pod kube-scheduler has already forgotten. 100ms..10m.
  std::chrono::nanoseconds bind_timeout = std::chrono::seconds(4);
  LeaderElectionConfiguration leader_election;
  std::vector<PluginConfiguration> plugins;  // defaultPlugins() when the file has no `plugins`
};

// Every built-in plugin in the registry's order (plugins::defaultPluginNames():
// LoadAwareScheduling, NodeReservation, PriorityQoS, BatchResources, DeviceResources, Reservation,
// NodeNUMAResource), weight 1, the default profile's args (plugins::defaultProfile():
// LoadAwareScheduling gets Koordinator's chart args, the others their own defaults).
[[nodiscard]] std::vector<PluginConfiguration> defaultPlugins();

// The configuration with every default (what an empty file would give).
[[nodiscard]] KoordExtenderConfiguration defaultConfiguration();

// Parses, checks and defaults one document. kInvalidArgument
// "failed to load KoordExtenderConfiguration '<source_name>':\n<problem>\n<problem>..." where each
// problem reads "line <n>: <field path>: <what>" (the line left out where unknown).
[[nodiscard]] Result<KoordExtenderConfiguration> parseExtenderConfiguration(
    std::string_view text, std::string_view source_name);

// Reads the file (koord::config::readFile's size cap and errors) and parses it.
[[nodiscard]] Result<KoordExtenderConfiguration> loadExtenderConfiguration(const std::string& path);

// Splits "host:port" (port 1..65535, host a name or IPv4 address); kInvalidArgument otherwise.
struct HostPort {
  std::string host;
  uint16_t port = 0;
};
[[nodiscard]] Result<HostPort> splitHostPort(std::string_view address);

}  // namespace koord::extender::config
