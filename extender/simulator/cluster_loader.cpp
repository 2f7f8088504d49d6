#include "extender/simulator/cluster_loader.hpp"

#include <initializer_list>
#include <utility>

#include "extender/objects/kind_sources.hpp"
#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/registry.hpp"

namespace koord::extender::simulator {

namespace {

using api::Json;
using config::YamlDocument;

const std::initializer_list<std::string_view> kTopFields = {"apiVersion", "kind", "metadata",
                                                            "spec", "status"};
const std::initializer_list<std::string_view> kMetadataFields = {"name",
                                                                 "generateName",
                                                                 "namespace",
                                                                 "selfLink",
                                                                 "uid",
                                                                 "resourceVersion",
                                                                 "generation",
                                                                 "creationTimestamp",
                                                                 "deletionTimestamp",
                                                                 "deletionGracePeriodSeconds",
                                                                 "labels",
                                                                 "annotations",
                                                                 "ownerReferences",
                                                                 "finalizers",
                                                                 "managedFields"};
const std::initializer_list<std::string_view> kPodSpecFields = {"volumes",
                                                                "initContainers",
                                                                "containers",
                                                                "ephemeralContainers",
                                                                "restartPolicy",
                                                                "terminationGracePeriodSeconds",
                                                                "activeDeadlineSeconds",
                                                                "dnsPolicy",
                                                                "nodeSelector",
                                                                "serviceAccountName",
                                                                "serviceAccount",
                                                                "automountServiceAccountToken",
                                                                "nodeName",
                                                                "hostNetwork",
                                                                "hostPID",
                                                                "hostIPC",
                                                                "shareProcessNamespace",
                                                                "securityContext",
                                                                "imagePullSecrets",
                                                                "hostname",
                                                                "subdomain",
                                                                "affinity",
                                                                "schedulerName",
                                                                "tolerations",
                                                                "hostAliases",
                                                                "priorityClassName",
                                                                "priority",
                                                                "dnsConfig",
                                                                "readinessGates",
                                                                "runtimeClassName",
                                                                "enableServiceLinks",
                                                                "preemptionPolicy",
                                                                "overhead",
                                                                "topologySpreadConstraints",
                                                                "setHostnameAsFQDN",
                                                                "os",
                                                                "hostUsers",
                                                                "schedulingGates",
                                                                "resourceClaims",
                                                                "resources"};
const std::initializer_list<std::string_view> kContainerFields = {"name",
                                                                  "image",
                                                                  "command",
                                                                  "args",
                                                                  "workingDir",
                                                                  "ports",
                                                                  "envFrom",
                                                                  "env",
                                                                  "resources",
                                                                  "resizePolicy",
                                                                  "restartPolicy",
                                                                  "volumeMounts",
                                                                  "volumeDevices",
                                                                  "livenessProbe",
                                                                  "readinessProbe",
                                                                  "startupProbe",
                                                                  "lifecycle",
                                                                  "terminationMessagePath",
                                                                  "terminationMessagePolicy",
                                                                  "imagePullPolicy",
                                                                  "securityContext",
                                                                  "stdin",
                                                                  "stdinOnce",
                                                                  "tty"};
const std::initializer_list<std::string_view> kResourcesFields = {"limits", "requests", "claims"};
const std::initializer_list<std::string_view> kNodeSpecFields = {
    "podCIDR", "podCIDRs", "providerID", "unschedulable", "taints", "configSource", "externalID"};
const std::initializer_list<std::string_view> kNodeStatusFields = {
    "capacity",        "allocatable",     "phase",   "conditions",   "addresses",
    "daemonEndpoints", "nodeInfo",        "images",  "volumesInUse", "volumesAttached",
    "config",          "runtimeHandlers", "features"};

std::string location(const YamlDocument& doc, const std::string& pointer) {
  return doc.source + ":" + std::to_string(doc.lineOf(pointer));
}

// The JSON pointer of the deepest node that a decoder's field path ("spec.containers[0].name")
// reaches inside `root` (keys may contain dots, so the longest matching key wins).
std::string pointerForPath(const Json& root, std::string_view path, std::string pointer) {
  const Json* cur = &root;
  size_t pos = 0;
  while (pos < path.size()) {
    if (path[pos] == '.') {
      ++pos;
      continue;
    }
    if (path[pos] == '[') {
      const size_t close = path.find(']', pos);
      if (close == std::string_view::npos || !cur->is_array()) {
        break;
      }
      size_t index = 0;
      for (size_t i = pos + 1; i < close; ++i) {
        index = index * 10 + static_cast<size_t>(path[i] - '0');
      }
      if (index >= cur->size()) {
        break;
      }
      pointer += "/" + std::to_string(index);
      cur = &(*cur)[index];
      pos = close + 1;
      continue;
    }
    if (!cur->is_object()) {
      break;
    }
    std::string best;
    for (auto it = cur->begin(); it != cur->end(); ++it) {
      const std::string& key = it.key();
      const size_t end = pos + key.size();
      if (key.size() > best.size() && path.compare(pos, key.size(), key) == 0 &&
          (end == path.size() || path[end] == '.' || path[end] == '[')) {
        best = key;
      }
    }
    if (best.empty()) {
      break;
    }
    pointer = config::jsonPointerChild(pointer, best);
    cur = &(*cur)[best];
    pos += best.size();
  }
  return pointer;
}

// A decode error ("<field path>: <cause>") placed on its line.
Status decodeError(const YamlDocument& doc, const std::string& pointer, const Json& object,
                   const std::string& what, const Status& cause) {
  const std::string& message = cause.message();
  const size_t colon = message.find(": ");
  std::string at = pointer;
  if (colon != std::string::npos) {
    at = pointerForPath(object, std::string_view(message).substr(0, colon), pointer);
  }
  return config::errorAt(doc, at, "failed to decode " + what + ": " + message);
}

Status checkContainers(const YamlDocument& doc, const std::string& spec_pointer, const Json& spec,
                       std::string_view field) {
  auto it = spec.find(field);
  if (it == spec.end() || !it->is_array()) {
    return Status::ok();
  }
  const std::string list = config::jsonPointerChild(spec_pointer, field);
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string item = list + "/" + std::to_string(i);
    KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, item, kContainerFields));
    KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, config::jsonPointerChild(item, "resources"),
                                                   kResourcesFields));
  }
  return Status::ok();
}

std::string objectName(const Json& object) {
  const Json* meta =
      object.is_object() && object.contains("metadata") ? &object["metadata"] : nullptr;
  return meta != nullptr ? api::stringOr(*meta, "name") : "";
}

}  // namespace

Status ClusterLoader::addFile(const std::string& path) {
  KOORD_ASSIGN_OR_RETURN(std::vector<YamlDocument> docs, config::loadYamlFile(path));
  for (const auto& doc : docs) {
    KOORD_RETURN_IF_ERROR(addDocument(doc));
  }
  return Status::ok();
}

Status ClusterLoader::addText(std::string_view text, std::string_view source_name) {
  KOORD_ASSIGN_OR_RETURN(std::vector<YamlDocument> docs,
                         config::parseYamlDocuments(text, source_name));
  for (const auto& doc : docs) {
    KOORD_RETURN_IF_ERROR(addDocument(doc));
  }
  return Status::ok();
}

Status ClusterLoader::addDocument(const YamlDocument& doc) {
  return addObject(doc, "", doc.value);
}

Status ClusterLoader::addObject(const YamlDocument& doc, const std::string& pointer,
                                const Json& object) {
  if (!object.is_object()) {
    return config::errorAt(doc, pointer,
                           "expected an object, got " + std::string(api::jsonTypeName(object)));
  }
  const std::string api_version = api::stringOr(object, "apiVersion");
  const std::string kind = api::stringOr(object, "kind");
  if (api_version.empty() || kind.empty()) {
    return config::errorAt(doc, pointer, "object has no apiVersion or kind");
  }
  const bool generic_list = kind == "List";
  const bool core_list = api_version == "v1" && (kind == "PodList" || kind == "NodeList");
  if (generic_list || core_list) {
    KOORD_RETURN_IF_ERROR(
        config::checkKnownFields(doc, pointer, {"apiVersion", "kind", "metadata", "items"}));
    auto items = object.find("items");
    if (items == object.end() || items->is_null()) {
      return Status::ok();
    }
    if (!items->is_array()) {
      return config::errorAt(doc, config::jsonPointerChild(pointer, "items"), "expected an array");
    }
    for (size_t i = 0; i < items->size(); ++i) {
      Json item = (*items)[i];
      if (core_list && item.is_object()) {
        if (!item.contains("apiVersion"))
          item["apiVersion"] = "v1";
        if (!item.contains("kind"))
          item["kind"] = kind.substr(0, kind.size() - 4);
      }
      KOORD_RETURN_IF_ERROR(addObject(doc, pointer + "/items/" + std::to_string(i), item));
    }
    return Status::ok();
  }
  if (api_version == "v1" && kind == "Pod") {
    return addPod(doc, pointer, object);
  }
  if (api_version == "v1" && kind == "Node") {
    return addNode(doc, pointer, object);
  }
  Status status = api::validateKnownObject(object);
  if (!status.isOk()) {
    return config::errorAt(doc, pointer, status.message());
  }
  if (kind == api::scheduling::kReservationKind &&
      api_version.rfind(std::string(api::scheduling::kGroup) + "/", 0) == 0) {
    return addReservation(doc, pointer, object);
  }
  if (std::optional<objects::KindSource> source = objects::findKindSource(kind)) {
    auto decoded = source->decode(object);
    if (!decoded.ok())
      return decodeError(doc, pointer, object, kind + " '" + objectName(object) + "'",
                         decoded.status());
    input_.objects[kind].push_back(std::move(*decoded));
  }
  input_.other_kinds[kind]++;
  return Status::ok();
}

Status ClusterLoader::remember(const YamlDocument& doc, const std::string& pointer,
                               std::string key) {
  auto [it, inserted] = input_.sources.emplace(std::move(key), location(doc, pointer));
  if (!inserted) {
    return config::errorAt(doc, pointer,
                           it->first + " is defined twice (first at " + it->second + ")");
  }
  return Status::ok();
}

Status ClusterLoader::addPod(const YamlDocument& doc, const std::string& pointer,
                             const Json& object) {
  KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, pointer, kTopFields));
  KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, config::jsonPointerChild(pointer, "metadata"),
                                                 kMetadataFields));
  const std::string spec_pointer = config::jsonPointerChild(pointer, "spec");
  KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, spec_pointer, kPodSpecFields));
  if (auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
    KOORD_RETURN_IF_ERROR(checkContainers(doc, spec_pointer, *spec, "containers"));
    KOORD_RETURN_IF_ERROR(checkContainers(doc, spec_pointer, *spec, "initContainers"));
  }
  auto pod = std::make_shared<api::core::Pod>();
  Status status = api::core::fromJson(object, *pod, "");
  if (!status.isOk()) {
    return decodeError(doc, pointer, object, "Pod '" + objectName(object) + "'", status);
  }
  if (pod->metadata.name.empty()) {
    return config::errorAt(doc, pointer, "Pod has no metadata.name");
  }
  // kube-apiserver refuses negative requests and limits; so does the simulator.
  if (Status valid = api::core::checkNonNegativeResources(*pod); !valid.isOk()) {
    return decodeError(doc, pointer, object, "Pod '" + pod->metadata.name + "'", valid);
  }
  if (pod->metadata.namespace_.empty()) {
    pod->metadata.namespace_ = "default";
  }
  KOORD_RETURN_IF_ERROR(
      remember(doc, pointer, "Pod/" + pod->metadata.namespace_ + "/" + pod->metadata.name));
  input_.pods.push_back(std::move(pod));
  return Status::ok();
}

Status ClusterLoader::addNode(const YamlDocument& doc, const std::string& pointer,
                              const Json& object) {
  KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, pointer, kTopFields));
  KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, config::jsonPointerChild(pointer, "metadata"),
                                                 kMetadataFields));
  KOORD_RETURN_IF_ERROR(
      config::checkKnownFields(doc, config::jsonPointerChild(pointer, "spec"), kNodeSpecFields));
  KOORD_RETURN_IF_ERROR(config::checkKnownFields(doc, config::jsonPointerChild(pointer, "status"),
                                                 kNodeStatusFields));
  auto node = std::make_shared<api::core::Node>();
  Status status = api::core::fromJson(object, *node, "");
  if (!status.isOk()) {
    return decodeError(doc, pointer, object, "Node '" + objectName(object) + "'", status);
  }
  if (node->metadata.name.empty()) {
    return config::errorAt(doc, pointer, "Node has no metadata.name");
  }
  // As kube-apiserver: a node's capacity and allocatable are never negative.
  for (const auto& [field, list] : {std::pair{"capacity", &node->status.capacity},
                                    std::pair{"allocatable", &node->status.allocatable}}) {
    for (const auto& [name, quantity] : *list) {
      if (quantity.sign() < 0) {
        const std::string path = std::string("status.") + field;
        return decodeError(doc, pointer, object, "Node '" + node->metadata.name + "'",
                           Status::invalidArgument(path + "[" + name + "]: Invalid value: \"" +
                                                   quantity.toString() +
                                                   "\": must be greater than or equal to 0"));
      }
    }
  }
  KOORD_RETURN_IF_ERROR(remember(doc, pointer, "Node/" + node->metadata.name));
  input_.nodes.push_back(std::move(node));
  return Status::ok();
}

Status ClusterLoader::addReservation(const YamlDocument& doc, const std::string& pointer,
                                     const Json& object) {
  auto r = std::make_shared<api::scheduling::Reservation>();
  Status status = api::scheduling::fromJson(object, *r, "");
  if (!status.isOk()) {
    return decodeError(doc, pointer, object, "Reservation '" + objectName(object) + "'", status);
  }
  if (r->metadata.name.empty()) {
    return config::errorAt(doc, pointer, "Reservation has no metadata.name");
  }
  api::scheduling::applyReservationDefaults(*r);
  KOORD_RETURN_IF_ERROR(remember(doc, pointer, "Reservation/" + r->metadata.name));
  if (r->metadata.uid.empty()) {
    r->metadata.uid = "simulated-" + r->metadata.name;  // pods name their reservation by UID
  }
  input_.reservations.push_back(std::move(r));
  return Status::ok();
}

}  // namespace koord::extender::simulator
