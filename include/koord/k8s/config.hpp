// How to reach and authenticate to a Kubernetes API server: a kubeconfig file, the in-cluster
// service account, or the usual fallback chain of both.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::k8s {

struct ClientConfig {
  // Base URL, e.g. "https://10.0.0.1:443" (no trailing slash).
  std::string server;
  // Trust anchors: a PEM file, or the PEM bytes themselves (ca_data wins when both are set).
  std::string ca_file;
  std::string ca_data;
  // Client certificate and key: PEM files or PEM bytes (the *_data members win).
  std::string cert_file;
  std::string cert_data;
  std::string key_file;
  std::string key_data;
  // A static bearer token; token_file (when set) is read instead and re-read whenever the file
  // changes, as service-account tokens rotate.
  std::string bearer_token;
  std::string token_file;
  // Skips server certificate verification (insecure-skip-tls-verify).
  bool insecure = false;
  // Client-side rate limit over all requests of one client: sustained QPS and burst (qps <= 0
  // disables the limit).
  double qps = 50;
  int burst = 100;
  // Whole-request timeout for ordinary requests (streams take their own).
  std::chrono::milliseconds timeout = std::chrono::seconds(30);
  // Responses larger than this fail with kResourceExhausted.
  std::size_t max_response_bytes = std::size_t{256} << 20;
  std::string user_agent = "koord";
  // The kubeconfig context's namespace, or the pod's own namespace in a cluster; "" when unknown.
  std::string default_namespace;
};

// Reads a kubeconfig file (YAML or JSON). `context` "" means current-context. Understands the
// cluster fields server, certificate-authority(-data), insecure-skip-tls-verify and the user fields
// token, tokenFile, client-certificate(-data), client-key(-data); relative file paths are resolved
// against the kubeconfig's folder; *-data fields are base64 and kept as PEM bytes. Errors are
// kInvalidArgument (kNotFound for a missing file) and name the file and the field, e.g.
// "failed to load kubeconfig '/x/config': contexts[0].context.cluster: cluster 'c' not found".
[[nodiscard]] Result<ClientConfig> loadKubeconfig(const std::string& path,
                                                  const std::string& context = "");

// Where inClusterConfig() looks; tests point it at a temporary tree.
struct InClusterEnv {
  // Environment: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT (read from the process
  // environment when this map lacks them and use_process_env is true).
  std::map<std::string, std::string> env;
  bool use_process_env = true;
  std::string token_file = "/var/run/secrets/kubernetes.io/serviceaccount/token";
  std::string ca_file = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt";
  std::string namespace_file = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";
};

// The service-account configuration of a pod: https://<host>:<port> (IPv6 hosts bracketed),
// token_file and ca_file from `where`. kFailedPrecondition when the environment variables are not
// set (not in a cluster), kNotFound when the token file is missing.
[[nodiscard]] Result<ClientConfig> inClusterConfig(const InClusterEnv& where = {});

// The usual resolution: `kubeconfig_flag` when not empty, else $KUBECONFIG (its first entry),
// else the in-cluster configuration. Errors name the source they came from.
[[nodiscard]] Result<ClientConfig> loadConfig(const std::string& kubeconfig_flag);

// Standard base64 (padding optional, whitespace ignored). kInvalidArgument on bad input.
[[nodiscard]] Result<std::string> decodeBase64(std::string_view text);

}  // namespace koord::k8s
