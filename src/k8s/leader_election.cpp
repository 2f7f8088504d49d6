#include "koord/k8s/leader_election.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <thread>
#include <utility>
#include <vector>

#include "koord/common/thread_name.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::k8s {

namespace {

// client-go's leaderelection JitterFactor: a retry waits retryPeriod * [1, 2.2).
constexpr double kJitterFactor = 1.2;

std::string joinErrors(const std::vector<std::string>& errors) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) {
      out += "; ";
    }
    out += e;
  }
  return out;
}

}  // namespace

std::string formatMicroTime(std::chrono::system_clock::time_point t) {
  const auto secs = std::chrono::floor<std::chrono::seconds>(t);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(t - secs).count();
  const std::time_t tt = std::chrono::system_clock::to_time_t(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char date[32];
  const size_t n = std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof(out), "%.*s.%06lldZ", static_cast<int>(n), date,
                static_cast<long long>(micros));
  return out;
}

Result<std::unique_ptr<LeaderElector>> LeaderElector::create(Client& client,
                                                             LeaderElectionConfig config) {
  std::vector<std::string> errors;
  if (config.lease_name.empty()) {
    errors.emplace_back("lease_name: must not be empty");
  }
  if (config.lease_namespace.empty()) {
    errors.emplace_back("lease_namespace: must not be empty");
  }
  if (config.identity.empty()) {
    errors.emplace_back("identity: must not be empty");
  }
  if (config.lease_duration < std::chrono::seconds(1)) {
    errors.emplace_back("lease_duration: must be at least 1s");
  }
  if (config.renew_deadline <= std::chrono::milliseconds::zero()) {
    errors.emplace_back("renew_deadline: must be greater than zero");
  }
  if (config.retry_period <= std::chrono::milliseconds::zero()) {
    errors.emplace_back("retry_period: must be greater than zero");
  }
  if (config.lease_duration <= config.renew_deadline) {
    errors.emplace_back("lease_duration: must be greater than renew_deadline");
  }
  if (config.renew_deadline.count() <=
      static_cast<int64_t>(kJitterFactor * static_cast<double>(config.retry_period.count()))) {
    errors.emplace_back("renew_deadline: must be greater than retry_period * 1.2");
  }
  if (!errors.empty()) {
    return Status::invalidArgument("failed to create leader elector for lease '" +
                                   config.lease_namespace + "/" + config.lease_name +
                                   "': " + joinErrors(errors));
  }
  return std::unique_ptr<LeaderElector>(new LeaderElector(client, std::move(config)));
}

LeaderElector::LeaderElector(Client& client, LeaderElectionConfig config)
    : client_(client), config_(std::move(config)), rng_(std::random_device{}()) {
  if (config_.clock == nullptr) {
    owned_clock_ = std::make_unique<RealClock>();
    clock_ = owned_clock_.get();
  } else {
    clock_ = config_.clock;
  }
  if (!config_.wall_clock) {
    config_.wall_clock = [] { return std::chrono::system_clock::now(); };
  }
  config_.logger =
      config_.logger.withFields({{"lease", config_.lease_namespace + "/" + config_.lease_name},
                                 {"identity", config_.identity}});
}

LeaderElector::~LeaderElector() {
  stop();
}

void LeaderElector::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_requested_ = true;
  }
  cv_.notify_all();
}

bool LeaderElector::isLeader() const {
  std::lock_guard<std::mutex> lock(mu_);
  return leading_ && observed_.holder == config_.identity;
}

std::string LeaderElector::leader() const {
  std::lock_guard<std::mutex> lock(mu_);
  return observed_.holder;
}

bool LeaderElector::stopRequested() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_requested_;
}

bool LeaderElector::waitOrStop(Clock::TimePoint deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  return clock_->waitUntil(lock, cv_, deadline, [this] { return stop_requested_; });
}

Clock::Duration LeaderElector::jitteredRetryPeriod() {
  std::uniform_real_distribution<double> dist(0.0, kJitterFactor);
  const auto base = std::chrono::duration_cast<Clock::Duration>(config_.retry_period);
  return base + std::chrono::duration_cast<Clock::Duration>(
                    std::chrono::duration<double, Clock::Duration::period>(
                        static_cast<double>(base.count()) * dist(rng_)));
}

void LeaderElector::run() {
  if (stopRequested() || !acquire()) {
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    leading_ = true;
  }
  config_.logger.info("acquired lease");
  std::jthread leading_thread;
  if (config_.on_started_leading) {
    leading_thread =
        std::jthread([callback = config_.on_started_leading](const std::stop_token& token) {
          nameThisThread("koord-leading");
          callback(token);
        });
  }
  const bool stopped = renewLoop();
  {
    std::lock_guard<std::mutex> lock(mu_);
    leading_ = false;
  }
  if (leading_thread.joinable()) {
    leading_thread.request_stop();
    leading_thread.join();
  }
  if (stopped) {
    config_.logger.info("stopped leading on request");
    if (config_.release_on_cancel) {
      release();
    }
  } else {
    config_.logger.warn("lost lease: no renewal succeeded within the renew deadline",
                        {{"renew_deadline", config_.renew_deadline}});
  }
  if (config_.on_stopped_leading) {
    config_.on_stopped_leading();
  }
}

bool LeaderElector::acquire() {
  while (true) {
    const bool acquired = tryAcquireOrRenew();
    reportTransition();
    if (acquired) {
      return true;
    }
    if (waitOrStop(clock_->now() + jitteredRetryPeriod())) {
      return false;
    }
  }
}

bool LeaderElector::renewLoop() {
  const auto retry = std::chrono::duration_cast<Clock::Duration>(config_.retry_period);
  while (!stopRequested()) {
    const auto deadline =
        clock_->now() + std::chrono::duration_cast<Clock::Duration>(config_.renew_deadline);
    bool renewed = false;
    while (true) {
      if (tryAcquireOrRenew()) {
        renewed = true;
        break;
      }
      if (clock_->now() >= deadline) {
        break;
      }
      if (waitOrStop(std::min(clock_->now() + retry, deadline))) {
        return true;
      }
      if (clock_->now() >= deadline) {
        break;
      }
    }
    reportTransition();
    if (!renewed) {
      return false;
    }
    if (waitOrStop(clock_->now() + retry)) {
      return true;
    }
  }
  return true;
}

LeaderElector::Record LeaderElector::newRecord() const {
  const std::string now = formatMicroTime(config_.wall_clock());
  Record r;
  r.holder = config_.identity;
  r.lease_duration_seconds = static_cast<int32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count());
  r.acquire_time = now;
  r.renew_time = now;
  return r;
}

bool LeaderElector::observedIsMine() const {
  std::lock_guard<std::mutex> lock(mu_);
  return observed_.holder == config_.identity;
}

bool LeaderElector::leaseValid(Clock::TimePoint now) const {
  std::lock_guard<std::mutex> lock(mu_);
  return observed_time_ + std::chrono::seconds(observed_.lease_duration_seconds) > now;
}

void LeaderElector::setObserved(const Record& record, api::core::Lease lease,
                                Clock::TimePoint now) {
  lease_ = std::move(lease);
  std::lock_guard<std::mutex> lock(mu_);
  observed_ = record;
  observed_time_ = now;
}

Result<api::core::Lease> LeaderElector::writeLease(const api::core::Lease& base,
                                                   const Record& record, bool create) {
  api::core::Lease lease = base;
  lease.apiVersion = kLeases.apiVersion();
  lease.kind = "Lease";
  lease.metadata.name = config_.lease_name;
  lease.metadata.namespace_ = config_.lease_namespace;
  lease.spec.holderIdentity = record.holder;
  lease.spec.leaseDurationSeconds = record.lease_duration_seconds;
  lease.spec.acquireTime = record.acquire_time;
  lease.spec.renewTime = record.renew_time;
  lease.spec.leaseTransitions = record.transitions;
  Json body = toJson(lease);
  auto written = create ? client_.create(kLeases, config_.lease_namespace, body)
                        : client_.update(kLeases, config_.lease_namespace, body);
  if (!written.ok()) {
    return written.status();
  }
  return decodeObject<api::core::Lease>(std::move(written).value());
}

LeaderElector::Record LeaderElector::recordOf(const api::core::Lease& lease) {
  Record r;
  r.holder = lease.spec.holderIdentity.value_or("");
  r.lease_duration_seconds = lease.spec.leaseDurationSeconds.value_or(0);
  r.acquire_time = lease.spec.acquireTime.value_or("");
  r.renew_time = lease.spec.renewTime.value_or("");
  r.transitions = lease.spec.leaseTransitions.value_or(0);
  return r;
}

bool LeaderElector::tryAcquireOrRenew() {
  Record record = newRecord();

  // Fast path: the leader renews the Lease it last wrote, assuming nobody else changed it.
  if (observedIsMine() && leaseValid(clock_->now())) {
    Record observed;
    {
      std::lock_guard<std::mutex> lock(mu_);
      observed = observed_;
    }
    record.acquire_time = observed.acquire_time;
    record.transitions = observed.transitions;
    auto written = writeLease(lease_, record, false);
    if (written.ok()) {
      setObserved(record, std::move(written).value(), clock_->now());
      return true;
    }
    config_.logger.warn("failed to renew lease optimistically, re-reading it",
                        {{"error", written.status()}});
  }

  auto got = client_.get(kLeases, config_.lease_namespace, config_.lease_name);
  if (!got.ok()) {
    if (!isNotFound(got.status())) {
      config_.logger.warn("failed to get lease", {{"error", got.status()}});
      return false;
    }
    auto created = writeLease(api::core::Lease{}, record, true);
    if (!created.ok()) {
      config_.logger.warn("failed to create lease", {{"error", created.status()}});
      return false;
    }
    setObserved(record, std::move(created).value(), clock_->now());
    return true;
  }
  auto lease = decodeObject<api::core::Lease>(std::move(got).value());
  if (!lease.ok()) {
    config_.logger.warn("failed to decode lease", {{"error", lease.status()}});
    return false;
  }
  const Record old = recordOf(*lease);
  bool changed = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    changed = !(old == observed_);
  }
  if (changed) {
    setObserved(old, std::move(lease).value(), clock_->now());
  } else {
    lease_ = std::move(lease).value();
  }
  const bool mine = observedIsMine();
  if (!old.holder.empty() && !mine && leaseValid(clock_->now())) {
    return false;
  }

  if (mine) {
    record.acquire_time = old.acquire_time;
    record.transitions = old.transitions;
  } else {
    record.transitions = old.transitions + 1;
  }
  auto written = writeLease(lease_, record, false);
  if (!written.ok()) {
    if (isConflict(written.status())) {
      config_.logger.info("lost the race for the lease", {{"error", written.status()}});
    } else {
      config_.logger.warn("failed to update lease", {{"error", written.status()}});
    }
    return false;
  }
  setObserved(record, std::move(written).value(), clock_->now());
  return true;
}

void LeaderElector::release() {
  if (!observedIsMine()) {
    return;
  }
  Record record;
  {
    std::lock_guard<std::mutex> lock(mu_);
    record.transitions = observed_.transitions;
  }
  record.lease_duration_seconds = 1;
  record.acquire_time = formatMicroTime(config_.wall_clock());
  record.renew_time = record.acquire_time;
  auto written = writeLease(lease_, record, false);
  if (!written.ok()) {
    config_.logger.warn("failed to release lease", {{"error", written.status()}});
    return;
  }
  setObserved(record, std::move(written).value(), clock_->now());
  config_.logger.info("released lease");
}

void LeaderElector::reportTransition() {
  std::string holder;
  {
    std::lock_guard<std::mutex> lock(mu_);
    holder = observed_.holder;
  }
  if (holder == reported_leader_) {
    return;
  }
  reported_leader_ = holder;
  if (!holder.empty()) {
    config_.logger.info("new leader observed", {{"leader", holder}});
    if (config_.on_new_leader) {
      config_.on_new_leader(holder);
    }
  }
}

}  // namespace koord::k8s
