// CertBundle: the CA and the serving certificate koord-manager's webhooks use, as they are kept in
// the Secret (Koordinator's keys, pkg/webhook/util/writer/certwriter.go), and the rules that decide
// whether a bundle can still be served or must be renewed.
//
// The Secret (type Opaque) holds six data keys, written as Koordinator writes them:
//   ca-cert.pem, ca-key.pem      the CA certificate and key
//   cert.pem, tls.crt            the serving certificate (the same bytes twice)
//   key.pem, tls.key             the serving key (the same bytes twice)
// and is read from ca-cert.pem, ca-key.pem, cert.pem (else tls.crt) and key.pem (else tls.key),
// so that a Secret written by Koordinator, or made by hand with those keys, is used as it is.
//
// checkBundle() says what must be renewed, at wall time `now`:
//  - everything (kAll) when the CA does not parse, is not a CA, does not match its key, is not
//    valid yet, or expires within `renew_before`;
//  - the serving certificate alone (kServing, keeping the CA, so the caBundle does not change)
//    when it does not parse, does not match its key, was not issued by the CA, is not valid yet,
//    lacks one of the required alt names, or expires within `renew_before`;
//  - nothing (kNone) otherwise.
// The reason names the first rule that failed. Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"
#include "manager/cert/certificates.hpp"

namespace koord::manager::cert {

inline constexpr char kCaCertKey[] = "ca-cert.pem";
inline constexpr char kCaKeyKey[] = "ca-key.pem";
inline constexpr char kServingCertKey[] = "cert.pem";
inline constexpr char kServingKeyKey[] = "key.pem";
inline constexpr char kTlsCertKey[] = "tls.crt";
inline constexpr char kTlsKeyKey[] = "tls.key";

struct CertBundle {
  KeyPair ca;
  KeyPair serving;
  bool operator==(const CertBundle&) const = default;
};

// What a served bundle must satisfy.
struct BundleRequirements {
  // Every name the serving certificate must carry (DNS names compared case-insensitively, IP
  // addresses as parsed); it is made with exactly these.
  std::vector<std::string> alt_names;
  // The common name of a new serving certificate (Koordinator: "<service>.<namespace>.svc").
  std::string common_name;
  // The common name of a new CA.
  std::string ca_common_name = "webhook-cert-ca";
  // A certificate that expires within this is renewed.
  std::chrono::seconds renew_before{std::chrono::hours(24 * 30)};
};

enum class Renewal { kNone, kServing, kAll };

struct BundleCheck {
  Renewal renewal = Renewal::kNone;
  std::string reason;  // "" for kNone
};

// The bundle in a Secret object; kInvalidArgument naming the data key that is missing or not
// base64.
[[nodiscard]] Result<CertBundle> bundleFromSecret(const api::Json& secret);

// Sets the six data keys of `secret` (an object; other keys and fields are kept).
void bundleToSecret(const CertBundle& bundle, api::Json& secret);

[[nodiscard]] BundleCheck checkBundle(const CertBundle& bundle,
                                      const BundleRequirements& requirements, WallTime now);

// A bundle that passes checkBundle(): for kServing a new serving certificate under the current
// CA, for kAll (or any renewal when `current` is null) a new CA and serving certificate.
[[nodiscard]] Result<CertBundle> renewBundle(const CertBundle* current, Renewal renewal,
                                             const BundleRequirements& requirements, WallTime now);

}  // namespace koord::manager::cert
