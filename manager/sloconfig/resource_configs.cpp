#include "manager/sloconfig/resource_configs.hpp"

#include <cstddef>
#include <utility>

#include "manager/sloconfig/node_selection.hpp"

namespace koord::manager::sloconfig {

using config::Field;
using config::FieldReader;

namespace {

template <typename T>
void takeIfSet(std::optional<T>& base, const std::optional<T>& over) {
  if (over.has_value()) {
    base = over;
  }
}

void mergeFlat(CPUNormalizationStrategy& base, const CPUNormalizationStrategy& over) {
  takeIfSet(base.enable, over.enable);
  takeIfSet(base.defaultRatio, over.defaultRatio);
  for (const auto& [model, ratio] : over.ratioModel) {
    base.ratioModel[model] = ratio;
  }
}

void mergeFlat(ResourceAmplificationStrategy& base, const ResourceAmplificationStrategy& over) {
  takeIfSet(base.enable, over.enable);
  for (const auto& [resource, ratio] : over.resourceAmplificationRatio) {
    base.resourceAmplificationRatio[resource] = ratio;
  }
}

void readFlatStrategy(FieldReader& reader, const Field& field, CPUNormalizationStrategy& out) {
  reader.checkObject(field, {"enable", "defaultRatio", "ratioModel"});
  reader.read(field.child("enable"), out.enable);
  reader.read(field.child("defaultRatio"), out.defaultRatio);
  const Field models = field.child("ratioModel");
  if (models.absent()) {
    return;
  }
  if (!models.value->is_object()) {
    reader.error(models, std::string("expected a mapping, got ") + models.value->type_name());
    return;
  }
  for (const auto& item : models.value->items()) {
    const Field model = models.child(item.key());
    reader.checkObject(model, {"baseRatio", "hyperThreadEnabledRatio", "turboEnabledRatio",
                               "hyperThreadTurboEnabledRatio"});
    ModelRatio ratio;
    reader.read(model.child("baseRatio"), ratio.baseRatio);
    reader.read(model.child("hyperThreadEnabledRatio"), ratio.hyperThreadEnabledRatio);
    reader.read(model.child("turboEnabledRatio"), ratio.turboEnabledRatio);
    reader.read(model.child("hyperThreadTurboEnabledRatio"), ratio.hyperThreadTurboEnabledRatio);
    out.ratioModel[item.key()] = ratio;
  }
}

void readFlatStrategy(FieldReader& reader, const Field& field, ResourceAmplificationStrategy& out) {
  reader.checkObject(field, {"enable", "resourceAmplificationRatio"});
  reader.read(field.child("enable"), out.enable);
  reader.read(field.child("resourceAmplificationRatio"), out.resourceAmplificationRatio);
}

template <typename T>
void readFlat(FieldReader& reader, const Field& root, T& cluster,
              std::vector<FlatNodeConfig<T>>& nodeConfigs) {
  if (root.absent()) {
    return;
  }
  if (!root.value->is_object()) {
    reader.error(root, std::string("expected a mapping, got ") + root.value->type_name());
    return;
  }
  api::Json fields = *root.value;
  fields.erase("nodeConfigs");
  T read{};
  readFlatStrategy(reader, Field{&fields, root.path, root.pointer}, read);
  mergeFlat(cluster, read);
  const Field list = root.child("nodeConfigs");
  if (list.absent()) {
    return;
  }
  if (!list.value->is_array()) {
    reader.error(list, std::string("expected a list, got ") + list.value->type_name());
    return;
  }
  for (size_t i = 0; i < list.value->size(); ++i) {
    const Field item = list.item(i);
    if (item.absent() || !item.value->is_object()) {
      reader.error(item, "expected a mapping");
      continue;
    }
    FlatNodeConfig<T> entry;
    readNodeIdentity(reader, item, entry.name, entry.nodeSelector);
    api::Json entry_fields = *item.value;
    entry_fields.erase("name");
    entry_fields.erase("nodeSelector");
    readFlatStrategy(reader, Field{&entry_fields, item.path, item.pointer}, entry.strategy);
    nodeConfigs.push_back(std::move(entry));
  }
}

template <typename T>
T forNodeOf(const T& cluster, const std::vector<FlatNodeConfig<T>>& nodeConfigs,
            const api::core::StringMap& labels) {
  T strategy = cluster;
  for (const FlatNodeConfig<T>& entry : nodeConfigs) {
    if (selectorMatches(entry.nodeSelector, labels)) {
      mergeFlat(strategy, entry.strategy);
      break;
    }
  }
  return strategy;
}

}  // namespace

CPUNormalizationStrategy CPUNormalizationConfig::forNode(const api::core::StringMap& labels) const {
  return forNodeOf(cluster, nodeConfigs, labels);
}

ResourceAmplificationStrategy ResourceAmplificationConfig::forNode(
    const api::core::StringMap& labels) const {
  return forNodeOf(cluster, nodeConfigs, labels);
}

void readCPUNormalizationConfig(FieldReader& reader, const Field& root,
                                CPUNormalizationConfig& out) {
  readFlat(reader, root, out.cluster, out.nodeConfigs);
}

void readResourceAmplificationConfig(FieldReader& reader, const Field& root,
                                     ResourceAmplificationConfig& out) {
  readFlat(reader, root, out.cluster, out.nodeConfigs);
}

}  // namespace koord::manager::sloconfig
