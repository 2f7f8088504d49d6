#include "koord/api/core/meta.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::core {

constexpr auto kOwnerReferenceFields = std::tuple{
    field("apiVersion", &OwnerReference::apiVersion).always(),
    field("kind", &OwnerReference::kind).always(),
    field("name", &OwnerReference::name).always(),
    field("uid", &OwnerReference::uid).always(),
    field("controller", &OwnerReference::controller),
    field("blockOwnerDeletion", &OwnerReference::blockOwnerDeletion),
};

Status fromJson(const Json& j, OwnerReference& out, const std::string& path) {
  return decodeFields(j, out, path, kOwnerReferenceFields);
}

Json toJson(const OwnerReference& v) {
  return encodeFields(v, kOwnerReferenceFields);
}

constexpr auto kObjectMetaFields = std::tuple{
    field("name", &ObjectMeta::name),
    field("generateName", &ObjectMeta::generateName),
    field("namespace", &ObjectMeta::namespace_),
    field("uid", &ObjectMeta::uid),
    field("resourceVersion", &ObjectMeta::resourceVersion),
    field("generation", &ObjectMeta::generation).omitZero(),
    field("creationTimestamp", &ObjectMeta::creationTimestamp).nullIfEmpty(),
    field("deletionTimestamp", &ObjectMeta::deletionTimestamp),
    field("deletionGracePeriodSeconds", &ObjectMeta::deletionGracePeriodSeconds),
    field("labels", &ObjectMeta::labels),
    field("annotations", &ObjectMeta::annotations),
    field("ownerReferences", &ObjectMeta::ownerReferences),
    field("finalizers", &ObjectMeta::finalizers),
};

Status fromJson(const Json& j, ObjectMeta& out, const std::string& path) {
  return decodeFields(j, out, path, kObjectMetaFields);
}

Json toJson(const ObjectMeta& v) {
  return encodeFields(v, kObjectMetaFields);
}

constexpr auto kListMetaFields = std::tuple{
    field("resourceVersion", &ListMeta::resourceVersion),
    field("continue", &ListMeta::continue_),
    field("remainingItemCount", &ListMeta::remainingItemCount),
};

Status fromJson(const Json& j, ListMeta& out, const std::string& path) {
  return decodeFields(j, out, path, kListMetaFields);
}

Json toJson(const ListMeta& v) {
  return encodeFields(v, kListMetaFields);
}

constexpr auto kObjectReferenceFields = std::tuple{
    field("kind", &ObjectReference::kind),
    field("namespace", &ObjectReference::namespace_),
    field("name", &ObjectReference::name),
    field("uid", &ObjectReference::uid),
    field("apiVersion", &ObjectReference::apiVersion),
    field("resourceVersion", &ObjectReference::resourceVersion),
    field("fieldPath", &ObjectReference::fieldPath),
};

Status fromJson(const Json& j, ObjectReference& out, const std::string& path) {
  return decodeFields(j, out, path, kObjectReferenceFields);
}

Json toJson(const ObjectReference& v) {
  return encodeFields(v, kObjectReferenceFields);
}

constexpr auto kLabelSelectorRequirementFields = std::tuple{
    field("key", &LabelSelectorRequirement::key).always(),
    field("operator", &LabelSelectorRequirement::operator_).always(),
    field("values", &LabelSelectorRequirement::values),
};

Status fromJson(const Json& j, LabelSelectorRequirement& out, const std::string& path) {
  return decodeFields(j, out, path, kLabelSelectorRequirementFields);
}

Json toJson(const LabelSelectorRequirement& v) {
  return encodeFields(v, kLabelSelectorRequirementFields);
}

constexpr auto kLabelSelectorFields = std::tuple{
    field("matchLabels", &LabelSelector::matchLabels),
    field("matchExpressions", &LabelSelector::matchExpressions),
};

Status fromJson(const Json& j, LabelSelector& out, const std::string& path) {
  return decodeFields(j, out, path, kLabelSelectorFields);
}

Json toJson(const LabelSelector& v) {
  return encodeFields(v, kLabelSelectorFields);
}

constexpr auto kConditionFields = std::tuple{
    field("type", &Condition::type).always(),
    field("status", &Condition::status).always(),
    field("observedGeneration", &Condition::observedGeneration).omitZero(),
    field("lastTransitionTime", &Condition::lastTransitionTime).nullIfEmpty(),
    field("reason", &Condition::reason).always(),
    field("message", &Condition::message).always(),
};

Status fromJson(const Json& j, Condition& out, const std::string& path) {
  return decodeFields(j, out, path, kConditionFields);
}

Json toJson(const Condition& v) {
  return encodeFields(v, kConditionFields);
}

const OwnerReference* controllerOf(const ObjectMeta& meta) {
  for (const auto& ref : meta.ownerReferences) {
    if (ref.controller.value_or(false)) {
      return &ref;
    }
  }
  return nullptr;
}

}  // namespace koord::api::core
