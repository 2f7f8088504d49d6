#include "koord/api/scheduling/reservation.hpp"

#include "koord/api/core/time.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/fields.hpp"

namespace koord::api::scheduling {

// The fields next to the embedded (inlined) metav1.OwnerReference.
constexpr auto kReservationControllerReferenceFields = std::tuple{
    field("namespace", &ReservationControllerReference::namespace_),
};

Status fromJson(const Json& j, ReservationControllerReference& out, const std::string& path) {
  ObjectDecoder d(j, path);
  readFields(d, out, kReservationControllerReferenceFields);
  KOORD_RETURN_IF_ERROR(d.status());
  // Hand-written: the embedded OwnerReference reads the same object; the keys of this list are
  // not unknown to it.
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
  ObjectEncoder e;
  writeFields(e, v, kReservationControllerReferenceFields);
  // Hand-written: the embedded OwnerReference's keys (its extra included) are merged in; the
  // fields of this list win a clash.
  return e.finish(core::toJson(v.reference));
}

constexpr auto kReservationOwnerFields = std::tuple{
    field("object", &ReservationOwner::object).ifSet(),
    field("controller", &ReservationOwner::controller).ifSet(),
    field("labelSelector", &ReservationOwner::labelSelector).ifSet(),
};

Status fromJson(const Json& j, ReservationOwner& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationOwnerFields);
}

Json toJson(const ReservationOwner& v) {
  return encodeFields(v, kReservationOwnerFields);
}

constexpr auto kReservationPreAllocationPolicyFields = std::tuple{
    field("mode", &ReservationPreAllocationPolicy::mode),
    field("enableMultiple", &ReservationPreAllocationPolicy::enableMultiple).omitZero(),
};

Status fromJson(const Json& j, ReservationPreAllocationPolicy& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationPreAllocationPolicyFields);
}

Json toJson(const ReservationPreAllocationPolicy& v) {
  return encodeFields(v, kReservationPreAllocationPolicyFields);
}

constexpr auto kReservationResourcesFields = std::tuple{
    field("requests", &ReservationResources::requests),
    field("limits", &ReservationResources::limits),
};

Status fromJson(const Json& j, ReservationResources& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationResourcesFields);
}

Json toJson(const ReservationResources& v) {
  return encodeFields(v, kReservationResourcesFields);
}

constexpr auto kReservationSpecFields = std::tuple{
    field("template", &ReservationSpec::template_).ifSet(),
    field("resources", &ReservationSpec::resources).ifSet(),
    // Written by hand below: it depends on `resources`.
    field("owners", &ReservationSpec::owners).decodeOnly(),
    field("ttl", &ReservationSpec::ttl),
    field("expires", &ReservationSpec::expires),
    field("preAllocation", &ReservationSpec::preAllocation).omitZero(),
    field("preAllocationPolicy", &ReservationSpec::preAllocationPolicy),
    field("allocateOnce", &ReservationSpec::allocateOnce),
    field("allocatePolicy", &ReservationSpec::allocatePolicy),
    field("unschedulable", &ReservationSpec::unschedulable).omitZero(),
    field("taints", &ReservationSpec::taints),
};

Status fromJson(const Json& j, ReservationSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationSpecFields);
}

Json toJson(const ReservationSpec& v) {
  ObjectEncoder e;
  writeFields(e, v, kReservationSpecFields);
  // Hand-written: `owners` has no omitempty upstream (null when empty), but the short form
  // (`resources` set) leaves it out when there are no owners.
  if (!v.owners.empty() || !v.resources) {
    e.always("owners", v.owners.empty() ? Json(nullptr) : koord::api::toJson(v.owners));
  }
  return e.finish(v.extra);
}

constexpr auto kReservationConditionFields = std::tuple{
    field("type", &ReservationCondition::type),
    field("status", &ReservationCondition::status),
    field("reason", &ReservationCondition::reason),
    field("message", &ReservationCondition::message),
    field("lastProbeTime", &ReservationCondition::lastProbeTime).nullIfEmpty(),
    field("lastTransitionTime", &ReservationCondition::lastTransitionTime).nullIfEmpty(),
};

Status fromJson(const Json& j, ReservationCondition& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationConditionFields);
}

Json toJson(const ReservationCondition& v) {
  return encodeFields(v, kReservationConditionFields);
}

constexpr auto kReservationStatusFields = std::tuple{
    field("phase", &ReservationStatus::phase),
    field("conditions", &ReservationStatus::conditions),
    field("currentOwners", &ReservationStatus::currentOwners),
    field("nodeName", &ReservationStatus::nodeName),
    field("allocatable", &ReservationStatus::allocatable),
    field("allocated", &ReservationStatus::allocated),
};

Status fromJson(const Json& j, ReservationStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationStatusFields);
}

Json toJson(const ReservationStatus& v) {
  return encodeFields(v, kReservationStatusFields);
}

constexpr auto kReservationFields = std::tuple{
    field("apiVersion", &Reservation::apiVersion),      field("kind", &Reservation::kind),
    field("metadata", &Reservation::metadata).always(), field("spec", &Reservation::spec).always(),
    field("status", &Reservation::status).always(),
};

Status fromJson(const Json& j, Reservation& out, const std::string& path) {
  return decodeFields(j, out, path, kReservationFields);
}

Json toJson(const Reservation& v) {
  return encodeFields(v, kReservationFields);
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
