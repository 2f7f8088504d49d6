// Certificates for koord-manager's admission webhooks: a self-signed CA and a serving certificate
// signed by it, made and read with OpenSSL (whose types stay in certificates.cpp).
//
// Keys are ECDSA P-256 and signatures ECDSA with SHA-256. Certificates are X.509 v3 with a random
// 127-bit serial and NotBefore backdated by kBackdate (so that a replica or kube-apiserver whose
// clock runs a little behind accepts a certificate made a moment ago):
//  - the CA: subject and issuer CN=<common name>, basicConstraints critical CA:TRUE, keyUsage
//    critical keyCertSign, cRLSign and digitalSignature, a subjectKeyIdentifier; valid kCaValidity;
//  - a serving certificate: subject CN=<common name>, issuer the CA's subject, basicConstraints
//    CA:FALSE, keyUsage critical digitalSignature and keyEncipherment, extendedKeyUsage
//    serverAuth, subjectAltName with every DNS name and IP address asked for, authority and
//    subject key identifiers; valid kServingValidity (never past the CA's NotAfter).
// PEM out: "CERTIFICATE" and PKCS#8 "PRIVATE KEY" blocks. PEM in: any certificate or private key
// OpenSSL reads; a certificate PEM with several blocks is read by its first.
//
// Every function is pure (no files, no clocks: time is a parameter) and thread-safe. Failures are
// kInvalidArgument with OpenSSL's reason ("failed to <verb> ...: <reason>").
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::manager::cert {

using WallTime = std::chrono::system_clock::time_point;

inline constexpr std::chrono::hours kCaValidity{24 * 3650};      // 10 years
inline constexpr std::chrono::hours kServingValidity{24 * 365};  // 1 year
inline constexpr std::chrono::hours kBackdate{1};

// A PEM certificate and its PEM private key.
struct KeyPair {
  std::string cert;
  std::string key;
  bool operator==(const KeyPair&) const = default;
};

// What a serving certificate is for. An entry of `alt_names` that reads as an IPv4 or IPv6
// address becomes an IP subjectAltName, any other a DNS one.
struct ServingSpec {
  std::string common_name;
  std::vector<std::string> alt_names;
};

// What parseCertificate() reads from a certificate.
struct CertificateInfo {
  std::string common_name;                // the subject's CN ("" when it has none)
  std::string serial;                     // lower-case hex, no leading zeros ("0" for zero)
  std::vector<std::string> dns_names;     // subjectAltName DNS entries, in order
  std::vector<std::string> ip_addresses;  // subjectAltName IP entries as text ("127.0.0.1", "::1")
  WallTime not_before;
  WallTime not_after;
  bool is_ca = false;  // basicConstraints CA:TRUE
};

// The DNS names of a Service as kube-apiserver may dial it: "<service>", "<service>.<namespace>",
// "<service>.<namespace>.svc" and "<service>.<namespace>.svc.cluster.local".
[[nodiscard]] std::vector<std::string> serviceDnsNames(std::string_view service,
                                                       std::string_view ns);

// Whether `name` may be an alt name: an IPv4 or IPv6 address, or a DNS name (letters, digits,
// '-', '.' and '*').
[[nodiscard]] bool isValidAltName(std::string_view name);

// A new self-signed CA named `common_name`, valid from now - kBackdate to now + validity.
[[nodiscard]] Result<KeyPair> generateCa(std::string_view common_name, WallTime now,
                                         std::chrono::seconds validity = kCaValidity);

// A new key and a certificate for `spec`, signed by `ca`, valid from now - kBackdate to
// now + validity or the CA's NotAfter, whichever comes first. kInvalidArgument when the CA does
// not load, its key does not match it, an alt name is empty or not valid, or `spec` has no
// common name.
[[nodiscard]] Result<KeyPair> generateServing(const KeyPair& ca, const ServingSpec& spec,
                                              WallTime now,
                                              std::chrono::seconds validity = kServingValidity);

// Reads the first certificate of `pem`.
[[nodiscard]] Result<CertificateInfo> parseCertificate(std::string_view pem);

// ok when `key_pem` is the private key of the first certificate of `cert_pem`.
[[nodiscard]] Status checkKeyMatches(std::string_view cert_pem, std::string_view key_pem);

// ok when the first certificate of `cert_pem` was issued by the first of `ca_pem`: the issuer
// name and key identifiers match, the CA may sign certificates, and the signature verifies
// (X509_verify with the CA's public key). Says nothing about validity periods.
[[nodiscard]] Status checkSignedBy(std::string_view cert_pem, std::string_view ca_pem);

}  // namespace koord::manager::cert
