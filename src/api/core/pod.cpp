#include "koord/api/core/pod.hpp"

#include "encode_helpers.hpp"

namespace koord::api::core {

using internal::ifSet;
using internal::timeOrNull;
using internal::trueOnly;

Status fromJson(const Json& j, ResourceRequirements& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("limits", out.limits).field("requests", out.requests).field("claims", out.claims);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ResourceRequirements& v) {
  ObjectEncoder e;
  e.field("limits", v.limits).field("requests", v.requests).field("claims", v.claims);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Container& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("image", out.image)
      .field("resources", out.resources)
      .field("restartPolicy", out.restartPolicy);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Container& v) {
  ObjectEncoder e;
  e.always("name", v.name).field("image", v.image).always("resources", v.resources);
  ifSet(e, "restartPolicy", v.restartPolicy);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Toleration& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("key", out.key)
      .field("operator", out.operator_)
      .field("value", out.value)
      .field("effect", out.effect)
      .field("tolerationSeconds", out.tolerationSeconds);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Toleration& v) {
  ObjectEncoder e;
  e.field("key", v.key)
      .field("operator", v.operator_)
      .field("value", v.value)
      .field("effect", v.effect)
      .field("tolerationSeconds", v.tolerationSeconds);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeSelectorRequirement& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("key", out.key).field("operator", out.operator_).field("values", out.values);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeSelectorRequirement& v) {
  ObjectEncoder e;
  e.always("key", v.key).always("operator", v.operator_).field("values", v.values);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeSelectorTerm& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("matchExpressions", out.matchExpressions).field("matchFields", out.matchFields);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeSelectorTerm& v) {
  ObjectEncoder e;
  e.field("matchExpressions", v.matchExpressions).field("matchFields", v.matchFields);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeSelector& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("nodeSelectorTerms", out.nodeSelectorTerms);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeSelector& v) {
  ObjectEncoder e;
  e.always("nodeSelectorTerms", v.nodeSelectorTerms);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PreferredSchedulingTerm& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("weight", out.weight).field("preference", out.preference);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const PreferredSchedulingTerm& v) {
  ObjectEncoder e;
  e.always("weight", v.weight).always("preference", v.preference);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, NodeAffinity& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("requiredDuringSchedulingIgnoredDuringExecution", out.required)
      .field("preferredDuringSchedulingIgnoredDuringExecution", out.preferred);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const NodeAffinity& v) {
  ObjectEncoder e;
  ifSet(e, "requiredDuringSchedulingIgnoredDuringExecution", v.required);
  e.field("preferredDuringSchedulingIgnoredDuringExecution", v.preferred);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Affinity& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("nodeAffinity", out.nodeAffinity)
      .field("podAffinity", out.podAffinity)
      .field("podAntiAffinity", out.podAntiAffinity);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Affinity& v) {
  ObjectEncoder e;
  ifSet(e, "nodeAffinity", v.nodeAffinity);
  e.field("podAffinity", v.podAffinity).field("podAntiAffinity", v.podAntiAffinity);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("nodeName", out.nodeName)
      .field("schedulerName", out.schedulerName)
      .field("priority", out.priority)
      .field("priorityClassName", out.priorityClassName)
      .field("preemptionPolicy", out.preemptionPolicy)
      .field("nodeSelector", out.nodeSelector)
      .field("affinity", out.affinity)
      .field("tolerations", out.tolerations)
      .field("initContainers", out.initContainers)
      .field("containers", out.containers)
      .field("overhead", out.overhead)
      .field("resources", out.resources)
      .field("runtimeClassName", out.runtimeClassName)
      .field("hostNetwork", out.hostNetwork);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const PodSpec& v) {
  ObjectEncoder e;
  e.field("nodeName", v.nodeName)
      .field("schedulerName", v.schedulerName)
      .field("priority", v.priority)
      .field("priorityClassName", v.priorityClassName)
      .field("preemptionPolicy", v.preemptionPolicy)
      .field("nodeSelector", v.nodeSelector);
  ifSet(e, "affinity", v.affinity);
  e.field("tolerations", v.tolerations)
      .field("initContainers", v.initContainers)
      .always("containers", v.containers)
      .field("overhead", v.overhead);
  ifSet(e, "resources", v.resources);
  e.field("runtimeClassName", v.runtimeClassName);
  trueOnly(e, "hostNetwork", v.hostNetwork);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodCondition& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type)
      .field("status", out.status)
      .field("reason", out.reason)
      .field("message", out.message)
      .field("lastProbeTime", out.lastProbeTime)
      .field("lastTransitionTime", out.lastTransitionTime);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const PodCondition& v) {
  ObjectEncoder e;
  e.always("type", v.type).always("status", v.status);
  timeOrNull(e, "lastProbeTime", v.lastProbeTime);
  timeOrNull(e, "lastTransitionTime", v.lastTransitionTime);
  e.field("reason", v.reason).field("message", v.message);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("phase", out.phase)
      .field("conditions", out.conditions)
      .field("message", out.message)
      .field("reason", out.reason)
      .field("nominatedNodeName", out.nominatedNodeName)
      .field("hostIP", out.hostIP)
      .field("podIP", out.podIP)
      .field("startTime", out.startTime)
      .field("qosClass", out.qosClass)
      .field("containerStatuses", out.containerStatuses);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const PodStatus& v) {
  ObjectEncoder e;
  e.field("phase", v.phase)
      .field("conditions", v.conditions)
      .field("message", v.message)
      .field("reason", v.reason)
      .field("nominatedNodeName", v.nominatedNodeName)
      .field("hostIP", v.hostIP)
      .field("podIP", v.podIP)
      .field("startTime", v.startTime)
      .field("qosClass", v.qosClass)
      .field("containerStatuses", v.containerStatuses);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Pod& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Pod& v) {
  ObjectEncoder e;
  e.field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, PodTemplateSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("metadata", out.metadata).field("spec", out.spec);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const PodTemplateSpec& v) {
  ObjectEncoder e;
  e.always("metadata", v.metadata).always("spec", v.spec);
  return e.finish(v.extra);
}

}  // namespace koord::api::core
