#include "manager/app/cluster_input.hpp"

#include <utility>

#include "koord/api/registry.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::app {
namespace {

std::string stringOf(const api::Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

template <typename T>
Status decode(const config::YamlDocument& doc, const std::string& pointer, const api::Json& object,
              T& out) {
  using api::fromJson;
  if (Status status = fromJson(object, out, ""); !status.isOk()) {
    return config::errorAt(doc, pointer, status.message());
  }
  return Status::ok();
}

}  // namespace

Status ClusterInputLoader::addFile(const std::string& path) {
  KOORD_ASSIGN_OR_RETURN(std::vector<config::YamlDocument> docs, config::loadYamlFile(path));
  for (const config::YamlDocument& doc : docs) {
    KOORD_RETURN_IF_ERROR(addDocument(doc));
  }
  return Status::ok();
}

Status ClusterInputLoader::addText(std::string_view text, std::string_view source_name) {
  KOORD_ASSIGN_OR_RETURN(std::vector<config::YamlDocument> docs,
                         config::parseYamlDocuments(text, source_name));
  for (const config::YamlDocument& doc : docs) {
    KOORD_RETURN_IF_ERROR(addDocument(doc));
  }
  return Status::ok();
}

Status ClusterInputLoader::addDocument(const config::YamlDocument& doc) {
  if (doc.value.is_null()) {
    return Status::ok();  // an empty document
  }
  if (!doc.value.is_object()) {
    return config::errorAt(doc, "", "want an object (a mapping with apiVersion and kind)");
  }
  const std::string kind = stringOf(doc.value, "kind");
  if (kind.ends_with("List")) {  // "List" and typed lists such as "NodeList"
    KOORD_RETURN_IF_ERROR(
        config::checkKnownFields(doc, "", {"apiVersion", "kind", "metadata", "items"}));
    auto items = doc.value.find("items");
    if (items == doc.value.end() || !items->is_array()) {
      return config::errorAt(doc, "", kind + ": items: want a list");
    }
    for (size_t i = 0; i < items->size(); ++i) {
      const std::string pointer = "/items/" + std::to_string(i);
      KOORD_RETURN_IF_ERROR(addObject(doc, pointer, (*items)[i]));
    }
    return Status::ok();
  }
  return addObject(doc, "", doc.value);
}

Status ClusterInputLoader::remember(const config::YamlDocument& doc, const std::string& pointer,
                                    const std::string& key) {
  const std::string here = doc.source + ":" + std::to_string(doc.lineOf(pointer));
  auto [it, inserted] = sources_.emplace(key, here);
  if (!inserted) {
    return config::errorAt(doc, pointer, key + " is defined twice (first at " + it->second + ")");
  }
  return Status::ok();
}

Status ClusterInputLoader::addObject(const config::YamlDocument& doc, const std::string& pointer,
                                     const api::Json& object) {
  if (!object.is_object()) {
    return config::errorAt(doc, pointer, "want an object (a mapping with apiVersion and kind)");
  }
  if (Status known = api::validateKnownObject(object); !known.isOk()) {
    return config::errorAt(doc, pointer, known.message());
  }
  const std::string api_version = stringOf(object, "apiVersion");
  const std::string kind = stringOf(object, "kind");
  const std::string metadata = config::jsonPointerChild(pointer, "metadata");
  const bool strict = (api_version == "v1" && (kind == "Node" || kind == "Pod")) ||
                      (api_version == api::slo::kGroupVersion && kind == api::slo::kNodeMetricKind);
  if (strict) {
    KOORD_RETURN_IF_ERROR(config::checkKnownFields(
        doc, pointer, {"apiVersion", "kind", "metadata", "spec", "status"}));
    KOORD_RETURN_IF_ERROR(config::checkKnownFields(
        doc, metadata,
        {"name", "namespace", "uid", "labels", "annotations", "ownerReferences",
         "creationTimestamp", "resourceVersion", "generation", "finalizers", "generateName",
         "deletionTimestamp", "managedFields"}));
  }
  auto meta = object.find("metadata");
  const std::string name =
      meta != object.end() && meta->is_object() ? stringOf(*meta, "name") : std::string();
  if (name.empty()) {
    return config::errorAt(doc, pointer, kind + ": metadata.name is required");
  }
  if (api_version == "v1" && kind == "Node") {
    api::core::Node node;
    KOORD_RETURN_IF_ERROR(decode(doc, pointer, object, node));
    KOORD_RETURN_IF_ERROR(remember(doc, pointer, "Node/" + name));
    input_.nodes.push_back(std::move(node));
  } else if (api_version == "v1" && kind == "Pod") {
    api::core::Pod pod;
    KOORD_RETURN_IF_ERROR(decode(doc, pointer, object, pod));
    if (pod.metadata.namespace_.empty()) {
      pod.metadata.namespace_ = "default";
    }
    KOORD_RETURN_IF_ERROR(remember(doc, pointer, "Pod/" + pod.metadata.namespace_ + "/" + name));
    if (pod.spec.nodeName.empty()) {
      ++input_.pending_pods;
    } else {
      input_.pods_by_node[pod.spec.nodeName].push_back(std::move(pod));
    }
  } else if (api_version == api::slo::kGroupVersion && kind == api::slo::kNodeMetricKind) {
    api::slo::NodeMetric metric;
    KOORD_RETURN_IF_ERROR(decode(doc, pointer, object, metric));
    KOORD_RETURN_IF_ERROR(remember(doc, pointer, "NodeMetric/" + name));
    input_.metrics.emplace(name, std::move(metric));
  } else if (api_version == api::topology::kGroupVersion &&
             kind == api::topology::kNodeResourceTopologyKind) {
    api::topology::NodeResourceTopology nrt;
    KOORD_RETURN_IF_ERROR(decode(doc, pointer, object, nrt));
    KOORD_RETURN_IF_ERROR(remember(doc, pointer, "NodeResourceTopology/" + name));
    input_.topologies.emplace(name, std::move(nrt));
  } else if (api_version == "v1" && kind == "ConfigMap") {
    api::core::ConfigMap config_map;
    KOORD_RETURN_IF_ERROR(decode(doc, pointer, object, config_map));
    if (config_map.metadata.name != sloconfig::kSloControllerConfigName ||
        config_map.metadata.namespace_ != sloconfig::kSloControllerConfigNamespace) {
      ++input_.other_kinds["ConfigMap"];
      return Status::ok();
    }
    KOORD_RETURN_IF_ERROR(remember(doc, pointer, "ConfigMap/koordinator-system/" + name));
    std::map<std::string, std::string> data(config_map.data.begin(), config_map.data.end());
    if (Result<sloconfig::SloControllerConfig> parsed = sloconfig::parseSloControllerConfig(data);
        !parsed.ok()) {
      return config::errorAt(doc, pointer, parsed.status().message());
    }
    input_.slo_config = std::move(config_map);
  } else {
    ++input_.other_kinds[kind];
  }
  return Status::ok();
}

}  // namespace koord::manager::app
