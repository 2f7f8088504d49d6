// CertController: koord-manager's webhook certificate, made and renewed by koord-manager itself
// (after Koordinator's webhook controller, pkg/webhook/util/controller). Runs on every replica,
// leader or not: every replica serves the webhooks.
//
// One pass (syncOnce()):
//  1. ensureSecret() (secret_sync.hpp) on the Secret options.ns/options.secret_name: reuse the
//     bundle it holds while it passes checkBundle() (cert_bundle.hpp), else make or renew one and
//     write it; when another replica wrote first, use what it wrote.
//  2. Write the serving certificate and key to options.cert_dir (tls.crt, tls.key; cert_dir.hpp).
//  3. When those files changed, or the last call failed, call options.on_certificate_written
//     (koord-manager passes WebhookServer::certificateWritten: the server starts on the first
//     certificate and reloads it after a renewal). Once it succeeded, ready() is true.
//  4. ensureCaBundle() (ca_bundle.hpp) on the mutating and the validating webhook configuration
//     named in the options ("" skips one): each webhook's caBundle becomes the CA certificate.
// The pass goes on past a failing configuration (a missing one is logged at warning level) and
// returns the first failure; the certificate steps stop the pass at their failure.
//
// start() runs passes on a thread of its own: the first at once, the next options.check_interval
// after a pass that succeeded, or after options.retry_interval doubled with each failed pass in a
// row (never longer than check_interval). Time is options.clock (waiting) and options.wall_clock
// (certificate validity; the serving certificate is renewed once it expires within
// options.renew_before, so well before it expires with the defaults: 1 year valid, renewed 30 days
// before, checked every minute).
//
// Thread safety: syncOnce() is not to be called while the thread runs (tests call it without
// start()); ready(), servingCertificate(), caCertificate() and passes() from any thread.
// start() and stop() from one thread; stop() is idempotent and run by the destructor.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/leader_election.hpp"
#include "koord/log/logger.hpp"
#include "manager/cert/cert_bundle.hpp"
#include "manager/cert/cert_dir.hpp"
#include "manager/cert/secret_sync.hpp"

namespace koord::manager::cert {

struct CertControllerOptions {
  // The namespace of the Secret and of the Service kube-apiserver calls (Koordinator:
  // POD_NAMESPACE, default koordinator-system).
  std::string ns = "koordinator-system";
  std::string secret_name = "koordinator-webhook-certs";
  // The serving certificate names serviceDnsNames(service_name, ns) and the extra alt names.
  std::string service_name = "koordinator-webhook-service";
  std::vector<std::string> extra_alt_names;
  std::string cert_dir = kDefaultCertDir;
  std::string mutating_configuration = "koordinator-mutating-webhook-configuration";
  std::string validating_configuration = "koordinator-validating-webhook-configuration";
  // Renew a certificate that expires within this (shorter than the serving validity, 1 year).
  std::chrono::seconds renew_before{std::chrono::hours(24 * 30)};
  std::chrono::milliseconds check_interval{std::chrono::minutes(1)};
  std::chrono::milliseconds retry_interval{std::chrono::seconds(1)};
  // Waits between passes; must outlive the controller. nullptr: real time.
  const Clock* clock = nullptr;
  // Certificate validity is judged and stamped with this; empty: system_clock.
  k8s::WallClock wall_clock;
  // Called (on the controller's thread) after the files changed; a failure is retried next pass.
  std::function<Status()> on_certificate_written;
  log::Logger logger;
};

class CertController {
 public:
  // Checks the options (kInvalidArgument naming each bad field: empty names, a bad alt name,
  // renew_before not below the serving validity, non-positive intervals). `client` must outlive
  // the controller. No I/O.
  [[nodiscard]] static Result<std::unique_ptr<CertController>> create(
      k8s::Client& client, CertControllerOptions options);
  ~CertController();
  CertController(const CertController&) = delete;
  CertController& operator=(const CertController&) = delete;

  [[nodiscard]] Status syncOnce();
  void start();
  void stop();

  // A certificate is in the directory and on_certificate_written accepted it.
  [[nodiscard]] bool ready() const;
  // The serving certificate last written to the directory; nullopt before.
  [[nodiscard]] std::optional<CertificateInfo> servingCertificate() const;
  // The CA certificate (PEM) of the bundle last written; "" before.
  [[nodiscard]] std::string caCertificate() const;
  // Passes the thread has finished.
  [[nodiscard]] uint64_t passes() const;
  [[nodiscard]] const CertDir& certDir() const { return dir_; }
  [[nodiscard]] const BundleRequirements& requirements() const { return requirements_; }

 private:
  CertController(k8s::Client& client, CertControllerOptions options,
                 BundleRequirements requirements);
  void run();
  Status syncCertificate();
  Status syncConfigurations(const std::string& ca_pem);

  k8s::Client& client_;
  const CertControllerOptions options_;
  const BundleRequirements requirements_;
  const CertDir dir_;
  RealClock real_clock_;
  const Clock& clock_;
  bool accepted_ = false;  // on_certificate_written succeeded for the files there; run() only

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;                   // guarded by mu_
  bool ready_ = false;                      // guarded by mu_
  std::optional<CertBundle> written_;       // guarded by mu_
  std::optional<CertificateInfo> serving_;  // guarded by mu_
  uint64_t passes_ = 0;                     // guarded by mu_
  std::thread thread_;
};

}  // namespace koord::manager::cert
