#include "manager/sloconfig/strategies.hpp"

#include <cstddef>
#include <string>
#include <utility>

#include "manager/sloconfig/strict_fields.hpp"

namespace koord::manager::sloconfig {

using config::Field;
using config::FieldReader;

namespace {

using CheckFields = void (*)(FieldReader&, const Field&);

// True when `field` is a mapping; otherwise records "expected a mapping".
bool expectMapping(FieldReader& reader, const Field& field) {
  if (field.value->is_object()) {
    return true;
  }
  reader.error(field, std::string("expected a mapping, got ") + field.value->type_name());
  return false;
}

// The strategy at `field` (checked by `check`) merged over `out`; `out` is unchanged when the
// strategy has an error.
template <typename T>
void readStrategy(FieldReader& reader, const Field& field, CheckFields check, T& out) {
  if (field.absent()) {
    return;
  }
  if (!expectMapping(reader, field)) {
    return;
  }
  const size_t before = reader.errors().size();
  check(reader, field);
  T strategy{};
  reader.read(field, strategy);
  if (reader.errors().size() == before) {
    out = mergeModel(out, strategy);
  }
}

template <typename T>
void readConfig(FieldReader& reader, const Field& root, CheckFields check, StrategyConfig<T>& out) {
  if (!reader.checkObject(root, {"clusterStrategy", "nodeStrategies"}) || root.absent()) {
    return;
  }
  readStrategy(reader, root.child("clusterStrategy"), check, out.cluster);
  const Field list = root.child("nodeStrategies");
  if (list.absent()) {
    return;
  }
  if (!list.value->is_array()) {
    reader.error(list, std::string("expected a list, got ") + list.value->type_name());
    return;
  }
  for (size_t i = 0; i < list.value->size(); ++i) {
    const Field item = list.item(i);
    if (item.absent() || !expectMapping(reader, item)) {
      continue;
    }
    NodeStrategy<T> entry;
    readNodeIdentity(reader, item, entry.name, entry.nodeSelector);
    // The strategy fields are the entry without name and nodeSelector (same pointer: same lines).
    api::Json fields = *item.value;
    fields.erase("name");
    fields.erase("nodeSelector");
    readStrategy(reader, Field{&fields, item.path, item.pointer}, check, entry.strategy);
    out.nodeStrategies.push_back(std::move(entry));
  }
}

void readApplications(FieldReader& reader, const Field& field,
                      std::optional<std::vector<api::slo::HostApplicationSpec>>& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_array()) {
    reader.error(field, std::string("expected a list, got ") + field.value->type_name());
    return;
  }
  std::vector<api::slo::HostApplicationSpec> apps;
  for (size_t i = 0; i < field.value->size(); ++i) {
    const Field item = field.item(i);
    checkHostApplicationFields(reader, item);
    api::slo::HostApplicationSpec app;
    reader.read(item, app);
    if (app.name.empty() && !item.absent()) {
      reader.error(item.child("name"), "Required value");
    }
    apps.push_back(std::move(app));
  }
  out = std::move(apps);
}

}  // namespace

void readStrategyConfig(FieldReader& reader, const Field& root, ResourceThresholdConfig& out) {
  readConfig(reader, root, &checkResourceThresholdFields, out);
}

void readStrategyConfig(FieldReader& reader, const Field& root, ResourceQOSConfig& out) {
  readConfig(reader, root, &checkResourceQOSFields, out);
}

void readStrategyConfig(FieldReader& reader, const Field& root, CPUBurstConfig& out) {
  readConfig(reader, root, &checkCPUBurstFields, out);
}

void readStrategyConfig(FieldReader& reader, const Field& root, SystemConfig& out) {
  readConfig(reader, root, &checkSystemFields, out);
}

std::vector<api::slo::HostApplicationSpec> HostApplicationConfig::forNode(
    const api::core::StringMap& labels) const {
  for (const HostApplicationNodeConfig& entry : nodeConfigs) {
    if (selectorMatches(entry.nodeSelector, labels)) {
      return entry.applications.has_value() ? *entry.applications : applications;
    }
  }
  return applications;
}

void readHostApplicationConfig(FieldReader& reader, const Field& root, HostApplicationConfig& out) {
  if (!reader.checkObject(root, {"applications", "nodeConfigs"}) || root.absent()) {
    return;
  }
  std::optional<std::vector<api::slo::HostApplicationSpec>> apps;
  readApplications(reader, root.child("applications"), apps);
  if (apps.has_value()) {
    out.applications = std::move(*apps);
  }
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
    if (item.absent() || !expectMapping(reader, item)) {
      continue;
    }
    reader.checkObject(item, {"name", "nodeSelector", "applications"});
    HostApplicationNodeConfig entry;
    readNodeIdentity(reader, item, entry.name, entry.nodeSelector);
    readApplications(reader, item.child("applications"), entry.applications);
    out.nodeConfigs.push_back(std::move(entry));
  }
}

}  // namespace koord::manager::sloconfig
