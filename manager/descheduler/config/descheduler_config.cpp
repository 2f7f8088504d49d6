#include "manager/descheduler/config/descheduler_config.hpp"

#include <set>
#include <utility>

#include "koord/config/file.hpp"
#include "koord/config/yaml.hpp"
#include "plugin_args_decode.hpp"

namespace koord::manager::descheduler::config {

namespace {

using koord::config::Field;
using koord::config::FieldReader;

void readPluginSet(FieldReader& reader, const Field& field, PluginSet& out) {
  if (!reader.checkObject(field, {"enabled", "disabled"}) || field.absent()) {
    return;
  }
  for (const auto& [key, list] :
       {std::pair<const char*, std::vector<std::string>*>{"enabled", &out.enabled},
        std::pair<const char*, std::vector<std::string>*>{"disabled", &out.disabled}}) {
    const Field plugins = field.child(key);
    if (plugins.absent()) {
      continue;
    }
    if (!plugins.value->is_array()) {
      reader.error(plugins, "expected a list of plugins");
      continue;
    }
    for (size_t i = 0; i < plugins.value->size(); ++i) {
      const Field plugin = plugins.item(i);
      if (!reader.checkObject(plugin, {"name"})) {
        continue;
      }
      std::string name;
      reader.read(plugin.child("name"), name);
      if (name.empty()) {
        reader.error(plugin.child("name"), "Required value");
        continue;
      }
      list->push_back(std::move(name));
    }
  }
}

// Koordinator's mergePluginSet: defaults first (unless disabled, or replaced in place by an
// enabled entry of the same name), then the custom plugins in their order.
PluginSet mergePluginSet(const std::vector<std::string>& defaults, const PluginSet& custom) {
  std::set<std::string> disabled(custom.disabled.begin(), custom.disabled.end());
  PluginSet merged;
  merged.disabled = custom.disabled;
  std::set<std::string> placed;
  if (disabled.count("*") == 0) {
    for (const std::string& name : defaults) {
      if (disabled.count(name) == 0) {
        merged.enabled.push_back(name);
        placed.insert(name);
      }
    }
  }
  for (const std::string& name : custom.enabled) {
    if (placed.count(name) == 0) {
      merged.enabled.push_back(name);
    }
  }
  return merged;
}

void readPlugins(FieldReader& reader, const Field& field, Plugins& out) {
  if (!reader.checkObject(field, {"deschedule", "balance", "evict", "filter"})) {
    return;
  }
  Plugins custom;
  readPluginSet(reader, field.child("deschedule"), custom.deschedule);
  readPluginSet(reader, field.child("balance"), custom.balance);
  readPluginSet(reader, field.child("evict"), custom.evict);
  readPluginSet(reader, field.child("filter"), custom.filter);
  out.deschedule = mergePluginSet({}, custom.deschedule);
  out.balance = mergePluginSet({}, custom.balance);
  out.evict = mergePluginSet({kMigrationControllerName}, custom.evict);
  out.filter = mergePluginSet({}, custom.filter);
}

bool enabledAnywhere(const Plugins& plugins, std::string_view name) {
  return plugins.deschedule.isEnabled(name) || plugins.balance.isEnabled(name) ||
         plugins.evict.isEnabled(name) || plugins.filter.isEnabled(name);
}

void decodeTypedArgs(FieldReader& reader, const Field& args, PluginConfig& config) {
  if (config.name == kMigrationControllerName) {
    config.migration_controller.emplace();
    detail::decodeMigrationControllerArgs(reader, args, *config.migration_controller);
  } else if (config.name == kLowNodeLoadName) {
    config.low_node_load.emplace();
    detail::decodeLowNodeLoadArgs(reader, args, *config.low_node_load);
  }
}

void readProfile(FieldReader& reader, const Field& field, DeschedulerProfile& out) {
  if (!reader.checkObject(field, {"name", "plugins", "pluginConfig", "nodeSelector"})) {
    return;
  }
  reader.read(field.child("name"), out.name);
  reader.read(field.child("nodeSelector"), out.node_selector);
  readPlugins(reader, field.child("plugins"), out.plugins);

  const Field configs = field.child("pluginConfig");
  std::set<std::string> names;
  if (!configs.absent() && !configs.value->is_array()) {
    reader.error(configs, "expected a list");
  } else if (!configs.absent()) {
    for (size_t i = 0; i < configs.value->size(); ++i) {
      const Field item = configs.item(i);
      if (!reader.checkObject(item, {"name", "args"})) {
        continue;
      }
      PluginConfig config;
      reader.read(item.child("name"), config.name);
      if (config.name.empty()) {
        reader.error(item.child("name"), "Required value");
        continue;
      }
      if (!names.insert(config.name).second) {
        reader.error(item.child("name"), "Duplicate value: \"" + config.name + "\"");
        continue;
      }
      const Field args = item.child("args");
      if (!args.absent()) {
        config.args = *args.value;
      }
      decodeTypedArgs(reader, args, config);
      out.plugin_config.push_back(std::move(config));
    }
  }
  // Plugins enabled without a config get their defaulted args, as in Koordinator.
  for (const char* name : {kMigrationControllerName, kLowNodeLoadName}) {
    if (names.count(name) == 0 && enabledAnywhere(out.plugins, name)) {
      PluginConfig config;
      config.name = name;
      decodeTypedArgs(reader, Field{nullptr, configs.path, configs.pointer}, config);
      out.plugin_config.push_back(std::move(config));
    }
  }
}

// Koordinator's bind-address defaulting: "" host becomes 0.0.0.0; a bare IP gets the default port.
std::string normalizeBindAddress(const std::string& address) {
  const size_t colon = address.rfind(':');
  const bool bracketed_v6 = !address.empty() && address.front() == '[';
  if (colon != std::string::npos && (address.find(':') == colon || bracketed_v6)) {
    std::string host = address.substr(0, colon);
    if (host.empty()) {
      host = "0.0.0.0";
    }
    return host + address.substr(colon);
  }
  if (address.find(':') != std::string::npos) {
    return "[" + address + "]:" + std::to_string(kDefaultInsecurePort);
  }
  return address.empty() ? address : address + ":" + std::to_string(kDefaultInsecurePort);
}

void readLeaderElection(FieldReader& reader, const Field& field, LeaderElectionConfiguration& out) {
  if (!reader.checkObject(field, {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod",
                                  "resourceLock", "resourceName", "resourceNamespace"})) {
    return;
  }
  reader.read(field.child("leaderElect"), out.leader_elect);
  reader.read(field.child("leaseDuration"), out.lease_duration);
  reader.read(field.child("renewDeadline"), out.renew_deadline);
  reader.read(field.child("retryPeriod"), out.retry_period);
  // Empty strings keep the defaults, as Koordinator's defaulting does.
  std::string value;
  reader.read(field.child("resourceLock"), value);
  out.resource_lock = value.empty() ? out.resource_lock : value;
  value.clear();
  reader.read(field.child("resourceName"), value);
  out.resource_name = value.empty() ? out.resource_name : value;
  value.clear();
  reader.read(field.child("resourceNamespace"), value);
  out.resource_namespace = value.empty() ? out.resource_namespace : value;
  if (out.leader_elect && out.renew_deadline >= out.lease_duration) {
    reader.error(field.child("renewDeadline"), "must be less than leaseDuration");
  }
}

void readClientConnection(FieldReader& reader, const Field& field,
                          ClientConnectionConfiguration& out) {
  if (!reader.checkObject(field,
                          {"kubeconfig", "acceptContentTypes", "contentType", "qps", "burst"})) {
    return;
  }
  reader.read(field.child("kubeconfig"), out.kubeconfig);
  reader.read(field.child("acceptContentTypes"), out.accept_content_types);
  std::string content_type;
  reader.read(field.child("contentType"), content_type);
  out.content_type = content_type.empty() ? out.content_type : content_type;
  double qps = 0;
  reader.read(field.child("qps"), qps);
  out.qps = qps == 0 ? out.qps : qps;
  int32_t burst = 0;
  reader.read(field.child("burst"), burst);
  out.burst = burst == 0 ? out.burst : burst;
}

void readTopLevel(FieldReader& reader, DeschedulerConfiguration& out) {
  const Field root = reader.root();
  if (!reader.checkObject(root, {"apiVersion", "kind", "leaderElection", "clientConnection",
                                 "enableProfiling", "enableContentionProfiling",
                                 "healthzBindAddress", "metricsBindAddress", "deschedulingInterval",
                                 "dryRun", "profiles", "nodeSelector", "maxNoOfPodsToEvictPerNode",
                                 "maxNoOfPodsToEvictPerNamespace", "maxNoOfPodsToEvictTotal"})) {
    return;
  }
  std::string api_version;
  std::string kind;
  reader.read(root.child("apiVersion"), api_version);
  reader.read(root.child("kind"), kind);
  if (api_version != kApiVersion) {
    reader.error(root.child("apiVersion"), "Unsupported value: \"" + api_version +
                                               "\": supported values: \"" + kApiVersion + "\"");
  }
  if (kind != kKind) {
    reader.error(root.child("kind"),
                 "Unsupported value: \"" + kind + "\": supported values: \"" + kKind + "\"");
  }
  readLeaderElection(reader, root.child("leaderElection"), out.leader_election);
  readClientConnection(reader, root.child("clientConnection"), out.client_connection);
  std::optional<bool> profiling;
  reader.read(root.child("enableProfiling"), profiling);
  out.enable_profiling = profiling.value_or(true);
  std::optional<bool> contention;
  reader.read(root.child("enableContentionProfiling"), contention);
  out.enable_contention_profiling = contention.value_or(out.enable_profiling);
  std::optional<std::string> healthz;
  reader.read(root.child("healthzBindAddress"), healthz);
  if (healthz) {
    out.healthz_bind_address = normalizeBindAddress(*healthz);
  }
  std::optional<std::string> metrics;
  reader.read(root.child("metricsBindAddress"), metrics);
  if (metrics) {
    out.metrics_bind_address = normalizeBindAddress(*metrics);
  }
  reader.read(root.child("deschedulingInterval"), out.descheduling_interval);
  if (out.descheduling_interval.count() < 0) {
    reader.error(root.child("deschedulingInterval"), "must not be negative");
  }
  reader.read(root.child("dryRun"), out.dry_run);
  reader.read(root.child("nodeSelector"), out.node_selector);
  reader.read(root.child("maxNoOfPodsToEvictPerNode"), out.max_no_of_pods_to_evict_per_node);
  reader.read(root.child("maxNoOfPodsToEvictPerNamespace"),
              out.max_no_of_pods_to_evict_per_namespace);
  reader.read(root.child("maxNoOfPodsToEvictTotal"), out.max_no_of_pods_to_evict_total);

  const Field profiles = root.child("profiles");
  if (!profiles.absent() && !profiles.value->is_array()) {
    reader.error(profiles, "expected a list");
  } else if (!profiles.absent()) {
    for (size_t i = 0; i < profiles.value->size(); ++i) {
      DeschedulerProfile profile;
      readProfile(reader, profiles.item(i), profile);
      out.profiles.push_back(std::move(profile));
    }
  }
  if (out.profiles.empty()) {
    DeschedulerProfile profile;
    readProfile(reader, Field{nullptr, "profiles[0]", "/profiles/0"}, profile);
    out.profiles.push_back(std::move(profile));
  }
  if (out.profiles.size() == 1 && out.profiles[0].name.empty()) {
    out.profiles[0].name = kDefaultProfileName;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < out.profiles.size(); ++i) {
    const Field name = profiles.item(i).child("name");
    if (out.profiles[i].name.empty()) {
      reader.error(name, "Required value: every profile needs a name when there are several");
    } else if (!names.insert(out.profiles[i].name).second) {
      reader.error(name, "Duplicate value: \"" + out.profiles[i].name + "\"");
    }
  }
}

// "failed to parse YAML '<source>': line 17, column 4: end of map not found" -> the part after
// the source, so the wrapped message names the file once.
std::string yamlCause(const Status& status, std::string_view source_name) {
  const std::string prefix = "failed to parse YAML '" + std::string(source_name) + "': ";
  const std::string& message = status.message();
  if (message.rfind(prefix, 0) == 0) {
    return "invalid YAML: " + message.substr(prefix.size());
  }
  return message;
}

Status loadError(std::string_view source_name, const std::string& cause) {
  return Status::invalidArgument("failed to load DeschedulerConfiguration '" +
                                 std::string(source_name) + "': " + cause);
}

}  // namespace

bool PluginSet::isEnabled(std::string_view name) const {
  for (const std::string& plugin : enabled) {
    if (plugin == name) {
      return true;
    }
  }
  return false;
}

const PluginConfig* DeschedulerProfile::pluginConfig(std::string_view plugin) const {
  for (const PluginConfig& config : plugin_config) {
    if (config.name == plugin) {
      return &config;
    }
  }
  return nullptr;
}

Result<DeschedulerConfiguration> loadDeschedulerConfiguration(std::string_view text,
                                                              std::string_view source_name) {
  Result<std::vector<koord::config::YamlDocument>> docs =
      koord::config::parseYamlDocuments(text, source_name);
  if (!docs.ok()) {
    return loadError(source_name, yamlCause(docs.status(), source_name));
  }
  if (docs->empty()) {
    return loadError(source_name, "the file holds no document");
  }
  if (docs->size() > 1) {
    const int line = (*docs)[1].lineOf("");
    return loadError(source_name, (line > 0 ? "line " + std::to_string(line) + ": " : "") +
                                      "expected one document, found " +
                                      std::to_string(docs->size()));
  }
  const koord::config::YamlDocument& doc = docs->front();
  FieldReader reader(doc);
  DeschedulerConfiguration config;
  readTopLevel(reader, config);
  if (!reader.errors().empty()) {
    std::string cause;
    for (const std::string& error : reader.errors()) {
      cause += (cause.empty() ? "" : "; ") + error;
    }
    return loadError(source_name, cause);
  }
  config.warnings = reader.warnings();
  return config;
}

Result<DeschedulerConfiguration> loadDeschedulerConfigurationFile(const std::string& path) {
  KOORD_ASSIGN_OR_RETURN(std::string text, koord::config::readFile(path));
  return loadDeschedulerConfiguration(text, path);
}

}  // namespace koord::manager::descheduler::config
