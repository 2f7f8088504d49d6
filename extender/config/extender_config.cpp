#include "extender/config/extender_config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <utility>

#include "extender/plugins/builtin.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/config/field_reader.hpp"
#include "koord/config/file.hpp"
#include "koord/config/yaml.hpp"

namespace koord::extender::config {
namespace {

using koord::config::Field;
using koord::config::FieldReader;

int lineOfProblem(const std::string& problem) {
  int line = 0;
  if (problem.rfind("line ", 0) == 0) {
    std::from_chars(problem.data() + 5, problem.data() + problem.size(), line);
  }
  return line;
}

// One problem per line, in the order of the file (problems without a line first).
std::string loadError(std::string_view source, std::vector<std::string> problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const std::string& a, const std::string& b) {
                     return lineOfProblem(a) < lineOfProblem(b);
                   });
  std::string message = "failed to load KoordExtenderConfiguration '" + std::string(source) + "':";
  for (const std::string& problem : problems) {
    message += "\n" + problem;
  }
  return message;
}

void readClientConnection(FieldReader& r, const Field& f, ClientConnectionConfiguration& out) {
  if (!r.checkObject(f, {"kubeconfig", "qps", "burst"})) {
    return;
  }
  r.read(f.child("kubeconfig"), out.kubeconfig);
  r.read(f.child("qps"), out.qps);
  r.read(f.child("burst"), out.burst);
  if (!(out.qps > 0)) {
    r.error(f.child("qps"), "must be positive");
  }
  if (out.burst < 1) {
    r.error(f.child("burst"), "must be at least 1");
  }
}

void readServer(FieldReader& r, const Field& f, ServerConfiguration& out) {
  if (!r.checkObject(f, {"address", "urlPrefix", "tlsCertFile", "tlsKeyFile", "maxRequestBytes",
                         "maxBufferedBytes"})) {
    return;
  }
  r.read(f.child("address"), out.address);
  r.read(f.child("urlPrefix"), out.url_prefix);
  r.read(f.child("tlsCertFile"), out.tls_cert_file);
  r.read(f.child("tlsKeyFile"), out.tls_key_file);
  r.read(f.child("maxRequestBytes"), out.max_request_bytes);
  r.read(f.child("maxBufferedBytes"), out.max_buffered_bytes);
  Result<HostPort> host_port = splitHostPort(out.address);
  if (!host_port.ok()) {
    r.error(f.child("address"), host_port.status().message());
  }
  for (char c : out.url_prefix) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '?' || c == '#' || c == '%') {
      r.error(f.child("urlPrefix"),
              "\"" + out.url_prefix + "\" is not a URL path (no spaces, '?', '#' or '%')");
      break;
    }
  }
  if (out.tls_cert_file.empty() != out.tls_key_file.empty()) {
    r.error(f.child(out.tls_cert_file.empty() ? "tlsKeyFile" : "tlsCertFile"),
            "tlsCertFile and tlsKeyFile must be set together");
  }
  if (out.max_request_bytes < 1024) {
    r.error(f.child("maxRequestBytes"), "must be at least 1024");
  }
  if (out.max_buffered_bytes < out.max_request_bytes) {
    r.error(f.child("maxBufferedBytes"),
            "must be at least maxRequestBytes (" + std::to_string(out.max_request_bytes) + ")");
  }
}

void readLeaderElection(FieldReader& r, const Field& f, LeaderElectionConfiguration& out) {
  if (!r.checkObject(f, {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod",
                         "resourceNamespace", "resourceName"})) {
    return;
  }
  r.read(f.child("leaderElect"), out.leader_elect);
  r.read(f.child("leaseDuration"), out.lease_duration);
  r.read(f.child("renewDeadline"), out.renew_deadline);
  r.read(f.child("retryPeriod"), out.retry_period);
  r.read(f.child("resourceNamespace"), out.resource_namespace);
  r.read(f.child("resourceName"), out.resource_name);
  if (!out.leader_elect) {
    return;
  }
  if (out.retry_period.count() <= 0) {
    r.error(f.child("retryPeriod"), "must be positive");
  }
  // client-go's rule: renewDeadline > 1.2 * retryPeriod (the jittered retry).
  if (out.renew_deadline * 5 <= out.retry_period * 6) {
    r.error(f.child("renewDeadline"), "must be longer than 1.2 x retryPeriod (" +
                                          api::extension::formatDuration(out.retry_period) + ")");
  }
  if (out.lease_duration <= out.renew_deadline) {
    r.error(f.child("leaseDuration"), "must be longer than renewDeadline (" +
                                          api::extension::formatDuration(out.renew_deadline) + ")");
  }
  if (out.resource_namespace.empty()) {
    r.error(f.child("resourceNamespace"), "must not be empty when leaderElect is true");
  }
  if (out.resource_name.empty()) {
    r.error(f.child("resourceName"), "must not be empty when leaderElect is true");
  }
}

void readPlugins(FieldReader& r, const Field& f, std::vector<PluginConfiguration>& out) {
  if (f.absent()) {
    return;  // keep the defaults
  }
  if (!f.value->is_array()) {
    r.error(f, "expected a list of {name, weight, args}, got " +
                   std::string(api::jsonTypeName(*f.value)));
    return;
  }
  out.clear();
  std::set<std::string> seen;
  for (size_t i = 0; i < f.value->size(); ++i) {
    const Field item = f.item(i);
    if (item.absent()) {
      r.error(item, "expected {name, weight, args}, got null");
      continue;
    }
    if (!r.checkObject(item, {"name", "weight", "args"})) {
      continue;
    }
    PluginConfiguration plugin;
    r.read(item.child("name"), plugin.name);
    r.read(item.child("weight"), plugin.weight);
    const Field args = item.child("args");
    if (!args.absent()) {
      if (args.value->is_object()) {
        plugin.args = *args.value;
      } else {
        r.error(args, "expected a mapping, got " + std::string(api::jsonTypeName(*args.value)));
      }
    }
    if (plugin.name.empty()) {
      r.error(item.child("name"), "is required");
    } else if (!seen.insert(plugin.name).second) {
      r.error(item.child("name"), "plugin \"" + plugin.name + "\" is listed twice");
    }
    if (plugin.weight < 1) {
      r.error(item.child("weight"), "must be at least 1");
    }
    out.push_back(std::move(plugin));
  }
}

Result<KoordExtenderConfiguration> decode(const koord::config::YamlDocument& doc,
                                          std::string_view source_name) {
  FieldReader r(doc);
  const Field root = r.root();
  KoordExtenderConfiguration config = defaultConfiguration();
  if (r.checkObject(root, {"apiVersion", "kind", "clientConnection", "server", "parallelism",
                           "bindTimeout", "leaderElection", "plugins"})) {
    std::string api_version;
    std::string kind;
    r.read(root.child("apiVersion"), api_version);
    r.read(root.child("kind"), kind);
    if (api_version != kApiVersion) {
      r.error(root.child("apiVersion"),
              "must be \"" + std::string(kApiVersion) + "\", got \"" + api_version + "\"");
    }
    if (kind != kKind) {
      r.error(root.child("kind"), "must be \"" + std::string(kKind) + "\", got \"" + kind + "\"");
    }
    readClientConnection(r, root.child("clientConnection"), config.client_connection);
    readServer(r, root.child("server"), config.server);
    r.read(root.child("parallelism"), config.parallelism);
    if (config.parallelism < 0 || config.parallelism > 1024) {
      r.error(root.child("parallelism"),
              "must be between 0 (one per CPU the container may use) and 1024");
    }
    r.read(root.child("bindTimeout"), config.bind_timeout);
    if (config.bind_timeout < std::chrono::milliseconds(100) ||
        config.bind_timeout > std::chrono::minutes(10)) {
      r.error(root.child("bindTimeout"),
              "must be between 100ms and 10m (keep it under kube-scheduler's httpTimeout for "
              "this extender), got " +
                  api::extension::formatDuration(config.bind_timeout));
    }
    readLeaderElection(r, root.child("leaderElection"), config.leader_election);
    readPlugins(r, root.child("plugins"), config.plugins);
  }
  if (!r.errors().empty()) {
    return Status::invalidArgument(loadError(source_name, r.errors()));
  }
  return config;
}

}  // namespace

std::string ServerConfiguration::host() const {
  Result<HostPort> split = splitHostPort(address);
  return split.ok() ? split->host : "";
}

uint16_t ServerConfiguration::port() const {
  Result<HostPort> split = splitHostPort(address);
  return split.ok() ? split->port : 0;
}

std::vector<PluginConfiguration> defaultPlugins() {
  std::vector<PluginConfiguration> configs;
  for (auto& [name, args] : plugins::defaultProfile())
    configs.push_back({std::move(name), 1, std::move(args)});
  return configs;
}

KoordExtenderConfiguration defaultConfiguration() {
  KoordExtenderConfiguration config;
  config.plugins = defaultPlugins();
  return config;
}

Result<HostPort> splitHostPort(std::string_view address) {
  const auto invalid = [&](std::string_view why) {
    return Status::invalidArgument("\"" + std::string(address) +
                                   "\" is not host:port: " + std::string(why));
  };
  const size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) {
    return invalid("missing ':<port>'");
  }
  HostPort out;
  out.host = std::string(address.substr(0, colon));
  if (out.host.empty()) {
    return invalid("missing host (use 0.0.0.0 for every interface)");
  }
  for (char c : out.host) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') {
      return invalid("the host must be a name or an IPv4 address");
    }
  }
  const std::string_view port_text = address.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port < 1 || port > 65535) {
    return invalid("the port must be a number from 1 to 65535");
  }
  out.port = static_cast<uint16_t>(port);
  return out;
}

Result<KoordExtenderConfiguration> parseExtenderConfiguration(std::string_view text,
                                                              std::string_view source_name) {
  Result<std::vector<koord::config::YamlDocument>> docs =
      koord::config::parseYamlDocuments(text, source_name);
  if (!docs.ok()) {
    return Status::invalidArgument(loadError(source_name, {docs.status().message()}));
  }
  if (docs->size() != 1) {
    return Status::invalidArgument(
        loadError(source_name,
                  {"expected exactly one YAML document, found " + std::to_string(docs->size())}));
  }
  return decode(docs->front(), source_name);
}

Result<KoordExtenderConfiguration> loadExtenderConfiguration(const std::string& path) {
  Result<std::string> text = koord::config::readFile(path);
  if (!text.ok()) {
    return text.status().withPrefix("failed to load KoordExtenderConfiguration");
  }
  return parseExtenderConfiguration(*text, path);
}

}  // namespace koord::extender::config
