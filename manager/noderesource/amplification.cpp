#include "manager/noderesource/amplification.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "koord/api/codec.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {

namespace {

constexpr std::array<std::string_view, 2> kAmplifiedResources = {"cpu", "memory"};

std::string shortest(double value) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  if (ec != std::errc()) {
    return "0";
  }
  return std::string(buf.data(), end);
}

Result<resource::ResourceList> rawAllocatableOf(const api::core::Node& node) {
  auto it = node.metadata.annotations.find(std::string(api::kAnnotationNodeRawAllocatable));
  const std::string prefix =
      "node annotation " + std::string(api::kAnnotationNodeRawAllocatable) + ": ";
  auto parsed = api::parseJson(it->second);
  if (!parsed.ok()) {
    return Status::invalidArgument(prefix + parsed.status().message());
  }
  resource::ResourceList out;
  using api::fromJson;
  Status status = fromJson(*parsed, out, "");
  if (!status.isOk()) {
    return Status::invalidArgument(prefix + status.message());
  }
  return out;
}

resource::ResourceList supportedOf(const resource::ResourceList& allocatable) {
  resource::ResourceList out;
  for (std::string_view name : kAmplifiedResources) {
    if (auto it = allocatable.find(name); it != allocatable.end()) {
      out.emplace(std::string(name), it->second);
    }
  }
  return out;
}

bool sameAmounts(const resource::ResourceList& a, const resource::ResourceList& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (const auto& [name, q] : a) {
    auto it = b.find(name);
    if (it == b.end() || it->second.milliValue() != q.milliValue()) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<AmplificationRatios> amplificationRatiosFor(
    const sloconfig::ResourceAmplificationStrategy& strategy,
    std::optional<double> cpu_normalization_ratio) {
  AmplificationRatios ratios;
  if (strategy.enable.value_or(false)) {
    ratios = strategy.resourceAmplificationRatio;
  }
  double cpu = 1;
  if (auto it = ratios.find("cpu"); it != ratios.end() && it->second > 0) {
    cpu = it->second;
  }
  if (cpu_normalization_ratio && *cpu_normalization_ratio > 0) {
    cpu *= *cpu_normalization_ratio;
  }
  if (cpu > 1) {
    ratios["cpu"] = cpu;
  }
  for (const auto& [name, ratio] : ratios) {
    if (!(ratio >= 1)) {
      return Status::invalidArgument("resource amplification ratio " + shortest(ratio) + " of " +
                                     name + " must be >= 1");
    }
  }
  return ratios;
}

std::string formatAmplificationRatios(const AmplificationRatios& ratios) {
  std::string out = "{";
  for (const auto& [name, ratio] : ratios) {
    if (out.size() > 1) {
      out += ",";
    }
    out += api::Json(name).dump() + ":" + shortest(ratio);
  }
  return out + "}";
}

Result<AmplificationRatios> parseAmplificationRatios(std::string_view text) {
  const std::string prefix =
      "node annotation " + std::string(api::kAnnotationNodeResourceAmplificationRatio) + ": ";
  auto parsed = api::parseJson(text);
  if (!parsed.ok()) {
    return Status::invalidArgument(prefix + parsed.status().message());
  }
  if (!parsed->is_object()) {
    return Status::invalidArgument(prefix + "expected a JSON object");
  }
  AmplificationRatios out;
  for (auto it = parsed->begin(); it != parsed->end(); ++it) {
    if (!it.value().is_number()) {
      return Status::invalidArgument(prefix + it.key() + ": expected a number");
    }
    out[it.key()] = it.value().get<double>();
  }
  return out;
}

resource::Quantity multiplyMilli(const resource::Quantity& q, double ratio) {
  auto milli = static_cast<int64_t>(static_cast<double>(q.milliValue()) * ratio);
  return resource::Quantity::fromMilli(milli, q.format());
}

Status amplifyNodeOnUpdate(const api::core::Node* old_node, api::core::Node& node) {
  auto& annotations = node.metadata.annotations;
  auto ratio_it = annotations.find(std::string(api::kAnnotationNodeResourceAmplificationRatio));
  if (ratio_it == annotations.end() || ratio_it->second.empty()) {
    annotations.erase(std::string(api::kAnnotationNodeRawAllocatable));
    return Status::ok();
  }
  if (node.status.allocatable.empty()) {
    return Status::ok();
  }
  KOORD_ASSIGN_OR_RETURN(AmplificationRatios ratios, parseAmplificationRatios(ratio_it->second));
  const bool has_raw = annotations.count(std::string(api::kAnnotationNodeRawAllocatable)) != 0;
  const bool allocatable_changed =
      old_node != nullptr &&
      !sameAmounts(supportedOf(old_node->status.allocatable), supportedOf(node.status.allocatable));
  resource::ResourceList raw;
  if (!has_raw || allocatable_changed) {
    raw = supportedOf(node.status.allocatable);
    if (!raw.empty()) {
      using api::toJson;
      annotations[std::string(api::kAnnotationNodeRawAllocatable)] = toJson(raw).dump();
    }
  } else {
    KOORD_ASSIGN_OR_RETURN(raw, rawAllocatableOf(node));
  }
  for (std::string_view name : kAmplifiedResources) {
    auto ratio = ratios.find(std::string(name));
    if (ratio == ratios.end() || !(ratio->second > 1)) {
      continue;
    }
    auto original = raw.find(name);
    if (original == raw.end()) {
      continue;
    }
    node.status.allocatable[std::string(name)] = multiplyMilli(original->second, ratio->second);
  }
  return Status::ok();
}

}  // namespace koord::manager::noderesource
