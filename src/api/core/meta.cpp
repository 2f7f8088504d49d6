#include "koord/api/core/meta.hpp"

#include "encode_helpers.hpp"

namespace koord::api::core {

using internal::nonZero;
using internal::timeOrNull;

Status fromJson(const Json& j, OwnerReference& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("name", out.name)
      .field("uid", out.uid)
      .field("controller", out.controller)
      .field("blockOwnerDeletion", out.blockOwnerDeletion);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const OwnerReference& v) {
  ObjectEncoder e;
  e.always("apiVersion", v.apiVersion)
      .always("kind", v.kind)
      .always("name", v.name)
      .always("uid", v.uid)
      .field("controller", v.controller)
      .field("blockOwnerDeletion", v.blockOwnerDeletion);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ObjectMeta& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("name", out.name)
      .field("generateName", out.generateName)
      .field("namespace", out.namespace_)
      .field("uid", out.uid)
      .field("resourceVersion", out.resourceVersion)
      .field("generation", out.generation)
      .field("creationTimestamp", out.creationTimestamp)
      .field("deletionTimestamp", out.deletionTimestamp)
      .field("deletionGracePeriodSeconds", out.deletionGracePeriodSeconds)
      .field("labels", out.labels)
      .field("annotations", out.annotations)
      .field("ownerReferences", out.ownerReferences)
      .field("finalizers", out.finalizers);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ObjectMeta& v) {
  ObjectEncoder e;
  e.field("name", v.name)
      .field("generateName", v.generateName)
      .field("namespace", v.namespace_)
      .field("uid", v.uid)
      .field("resourceVersion", v.resourceVersion);
  nonZero(e, "generation", v.generation);
  timeOrNull(e, "creationTimestamp", v.creationTimestamp);
  e.field("deletionTimestamp", v.deletionTimestamp)
      .field("deletionGracePeriodSeconds", v.deletionGracePeriodSeconds)
      .field("labels", v.labels)
      .field("annotations", v.annotations)
      .field("ownerReferences", v.ownerReferences)
      .field("finalizers", v.finalizers);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ListMeta& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("resourceVersion", out.resourceVersion)
      .field("continue", out.continue_)
      .field("remainingItemCount", out.remainingItemCount);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ListMeta& v) {
  ObjectEncoder e;
  e.field("resourceVersion", v.resourceVersion)
      .field("continue", v.continue_)
      .field("remainingItemCount", v.remainingItemCount);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ObjectReference& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("kind", out.kind)
      .field("namespace", out.namespace_)
      .field("name", out.name)
      .field("uid", out.uid)
      .field("apiVersion", out.apiVersion)
      .field("resourceVersion", out.resourceVersion)
      .field("fieldPath", out.fieldPath);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const ObjectReference& v) {
  ObjectEncoder e;
  e.field("kind", v.kind)
      .field("namespace", v.namespace_)
      .field("name", v.name)
      .field("uid", v.uid)
      .field("apiVersion", v.apiVersion)
      .field("resourceVersion", v.resourceVersion)
      .field("fieldPath", v.fieldPath);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, LabelSelectorRequirement& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("key", out.key).field("operator", out.operator_).field("values", out.values);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const LabelSelectorRequirement& v) {
  ObjectEncoder e;
  e.always("key", v.key).always("operator", v.operator_).field("values", v.values);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, LabelSelector& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("matchLabels", out.matchLabels).field("matchExpressions", out.matchExpressions);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const LabelSelector& v) {
  ObjectEncoder e;
  e.field("matchLabels", v.matchLabels).field("matchExpressions", v.matchExpressions);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, Condition& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type)
      .field("status", out.status)
      .field("observedGeneration", out.observedGeneration)
      .field("lastTransitionTime", out.lastTransitionTime)
      .field("reason", out.reason)
      .field("message", out.message);
  KOORD_RETURN_IF_ERROR(d.status());
  out.extra = d.rest();
  return Status::ok();
}

Json toJson(const Condition& v) {
  ObjectEncoder e;
  e.always("type", v.type).always("status", v.status);
  nonZero(e, "observedGeneration", v.observedGeneration);
  timeOrNull(e, "lastTransitionTime", v.lastTransitionTime);
  e.always("reason", v.reason).always("message", v.message);
  return e.finish(v.extra);
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
