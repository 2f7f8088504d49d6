// CertController against an in-memory API server (FakeApi over the gmock MockClient), with a fake
// clock for both waiting and certificate validity: the Secret is created when missing, reused
// while valid, renewed in the window (the CA kept), replaced when broken; a replica that loses a
// race uses the winner's certificate; the caBundle is written only when it differs; a missing
// webhook configuration or a server that does not take the certificate is retried.
#include "manager/cert/cert_controller.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "fake_api.hpp"
#include "koord/api/admission/review.hpp"
#include "manager/cert/resources.hpp"
#include "support.hpp"

namespace koord::manager::cert {
namespace {

namespace fs = std::filesystem;
using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::FakeApi;

constexpr char kNs[] = "koordinator-system";
constexpr char kSecretName[] = "koordinator-webhook-certs";
constexpr char kMutating[] = "koordinator-mutating-webhook-configuration";
constexpr char kValidating[] = "koordinator-validating-webhook-configuration";
const WallTime& kStart = testing::kTestStart;
using testing::eventually;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

k8s::Json configuration(const std::string& kind, const std::string& name, int webhooks) {
  k8s::Json object = {{"apiVersion", "admissionregistration.k8s.io/v1"},
                      {"kind", kind},
                      {"metadata", {{"name", name}}},
                      {"webhooks", k8s::Json::array()}};
  for (int i = 0; i < webhooks; ++i) {
    object["webhooks"].push_back({{"name", "w" + std::to_string(i) + ".koordinator.sh"},
                                  {"admissionReviewVersions", {"v1"}},
                                  {"sideEffects", "None"},
                                  {"clientConfig",
                                   {{"service",
                                     {{"name", "koordinator-webhook-service"},
                                      {"namespace", kNs},
                                      {"path", "/w" + std::to_string(i)}}}}}});
  }
  return object;
}

class CertControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("koord-cert-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    controller_.reset();
    fs::remove_all(dir_);
  }

  WallTime wallNow() const {
    return kStart +
           std::chrono::duration_cast<std::chrono::system_clock::duration>(clock_.now() - origin_);
  }

  CertControllerOptions options() {
    CertControllerOptions o;
    o.cert_dir = dir_.string();
    o.extra_alt_names = {"127.0.0.1", "localhost"};
    o.clock = &clock_;
    o.wall_clock = [this] { return wallNow(); };
    o.on_certificate_written = [this] {
      ++written_calls_;
      return server_answer_;
    };
    return o;
  }

  CertController& controller() {
    if (controller_ == nullptr) {
      auto created = CertController::create(api_.client(), options());
      EXPECT_TRUE(created.ok()) << created.status();
      controller_ = std::move(created).value();
    }
    return *controller_;
  }

  void addConfigurations() {
    api_.put(kMutatingWebhookConfigurations, "",
             configuration("MutatingWebhookConfiguration", kMutating, 2));
    api_.put(kValidatingWebhookConfigurations, "",
             configuration("ValidatingWebhookConfiguration", kValidating, 3));
  }

  CertBundle secretBundle() const {
    const std::optional<k8s::Json> secret = api_.object(kSecrets, kNs, kSecretName);
    EXPECT_TRUE(secret.has_value());
    Result<CertBundle> bundle = bundleFromSecret(secret.value_or(k8s::Json::object()));
    EXPECT_TRUE(bundle.ok()) << bundle.status();
    return bundle.ok() ? *bundle : CertBundle{};
  }

  // A Secret holding `bundle`, as another replica (or a user) would have written it.
  void putSecret(const CertBundle& bundle) {
    k8s::Json secret = {{"apiVersion", "v1"},
                        {"kind", "Secret"},
                        {"metadata", {{"name", kSecretName}, {"namespace", kNs}}}};
    bundleToSecret(bundle, secret);
    api_.put(kSecrets, kNs, secret);
  }

  CertBundle bundleMadeAt(WallTime at) {
    Result<CertBundle> bundle =
        renewBundle(nullptr, Renewal::kAll, controller().requirements(), at);
    EXPECT_TRUE(bundle.ok()) << bundle.status();
    return *bundle;
  }

  // The caBundles of every webhook of a configuration, decoded.
  std::vector<std::string> caBundles(const k8s::GroupVersionResource& resource,
                                     const std::string& name) const {
    std::vector<std::string> out;
    const k8s::Json object = api_.object(resource, "", name).value_or(k8s::Json::object());
    for (const k8s::Json& webhook : object.value("webhooks", k8s::Json::array())) {
      const k8s::Json& config = webhook["clientConfig"];
      out.push_back(config.contains("caBundle")
                        ? api::admission::base64Decode(config["caBundle"].get<std::string>())
                              .valueOr("<not base64>")
                        : "");
    }
    return out;
  }

  void expectFilesHold(const CertBundle& bundle) {
    EXPECT_EQ(readFile((dir_ / "tls.crt").string()), bundle.serving.cert);
    EXPECT_EQ(readFile((dir_ / "tls.key").string()), bundle.serving.key);
  }

  FakeClock clock_;
  const Clock::TimePoint origin_ = clock_.now();
  FakeApi api_;
  fs::path dir_;
  int written_calls_ = 0;
  Status server_answer_;
  std::unique_ptr<CertController> controller_;
};

TEST_F(CertControllerTest, CreatesTheSecretWhenMissingAndWritesTheFilesAndCaBundles) {
  addConfigurations();
  EXPECT_FALSE(controller().ready());
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kSecrets), 1);
  const std::optional<k8s::Json> secret = api_.object(kSecrets, kNs, kSecretName);
  ASSERT_TRUE(secret.has_value());
  EXPECT_EQ((*secret)["type"], "Opaque");
  for (const char* key :
       {"ca-cert.pem", "ca-key.pem", "cert.pem", "key.pem", "tls.crt", "tls.key"}) {
    EXPECT_TRUE((*secret)["data"].contains(key)) << key;
  }
  const CertBundle bundle = secretBundle();
  EXPECT_EQ(checkBundle(bundle, controller().requirements(), kStart).renewal, Renewal::kNone);
  const CertificateInfo serving = *parseCertificate(bundle.serving.cert);
  EXPECT_EQ(serving.dns_names,
            (std::vector<std::string>{
                "koordinator-webhook-service", "koordinator-webhook-service.koordinator-system",
                "koordinator-webhook-service.koordinator-system.svc",
                "koordinator-webhook-service.koordinator-system.svc.cluster.local", "localhost"}));
  EXPECT_EQ(serving.ip_addresses, std::vector<std::string>{"127.0.0.1"});
  expectFilesHold(bundle);
  EXPECT_EQ(fs::status(dir_ / "tls.key").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::status(dir_ / "tls.crt").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
  EXPECT_TRUE(controller().ready());
  EXPECT_EQ(written_calls_, 1);
  EXPECT_EQ(controller().servingCertificate()->serial, serving.serial);
  EXPECT_EQ(controller().caCertificate(), bundle.ca.cert);
  EXPECT_EQ(caBundles(kMutatingWebhookConfigurations, kMutating),
            std::vector<std::string>(2, bundle.ca.cert));
  EXPECT_EQ(caBundles(kValidatingWebhookConfigurations, kValidating),
            std::vector<std::string>(3, bundle.ca.cert));
}

TEST_F(CertControllerTest, ReusesAValidSecretWithoutWriting) {
  addConfigurations();
  const CertBundle existing = bundleMadeAt(kStart - hours(24 * 100));
  putSecret(existing);
  EXPECT_CALL(api_.mock(), create(::testing::_, ::testing::_, ::testing::_)).Times(0);
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kSecrets), 0);
  EXPECT_EQ(secretBundle(), existing);
  expectFilesHold(existing);
  ASSERT_TRUE(controller().syncOnce().isOk());
  // Nothing changed on disk: the server is not asked to reload.
  EXPECT_EQ(written_calls_, 1);
  EXPECT_EQ(api_.writes(kSecrets), 0);
}

TEST_F(CertControllerTest, AUsersOwnCaAndCertificateAreServedAndRenewedUnderThatCa) {
  addConfigurations();
  const Result<KeyPair> ca = generateCa("example-corp-ca", kStart - hours(24));
  ASSERT_TRUE(ca.ok());
  ServingSpec spec{"webhook.example.com", controller().requirements().alt_names};
  spec.alt_names.push_back("webhook.example.com");
  const Result<KeyPair> serving = generateServing(*ca, spec, kStart - hours(24));
  ASSERT_TRUE(serving.ok());
  // Only the keys a kubernetes.io/tls Secret has, plus the CA.
  using api::admission::base64Encode;
  api_.put(kSecrets, kNs,
           {{"apiVersion", "v1"},
            {"kind", "Secret"},
            {"type", "kubernetes.io/tls"},
            {"metadata", {{"name", kSecretName}, {"namespace", kNs}}},
            {"data",
             {{"ca-cert.pem", base64Encode(ca->cert)},
              {"ca-key.pem", base64Encode(ca->key)},
              {"tls.crt", base64Encode(serving->cert)},
              {"tls.key", base64Encode(serving->key)}}}});
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kSecrets), 0);
  expectFilesHold(CertBundle{*ca, *serving});
  EXPECT_EQ(caBundles(kMutatingWebhookConfigurations, kMutating),
            std::vector<std::string>(2, ca->cert));
  // In the renewal window the serving certificate is made anew under the user's CA.
  clock_.advance(hours(24 * 340));
  ASSERT_TRUE(controller().syncOnce().isOk());
  const CertBundle renewed = secretBundle();
  EXPECT_EQ(renewed.ca, *ca);
  EXPECT_TRUE(checkSignedBy(renewed.serving.cert, ca->cert).isOk());
  EXPECT_EQ(parseCertificate(renewed.serving.cert)->common_name,
            "koordinator-webhook-service.koordinator-system.svc");
  expectFilesHold(renewed);
  EXPECT_EQ(api_.object(kSecrets, kNs, kSecretName)->at("type"), "kubernetes.io/tls");
}

TEST_F(CertControllerTest, ASecretReplacedOrDeletedIsFollowedOnTheNextPass) {
  addConfigurations();
  ASSERT_TRUE(controller().syncOnce().isOk());
  // Another replica (or an operator) writes a new bundle: this replica serves it next pass.
  const CertBundle replaced = bundleMadeAt(kStart);
  putSecret(replaced);
  ASSERT_TRUE(controller().syncOnce().isOk());
  expectFilesHold(replaced);
  EXPECT_EQ(written_calls_, 2);
  EXPECT_EQ(caBundles(kValidatingWebhookConfigurations, kValidating),
            std::vector<std::string>(3, replaced.ca.cert));
  // The Secret is deleted: a new CA and certificate are made, and the caBundles follow.
  api_.erase(kSecrets, kNs, kSecretName);
  ASSERT_TRUE(controller().syncOnce().isOk());
  const CertBundle recreated = secretBundle();
  EXPECT_NE(recreated.ca, replaced.ca);
  expectFilesHold(recreated);
  EXPECT_EQ(written_calls_, 3);
  EXPECT_EQ(caBundles(kMutatingWebhookConfigurations, kMutating),
            std::vector<std::string>(2, recreated.ca.cert));
}

TEST_F(CertControllerTest, FilesRemovedFromTheCertDirAreWrittenAgain) {
  addConfigurations();
  ASSERT_TRUE(controller().syncOnce().isOk());
  fs::remove(dir_ / "tls.key");
  ASSERT_TRUE(controller().syncOnce().isOk());
  expectFilesHold(secretBundle());
  EXPECT_EQ(written_calls_, 2);
  EXPECT_EQ(api_.writes(kSecrets), 1);
}

TEST_F(CertControllerTest, RenewsTheServingCertificateInTheWindowAndKeepsTheCa) {
  addConfigurations();
  ASSERT_TRUE(controller().syncOnce().isOk());
  const CertBundle first = secretBundle();
  clock_.advance(hours(24 * 334));
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(secretBundle(), first);
  EXPECT_EQ(written_calls_, 1);
  clock_.advance(hours(24));  // day 335: within 30 days of the end
  ASSERT_TRUE(controller().syncOnce().isOk());
  const CertBundle renewed = secretBundle();
  EXPECT_EQ(api_.writes(kSecrets), 2);  // the create, then this update
  EXPECT_EQ(renewed.ca, first.ca);
  EXPECT_NE(renewed.serving, first.serving);
  EXPECT_EQ(parseCertificate(renewed.serving.cert)->not_after, wallNow() + hours(24 * 365));
  expectFilesHold(renewed);
  EXPECT_EQ(written_calls_, 2);
  EXPECT_EQ(controller().servingCertificate()->serial,
            parseCertificate(renewed.serving.cert)->serial);
  // The CA did not change, so neither did the caBundles: one write each, at the start.
  EXPECT_EQ(api_.writes(kMutatingWebhookConfigurations), 1);
  EXPECT_EQ(api_.writes(kValidatingWebhookConfigurations), 1);
}

TEST_F(CertControllerTest, ReplacesASecretThatLacksKeysKeepingItsOtherFields) {
  addConfigurations();
  api_.put(kSecrets, kNs,
           {{"apiVersion", "v1"},
            {"kind", "Secret"},
            {"metadata", {{"name", kSecretName}, {"namespace", kNs}, {"labels", {{"a", "b"}}}}},
            {"data", {{"tls.crt", "eA=="}}}});
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kSecrets), 1);  // an update: the Secret existed
  const k8s::Json secret = *api_.object(kSecrets, kNs, kSecretName);
  EXPECT_EQ(secret["metadata"]["labels"]["a"], "b");
  const CertBundle bundle = secretBundle();
  EXPECT_EQ(checkBundle(bundle, controller().requirements(), kStart).renewal, Renewal::kNone);
  expectFilesHold(bundle);
}

TEST_F(CertControllerTest, LosingTheUpdateRaceUsesTheOtherReplicasSecret) {
  addConfigurations();
  putSecret(bundleMadeAt(kStart - hours(24 * 340)));  // in the renewal window
  const CertBundle theirs = bundleMadeAt(kStart);
  api_.beforeNextUpdate([&] { putSecret(theirs); });
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kSecrets), 0);  // this replica's update was refused
  EXPECT_EQ(secretBundle(), theirs);
  expectFilesHold(theirs);
  EXPECT_EQ(controller().caCertificate(), theirs.ca.cert);
  EXPECT_EQ(caBundles(kMutatingWebhookConfigurations, kMutating),
            std::vector<std::string>(2, theirs.ca.cert));
}

TEST_F(CertControllerTest, LosingTheCreateRaceUsesTheOtherReplicasSecret) {
  addConfigurations();
  const CertBundle theirs = bundleMadeAt(kStart);
  api_.beforeNextCreate([&] { putSecret(theirs); });
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kSecrets), 0);
  EXPECT_EQ(secretBundle(), theirs);
  expectFilesHold(theirs);
}

TEST_F(CertControllerTest, ARaceLostToABadSecretFailsThePassAndTheNextOneFixesIt) {
  addConfigurations();
  putSecret(bundleMadeAt(kStart - hours(24 * 340)));
  const CertBundle expiring = bundleMadeAt(kStart - hours(24 * 350));
  api_.beforeNextUpdate([&] { putSecret(expiring); });
  const Status status = controller().syncOnce();
  EXPECT_EQ(status.code(), StatusCode::kConflict) << status;
  EXPECT_FALSE(controller().ready());
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_TRUE(controller().ready());
  EXPECT_EQ(checkBundle(secretBundle(), controller().requirements(), kStart).renewal,
            Renewal::kNone);
}

TEST_F(CertControllerTest, TheCaBundleIsWrittenOnlyWhenItDiffers) {
  addConfigurations();
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kMutatingWebhookConfigurations), 1);
  EXPECT_EQ(api_.writes(kValidatingWebhookConfigurations), 1);
  ASSERT_TRUE(controller().syncOnce().isOk());
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kMutatingWebhookConfigurations), 1);
  EXPECT_EQ(api_.writes(kValidatingWebhookConfigurations), 1);
  // Someone puts a stale caBundle on one validating webhook: only that configuration is written.
  k8s::Json validating = *api_.object(kValidatingWebhookConfigurations, "", kValidating);
  validating["webhooks"][1]["clientConfig"]["caBundle"] =
      api::admission::base64Encode("-----BEGIN CERTIFICATE-----\nstale\n");
  api_.put(kValidatingWebhookConfigurations, "", validating);
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(api_.writes(kMutatingWebhookConfigurations), 1);
  EXPECT_EQ(api_.writes(kValidatingWebhookConfigurations), 2);
  EXPECT_EQ(caBundles(kValidatingWebhookConfigurations, kValidating),
            std::vector<std::string>(3, controller().caCertificate()));
  // The rest of the webhook is kept.
  const k8s::Json after = *api_.object(kValidatingWebhookConfigurations, "", kValidating);
  EXPECT_EQ(after["webhooks"][1]["clientConfig"]["service"]["path"], "/w1");
  EXPECT_EQ(after["webhooks"][1]["sideEffects"], "None");
}

TEST_F(CertControllerTest, AMissingConfigurationIsReportedAndSetOnceItExists) {
  const Status status = controller().syncOnce();
  EXPECT_EQ(status.code(), StatusCode::kNotFound) << status;
  EXPECT_NE(status.message().find("mutatingwebhookconfigurations '" + std::string(kMutating) + "'"),
            std::string::npos)
      << status;
  // The certificate is served all the same.
  EXPECT_TRUE(controller().ready());
  expectFilesHold(secretBundle());
  addConfigurations();
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(caBundles(kMutatingWebhookConfigurations, kMutating),
            std::vector<std::string>(2, controller().caCertificate()));
}

TEST_F(CertControllerTest, AServerThatDoesNotTakeTheCertificateIsAskedAgain) {
  addConfigurations();
  server_answer_ = Status::unavailable("failed to listen on '0.0.0.0:9876': Address in use");
  const Status status = controller().syncOnce();
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_FALSE(controller().ready());
  server_answer_ = Status::ok();
  ASSERT_TRUE(controller().syncOnce().isOk());
  EXPECT_EQ(written_calls_, 2);
  EXPECT_TRUE(controller().ready());
}

TEST_F(CertControllerTest, TheThreadRetriesFailuresAndRenewsOnTheClock) {
  controller().start();
  // No configurations yet: the first pass fails after writing the certificate.
  ASSERT_TRUE(eventually([&] { return controller().passes() == 1 && clock_.waiterCount() == 1; }));
  EXPECT_TRUE(controller().ready());
  const std::string first_serial = controller().servingCertificate()->serial;
  addConfigurations();
  clock_.advance(seconds(1));  // the retry interval
  ASSERT_TRUE(eventually([&] { return controller().passes() == 2 && clock_.waiterCount() == 1; }));
  EXPECT_EQ(caBundles(kMutatingWebhookConfigurations, kMutating),
            std::vector<std::string>(2, controller().caCertificate()));
  clock_.advance(hours(24 * 335));
  ASSERT_TRUE(eventually([&] { return controller().passes() == 3 && clock_.waiterCount() == 1; }));
  EXPECT_NE(controller().servingCertificate()->serial, first_serial);
  EXPECT_EQ(written_calls_, 2);
  controller().stop();
  EXPECT_EQ(clock_.waiterCount(), 0u);
}

TEST(CertControllerOptionsTest, CreateNamesEveryBadOption) {
  FakeApi api;
  CertControllerOptions options;
  options.ns = "";
  options.extra_alt_names = {"bad name"};
  options.renew_before = hours(24 * 365);
  options.check_interval = milliseconds(0);
  const auto created = CertController::create(api.client(), options);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().message(),
            "failed to create the webhook certificate controller: ns: must not be empty; "
            "extra_alt_names: 'bad name' is neither a DNS name nor an IP address; renew_before: "
            "must be positive and shorter than the serving validity (365 days); check_interval: "
            "must be positive");
}

}  // namespace
}  // namespace koord::manager::cert
