#include "koord/api/core/pod.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::core {

constexpr auto kResourceRequirementsFields = std::tuple{
    field("limits", &ResourceRequirements::limits),
    field("requests", &ResourceRequirements::requests),
    field("claims", &ResourceRequirements::claims),
};

Status fromJson(const Json& j, ResourceRequirements& out, const std::string& path) {
  return decodeFields(j, out, path, kResourceRequirementsFields);
}

Json toJson(const ResourceRequirements& v) {
  return encodeFields(v, kResourceRequirementsFields);
}

constexpr auto kContainerFields = std::tuple{
    field("name", &Container::name).always(),
    field("image", &Container::image),
    field("resources", &Container::resources).always(),
    field("restartPolicy", &Container::restartPolicy).ifSet(),
};

Status fromJson(const Json& j, Container& out, const std::string& path) {
  return decodeFields(j, out, path, kContainerFields);
}

Json toJson(const Container& v) {
  return encodeFields(v, kContainerFields);
}

constexpr auto kTolerationFields = std::tuple{
    field("key", &Toleration::key),
    field("operator", &Toleration::operator_),
    field("value", &Toleration::value),
    field("effect", &Toleration::effect),
    field("tolerationSeconds", &Toleration::tolerationSeconds),
};

Status fromJson(const Json& j, Toleration& out, const std::string& path) {
  return decodeFields(j, out, path, kTolerationFields);
}

Json toJson(const Toleration& v) {
  return encodeFields(v, kTolerationFields);
}

constexpr auto kNodeSelectorRequirementFields = std::tuple{
    field("key", &NodeSelectorRequirement::key).always(),
    field("operator", &NodeSelectorRequirement::operator_).always(),
    field("values", &NodeSelectorRequirement::values),
};

Status fromJson(const Json& j, NodeSelectorRequirement& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSelectorRequirementFields);
}

Json toJson(const NodeSelectorRequirement& v) {
  return encodeFields(v, kNodeSelectorRequirementFields);
}

constexpr auto kNodeSelectorTermFields = std::tuple{
    field("matchExpressions", &NodeSelectorTerm::matchExpressions),
    field("matchFields", &NodeSelectorTerm::matchFields),
};

Status fromJson(const Json& j, NodeSelectorTerm& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSelectorTermFields);
}

Json toJson(const NodeSelectorTerm& v) {
  return encodeFields(v, kNodeSelectorTermFields);
}

constexpr auto kNodeSelectorFields = std::tuple{
    field("nodeSelectorTerms", &NodeSelector::nodeSelectorTerms).always(),
};

Status fromJson(const Json& j, NodeSelector& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeSelectorFields);
}

Json toJson(const NodeSelector& v) {
  return encodeFields(v, kNodeSelectorFields);
}

constexpr auto kPreferredSchedulingTermFields = std::tuple{
    field("weight", &PreferredSchedulingTerm::weight).always(),
    field("preference", &PreferredSchedulingTerm::preference).always(),
};

Status fromJson(const Json& j, PreferredSchedulingTerm& out, const std::string& path) {
  return decodeFields(j, out, path, kPreferredSchedulingTermFields);
}

Json toJson(const PreferredSchedulingTerm& v) {
  return encodeFields(v, kPreferredSchedulingTermFields);
}

constexpr auto kNodeAffinityFields = std::tuple{
    field("requiredDuringSchedulingIgnoredDuringExecution", &NodeAffinity::required).ifSet(),
    field("preferredDuringSchedulingIgnoredDuringExecution", &NodeAffinity::preferred),
};

Status fromJson(const Json& j, NodeAffinity& out, const std::string& path) {
  return decodeFields(j, out, path, kNodeAffinityFields);
}

Json toJson(const NodeAffinity& v) {
  return encodeFields(v, kNodeAffinityFields);
}

constexpr auto kAffinityFields = std::tuple{
    field("nodeAffinity", &Affinity::nodeAffinity).ifSet(),
    field("podAffinity", &Affinity::podAffinity),
    field("podAntiAffinity", &Affinity::podAntiAffinity),
};

Status fromJson(const Json& j, Affinity& out, const std::string& path) {
  return decodeFields(j, out, path, kAffinityFields);
}

Json toJson(const Affinity& v) {
  return encodeFields(v, kAffinityFields);
}

constexpr auto kPodSpecFields = std::tuple{
    field("nodeName", &PodSpec::nodeName),
    field("schedulerName", &PodSpec::schedulerName),
    field("priority", &PodSpec::priority),
    field("priorityClassName", &PodSpec::priorityClassName),
    field("preemptionPolicy", &PodSpec::preemptionPolicy),
    field("nodeSelector", &PodSpec::nodeSelector),
    field("affinity", &PodSpec::affinity).ifSet(),
    field("tolerations", &PodSpec::tolerations),
    field("initContainers", &PodSpec::initContainers),
    field("containers", &PodSpec::containers).always(),
    field("overhead", &PodSpec::overhead),
    field("resources", &PodSpec::resources).ifSet(),
    field("runtimeClassName", &PodSpec::runtimeClassName),
    field("hostNetwork", &PodSpec::hostNetwork).omitZero(),
};

Status fromJson(const Json& j, PodSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kPodSpecFields);
}

Json toJson(const PodSpec& v) {
  return encodeFields(v, kPodSpecFields);
}

constexpr auto kPodConditionFields = std::tuple{
    field("type", &PodCondition::type).always(),
    field("status", &PodCondition::status).always(),
    field("reason", &PodCondition::reason),
    field("message", &PodCondition::message),
    field("lastProbeTime", &PodCondition::lastProbeTime).nullIfEmpty(),
    field("lastTransitionTime", &PodCondition::lastTransitionTime).nullIfEmpty(),
};

Status fromJson(const Json& j, PodCondition& out, const std::string& path) {
  return decodeFields(j, out, path, kPodConditionFields);
}

Json toJson(const PodCondition& v) {
  return encodeFields(v, kPodConditionFields);
}

constexpr auto kPodStatusFields = std::tuple{
    field("phase", &PodStatus::phase),
    field("conditions", &PodStatus::conditions),
    field("message", &PodStatus::message),
    field("reason", &PodStatus::reason),
    field("nominatedNodeName", &PodStatus::nominatedNodeName),
    field("hostIP", &PodStatus::hostIP),
    field("podIP", &PodStatus::podIP),
    field("startTime", &PodStatus::startTime),
    field("qosClass", &PodStatus::qosClass),
    field("containerStatuses", &PodStatus::containerStatuses),
};

Status fromJson(const Json& j, PodStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kPodStatusFields);
}

Json toJson(const PodStatus& v) {
  return encodeFields(v, kPodStatusFields);
}

constexpr auto kPodFields = std::tuple{
    field("apiVersion", &Pod::apiVersion),      field("kind", &Pod::kind),
    field("metadata", &Pod::metadata).always(), field("spec", &Pod::spec).always(),
    field("status", &Pod::status).always(),
};

Status fromJson(const Json& j, Pod& out, const std::string& path) {
  return decodeFields(j, out, path, kPodFields);
}

Json toJson(const Pod& v) {
  return encodeFields(v, kPodFields);
}

constexpr auto kPodTemplateSpecFields = std::tuple{
    field("metadata", &PodTemplateSpec::metadata).always(),
    field("spec", &PodTemplateSpec::spec).always(),
};

Status fromJson(const Json& j, PodTemplateSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kPodTemplateSpecFields);
}

Json toJson(const PodTemplateSpec& v) {
  return encodeFields(v, kPodTemplateSpecFields);
}

}  // namespace koord::api::core
