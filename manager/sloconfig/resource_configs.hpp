// The two keys of slo-controller-config that shape node resources rather than the NodeSLO:
// cpu-normalization-config and resource-amplification-config (CPUNormalizationCfg and
// ResourceAmplificationCfg of apis/configuration/slo_controller_config.go). Both are flat like
// colocation-config: the strategy fields at the top plus nodeConfigs[] ({name, nodeSelector,
// <strategy fields>}); forNode merges the first nodeConfigs[] entry whose nodeSelector matches the
// node's labels over the cluster fields, field by field (a map merges by key; a ratioModel entry
// is replaced as a whole).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/config/field_reader.hpp"

namespace koord::manager::sloconfig {

// The CPU normalization ratios of one CPU model.
struct ModelRatio {
  std::optional<double> baseRatio;
  std::optional<double> hyperThreadEnabledRatio;
  std::optional<double> turboEnabledRatio;
  std::optional<double> hyperThreadTurboEnabledRatio;

  bool operator==(const ModelRatio&) const = default;
};

struct CPUNormalizationStrategy {
  std::optional<bool> enable;  // false by default
  std::optional<double> defaultRatio;
  std::map<std::string, ModelRatio> ratioModel;  // CPU model name -> ratios

  bool operator==(const CPUNormalizationStrategy&) const = default;
};

struct ResourceAmplificationStrategy {
  std::optional<bool> enable;                                // false by default
  std::map<std::string, double> resourceAmplificationRatio;  // resource name -> ratio ("cpu": 1.5)

  bool operator==(const ResourceAmplificationStrategy&) const = default;
};

template <typename T>
struct FlatNodeConfig {
  std::string name;
  std::optional<api::core::LabelSelector> nodeSelector;  // absent: matches no node
  T strategy;                                            // only the fields the entry sets

  bool operator==(const FlatNodeConfig&) const = default;
};

struct CPUNormalizationConfig {
  CPUNormalizationStrategy cluster{false, std::nullopt, {}};
  std::vector<FlatNodeConfig<CPUNormalizationStrategy>> nodeConfigs;

  [[nodiscard]] CPUNormalizationStrategy forNode(const api::core::StringMap& labels) const;

  bool operator==(const CPUNormalizationConfig&) const = default;
};

struct ResourceAmplificationConfig {
  ResourceAmplificationStrategy cluster{false, {}};
  std::vector<FlatNodeConfig<ResourceAmplificationStrategy>> nodeConfigs;

  [[nodiscard]] ResourceAmplificationStrategy forNode(const api::core::StringMap& labels) const;

  bool operator==(const ResourceAmplificationConfig&) const = default;
};

// Each reads its key's document at `root` into `out`: strict fields, every error on the reader.
void readCPUNormalizationConfig(config::FieldReader& reader, const config::Field& root,
                                CPUNormalizationConfig& out);
void readResourceAmplificationConfig(config::FieldReader& reader, const config::Field& root,
                                     ResourceAmplificationConfig& out);

}  // namespace koord::manager::sloconfig
