#include "manager/cert/cert_controller.hpp"

#include <algorithm>
#include <utility>

#include "koord/common/thread_name.hpp"
#include "koord/k8s/errors.hpp"
#include "manager/cert/ca_bundle.hpp"
#include "manager/cert/resources.hpp"

namespace koord::manager::cert {
namespace {

std::string formatTime(WallTime t) {
  return k8s::formatMicroTime(t);
}

}  // namespace

Result<std::unique_ptr<CertController>> CertController::create(k8s::Client& client,
                                                               CertControllerOptions options) {
  std::vector<std::string> problems;
  const auto require = [&](const std::string& value, const char* field) {
    if (value.empty()) {
      problems.push_back(std::string(field) + ": must not be empty");
    }
  };
  require(options.ns, "ns");
  require(options.secret_name, "secret_name");
  require(options.service_name, "service_name");
  require(options.cert_dir, "cert_dir");
  for (const std::string& name : options.extra_alt_names) {
    if (!isValidAltName(name)) {
      problems.push_back("extra_alt_names: '" + name + "' is neither a DNS name nor an IP address");
    }
  }
  if (options.renew_before.count() <= 0 || options.renew_before >= kServingValidity) {
    problems.push_back("renew_before: must be positive and shorter than the serving validity (" +
                       std::to_string(kServingValidity.count() / 24) + " days)");
  }
  if (options.check_interval.count() <= 0) {
    problems.push_back("check_interval: must be positive");
  }
  if (options.retry_interval.count() <= 0) {
    problems.push_back("retry_interval: must be positive");
  }
  if (!problems.empty()) {
    std::string message = "failed to create the webhook certificate controller: ";
    for (std::size_t i = 0; i < problems.size(); ++i) {
      message += (i == 0 ? "" : "; ") + problems[i];
    }
    return Status::invalidArgument(message);
  }
  BundleRequirements requirements;
  requirements.alt_names = serviceDnsNames(options.service_name, options.ns);
  for (const std::string& name : options.extra_alt_names) {
    if (std::find(requirements.alt_names.begin(), requirements.alt_names.end(), name) ==
        requirements.alt_names.end()) {
      requirements.alt_names.push_back(name);
    }
  }
  requirements.common_name = options.service_name + "." + options.ns + ".svc";
  requirements.renew_before = options.renew_before;
  return std::unique_ptr<CertController>(
      new CertController(client, std::move(options), std::move(requirements)));
}

CertController::CertController(k8s::Client& client, CertControllerOptions options,
                               BundleRequirements requirements)
    : client_(client),
      options_(std::move(options)),
      requirements_(std::move(requirements)),
      dir_(options_.cert_dir),
      clock_(options_.clock != nullptr ? *options_.clock : real_clock_) {}

CertController::~CertController() {
  stop();
}

Status CertController::syncOnce() {
  KOORD_RETURN_IF_ERROR(syncCertificate());
  return syncConfigurations(caCertificate());
}

Status CertController::syncCertificate() {
  const WallTime now =
      options_.wall_clock ? options_.wall_clock() : std::chrono::system_clock::now();
  const SecretRef ref{options_.ns, options_.secret_name};
  Result<SecretSync> sync = ensureSecret(client_, ref, requirements_, now);
  if (!sync.ok()) {
    options_.logger.warn("failed to ensure the webhook certificate Secret",
                         {{"secret", ref.ns + "/" + ref.name}, {"error", sync.status()}});
    return sync.status();
  }
  const Result<CertificateInfo> serving = parseCertificate(sync->bundle.serving.cert);
  if (!serving.ok()) {  // ensureSecret returns only bundles that parse
    return serving.status();
  }
  if (sync->outcome != SecretOutcome::kReused) {
    options_.logger.info("webhook certificate Secret " + std::string(outcomeName(sync->outcome)),
                         {{"secret", ref.ns + "/" + ref.name},
                          {"reason", sync->reason},
                          {"serial", serving->serial},
                          {"notAfter", formatTime(serving->not_after)}});
  }
  const Result<bool> changed = dir_.write(sync->bundle.serving);
  if (!changed.ok()) {
    options_.logger.warn("failed to write the webhook certificate",
                         {{"dir", dir_.dir()}, {"error", changed.status()}});
    return changed.status();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    written_ = sync->bundle;
    serving_ = *serving;
  }
  if (*changed) {
    accepted_ = false;
    options_.logger.info("webhook certificate written",
                         {{"dir", dir_.dir()},
                          {"serial", serving->serial},
                          {"notAfter", formatTime(serving->not_after)}});
  }
  if (!accepted_) {
    if (options_.on_certificate_written) {
      const Status taken = options_.on_certificate_written();
      if (!taken.isOk()) {
        options_.logger.warn("the webhook server did not take the new certificate",
                             {{"error", taken}});
        std::lock_guard<std::mutex> lock(mu_);
        ready_ = false;
        return taken;
      }
    }
    accepted_ = true;
  }
  std::lock_guard<std::mutex> lock(mu_);
  ready_ = true;
  return Status::ok();
}

Status CertController::syncConfigurations(const std::string& ca_pem) {
  Status first;
  const std::pair<const k8s::GroupVersionResource*, const std::string*> configurations[] = {
      {&kMutatingWebhookConfigurations, &options_.mutating_configuration},
      {&kValidatingWebhookConfigurations, &options_.validating_configuration},
  };
  for (const auto& [resource, name] : configurations) {
    if (name->empty()) {
      continue;
    }
    const Result<bool> written = ensureCaBundle(client_, *resource, *name, ca_pem);
    if (written.ok()) {
      if (*written) {
        options_.logger.info("webhook caBundle updated",
                             {{"resource", resource->resource}, {"name", *name}});
      }
      continue;
    }
    options_.logger.warn(
        k8s::isNotFound(written.status())
            ? "webhook configuration not found; its caBundle is set once it exists"
            : "failed to set the webhook caBundle",
        {{"resource", resource->resource}, {"name", *name}, {"error", written.status()}});
    if (first.isOk()) {
      first = written.status();
    }
  }
  return first;
}

void CertController::start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) {
    return;
  }
  thread_ = std::thread([this] { run(); });
}

void CertController::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) {
    thread_.join();
  }
}

void CertController::run() {
  nameThisThread("webhook-cert");
  std::chrono::milliseconds retry = options_.retry_interval;
  while (true) {
    const Status status = syncOnce();
    std::chrono::milliseconds wait = options_.check_interval;
    if (status.isOk()) {
      retry = options_.retry_interval;
    } else {
      wait = std::min(retry, options_.check_interval);
      retry = std::min(retry * 2, options_.check_interval);
    }
    std::unique_lock<std::mutex> lock(mu_);
    ++passes_;
    cv_.notify_all();
    if (clock_.waitUntil(lock, cv_, clock_.now() + wait, [this] { return stopping_; })) {
      return;
    }
  }
}

bool CertController::ready() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ready_;
}

std::optional<CertificateInfo> CertController::servingCertificate() const {
  std::lock_guard<std::mutex> lock(mu_);
  return serving_;
}

std::string CertController::caCertificate() const {
  std::lock_guard<std::mutex> lock(mu_);
  return written_ ? written_->ca.cert : "";
}

uint64_t CertController::passes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return passes_;
}

}  // namespace koord::manager::cert
