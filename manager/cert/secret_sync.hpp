// ensureSecret: makes the webhook certificate Secret hold a bundle that passes checkBundle(), the
// way several koord-manager replicas can all run it at once (optimistic concurrency, the first
// writer wins).
//
//  1. GET the Secret. NotFound: make a new bundle (CA and serving certificate) and create the
//     Secret. If the create answers AlreadyExists, another replica created it first: GET it again
//     and go on with step 2 on what it wrote.
//  2. Read the bundle (cert_bundle.hpp). It passes checkBundle(): use it as it is (no write).
//  3. Otherwise renew what checkBundle() asks for (the serving certificate alone while the CA is
//     good) and PUT the Secret with the resourceVersion that was read, keeping its other fields
//     and data keys. On Conflict another replica wrote first: GET it again and use what it wrote
//     when that passes checkBundle(); when it does not, fail (kConflict) and let the next pass
//     try again.
// Any other API failure is returned as it is, prefixed with what was being done. Performs blocking
// API calls; thread-safe as the client is.
#pragma once

#include <string>

#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "manager/cert/cert_bundle.hpp"

namespace koord::manager::cert {

struct SecretRef {
  std::string ns;
  std::string name;
};

// How ensureSecret() came by the bundle it returns.
enum class SecretOutcome {
  kReused,        // the Secret held a bundle that passes
  kCreated,       // this replica created the Secret
  kRenewed,       // this replica renewed (part of) the bundle and updated the Secret
  kOtherReplica,  // another replica created or updated it in between; its bundle is used
};

[[nodiscard]] const char* outcomeName(SecretOutcome outcome);

struct SecretSync {
  CertBundle bundle;
  SecretOutcome outcome = SecretOutcome::kReused;
  std::string reason;  // kRenewed: why (checkBundle's reason)
};

[[nodiscard]] Result<SecretSync> ensureSecret(k8s::Client& client, const SecretRef& ref,
                                              const BundleRequirements& requirements, WallTime now);

}  // namespace koord::manager::cert
