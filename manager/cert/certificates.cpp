#include "manager/cert/certificates.hpp"

#include <arpa/inet.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>
#include <memory>
#include <string>

namespace koord::manager::cert {
namespace {

struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct KeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
struct BnFree {
  void operator()(BIGNUM* p) const { BN_free(p); }
};
struct NamesFree {
  void operator()(GENERAL_NAMES* p) const { GENERAL_NAMES_free(p); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;
using BioPtr = std::unique_ptr<BIO, BioFree>;
using BnPtr = std::unique_ptr<BIGNUM, BnFree>;
using NamesPtr = std::unique_ptr<GENERAL_NAMES, NamesFree>;

// The first reason in this thread's OpenSSL error queue (which is then emptied), or `fallback`.
std::string sslReason(std::string_view fallback) {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) {
    return std::string(fallback);
  }
  const char* reason = ERR_reason_error_string(code);
  return reason != nullptr ? reason : "OpenSSL error " + std::to_string(code);
}

Status failure(std::string_view what, std::string_view fallback) {
  return Status::invalidArgument("failed to " + std::string(what) + ": " + sslReason(fallback));
}

BioPtr readBio(std::string_view pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

Result<X509Ptr> readCertificate(std::string_view pem, std::string_view what) {
  ERR_clear_error();
  BioPtr bio = readBio(pem);
  X509Ptr cert(bio != nullptr ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (cert == nullptr) {
    return failure("read " + std::string(what), "no PEM certificate");
  }
  return cert;
}

Result<KeyPtr> readKey(std::string_view pem, std::string_view what) {
  ERR_clear_error();
  BioPtr bio = readBio(pem);
  KeyPtr key(bio != nullptr ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr)
                            : nullptr);
  if (key == nullptr) {
    return failure("read " + std::string(what), "no PEM private key");
  }
  return key;
}

std::string bioText(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

Result<KeyPair> toPem(X509* cert, EVP_PKEY* key) {
  BioPtr cert_bio(BIO_new(BIO_s_mem()));
  BioPtr key_bio(BIO_new(BIO_s_mem()));
  if (cert_bio == nullptr || key_bio == nullptr || PEM_write_bio_X509(cert_bio.get(), cert) != 1 ||
      PEM_write_bio_PrivateKey(key_bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return failure("write PEM", "out of memory");
  }
  return KeyPair{bioText(cert_bio.get()), bioText(key_bio.get())};
}

WallTime fromAsn1(const ASN1_TIME* time) {
  std::tm tm{};
  if (time == nullptr || ASN1_TIME_to_tm(time, &tm) != 1) {
    return WallTime{};
  }
  return std::chrono::system_clock::from_time_t(::timegm(&tm));
}

bool setTime(ASN1_TIME* field, WallTime t) {
  return ASN1_TIME_set(field, std::chrono::system_clock::to_time_t(t)) != nullptr;
}

// A random positive serial of 127 bits.
bool setRandomSerial(X509* cert) {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return false;
  }
  bytes[0] &= 0x7f;
  bytes[15] |= 0x01;  // never zero
  BnPtr bn(BN_bin2bn(bytes.data(), static_cast<int>(bytes.size()), nullptr));
  return bn != nullptr && BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert)) != nullptr;
}

bool addExtension(X509* cert, X509V3_CTX* ctx, int nid, const char* value) {
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value);
  if (ext == nullptr) {
    return false;
  }
  const bool added = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return added;
}

bool setCommonName(X509* cert, std::string_view common_name) {
  X509_NAME* name = X509_get_subject_name(cert);
  return X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                    reinterpret_cast<const unsigned char*>(common_name.data()),
                                    static_cast<int>(common_name.size()), -1, 0) == 1;
}

bool isDnsName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '*';
  });
}

// The subjectAltName entries for `alt_names`; kInvalidArgument naming an entry that is neither an
// IP address nor a DNS name.
Result<NamesPtr> altNames(const std::vector<std::string>& alt_names) {
  NamesPtr names(sk_GENERAL_NAME_new_null());
  if (names == nullptr) {
    return Status::invalidArgument("failed to build the subjectAltName: out of memory");
  }
  for (const std::string& entry : alt_names) {
    GENERAL_NAME* name = GENERAL_NAME_new();
    if (name == nullptr) {
      return Status::invalidArgument("failed to build the subjectAltName: out of memory");
    }
    if (ASN1_OCTET_STRING* ip = a2i_IPADDRESS(entry.c_str())) {
      GENERAL_NAME_set0_value(name, GEN_IPADD, ip);
    } else if (isDnsName(entry)) {
      ERR_clear_error();
      ASN1_IA5STRING* dns = ASN1_IA5STRING_new();
      if (dns == nullptr ||
          ASN1_STRING_set(dns, entry.data(), static_cast<int>(entry.size())) != 1) {
        ASN1_IA5STRING_free(dns);
        GENERAL_NAME_free(name);
        return Status::invalidArgument("failed to build the subjectAltName: out of memory");
      }
      GENERAL_NAME_set0_value(name, GEN_DNS, dns);
    } else {
      ERR_clear_error();
      GENERAL_NAME_free(name);
      return Status::invalidArgument("failed to build the subjectAltName: '" + entry +
                                     "' is neither a DNS name nor an IP address");
    }
    if (sk_GENERAL_NAME_push(names.get(), name) == 0) {
      GENERAL_NAME_free(name);
      return Status::invalidArgument("failed to build the subjectAltName: out of memory");
    }
  }
  return names;
}

std::string ipText(const ASN1_OCTET_STRING* ip) {
  const unsigned char* data = ASN1_STRING_get0_data(ip);
  const int length = ASN1_STRING_length(ip);
  char text[INET6_ADDRSTRLEN] = "";
  if (length == 4) {
    ::inet_ntop(AF_INET, data, text, sizeof(text));
  } else if (length == 16) {
    ::inet_ntop(AF_INET6, data, text, sizeof(text));
  }
  return text;
}

// A new certificate with `key`'s public key, a random serial and the validity period set.
Result<X509Ptr> newCertificate(EVP_PKEY* key, std::string_view common_name, WallTime not_before,
                               WallTime not_after) {
  X509Ptr cert(X509_new());
  if (cert == nullptr || X509_set_version(cert.get(), 2) != 1 || !setRandomSerial(cert.get()) ||
      !setTime(X509_getm_notBefore(cert.get()), not_before) ||
      !setTime(X509_getm_notAfter(cert.get()), not_after) ||
      X509_set_pubkey(cert.get(), key) != 1 || !setCommonName(cert.get(), common_name)) {
    return failure("create a certificate", "out of memory");
  }
  return cert;
}

}  // namespace

bool isValidAltName(std::string_view name) {
  const std::string text(name);
  std::array<unsigned char, 16> bytes{};
  return ::inet_pton(AF_INET, text.c_str(), bytes.data()) == 1 ||
         ::inet_pton(AF_INET6, text.c_str(), bytes.data()) == 1 || isDnsName(name);
}

std::vector<std::string> serviceDnsNames(std::string_view service, std::string_view ns) {
  const std::string base = std::string(service) + "." + std::string(ns);
  return {std::string(service), base, base + ".svc", base + ".svc.cluster.local"};
}

Result<KeyPair> generateCa(std::string_view common_name, WallTime now,
                           std::chrono::seconds validity) {
  if (common_name.empty()) {
    return Status::invalidArgument("failed to generate the CA: the common name is empty");
  }
  ERR_clear_error();
  KeyPtr key(EVP_EC_gen("P-256"));
  if (key == nullptr) {
    return failure("generate the CA key", "key generation failed");
  }
  KOORD_ASSIGN_OR_RETURN(X509Ptr cert,
                         newCertificate(key.get(), common_name, now - kBackdate, now + validity));
  if (X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get())) != 1) {
    return failure("generate the CA", "out of memory");
  }
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  if (!addExtension(cert.get(), &ctx, NID_basic_constraints, "critical,CA:TRUE") ||
      !addExtension(cert.get(), &ctx, NID_key_usage,
                    "critical,keyCertSign,cRLSign,digitalSignature") ||
      !addExtension(cert.get(), &ctx, NID_subject_key_identifier, "hash")) {
    return failure("generate the CA", "cannot add an extension");
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) <= 0) {
    return failure("sign the CA", "signing failed");
  }
  return toPem(cert.get(), key.get());
}

Result<KeyPair> generateServing(const KeyPair& ca, const ServingSpec& spec, WallTime now,
                                std::chrono::seconds validity) {
  if (spec.common_name.empty()) {
    return Status::invalidArgument(
        "failed to generate the serving certificate: the common name is empty");
  }
  KOORD_ASSIGN_OR_RETURN(X509Ptr ca_cert, readCertificate(ca.cert, "the CA certificate"));
  KOORD_ASSIGN_OR_RETURN(KeyPtr ca_key, readKey(ca.key, "the CA key"));
  if (X509_check_private_key(ca_cert.get(), ca_key.get()) != 1) {
    ERR_clear_error();
    return Status::invalidArgument(
        "failed to generate the serving certificate: the CA key does not match the CA "
        "certificate");
  }
  KOORD_ASSIGN_OR_RETURN(NamesPtr names, altNames(spec.alt_names));
  ERR_clear_error();
  KeyPtr key(EVP_EC_gen("P-256"));
  if (key == nullptr) {
    return failure("generate the serving key", "key generation failed");
  }
  const WallTime ca_not_after = fromAsn1(X509_get0_notAfter(ca_cert.get()));
  const WallTime not_after = std::min<WallTime>(now + validity, ca_not_after);
  KOORD_ASSIGN_OR_RETURN(X509Ptr cert,
                         newCertificate(key.get(), spec.common_name, now - kBackdate, not_after));
  if (X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get())) != 1) {
    return failure("generate the serving certificate", "out of memory");
  }
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, ca_cert.get(), cert.get(), nullptr, nullptr, 0);
  if (!addExtension(cert.get(), &ctx, NID_basic_constraints, "CA:FALSE") ||
      !addExtension(cert.get(), &ctx, NID_key_usage, "critical,digitalSignature,keyEncipherment") ||
      !addExtension(cert.get(), &ctx, NID_ext_key_usage, "serverAuth") ||
      !addExtension(cert.get(), &ctx, NID_subject_key_identifier, "hash") ||
      !addExtension(cert.get(), &ctx, NID_authority_key_identifier, "keyid")) {
    return failure("generate the serving certificate", "cannot add an extension");
  }
  if (!spec.alt_names.empty() && X509_add1_ext_i2d(cert.get(), NID_subject_alt_name, names.get(), 0,
                                                   X509V3_ADD_DEFAULT) != 1) {
    return failure("generate the serving certificate", "cannot add the subjectAltName");
  }
  if (X509_sign(cert.get(), ca_key.get(), EVP_sha256()) <= 0) {
    return failure("sign the serving certificate", "signing failed");
  }
  return toPem(cert.get(), key.get());
}

Result<CertificateInfo> parseCertificate(std::string_view pem) {
  KOORD_ASSIGN_OR_RETURN(X509Ptr cert, readCertificate(pem, "the certificate"));
  CertificateInfo info;
  X509_NAME* subject = X509_get_subject_name(cert.get());
  const int index = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
  if (index >= 0) {
    unsigned char* utf8 = nullptr;
    const int length =
        ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, index)));
    if (length >= 0) {
      info.common_name.assign(reinterpret_cast<const char*>(utf8),
                              static_cast<std::size_t>(length));
    }
    OPENSSL_free(utf8);
  }
  BnPtr serial(ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert.get()), nullptr));
  if (serial != nullptr) {
    char* hex = BN_bn2hex(serial.get());
    if (hex != nullptr) {
      info.serial = hex;
      OPENSSL_free(hex);
    }
  }
  std::transform(info.serial.begin(), info.serial.end(), info.serial.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  const std::size_t first = info.serial.find_first_not_of('0');
  info.serial = first == std::string::npos ? "0" : info.serial.substr(first);
  info.not_before = fromAsn1(X509_get0_notBefore(cert.get()));
  info.not_after = fromAsn1(X509_get0_notAfter(cert.get()));
  info.is_ca = (X509_get_extension_flags(cert.get()) & EXFLAG_CA) != 0;
  NamesPtr names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(cert.get(), NID_subject_alt_name, nullptr, nullptr)));
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names.get(), i);
    if (name->type == GEN_DNS) {
      const ASN1_IA5STRING* dns = name->d.dNSName;
      info.dns_names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                                  static_cast<std::size_t>(ASN1_STRING_length(dns)));
    } else if (name->type == GEN_IPADD) {
      info.ip_addresses.push_back(ipText(name->d.iPAddress));
    }
  }
  ERR_clear_error();
  return info;
}

Status checkKeyMatches(std::string_view cert_pem, std::string_view key_pem) {
  KOORD_ASSIGN_OR_RETURN(X509Ptr cert, readCertificate(cert_pem, "the certificate"));
  KOORD_ASSIGN_OR_RETURN(KeyPtr key, readKey(key_pem, "the private key"));
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return Status::invalidArgument("the private key does not match the certificate");
  }
  return Status::ok();
}

Status checkSignedBy(std::string_view cert_pem, std::string_view ca_pem) {
  KOORD_ASSIGN_OR_RETURN(X509Ptr cert, readCertificate(cert_pem, "the certificate"));
  KOORD_ASSIGN_OR_RETURN(X509Ptr ca, readCertificate(ca_pem, "the CA certificate"));
  const int issued = X509_check_issued(ca.get(), cert.get());
  if (issued != X509_V_OK) {
    ERR_clear_error();
    return Status::invalidArgument("the certificate was not issued by the CA: " +
                                   std::string(X509_verify_cert_error_string(issued)));
  }
  if (X509_verify(cert.get(), X509_get0_pubkey(ca.get())) != 1) {
    ERR_clear_error();
    return Status::invalidArgument(
        "the certificate was not issued by the CA: its signature does not verify with the CA's "
        "key");
  }
  return Status::ok();
}

}  // namespace koord::manager::cert
