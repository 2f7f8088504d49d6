#include "manager/cert/secret_sync.hpp"

#include <optional>
#include <utility>

#include "koord/k8s/errors.hpp"
#include "manager/cert/resources.hpp"

namespace koord::manager::cert {
namespace {

std::string secretName(const SecretRef& ref) {
  return "'" + ref.ns + "/" + ref.name + "'";
}

// The bundle in `secret` when it passes; otherwise what must be renewed and why.
struct Reading {
  std::optional<CertBundle> bundle;  // parsed, whether or not it passes
  BundleCheck check;
};

Reading readBundle(const api::Json& secret, const BundleRequirements& requirements, WallTime now) {
  Result<CertBundle> bundle = bundleFromSecret(secret);
  if (!bundle.ok()) {
    return {std::nullopt, {Renewal::kAll, bundle.status().message()}};
  }
  BundleCheck check = checkBundle(*bundle, requirements, now);
  return {std::move(bundle).value(), std::move(check)};
}

Result<SecretSync> renewExisting(k8s::Client& client, const SecretRef& ref, api::Json secret,
                                 const BundleRequirements& requirements, WallTime now) {
  Reading reading = readBundle(secret, requirements, now);
  if (reading.check.renewal == Renewal::kNone) {
    return SecretSync{std::move(*reading.bundle), SecretOutcome::kReused, ""};
  }
  KOORD_ASSIGN_OR_RETURN(CertBundle renewed,
                         renewBundle(reading.bundle ? &*reading.bundle : nullptr,
                                     reading.check.renewal, requirements, now));
  bundleToSecret(renewed, secret);
  k8s::dropManagedFields(secret);
  Result<api::Json> updated = client.update(kSecrets, ref.ns, secret);
  if (updated.ok()) {
    return SecretSync{std::move(renewed), SecretOutcome::kRenewed, reading.check.reason};
  }
  if (!k8s::isConflict(updated.status())) {
    return updated.status().withPrefix("failed to update the Secret " + secretName(ref));
  }
  Result<api::Json> theirs = client.get(kSecrets, ref.ns, ref.name);
  if (!theirs.ok()) {
    return theirs.status().withPrefix("failed to read the Secret " + secretName(ref) +
                                      " after a conflict");
  }
  Reading other = readBundle(*theirs, requirements, now);
  if (other.check.renewal != Renewal::kNone) {
    return Status::conflict("failed to update the Secret " + secretName(ref) +
                            ": another replica changed it, and what it wrote does not pass (" +
                            other.check.reason + ")");
  }
  return SecretSync{std::move(*other.bundle), SecretOutcome::kOtherReplica, ""};
}

}  // namespace

const char* outcomeName(SecretOutcome outcome) {
  switch (outcome) {
    case SecretOutcome::kReused:
      return "reused";
    case SecretOutcome::kCreated:
      return "created";
    case SecretOutcome::kRenewed:
      return "renewed";
    case SecretOutcome::kOtherReplica:
      return "written by another replica";
  }
  return "unknown";
}

Result<SecretSync> ensureSecret(k8s::Client& client, const SecretRef& ref,
                                const BundleRequirements& requirements, WallTime now) {
  Result<api::Json> secret = client.get(kSecrets, ref.ns, ref.name);
  if (secret.ok()) {
    return renewExisting(client, ref, std::move(secret).value(), requirements, now);
  }
  if (!k8s::isNotFound(secret.status())) {
    return secret.status().withPrefix("failed to read the Secret " + secretName(ref));
  }
  KOORD_ASSIGN_OR_RETURN(CertBundle bundle, renewBundle(nullptr, Renewal::kAll, requirements, now));
  api::Json object = {{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", {{"name", ref.name}, {"namespace", ref.ns}}},
                      {"type", "Opaque"}};
  bundleToSecret(bundle, object);
  Result<api::Json> created = client.create(kSecrets, ref.ns, object);
  if (created.ok()) {
    return SecretSync{std::move(bundle), SecretOutcome::kCreated, ""};
  }
  if (!k8s::isAlreadyExists(created.status())) {
    return created.status().withPrefix("failed to create the Secret " + secretName(ref));
  }
  Result<api::Json> theirs = client.get(kSecrets, ref.ns, ref.name);
  if (!theirs.ok()) {
    return theirs.status().withPrefix("failed to read the Secret " + secretName(ref) +
                                      " another replica created");
  }
  KOORD_ASSIGN_OR_RETURN(SecretSync sync,
                         renewExisting(client, ref, std::move(theirs).value(), requirements, now));
  if (sync.outcome == SecretOutcome::kReused) {
    sync.outcome = SecretOutcome::kOtherReplica;
  }
  return sync;
}

}  // namespace koord::manager::cert
