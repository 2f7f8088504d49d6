// The Secret format (Koordinator's data keys) and the rules that decide whether a bundle is
// served as it is, gets a new serving certificate under the same CA, or is made anew.
#include "manager/cert/cert_bundle.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "koord/api/admission/review.hpp"
#include "support.hpp"

namespace koord::manager::cert {
namespace {

using std::chrono::hours;

BundleRequirements requirements() {
  BundleRequirements r;
  r.alt_names = serviceDnsNames("koordinator-webhook-service", "koordinator-system");
  r.alt_names.push_back("127.0.0.1");
  r.common_name = "koordinator-webhook-service.koordinator-system.svc";
  return r;
}

CertBundle freshBundle(WallTime now = testing::kTestStart) {
  Result<CertBundle> bundle = renewBundle(nullptr, Renewal::kAll, requirements(), now);
  EXPECT_TRUE(bundle.ok()) << bundle.status();
  return *bundle;
}

TEST(CertBundleTest, AFreshBundlePassesUntilTheRenewalWindow) {
  const CertBundle bundle = freshBundle();
  EXPECT_EQ(checkBundle(bundle, requirements(), testing::kTestStart).renewal, Renewal::kNone);
  // 1 year valid, renewed 30 days before: fine on day 334, renewed from day 335.
  EXPECT_EQ(checkBundle(bundle, requirements(), testing::kTestStart + hours(24 * 334)).renewal,
            Renewal::kNone);
  const BundleCheck due =
      checkBundle(bundle, requirements(), testing::kTestStart + hours(24 * 335));
  EXPECT_EQ(due.renewal, Renewal::kServing);
  EXPECT_EQ(due.reason, "the serving certificate expires within the renewal window");
}

TEST(CertBundleTest, TheServingCertificateIsRenewedUnderTheSameCa) {
  const CertBundle bundle = freshBundle();
  const WallTime later = testing::kTestStart + hours(24 * 340);
  const Result<CertBundle> renewed = renewBundle(&bundle, Renewal::kServing, requirements(), later);
  ASSERT_TRUE(renewed.ok()) << renewed.status();
  EXPECT_EQ(renewed->ca, bundle.ca);
  EXPECT_NE(renewed->serving, bundle.serving);
  EXPECT_EQ(parseCertificate(renewed->serving.cert)->not_after, later + hours(24 * 365));
  EXPECT_EQ(checkBundle(*renewed, requirements(), later).renewal, Renewal::kNone);
}

TEST(CertBundleTest, WhatEachBrokenBundleNeeds) {
  const CertBundle good = freshBundle();
  const CertBundle other = freshBundle();
  BundleRequirements more_names = requirements();
  more_names.alt_names.push_back("koord-manager.example.com");
  struct Case {
    const char* name;
    CertBundle bundle;
    BundleRequirements requirements;
    WallTime now;
    Renewal renewal;
    std::string reason;  // a prefix
  };
  const Case cases[] = {
      {"missing name", good, more_names, testing::kTestStart, Renewal::kServing,
       "the serving certificate does not name 'koord-manager.example.com'"},
      {"another CA's serving certificate", CertBundle{good.ca, other.serving}, requirements(),
       testing::kTestStart, Renewal::kServing, "the certificate was not issued by the CA"},
      {"serving key of another certificate",
       CertBundle{good.ca, {good.serving.cert, other.serving.key}}, requirements(),
       testing::kTestStart, Renewal::kServing,
       "the serving key: the private key does not match the certificate"},
      {"serving certificate garbage", CertBundle{good.ca, {"junk", good.serving.key}},
       requirements(), testing::kTestStart, Renewal::kServing,
       "the serving certificate does not parse"},
      {"CA key of another CA", CertBundle{{good.ca.cert, other.ca.key}, good.serving},
       requirements(), testing::kTestStart, Renewal::kAll, "the CA key: "},
      {"CA garbage", CertBundle{{"junk", good.ca.key}, good.serving}, requirements(),
       testing::kTestStart, Renewal::kAll, "the CA certificate does not parse"},
      {"serving certificate as the CA", CertBundle{good.serving, good.serving}, requirements(),
       testing::kTestStart, Renewal::kAll, "the CA certificate is not a CA"},
      {"CA expiring", good, requirements(), testing::kTestStart + hours(24 * (3650 - 29)),
       Renewal::kAll, "the CA certificate expires within the renewal window"},
      {"not valid yet", good, requirements(), testing::kTestStart - hours(2), Renewal::kAll,
       "the CA certificate is not valid yet"},
  };
  for (const Case& c : cases) {
    const BundleCheck check = checkBundle(c.bundle, c.requirements, c.now);
    EXPECT_EQ(check.renewal, c.renewal) << c.name << ": " << check.reason;
    EXPECT_EQ(check.reason.rfind(c.reason, 0), 0u) << c.name << ": " << check.reason;
  }
}

TEST(CertBundleTest, NamesAreComparedAsKubeApiserverDoes) {
  BundleRequirements r = requirements();
  const CertBundle bundle = freshBundle();
  r.alt_names = {"KOORDINATOR-WEBHOOK-SERVICE.koordinator-system.svc", "127.000.0.1"};
  // DNS names are case-insensitive; "127.000.0.1" is not an address inet_pton reads, so it is a
  // name the certificate lacks.
  EXPECT_EQ(checkBundle(bundle, r, testing::kTestStart).reason,
            "the serving certificate does not name '127.000.0.1'");
  r.alt_names = {"KOORDINATOR-WEBHOOK-SERVICE.koordinator-system.svc", "127.0.0.1"};
  EXPECT_EQ(checkBundle(bundle, r, testing::kTestStart).renewal, Renewal::kNone);
}

TEST(CertBundleTest, TheSecretHoldsKoordinatorsSixKeys) {
  const CertBundle bundle = freshBundle();
  api::Json secret = {{"metadata", {{"name", "koordinator-webhook-certs"}}},
                      {"data", {{"other", "eA=="}}}};
  bundleToSecret(bundle, secret);
  const api::Json& data = secret["data"];
  using api::admission::base64Decode;
  EXPECT_EQ(*base64Decode(data["ca-cert.pem"].get<std::string>()), bundle.ca.cert);
  EXPECT_EQ(*base64Decode(data["ca-key.pem"].get<std::string>()), bundle.ca.key);
  EXPECT_EQ(*base64Decode(data["cert.pem"].get<std::string>()), bundle.serving.cert);
  EXPECT_EQ(*base64Decode(data["tls.crt"].get<std::string>()), bundle.serving.cert);
  EXPECT_EQ(*base64Decode(data["key.pem"].get<std::string>()), bundle.serving.key);
  EXPECT_EQ(*base64Decode(data["tls.key"].get<std::string>()), bundle.serving.key);
  EXPECT_EQ(data["other"], "eA==");
  const Result<CertBundle> read = bundleFromSecret(secret);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bundle);
}

TEST(CertBundleTest, ASecretWithOnlyTlsKeysIsReadAndOneWithoutTheCaIsNot) {
  const CertBundle bundle = freshBundle();
  using api::admission::base64Encode;
  api::Json secret = {{"data",
                       {{"ca-cert.pem", base64Encode(bundle.ca.cert)},
                        {"ca-key.pem", base64Encode(bundle.ca.key)},
                        {"tls.crt", base64Encode(bundle.serving.cert)},
                        {"tls.key", base64Encode(bundle.serving.key)}}}};
  const Result<CertBundle> read = bundleFromSecret(secret);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bundle);
  secret["data"].erase("ca-key.pem");
  EXPECT_EQ(bundleFromSecret(secret).status().message(), "the Secret has no data key 'ca-key.pem'");
  secret["data"]["ca-key.pem"] = "!!!";
  EXPECT_EQ(bundleFromSecret(secret).status().message(), "data key 'ca-key.pem' is not base64");
  EXPECT_EQ(bundleFromSecret(api::Json::object()).status().message(), "the Secret has no data");
}

}  // namespace
}  // namespace koord::manager::cert
