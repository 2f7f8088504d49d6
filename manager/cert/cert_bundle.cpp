#include "manager/cert/cert_bundle.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "koord/api/admission/review.hpp"

namespace koord::manager::cert {
namespace {

Result<std::string> dataValue(const api::Json& data, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    const auto it = data.find(key);
    if (it == data.end() || !it->is_string()) {
      continue;
    }
    Result<std::string> decoded = api::admission::base64Decode(it->get<std::string>());
    if (!decoded.ok()) {
      return Status::invalidArgument("data key '" + std::string(key) + "' is not base64");
    }
    return decoded;
  }
  return Status::invalidArgument("the Secret has no data key '" + std::string(*keys.begin()) + "'");
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  return text;
}

// The canonical text of an IP address, nullopt when `text` is none.
std::optional<std::string> canonicalIp(const std::string& text) {
  std::array<unsigned char, 16> bytes{};
  char out[INET6_ADDRSTRLEN] = "";
  if (::inet_pton(AF_INET, text.c_str(), bytes.data()) == 1) {
    return std::string(::inet_ntop(AF_INET, bytes.data(), out, sizeof(out)));
  }
  if (::inet_pton(AF_INET6, text.c_str(), bytes.data()) == 1) {
    return std::string(::inet_ntop(AF_INET6, bytes.data(), out, sizeof(out)));
  }
  return std::nullopt;
}

// The first required alt name the certificate lacks, "" when it has them all.
std::string missingAltName(const CertificateInfo& info, const std::vector<std::string>& required) {
  for (const std::string& name : required) {
    bool found = false;
    if (const std::optional<std::string> ip = canonicalIp(name)) {
      found = std::any_of(info.ip_addresses.begin(), info.ip_addresses.end(),
                          [&](const std::string& have) { return canonicalIp(have) == ip; });
    } else {
      found = std::any_of(info.dns_names.begin(), info.dns_names.end(),
                          [&](const std::string& have) { return lower(have) == lower(name); });
    }
    if (!found) {
      return name;
    }
  }
  return "";
}

BundleCheck renewAll(std::string reason) {
  return {Renewal::kAll, std::move(reason)};
}

BundleCheck renewServing(std::string reason) {
  return {Renewal::kServing, std::move(reason)};
}

}  // namespace

Result<CertBundle> bundleFromSecret(const api::Json& secret) {
  const auto data = secret.find("data");
  if (data == secret.end() || !data->is_object()) {
    return Status::invalidArgument("the Secret has no data");
  }
  CertBundle bundle;
  KOORD_ASSIGN_OR_RETURN(bundle.ca.cert, dataValue(*data, {kCaCertKey}));
  KOORD_ASSIGN_OR_RETURN(bundle.ca.key, dataValue(*data, {kCaKeyKey}));
  KOORD_ASSIGN_OR_RETURN(bundle.serving.cert, dataValue(*data, {kServingCertKey, kTlsCertKey}));
  KOORD_ASSIGN_OR_RETURN(bundle.serving.key, dataValue(*data, {kServingKeyKey, kTlsKeyKey}));
  return bundle;
}

void bundleToSecret(const CertBundle& bundle, api::Json& secret) {
  api::Json& data = secret["data"];
  if (!data.is_object()) {
    data = api::Json::object();
  }
  using api::admission::base64Encode;
  data[kCaCertKey] = base64Encode(bundle.ca.cert);
  data[kCaKeyKey] = base64Encode(bundle.ca.key);
  data[kServingCertKey] = base64Encode(bundle.serving.cert);
  data[kTlsCertKey] = base64Encode(bundle.serving.cert);
  data[kServingKeyKey] = base64Encode(bundle.serving.key);
  data[kTlsKeyKey] = base64Encode(bundle.serving.key);
}

BundleCheck checkBundle(const CertBundle& bundle, const BundleRequirements& requirements,
                        WallTime now) {
  const Result<CertificateInfo> ca = parseCertificate(bundle.ca.cert);
  if (!ca.ok()) {
    return renewAll("the CA certificate does not parse: " + ca.status().message());
  }
  if (!ca->is_ca) {
    return renewAll("the CA certificate is not a CA");
  }
  if (const Status key = checkKeyMatches(bundle.ca.cert, bundle.ca.key); !key.isOk()) {
    return renewAll("the CA key: " + key.message());
  }
  if (ca->not_before > now) {
    return renewAll("the CA certificate is not valid yet");
  }
  if (ca->not_after - requirements.renew_before <= now) {
    return renewAll("the CA certificate expires within the renewal window");
  }
  const Result<CertificateInfo> serving = parseCertificate(bundle.serving.cert);
  if (!serving.ok()) {
    return renewServing("the serving certificate does not parse: " + serving.status().message());
  }
  if (const Status key = checkKeyMatches(bundle.serving.cert, bundle.serving.key); !key.isOk()) {
    return renewServing("the serving key: " + key.message());
  }
  if (const Status signed_by = checkSignedBy(bundle.serving.cert, bundle.ca.cert);
      !signed_by.isOk()) {
    return renewServing(signed_by.message());
  }
  if (serving->not_before > now) {
    return renewServing("the serving certificate is not valid yet");
  }
  if (const std::string missing = missingAltName(*serving, requirements.alt_names);
      !missing.empty()) {
    return renewServing("the serving certificate does not name '" + missing + "'");
  }
  if (serving->not_after - requirements.renew_before <= now) {
    return renewServing("the serving certificate expires within the renewal window");
  }
  return {};
}

Result<CertBundle> renewBundle(const CertBundle* current, Renewal renewal,
                               const BundleRequirements& requirements, WallTime now) {
  CertBundle bundle;
  if (current != nullptr && renewal == Renewal::kServing) {
    bundle.ca = current->ca;
  } else {
    KOORD_ASSIGN_OR_RETURN(bundle.ca, generateCa(requirements.ca_common_name, now));
  }
  const ServingSpec spec{requirements.common_name, requirements.alt_names};
  KOORD_ASSIGN_OR_RETURN(bundle.serving, generateServing(bundle.ca, spec, now));
  return bundle;
}

}  // namespace koord::manager::cert
