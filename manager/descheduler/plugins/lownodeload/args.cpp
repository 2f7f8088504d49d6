#include "manager/descheduler/plugins/lownodeload/args.hpp"

#include <string_view>

#include "koord/api/core/selectors.hpp"
#include "koord/config/field_reader.hpp"
#include "koord/config/yaml.hpp"
#include "manager/descheduler/config/plugin_args_decode.hpp"

namespace koord::manager::descheduler::lownodeload {

namespace lownodeload_args_detail {

constexpr std::string_view kPrefix = "LowNodeLoadArgs";

// The reader writes "<path>: <message>", or just the message for the args object itself.
std::string withPrefix(const std::string& problem) {
  const size_t colon = problem.find(": ");
  const bool has_path =
      colon != std::string::npos && problem.find(' ') > colon && problem.rfind("line ", 0) != 0;
  return std::string(kPrefix) + (has_path ? "." : ": ") + problem;
}

// Go's %v of a float64 for the values users write (70, 12.5).
std::string number(double value) {
  if (value == static_cast<double>(static_cast<int64_t>(value))) {
    return std::to_string(static_cast<int64_t>(value));
  }
  return nlohmann::json(value).dump();
}

// check_prod_low: the decoder already checks the top-level prodLowThresholds.
void validatePool(const NodePool& pool, const std::string& path, bool check_prod_low,
                  std::vector<std::string>& out) {
  if (pool.node_selector) {
    const Status status = api::core::validateLabelSelector(*pool.node_selector);
    if (!status.isOk()) {
      out.push_back(path + ".nodeSelector: " + status.message());
    }
  }
  for (const auto& [resource, percent] : pool.prod_high_thresholds) {
    auto high = pool.high_thresholds.find(resource);
    if (high != pool.high_thresholds.end() && percent > high->second) {
      out.push_back(path + ".prodHighThresholds." + resource +
                    ": Invalid value: " + number(percent) +
                    ": node percentage must be greater than or equal to prodHighThresholds");
    }
  }
  for (const auto& [resource, percent] : pool.prod_low_thresholds) {
    if (!check_prod_low) {
      break;
    }
    auto high = pool.prod_high_thresholds.find(resource);
    if (high != pool.prod_high_thresholds.end() && percent > high->second) {
      out.push_back(path + ".prodLowThresholds." + resource +
                    ": Invalid value: " + number(percent) +
                    ": low percentage must be less than or equal to prodHighThresholds");
    }
  }
}

}  // namespace lownodeload_args_detail

Result<LowNodeLoadSettings> decodeLowNodeLoadSettings(const nlohmann::json& args) {
  namespace d = lownodeload_args_detail;
  koord::config::YamlDocument doc;
  doc.value = args;
  koord::config::FieldReader reader(doc);
  LowNodeLoadSettings settings;
  config::detail::decodeLowNodeLoadArgs(reader, reader.root(), settings.args);
  const config::LowNodeLoadArgs& a = settings.args;

  std::vector<std::string> problems;
  for (const std::string& error : reader.errors()) {
    problems.push_back(d::withPrefix(error));
  }
  if (a.extra.is_object()) {
    for (auto it = a.extra.begin(); it != a.extra.end(); ++it) {
      problems.push_back(std::string(d::kPrefix) + "." + it.key() + ": unknown field");
    }
  }
  for (const std::string& warning : reader.warnings()) {
    if (warning.rfind("unknown field", 0) != 0) {  // nested unknown keys; top-level ones are above
      problems.push_back(d::withPrefix(warning));
    }
  }
  if (a.number_of_nodes < 0) {
    problems.push_back(std::string(d::kPrefix) +
                       ".numberOfNodes: must be greater than or equal to 0");
  }
  for (size_t i = 0; i < a.pod_selectors.size(); ++i) {
    if (a.pod_selectors[i].selector) {
      const Status status = api::core::validateLabelSelector(*a.pod_selectors[i].selector);
      if (!status.isOk()) {
        problems.push_back(std::string(d::kPrefix) + ".podSelectors[" + std::to_string(i) +
                           "]: " + status.message());
      }
    }
  }

  NodePool default_pool;
  default_pool.name = kDefaultNodePoolName;
  default_pool.node_selector = a.node_selector;
  default_pool.use_deviation_thresholds = a.use_deviation_thresholds;
  default_pool.low_thresholds = a.low_thresholds;
  default_pool.high_thresholds = a.high_thresholds;
  default_pool.prod_low_thresholds = a.prod_low_thresholds;
  default_pool.prod_high_thresholds = a.prod_high_thresholds;
  default_pool.resource_weights = a.resource_weights;
  default_pool.anomaly_condition = a.anomaly_condition;
  settings.pools.push_back(std::move(default_pool));
  for (const config::LowNodeLoadNodePool& written : a.node_pools) {
    NodePool pool;
    pool.name = written.name;
    pool.node_selector = written.node_selector;
    pool.use_deviation_thresholds = written.use_deviation_thresholds;
    pool.low_thresholds = written.low_thresholds;
    pool.high_thresholds = written.high_thresholds;
    pool.prod_low_thresholds = written.prod_low_thresholds;
    pool.prod_high_thresholds = written.prod_high_thresholds;
    pool.resource_weights = written.resource_weights;
    pool.anomaly_condition = written.anomaly_condition;
    settings.pools.push_back(std::move(pool));
  }
  // The default pool's own fields are the top-level ones: report them there.
  d::validatePool(settings.pools[0], std::string(d::kPrefix), false, problems);
  for (size_t i = 1; i < settings.pools.size(); ++i) {
    d::validatePool(settings.pools[i],
                    std::string(d::kPrefix) + ".nodePools[" + std::to_string(i - 1) + "]", true,
                    problems);
  }

  if (!problems.empty()) {
    std::string message;
    for (const std::string& problem : problems) {
      message += (message.empty() ? "" : "; ") + problem;
    }
    return Status::invalidArgument(message);
  }
  return settings;
}

}  // namespace koord::manager::descheduler::lownodeload
