#include "koord/api/scheduling/reservation.hpp"

#include "../extension/encode_util.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/extension/duration.hpp"

namespace koord::api::scheduling {
namespace {

using extension::internal::timeOrNull;
using extension::internal::trueOnly;

}  // namespace

Status fromJson(const Json& j, ReservationControllerReference& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("namespace", out.namespace_);
  KOORD_RETURN_IF_ERROR(d.status());
  KOORD_RETURN_IF_ERROR(core::fromJson(j, out.reference, path));
  if (out.reference.extra.is_object()) {
    out.reference.extra.erase("namespace");
    if (out.reference.extra.empty()) {
      out.reference.extra = nullptr;
    }
  }
  return Status::ok();
}

Json toJson(const ReservationControllerReference& v) {
  Json out = core::toJson(v.reference);
  if (!v.namespace_.empty()) {
    out["namespace"] = v.namespace_;
  }
  return out;
}

Status fromJson(const Json& j, ReservationOwner& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("object", out.object)
      .field("controller", out.controller)
      .field("labelSelector", out.labelSelector);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationOwner& v) {
  // Pointers in Go: a present but empty value is still written.
  ObjectEncoder e;
  if (v.object) {
    e.always("object", *v.object);
  }
  if (v.controller) {
    e.always("controller", *v.controller);
  }
  if (v.labelSelector) {
    e.always("labelSelector", *v.labelSelector);
  }
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ReservationPreAllocationPolicy& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("mode", out.mode).field("enableMultiple", out.enableMultiple);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationPreAllocationPolicy& v) {
  ObjectEncoder e;
  e.field("mode", v.mode);
  trueOnly(e, "enableMultiple", v.enableMultiple);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ReservationResources& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("requests", out.requests).field("limits", out.limits);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationResources& v) {
  return ObjectEncoder().field("requests", v.requests).field("limits", v.limits).finish(v.extra);
}

Status fromJson(const Json& j, ReservationSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("template", out.template_)
      .field("resources", out.resources)
      .field("owners", out.owners)
      .field("ttl", out.ttl)
      .field("expires", out.expires)
      .field("preAllocation", out.preAllocation)
      .field("preAllocationPolicy", out.preAllocationPolicy)
      .field("allocateOnce", out.allocateOnce)
      .field("allocatePolicy", out.allocatePolicy)
      .field("unschedulable", out.unschedulable)
      .field("taints", out.taints);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationSpec& v) {
  ObjectEncoder e;
  if (v.template_) {
    e.always("template", *v.template_);
  }
  if (v.resources) {
    e.always("resources", *v.resources);
  }
  // `owners` has no omitempty upstream; written when there are owners or no short form.
  if (!v.owners.empty() || !v.resources) {
    e.always("owners", v.owners.empty() ? Json(nullptr) : koord::api::toJson(v.owners));
  }
  e.field("ttl", v.ttl).field("expires", v.expires);
  trueOnly(e, "preAllocation", v.preAllocation);
  e.field("preAllocationPolicy", v.preAllocationPolicy)
      .field("allocateOnce", v.allocateOnce)
      .field("allocatePolicy", v.allocatePolicy);
  trueOnly(e, "unschedulable", v.unschedulable);
  e.field("taints", v.taints);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ReservationCondition& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("type", out.type)
      .field("status", out.status)
      .field("reason", out.reason)
      .field("message", out.message)
      .field("lastProbeTime", out.lastProbeTime)
      .field("lastTransitionTime", out.lastTransitionTime);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationCondition& v) {
  ObjectEncoder e;
  e.field("type", v.type)
      .field("status", v.status)
      .field("reason", v.reason)
      .field("message", v.message);
  timeOrNull(e, "lastProbeTime", v.lastProbeTime);
  timeOrNull(e, "lastTransitionTime", v.lastTransitionTime);
  return e.finish(v.extra);
}

Status fromJson(const Json& j, ReservationStatus& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("phase", out.phase)
      .field("conditions", out.conditions)
      .field("currentOwners", out.currentOwners)
      .field("nodeName", out.nodeName)
      .field("allocatable", out.allocatable)
      .field("allocated", out.allocated);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const ReservationStatus& v) {
  return ObjectEncoder()
      .field("phase", v.phase)
      .field("conditions", v.conditions)
      .field("currentOwners", v.currentOwners)
      .field("nodeName", v.nodeName)
      .field("allocatable", v.allocatable)
      .field("allocated", v.allocated)
      .finish(v.extra);
}

Status fromJson(const Json& j, Reservation& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("apiVersion", out.apiVersion)
      .field("kind", out.kind)
      .field("metadata", out.metadata)
      .field("spec", out.spec)
      .field("status", out.status);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const Reservation& v) {
  return ObjectEncoder()
      .field("apiVersion", v.apiVersion)
      .field("kind", v.kind)
      .always("metadata", v.metadata)
      .always("spec", v.spec)
      .always("status", v.status)
      .finish(v.extra);
}

std::optional<core::PodTemplateSpec> effectiveTemplate(const Reservation& r) {
  if (r.spec.template_) {
    return r.spec.template_;
  }
  if (!r.spec.resources) {
    return std::nullopt;
  }
  core::Container container;
  container.name = std::string(kReservationContainerName);
  container.resources.requests = r.spec.resources->requests;
  container.resources.limits = r.spec.resources->limits;
  core::PodTemplateSpec tmpl;
  tmpl.spec.containers.push_back(std::move(container));
  return tmpl;
}

void applyReservationDefaults(Reservation& r) {
  if (!r.spec.allocateOnce) {
    r.spec.allocateOnce = true;
  }
  if (!r.spec.ttl && !r.spec.expires) {
    r.spec.ttl = std::string(kReservationDefaultTTL);
  }
}

namespace {

void checkQuantities(const resource::ResourceList& list, const std::string& path,
                     std::vector<std::string>& errors) {
  for (const auto& [name, quantity] : list) {
    if (quantity.sign() < 0) {
      errors.push_back(childPath(path, name) + ": must not be negative");
    }
  }
}

}  // namespace

Status validateReservation(const Reservation& r) {
  std::vector<std::string> errors;
  const ReservationSpec& spec = r.spec;
  if (!spec.template_ && !spec.resources) {
    errors.emplace_back("spec.template: required (or the short form spec.resources)");
  }
  if (spec.template_ && spec.resources) {
    errors.emplace_back("spec.resources: must not be set together with spec.template");
  }
  if (spec.resources) {
    if (spec.resources->requests.empty()) {
      errors.emplace_back("spec.resources.requests: required");
    }
    checkQuantities(spec.resources->requests, "spec.resources.requests", errors);
    checkQuantities(spec.resources->limits, "spec.resources.limits", errors);
  }
  if (spec.owners.empty() && !spec.resources) {
    errors.emplace_back("spec.owners: required (at least one owner)");
  }
  for (size_t i = 0; i < spec.owners.size(); ++i) {
    const ReservationOwner& owner = spec.owners[i];
    if (!owner.object && !owner.controller && !owner.labelSelector) {
      errors.push_back(indexPath("spec.owners", i) +
                       ": must set at least one of object, controller, labelSelector");
    }
  }
  if (spec.ttl) {
    auto ttl = extension::parseDuration(*spec.ttl);
    if (!ttl.ok()) {
      errors.push_back("spec.ttl: " + ttl.status().message());
    } else if (ttl->count() < 0) {
      errors.emplace_back("spec.ttl: must not be negative");
    }
  }
  if (spec.expires && spec.expires->empty()) {
    errors.emplace_back("spec.expires: must not be empty");
  } else if (spec.expires) {
    if (auto at = core::parseTime(*spec.expires); !at.ok()) {
      errors.push_back("spec.expires: " + at.status().message());
    }
    // The schema defaults ttl to 24h before any webhook sees the object, so that value next to
    // expires is the default, not a second expiry.
    if (spec.ttl && *spec.ttl != kReservationDefaultTTL) {
      errors.emplace_back("spec.ttl: must not be set together with spec.expires");
    }
  }
  if (errors.empty()) {
    return Status::ok();
  }
  std::string msg = "failed to validate Reservation '" + r.metadata.name + "': ";
  for (size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) {
      msg += "; ";
    }
    msg += errors[i];
  }
  return Status::invalidArgument(std::move(msg));
}

Status validateReservationUpdate(const Reservation& old, const Reservation& updated) {
  std::vector<std::string> errors;
  const ReservationSpec& a = old.spec;
  const ReservationSpec& b = updated.spec;
  if (a.template_ != b.template_) {
    errors.emplace_back("spec.template: field is immutable");
  }
  if (a.resources != b.resources) {
    errors.emplace_back("spec.resources: field is immutable");
  }
  if (a.owners != b.owners) {
    errors.emplace_back("spec.owners: field is immutable");
  }
  if (a.allocateOnce.value_or(true) != b.allocateOnce.value_or(true)) {
    errors.emplace_back("spec.allocateOnce: field is immutable");
  }
  if (a.allocatePolicy != b.allocatePolicy) {
    errors.emplace_back("spec.allocatePolicy: field is immutable");
  }
  if (a.preAllocation != b.preAllocation) {
    errors.emplace_back("spec.preAllocation: field is immutable");
  }
  Status valid = validateReservation(updated);
  if (!valid.isOk()) {
    errors.push_back(valid.message().substr(valid.message().find(": ") + 2));
  }
  if (errors.empty()) {
    return Status::ok();
  }
  std::string msg =
      "failed to validate the update of Reservation '" + updated.metadata.name + "': ";
  for (size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) {
      msg += "; ";
    }
    msg += errors[i];
  }
  return Status::invalidArgument(std::move(msg));
}

}  // namespace koord::api::scheduling
