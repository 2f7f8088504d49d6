// The keys of slo-controller-config shaped {"clusterStrategy": {...}, "nodeStrategies":
// [{name, nodeSelector, <strategy fields>}]} (resource-threshold-config, resource-qos-config,
// cpu-burst-config, system-config), and host-application-config ({"applications": [...],
// "nodeConfigs": [{name, nodeSelector, applications}]}).
//
// A node's strategy (forNode) is the cluster strategy (Koordinator's default merged with
// clusterStrategy) with the first nodeStrategies[] entry whose nodeSelector matches the node's
// labels merged over it field by field (merge.hpp); entries after the first match are not looked
// at.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/api/slo/resource_qos.hpp"
#include "koord/config/field_reader.hpp"
#include "manager/sloconfig/merge.hpp"
#include "manager/sloconfig/node_selection.hpp"

namespace koord::manager::sloconfig {

template <typename T>
struct NodeStrategy {
  std::string name;
  std::optional<api::core::LabelSelector> nodeSelector;  // absent: matches no node
  T strategy;                                            // only the fields the entry sets

  bool operator==(const NodeStrategy&) const = default;
};

template <typename T>
struct StrategyConfig {
  T cluster;  // Koordinator's default merged with clusterStrategy
  std::vector<NodeStrategy<T>> nodeStrategies;

  // The first entry whose selector matches `labels`, or nullptr.
  [[nodiscard]] const NodeStrategy<T>* match(const api::core::StringMap& labels) const {
    for (const NodeStrategy<T>& entry : nodeStrategies) {
      if (selectorMatches(entry.nodeSelector, labels)) {
        return &entry;
      }
    }
    return nullptr;
  }
  [[nodiscard]] T forNode(const api::core::StringMap& labels) const {
    const NodeStrategy<T>* entry = match(labels);
    return entry == nullptr ? cluster : mergeModel(cluster, entry->strategy);
  }

  bool operator==(const StrategyConfig&) const = default;
};

using ResourceThresholdConfig = StrategyConfig<api::slo::ResourceThresholdStrategy>;
using ResourceQOSConfig = StrategyConfig<api::slo::ResourceQOSStrategy>;
using CPUBurstConfig = StrategyConfig<api::slo::CPUBurstStrategy>;
using SystemConfig = StrategyConfig<api::slo::SystemStrategy>;

struct HostApplicationNodeConfig {
  std::string name;
  std::optional<api::core::LabelSelector> nodeSelector;
  std::optional<std::vector<api::slo::HostApplicationSpec>> applications;  // unset: keep cluster's

  bool operator==(const HostApplicationNodeConfig&) const = default;
};

struct HostApplicationConfig {
  std::vector<api::slo::HostApplicationSpec> applications;  // empty by default
  std::vector<HostApplicationNodeConfig> nodeConfigs;

  // The applications of the first matching nodeConfigs[] entry that sets them (the list replaces
  // the cluster's as a whole), else the cluster's.
  [[nodiscard]] std::vector<api::slo::HostApplicationSpec> forNode(
      const api::core::StringMap& labels) const;

  bool operator==(const HostApplicationConfig&) const = default;
};

// Each reads the key's document at `root` into `out`, whose `cluster` holds the default on entry;
// strict fields and every error on the reader.
void readStrategyConfig(config::FieldReader& reader, const config::Field& root,
                        ResourceThresholdConfig& out);
void readStrategyConfig(config::FieldReader& reader, const config::Field& root,
                        ResourceQOSConfig& out);
void readStrategyConfig(config::FieldReader& reader, const config::Field& root,
                        CPUBurstConfig& out);
void readStrategyConfig(config::FieldReader& reader, const config::Field& root, SystemConfig& out);
void readHostApplicationConfig(config::FieldReader& reader, const config::Field& root,
                               HostApplicationConfig& out);

}  // namespace koord::manager::sloconfig
