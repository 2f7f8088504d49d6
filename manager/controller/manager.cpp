#include "manager/controller/manager.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <utility>

#include "koord/common/thread_name.hpp"

namespace koord::manager::controller {
namespace {

class ControllerRunnable final : public Runnable {
 public:
  explicit ControllerRunnable(std::shared_ptr<Controller> controller)
      : controller_(std::move(controller)) {}
  [[nodiscard]] std::string name() const override { return controller_->name(); }
  void run(std::stop_token stop) override { controller_->run(std::move(stop)); }

 private:
  std::shared_ptr<Controller> controller_;
};

}  // namespace

std::string defaultIdentity() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) {
    host[0] = '\0';
  }
  std::random_device random;
  const uint64_t suffix = (static_cast<uint64_t>(random()) << 32) ^ random();
  char hex[17] = {};
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(suffix));
  return std::string(host[0] != '\0' ? host : "koord-manager") + "_" + hex;
}

Result<std::unique_ptr<Manager>> Manager::create(k8s::Client& client, ManagerOptions options) {
  if (options.election.identity.empty()) {
    options.election.identity = defaultIdentity();
  }
  std::unique_ptr<Manager> manager(new Manager(client, std::move(options)));
  if (manager->options_.election.leader_elect) {
    // Validates the durations, names and identity once, up front.
    KOORD_ASSIGN_OR_RETURN(auto probe,
                           k8s::LeaderElector::create(client, manager->electionConfig()));
    (void)probe;
  }
  if (manager->options_.metrics != nullptr) {
    KOORD_ASSIGN_OR_RETURN(manager->leader_gauge_,
                           manager->options_.metrics->gauge(
                               "koord_manager_leader",
                               "1 while this koord-manager replica leads (its controllers run), "
                               "0 otherwise."));
    manager->leader_gauge_.set(0);
  }
  return manager;
}

Manager::Manager(k8s::Client& client, ManagerOptions options)
    : client_(client), options_(std::move(options)) {}

Manager::~Manager() {
  stop();
}

Status Manager::add(std::shared_ptr<Runnable> runnable) {
  if (runnable == nullptr) {
    return Status::invalidArgument("cannot add a null runnable");
  }
  if (started_) {
    return Status::failedPrecondition("cannot add '" + runnable->name() +
                                      "': the manager has started");
  }
  for (const auto& existing : runnables_) {
    if (existing->name() == runnable->name()) {
      return Status::alreadyExists("a runnable named '" + runnable->name() + "' was added before");
    }
  }
  runnables_.push_back(std::move(runnable));
  return Status::ok();
}

Status Manager::add(std::shared_ptr<Controller> controller) {
  if (controller == nullptr) {
    return Status::invalidArgument("cannot add a null controller");
  }
  return add(std::make_shared<ControllerRunnable>(std::move(controller)));
}

k8s::LeaderElectionConfig Manager::electionConfig() {
  k8s::LeaderElectionConfig config;
  config.lease_namespace = options_.election.lease_namespace;
  config.lease_name = options_.election.lease_name;
  config.identity = options_.election.identity;
  config.lease_duration = options_.election.lease_duration;
  config.renew_deadline = options_.election.renew_deadline;
  config.retry_period = options_.election.retry_period;
  config.clock = options_.clock;
  config.wall_clock = options_.wall_clock;
  config.logger = options_.logger;
  config.release_on_cancel = true;
  config.on_started_leading = [this](std::stop_token stop) {
    nameThisThread("koord-leading");
    runAll(std::move(stop));
  };
  config.on_new_leader = [this](const std::string& identity) {
    {
      std::lock_guard lock(mu_);
      last_leader_ = identity;
    }
    if (identity != options_.election.identity) {
      options_.logger.info("another replica leads", {{"leader", identity}});
    }
  };
  return config;
}

void Manager::setLeading(bool leading) {
  leading_.store(leading);
  leader_gauge_.set(leading ? 1 : 0);
  if (leading) {
    terms_.fetch_add(1);
  }
  options_.logger.info(
      leading ? "started leading: the controllers run here"
              : "stopped leading: the controllers stopped",
      {{"identity", options_.election.identity},
       {"lease", options_.election.lease_namespace + "/" + options_.election.lease_name},
       {"runnables", static_cast<int64_t>(runnables_.size())}});
  if (options_.on_leading_changed) {
    options_.on_leading_changed(leading);
  }
}

void Manager::runAll(std::stop_token stop) {
  setLeading(true);
  {
    std::vector<std::jthread> threads;
    threads.reserve(runnables_.size());
    for (const auto& runnable : runnables_) {
      threads.emplace_back([this, runnable, stop] {
        try {
          runnable->run(stop);
        } catch (const std::exception& e) {
          options_.logger.error("runnable threw",
                                {{"runnable", runnable->name()}, {"error", e.what()}});
        } catch (...) {
          options_.logger.error("runnable threw", {{"runnable", runnable->name()}});
        }
      });
    }
    // Leading lasts until `stop` whether or not there is anything to run.
    std::mutex wait_mu;
    std::condition_variable_any wait_cv;
    std::unique_lock lock(wait_mu);
    wait_cv.wait(lock, stop, [] { return false; });
  }  // joins every runnable
  setLeading(false);
}

void Manager::start() {
  if (started_) {
    return;
  }
  started_ = true;
  thread_ = std::jthread([this](std::stop_token stop) {
    nameThisThread("koord-elector");
    campaign(std::move(stop));
  });
}

void Manager::campaign(std::stop_token stop) {
  if (!options_.election.leader_elect) {
    runAll(std::move(stop));
    return;
  }
  while (!stop.stop_requested()) {
    auto elector = k8s::LeaderElector::create(client_, electionConfig());
    if (!elector.ok()) {  // validated by create(): cannot happen
      options_.logger.error("leader election", {{"error", elector.status()}});
      return;
    }
    k8s::LeaderElector* current = elector->get();
    {
      std::lock_guard lock(mu_);
      if (stopping_) {
        return;
      }
      elector_ = std::move(*elector);
    }
    current->run();
    if (!stop.stop_requested()) {
      options_.logger.warn("lost the Lease; campaigning again",
                           {{"identity", options_.election.identity}});
    }
  }
}

void Manager::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    if (elector_ != nullptr) {
      elector_->stop();
    }
  }
  thread_.request_stop();
  if (thread_.joinable()) {
    thread_.join();
  }
}

bool Manager::isLeader() const {
  return leading_.load();
}

std::string Manager::leader() const {
  std::lock_guard lock(mu_);
  if (elector_ != nullptr) {
    return elector_->leader();
  }
  return last_leader_;
}

}  // namespace koord::manager::controller
