// The CA and serving certificates koord-manager makes for its webhooks, read back with
// parseCertificate() and checked with OpenSSL itself: names, validity periods, the chain
// (X509_verify and a full X509_verify_cert with the Service's host name at a given time), and
// the refusals.
#include "manager/cert/certificates.hpp"

#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "support.hpp"

namespace koord::manager::cert {
namespace {

using std::chrono::hours;
using std::chrono::system_clock;

std::unique_ptr<X509, decltype(&X509_free)> x509(const std::string& pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
  return {PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), &X509_free};
}

// OpenSSL's own verification of `leaf` against `ca` alone, at `at`, for `host` (DNS or IP).
int verifyChain(const std::string& leaf_pem, const std::string& ca_pem, WallTime at,
                const std::string& host) {
  auto leaf = x509(leaf_pem);
  auto ca = x509(ca_pem);
  std::unique_ptr<X509_STORE, decltype(&X509_STORE_free)> store(X509_STORE_new(), &X509_STORE_free);
  X509_STORE_add_cert(store.get(), ca.get());
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx(X509_STORE_CTX_new(),
                                                                      &X509_STORE_CTX_free);
  X509_STORE_CTX_init(ctx.get(), store.get(), leaf.get(), nullptr);
  X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx.get());
  X509_VERIFY_PARAM_set_time(param, system_clock::to_time_t(at));
  X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
  if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) {
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
  }
  if (X509_verify_cert(ctx.get()) == 1) {
    return X509_V_OK;
  }
  return X509_STORE_CTX_get_error(ctx.get());
}

ServingSpec serviceSpec() {
  ServingSpec spec;
  spec.common_name = "koordinator-webhook-service.koordinator-system.svc";
  spec.alt_names = serviceDnsNames("koordinator-webhook-service", "koordinator-system");
  spec.alt_names.push_back("127.0.0.1");
  spec.alt_names.push_back("localhost");
  spec.alt_names.push_back("::1");
  return spec;
}

TEST(CertificatesTest, ServiceDnsNamesAreTheFourNamesKubeApiserverMayDial) {
  EXPECT_EQ(serviceDnsNames("webhook", "ns"),
            (std::vector<std::string>{"webhook", "webhook.ns", "webhook.ns.svc",
                                      "webhook.ns.svc.cluster.local"}));
}

TEST(CertificatesTest, TheCaIsSelfSignedForTenYears) {
  const Result<KeyPair> ca = generateCa("webhook-cert-ca", testing::kTestStart);
  ASSERT_TRUE(ca.ok()) << ca.status();
  EXPECT_NE(ca->cert.find("-----BEGIN CERTIFICATE-----"), std::string::npos);
  EXPECT_NE(ca->key.find("-----BEGIN PRIVATE KEY-----"), std::string::npos);
  const Result<CertificateInfo> info = parseCertificate(ca->cert);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->common_name, "webhook-cert-ca");
  EXPECT_TRUE(info->is_ca);
  EXPECT_EQ(info->not_before, testing::kTestStart - hours(1));
  EXPECT_EQ(info->not_after, testing::kTestStart + hours(24 * 3650));
  EXPECT_TRUE(checkKeyMatches(ca->cert, ca->key).isOk());
  EXPECT_TRUE(checkSignedBy(ca->cert, ca->cert).isOk());
  // X509_verify with its own public key.
  auto cert = x509(ca->cert);
  EXPECT_EQ(X509_verify(cert.get(), X509_get0_pubkey(cert.get())), 1);
}

TEST(CertificatesTest, TheServingCertificateNamesTheServiceAndChainsToTheCa) {
  const Result<KeyPair> ca = generateCa("webhook-cert-ca", testing::kTestStart);
  ASSERT_TRUE(ca.ok()) << ca.status();
  const Result<KeyPair> serving = generateServing(*ca, serviceSpec(), testing::kTestStart);
  ASSERT_TRUE(serving.ok()) << serving.status();
  const Result<CertificateInfo> info = parseCertificate(serving->cert);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->common_name, "koordinator-webhook-service.koordinator-system.svc");
  EXPECT_FALSE(info->is_ca);
  EXPECT_EQ(info->dns_names,
            (std::vector<std::string>{
                "koordinator-webhook-service", "koordinator-webhook-service.koordinator-system",
                "koordinator-webhook-service.koordinator-system.svc",
                "koordinator-webhook-service.koordinator-system.svc.cluster.local", "localhost"}));
  EXPECT_EQ(info->ip_addresses, (std::vector<std::string>{"127.0.0.1", "::1"}));
  EXPECT_EQ(info->not_before, testing::kTestStart - hours(1));
  EXPECT_EQ(info->not_after, testing::kTestStart + hours(24 * 365));
  EXPECT_TRUE(checkKeyMatches(serving->cert, serving->key).isOk());
  EXPECT_TRUE(checkSignedBy(serving->cert, ca->cert).isOk());
  auto leaf = x509(serving->cert);
  auto issuer = x509(ca->cert);
  EXPECT_EQ(X509_verify(leaf.get(), X509_get0_pubkey(issuer.get())), 1);
  // What kube-apiserver does: the chain, the purpose, the name, the time.
  EXPECT_EQ(verifyChain(serving->cert, ca->cert, testing::kTestStart,
                        "koordinator-webhook-service.koordinator-system.svc"),
            X509_V_OK);
  EXPECT_EQ(
      verifyChain(serving->cert, ca->cert, testing::kTestStart + hours(24 * 364), "127.0.0.1"),
      X509_V_OK);
  EXPECT_EQ(
      verifyChain(serving->cert, ca->cert, testing::kTestStart, "other.koordinator-system.svc"),
      X509_V_ERR_HOSTNAME_MISMATCH);
  EXPECT_EQ(
      verifyChain(serving->cert, ca->cert, testing::kTestStart + hours(24 * 366), "127.0.0.1"),
      X509_V_ERR_CERT_HAS_EXPIRED);
}

TEST(CertificatesTest, EachCertificateHasItsOwnKeyAndSerial) {
  const Result<KeyPair> ca = generateCa("webhook-cert-ca", testing::kTestStart);
  ASSERT_TRUE(ca.ok());
  const Result<KeyPair> a = generateServing(*ca, serviceSpec(), testing::kTestStart);
  const Result<KeyPair> b = generateServing(*ca, serviceSpec(), testing::kTestStart);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->key, b->key);
  EXPECT_NE(parseCertificate(a->cert)->serial, parseCertificate(b->cert)->serial);
  EXPECT_NE(parseCertificate(a->cert)->serial, parseCertificate(ca->cert)->serial);
  EXPECT_FALSE(checkKeyMatches(a->cert, b->key).isOk());
}

TEST(CertificatesTest, AServingCertificateNeverOutlivesItsCa) {
  const Result<KeyPair> ca = generateCa("short-ca", testing::kTestStart, hours(24 * 10));
  ASSERT_TRUE(ca.ok());
  const Result<KeyPair> serving = generateServing(*ca, serviceSpec(), testing::kTestStart);
  ASSERT_TRUE(serving.ok()) << serving.status();
  EXPECT_EQ(parseCertificate(serving->cert)->not_after, testing::kTestStart + hours(24 * 10));
}

TEST(CertificatesTest, ACertificateFromAnotherCaDoesNotChain) {
  const Result<KeyPair> ca = generateCa("webhook-cert-ca", testing::kTestStart);
  const Result<KeyPair> other = generateCa("webhook-cert-ca", testing::kTestStart);
  ASSERT_TRUE(ca.ok() && other.ok());
  const Result<KeyPair> serving = generateServing(*other, serviceSpec(), testing::kTestStart);
  ASSERT_TRUE(serving.ok());
  // Same issuer name, another key: the key identifiers differ.
  const Status signed_by = checkSignedBy(serving->cert, ca->cert);
  EXPECT_EQ(signed_by.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(signed_by.message().rfind("the certificate was not issued by the CA", 0), 0u)
      << signed_by.message();
  EXPECT_NE(verifyChain(serving->cert, ca->cert, testing::kTestStart, "127.0.0.1"), X509_V_OK);
}

TEST(CertificatesTest, RefusesWhatItCannotMake) {
  const Result<KeyPair> ca = generateCa("webhook-cert-ca", testing::kTestStart);
  const Result<KeyPair> other = generateCa("webhook-cert-ca", testing::kTestStart);
  ASSERT_TRUE(ca.ok() && other.ok());
  ServingSpec bad_name = serviceSpec();
  bad_name.alt_names.push_back("a name,DNS:evil");
  const Result<KeyPair> with_bad_name = generateServing(*ca, bad_name, testing::kTestStart);
  EXPECT_EQ(with_bad_name.status().message(),
            "failed to build the subjectAltName: 'a name,DNS:evil' is neither a DNS name nor an "
            "IP address");
  const Result<KeyPair> mismatched =
      generateServing(KeyPair{ca->cert, other->key}, serviceSpec(), testing::kTestStart);
  EXPECT_EQ(mismatched.status().message(),
            "failed to generate the serving certificate: the CA key does not match the CA "
            "certificate");
  ServingSpec unnamed = serviceSpec();
  unnamed.common_name.clear();
  EXPECT_EQ(generateServing(*ca, unnamed, testing::kTestStart).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(generateCa("", testing::kTestStart).status().code(), StatusCode::kInvalidArgument);
  const Result<CertificateInfo> garbage = parseCertificate("not a certificate");
  EXPECT_EQ(garbage.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(garbage.status().message().rfind("failed to read the certificate: ", 0), 0u)
      << garbage.status().message();
  EXPECT_EQ(checkKeyMatches(ca->cert, "not a key").code(), StatusCode::kInvalidArgument);
}

TEST(CertificatesTest, AltNamesAreIpAddressesOrDnsNames) {
  for (const char* good : {"127.0.0.1", "::1", "localhost", "a-b.c", "*.example.com"}) {
    EXPECT_TRUE(isValidAltName(good)) << good;
  }
  for (const char* bad : {"", "a b", "a,b", "a/b", "ü.example"}) {
    EXPECT_FALSE(isValidAltName(bad)) << bad;
  }
}

}  // namespace
}  // namespace koord::manager::cert
