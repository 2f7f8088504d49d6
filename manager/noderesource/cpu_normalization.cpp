#include "manager/noderesource/cpu_normalization.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "koord/api/codec.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {

namespace {

// Go's strconv.ParseBool.
std::optional<bool> parseGoBool(std::string_view text) {
  if (text == "1" || text == "t" || text == "T" || text == "true" || text == "TRUE" ||
      text == "True") {
    return true;
  }
  if (text == "0" || text == "f" || text == "F" || text == "false" || text == "FALSE" ||
      text == "False") {
    return false;
  }
  return std::nullopt;
}

std::optional<double> parseRatio(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string onOff(bool on) {
  return on ? "on" : "off";
}

}  // namespace

Result<std::optional<CPUBasicInfo>> cpuBasicInfoOf(const api::core::ObjectMeta& nrt_meta) {
  auto it = nrt_meta.annotations.find(std::string(api::kAnnotationNodeCPUBasicInfo));
  if (it == nrt_meta.annotations.end()) {
    return std::optional<CPUBasicInfo>();
  }
  const std::string prefix =
      "NodeResourceTopology annotation " + std::string(api::kAnnotationNodeCPUBasicInfo) + ": ";
  auto parsed = api::parseJson(it->second);
  if (!parsed.ok()) {
    return Status::invalidArgument(prefix + parsed.status().message());
  }
  const api::Json& j = *parsed;
  if (!j.is_object()) {
    return Status::invalidArgument(prefix + "expected a JSON object");
  }
  CPUBasicInfo info;
  for (const auto& [field, out] :
       {std::pair<const char*, bool*>{"hyperThreadEnabled", &info.hyperThreadEnabled},
        std::pair<const char*, bool*>{"turboEnabled", &info.turboEnabled}}) {
    if (!j.contains(field)) {
      continue;
    }
    if (!j[field].is_boolean()) {
      return Status::invalidArgument(prefix + field + ": expected a boolean");
    }
    *out = j[field].get<bool>();
  }
  if (j.contains("cpuModel")) {
    if (!j["cpuModel"].is_string()) {
      return Status::invalidArgument(prefix + "cpuModel: expected a string");
    }
    info.cpuModel = j["cpuModel"].get<std::string>();
  }
  return std::optional<CPUBasicInfo>(std::move(info));
}

std::string formatCPUNormalizationRatio(double ratio) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", ratio);
  return buf;
}

Result<CPUNormalization> cpuNormalizationFor(const api::core::Node& node,
                                             const api::topology::NodeResourceTopology* nrt,
                                             const sloconfig::CPUNormalizationStrategy& strategy) {
  bool enabled = strategy.enable.value_or(false);
  auto label = node.metadata.labels.find(std::string(api::kLabelCPUNormalizationEnabled));
  if (label != node.metadata.labels.end()) {
    auto value = parseGoBool(label->second);
    if (!value) {
      return Status::invalidArgument("node label " +
                                     std::string(api::kLabelCPUNormalizationEnabled) + ": \"" +
                                     label->second + "\" is not a boolean");
    }
    enabled = *value;
  }
  if (!enabled) {
    return CPUNormalization{1.0, formatCPUNormalizationRatio(1.0), "disabled"};
  }
  if (nrt == nullptr) {
    return Status::notFound("no NodeResourceTopology for the node (its CPU model is unknown)");
  }
  KOORD_ASSIGN_OR_RETURN(std::optional<CPUBasicInfo> info, cpuBasicInfoOf(nrt->metadata));
  if (!info) {
    return Status::notFound("NodeResourceTopology has no annotation " +
                            std::string(api::kAnnotationNodeCPUBasicInfo));
  }
  auto model = strategy.ratioModel.find(info->cpuModel);
  if (model == strategy.ratioModel.end()) {
    return Status::notFound("no CPU normalization ratio for CPU model \"" + info->cpuModel + "\"");
  }
  const sloconfig::ModelRatio& ratios = model->second;
  const std::optional<double>* ratio = &ratios.baseRatio;
  std::string field = "baseRatio";
  if (info->hyperThreadEnabled && info->turboEnabled) {
    ratio = &ratios.hyperThreadTurboEnabledRatio;
    field = "hyperThreadTurboEnabledRatio";
  } else if (info->hyperThreadEnabled) {
    ratio = &ratios.hyperThreadEnabledRatio;
    field = "hyperThreadEnabledRatio";
  } else if (info->turboEnabled) {
    ratio = &ratios.turboEnabledRatio;
    field = "turboEnabledRatio";
  }
  if (!ratio->has_value()) {
    return Status::notFound("missing " + field + " for CPU model \"" + info->cpuModel + "\"");
  }
  const double value = **ratio;
  if (!(value >= kMinCPUNormalizationRatio && value <= kMaxCPUNormalizationRatio)) {
    return Status::invalidArgument(field + " " + formatCPUNormalizationRatio(value) +
                                   " for CPU model \"" + info->cpuModel +
                                   "\" is out of range [1, 5]");
  }
  return CPUNormalization{value, formatCPUNormalizationRatio(value),
                          info->cpuModel + " (hyperThread " + onOff(info->hyperThreadEnabled) +
                              ", turbo " + onOff(info->turboEnabled) + ")"};
}

bool cpuNormalizationNeedsSync(const std::optional<std::string>& old_value,
                               const std::optional<std::string>& new_value) {
  std::optional<double> old_ratio;
  if (old_value) {
    old_ratio = parseRatio(*old_value);
    if (!old_ratio || *old_ratio <= 0) {
      return true;
    }
  }
  std::optional<double> new_ratio;
  if (new_value) {
    new_ratio = parseRatio(*new_value);
    if (!new_ratio || *new_ratio <= 0) {
      return false;
    }
  }
  if (!old_ratio && !new_ratio) {
    return false;
  }
  if (!old_ratio || !new_ratio) {
    return true;
  }
  return std::fabs(*new_ratio - *old_ratio) >= kCPUNormalizationRatioEpsilon;
}

}  // namespace koord::manager::noderesource
