#include "manager/descheduler/plugins/utilization/utilization_args.hpp"

#include <string_view>

#include "koord/common/status.hpp"

namespace koord::manager::descheduler::utilization {

namespace utilargs_detail {

using Json = nlohmann::json;

// Reads the fields of one args object, failing with "<prefix>.<key>: <cause>".
class ArgsReader {
 public:
  explicit ArgsReader(std::string prefix) : prefix_(std::move(prefix)) {}

  [[nodiscard]] Status fail(std::string_view key, std::string_view cause) const {
    return Status::invalidArgument(prefix_ + "." + std::string(key) + ": " + std::string(cause));
  }
  [[nodiscard]] const std::string& prefix() const { return prefix_; }

  Status readBool(const Json& v, std::string_view key, bool& out) const {
    if (v.is_null())
      return Status::ok();
    if (!v.is_boolean())
      return fail(key, "must be a boolean");
    out = v.get<bool>();
    return Status::ok();
  }

  Status readInt(const Json& v, std::string_view key, int64_t& out) const {
    if (v.is_null())
      return Status::ok();
    if (!v.is_number_integer())
      return fail(key, "must be an integer");
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      return fail(key, "must be an integer");
    }
    out = v.get<int64_t>();
    return Status::ok();
  }

  Status readString(const Json& v, std::string_view key, std::string& out) const {
    if (v.is_null())
      return Status::ok();
    if (!v.is_string())
      return fail(key, "must be a string");
    out = v.get<std::string>();
    return Status::ok();
  }

  Status readStrings(const Json& v, std::string_view key, std::vector<std::string>& out) const {
    if (v.is_null())
      return Status::ok();
    if (!v.is_array())
      return fail(key, "must be a list of strings");
    for (const auto& item : v) {
      if (!item.is_string())
        return fail(key, "must be a list of strings");
      out.push_back(item.get<std::string>());
    }
    return Status::ok();
  }

  Status readThresholds(const Json& v, std::string_view key, ResourceThresholds& out) const {
    if (v.is_null())
      return Status::ok();
    if (!v.is_object())
      return fail(key, "must be an object of resource name to percentage");
    for (const auto& [name, value] : v.items()) {
      if (!value.is_number()) {
        return fail(std::string(key) + "." + name, "must be a number");
      }
      out[name] = value.get<double>();
    }
    return Status::ok();
  }

  // Checks that `v` is an object (or null) whose keys are all in `known`.
  Status checkObject(const Json& v, std::string_view key,
                     std::initializer_list<std::string_view> known) const {
    if (v.is_null())
      return Status::ok();
    if (!v.is_object())
      return fail(key, "must be an object");
    for (const auto& [name, unused] : v.items()) {
      bool found = false;
      for (auto k : known)
        found = found || k == name;
      if (!found)
        return fail(std::string(key) + "." + name, "unknown field");
    }
    return Status::ok();
  }

  Status readNamespaces(const Json& v, std::vector<std::string>& include,
                        std::vector<std::string>& exclude) const {
    KOORD_RETURN_IF_ERROR(checkObject(v, "evictableNamespaces", {"include", "exclude"}));
    if (v.is_null())
      return Status::ok();
    if (v.contains("include")) {
      KOORD_RETURN_IF_ERROR(readStrings(v["include"], "evictableNamespaces.include", include));
    }
    if (v.contains("exclude")) {
      KOORD_RETURN_IF_ERROR(readStrings(v["exclude"], "evictableNamespaces.exclude", exclude));
    }
    return Status::ok();
  }

 private:
  std::string prefix_;
};

Status checkTopLevel(const Json& args, const std::string& prefix) {
  if (!args.is_null() && !args.is_object()) {
    return Status::invalidArgument(prefix + ": args must be an object");
  }
  return Status::ok();
}

// validateThresholds: the community's message, without a field prefix.
std::optional<std::string> thresholdsProblem(const ResourceThresholds& thresholds) {
  if (thresholds.empty())
    return "no resource threshold is configured";
  for (const auto& [name, percent] : thresholds) {
    if (percent < kMinResourcePercentage || percent > kMaxResourcePercentage) {
      return name + " threshold not in [0, 100] range";
    }
  }
  return std::nullopt;
}

Status validateLow(const LowNodeUtilizationArgs& args, const ArgsReader& reader) {
  if (!args.include_namespaces.empty()) {
    return reader.fail("evictableNamespaces",
                       "only Exclude namespaces can be set, inclusion is not supported");
  }
  if (auto problem = thresholdsProblem(args.thresholds)) {
    return reader.fail("thresholds", "thresholds config is not valid: " + *problem);
  }
  if (auto problem = thresholdsProblem(args.target_thresholds)) {
    return reader.fail("targetThresholds", "targetThresholds config is not valid: " + *problem);
  }
  if (args.thresholds.size() != args.target_thresholds.size()) {
    return reader.fail("targetThresholds",
                       "thresholds and targetThresholds configured different resources");
  }
  for (const auto& [name, value] : args.thresholds) {
    auto target = args.target_thresholds.find(name);
    if (target == args.target_thresholds.end()) {
      return reader.fail("targetThresholds",
                         "thresholds and targetThresholds configured different resources");
    }
    if (value > target->second && !args.use_deviation_thresholds) {
      return reader.fail("thresholds",
                         "thresholds' " + name + " percentage is greater than targetThresholds'");
    }
  }
  return Status::ok();
}

// metricsUtilization: the community's consistency checks, then koord's refusal of any enabled
// metrics source (koord computes usage from requests only).
Status readMetricsUtilization(const Json& v, const ArgsReader& reader) {
  KOORD_RETURN_IF_ERROR(
      reader.checkObject(v, "metricsUtilization", {"metricsServer", "source", "prometheus"}));
  if (v.is_null())
    return Status::ok();
  bool metrics_server = false;
  std::string source;
  if (v.contains("metricsServer")) {
    KOORD_RETURN_IF_ERROR(
        reader.readBool(v["metricsServer"], "metricsUtilization.metricsServer", metrics_server));
  }
  if (v.contains("source")) {
    KOORD_RETURN_IF_ERROR(reader.readString(v["source"], "metricsUtilization.source", source));
  }
  const Json prometheus = v.contains("prometheus") ? v["prometheus"] : Json();
  KOORD_RETURN_IF_ERROR(reader.checkObject(prometheus, "metricsUtilization.prometheus", {"query"}));
  std::string query;
  if (prometheus.is_object() && prometheus.contains("query")) {
    KOORD_RETURN_IF_ERROR(
        reader.readString(prometheus["query"], "metricsUtilization.prometheus.query", query));
  }
  constexpr std::string_view kKubernetes = "KubernetesMetrics";
  constexpr std::string_view kPrometheus = "Prometheus";
  if (source == kKubernetes && metrics_server) {
    return reader.fail("metricsUtilization",
                       "it is not allowed to set both \"KubernetesMetrics\" source and "
                       "metricsServer");
  }
  if (source == kKubernetes && !prometheus.is_null()) {
    return reader.fail("metricsUtilization",
                       "prometheus configuration is not allowed to set when source is set to "
                       "\"KubernetesMetrics\"");
  }
  if (source == kPrometheus && query.empty()) {
    return reader.fail("metricsUtilization",
                       "prometheus query is required when metrics source is set to "
                       "\"Prometheus\"");
  }
  if (metrics_server || !source.empty() || !prometheus.is_null()) {
    return reader.fail("metricsUtilization",
                       "not supported by koord (node utilization is computed from pod requests "
                       "only)");
  }
  return Status::ok();
}

}  // namespace utilargs_detail

Result<LowNodeUtilizationArgs> decodeLowNodeUtilizationArgs(const nlohmann::json& args) {
  using utilargs_detail::Json;
  const utilargs_detail::ArgsReader reader("LowNodeUtilizationArgs");
  KOORD_RETURN_IF_ERROR(utilargs_detail::checkTopLevel(args, reader.prefix()));
  LowNodeUtilizationArgs out;
  Json metrics;
  if (args.is_object()) {
    for (const auto& [key, value] : args.items()) {
      if (key == "apiVersion" || key == "kind")
        continue;
      if (key == "useDeviationThresholds") {
        KOORD_RETURN_IF_ERROR(reader.readBool(value, key, out.use_deviation_thresholds));
      } else if (key == "thresholds") {
        KOORD_RETURN_IF_ERROR(reader.readThresholds(value, key, out.thresholds));
      } else if (key == "targetThresholds") {
        KOORD_RETURN_IF_ERROR(reader.readThresholds(value, key, out.target_thresholds));
      } else if (key == "numberOfNodes") {
        KOORD_RETURN_IF_ERROR(reader.readInt(value, key, out.number_of_nodes));
      } else if (key == "evictableNamespaces") {
        KOORD_RETURN_IF_ERROR(
            reader.readNamespaces(value, out.include_namespaces, out.exclude_namespaces));
      } else if (key == "evictionLimits") {
        KOORD_RETURN_IF_ERROR(reader.checkObject(value, key, {"node"}));
        if (value.is_object() && value.contains("node") && !value["node"].is_null()) {
          const Json& node = value["node"];
          if (!node.is_number_integer() ||
              (!node.is_number_unsigned() && node.get<int64_t>() < 0)) {
            return reader.fail("evictionLimits.node", "must be a non-negative integer");
          }
          out.node_eviction_limit = node.get<uint64_t>();
        }
      } else if (key == "metricsUtilization") {
        metrics = value;
        KOORD_RETURN_IF_ERROR(
            reader.checkObject(value, key, {"metricsServer", "source", "prometheus"}));
      } else {
        return reader.fail(key, "unknown field");
      }
    }
  }
  KOORD_RETURN_IF_ERROR(utilargs_detail::validateLow(out, reader));
  KOORD_RETURN_IF_ERROR(utilargs_detail::readMetricsUtilization(metrics, reader));
  return out;
}

Result<HighNodeUtilizationArgs> decodeHighNodeUtilizationArgs(const nlohmann::json& args) {
  const utilargs_detail::ArgsReader reader("HighNodeUtilizationArgs");
  KOORD_RETURN_IF_ERROR(utilargs_detail::checkTopLevel(args, reader.prefix()));
  HighNodeUtilizationArgs out;
  if (args.is_object()) {
    for (const auto& [key, value] : args.items()) {
      if (key == "apiVersion" || key == "kind")
        continue;
      if (key == "thresholds") {
        KOORD_RETURN_IF_ERROR(reader.readThresholds(value, key, out.thresholds));
      } else if (key == "numberOfNodes") {
        KOORD_RETURN_IF_ERROR(reader.readInt(value, key, out.number_of_nodes));
      } else if (key == "evictionModes") {
        KOORD_RETURN_IF_ERROR(reader.readStrings(value, key, out.eviction_modes));
      } else if (key == "evictableNamespaces") {
        KOORD_RETURN_IF_ERROR(
            reader.readNamespaces(value, out.include_namespaces, out.exclude_namespaces));
      } else {
        return reader.fail(key, "unknown field");
      }
    }
  }
  if (!out.include_namespaces.empty()) {
    return reader.fail("evictableNamespaces",
                       "only Exclude namespaces can be set, inclusion is not supported");
  }
  if (auto problem = utilargs_detail::thresholdsProblem(out.thresholds)) {
    return reader.fail("thresholds", *problem);
  }
  for (const auto& mode : out.eviction_modes) {
    if (mode != kEvictionModeOnlyThresholdingResources) {
      return reader.fail("evictionModes", "invalid eviction mode " + mode);
    }
  }
  return out;
}

}  // namespace koord::manager::descheduler::utilization
