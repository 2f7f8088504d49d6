#include "manager/descheduler/app/profile_runner.hpp"

#include <map>
#include <utility>

#include "koord/api/core/selectors.hpp"
#include "manager/descheduler/framework/default_evictor.hpp"
#include "manager/descheduler/framework/node_fit.hpp"

namespace koord::manager::descheduler::app {

namespace profilerunner_detail {

// A profile's view of the pass's evictor: its own filters, the shared limits and sink.
class ProfileEvictor final : public framework::Evictor {
 public:
  ProfileEvictor(const framework::LimitedEvictor& filters, framework::LimitedEvictor& shared,
                 const PodPredicate& has_active_job, const migration::ArbitrationSnapshot* jobs,
                 const ProfileContext* context, const ProfileContext*& current,
                 const log::Logger& logger)
      : filters_(filters),
        shared_(shared),
        has_active_job_(has_active_job),
        jobs_(jobs),
        context_(context),
        current_(current),
        logger_(logger) {}

  [[nodiscard]] bool filter(const api::core::Pod& pod) const override {
    if (has_active_job_ && has_active_job_(pod)) {
      return false;
    }
    if (!filters_.filter(pod)) {
      return false;
    }
    if (jobs_ == nullptr || context_->args.dry_run) {
      return true;
    }
    if (auto reason = migration::migrationLimitReached(*jobs_, pod, context_->args)) {
      logger_.debug(
          "Pod fails the migration limits",
          {{"pod", pod.metadata.namespace_ + "/" + pod.metadata.name}, {"reason", *reason}});
      return false;
    }
    return true;
  }
  [[nodiscard]] bool preEvictionFilter(const api::core::Pod& pod) const override {
    return filters_.preEvictionFilter(pod);
  }
  bool evict(const api::core::Pod& pod, const framework::EvictOptions& options) override {
    current_ = context_;
    const bool evicted = shared_.evict(pod, options);
    current_ = nullptr;
    return evicted;
  }
  [[nodiscard]] bool nodeLimitExceeded(const api::core::Node& node) const override {
    return shared_.nodeLimitExceeded(node);
  }

 private:
  const framework::LimitedEvictor& filters_;
  framework::LimitedEvictor& shared_;
  const PodPredicate& has_active_job_;
  const migration::ArbitrationSnapshot* jobs_;
  const ProfileContext* context_;
  const ProfileContext*& current_;
  const log::Logger& logger_;
};

std::optional<uint32_t> limitOf(const std::optional<int64_t>& value) {
  if (!value || *value < 0) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(*value);
}

bool matches(const std::optional<api::core::LabelSelector>& selector, const api::core::Node& node) {
  if (!selector) {
    return true;
  }
  auto matched = api::core::matchesLabelSelector(*selector, node.metadata.labels);
  return matched.ok() && *matched;
}

std::string joinErrors(const std::vector<std::string>& errors) {
  std::string out;
  for (const std::string& error : errors) {
    out += (out.empty() ? "" : "; ") + error;
  }
  return out;
}

bool enabledAnywhere(const config::Plugins& plugins, std::string_view name) {
  return plugins.evict.isEnabled(name) || plugins.filter.isEnabled(name);
}

}  // namespace profilerunner_detail

namespace prd = profilerunner_detail;

struct ProfileRunner::Profile {
  std::string name;
  config::MigrationControllerArgs args;
  std::optional<framework::DefaultEvictor> filters;
  std::optional<api::core::LabelSelector> node_selector;
  framework::Handle handle;
  std::vector<std::unique_ptr<framework::Plugin>> owned;
  std::vector<std::pair<std::string, framework::DeschedulePlugin*>> deschedule;
  std::vector<std::pair<std::string, framework::BalancePlugin*>> balance;
};

namespace profilerunner_detail {

Result<framework::DefaultEvictor> profileFilters(const config::DeschedulerProfile& profile,
                                                 const config::MigrationControllerArgs& args) {
  framework::DefaultEvictorOptions options;
  if (enabledAnywhere(profile.plugins, framework::kDefaultEvictorName)) {
    const config::PluginConfig* entry = profile.pluginConfig(framework::kDefaultEvictorName);
    KOORD_ASSIGN_OR_RETURN(options, framework::decodeDefaultEvictorArgs(
                                        entry == nullptr ? nlohmann::json() : entry->args));
  } else {
    options = framework::defaultEvictorOptionsFrom(args);
  }
  return framework::DefaultEvictor::create(std::move(options));
}

// The plugin named `name` of `profile`, created once and kept in `built`.
Result<framework::Plugin*> pluginFor(const config::DeschedulerProfile& profile,
                                     const PluginRegistry& registry, const std::string& name,
                                     ProfileRunner::Profile& out,
                                     std::map<std::string, framework::Plugin*>& built) {
  if (auto it = built.find(name); it != built.end()) {
    return it->second;
  }
  const framework::Factory* factory = registry.find(name);
  if (factory == nullptr) {
    return Status::invalidArgument("unknown plugin " + name);
  }
  const config::PluginConfig* entry = profile.pluginConfig(name);
  auto plugin = (*factory)(entry == nullptr ? nlohmann::json() : entry->args, out.handle);
  if (!plugin.ok()) {
    return plugin.status();
  }
  framework::Plugin* raw = plugin->get();
  out.owned.push_back(std::move(*plugin));
  built.emplace(name, raw);
  return raw;
}

Status buildProfile(const config::DeschedulerProfile& profile, const PluginRegistry& registry,
                    ProfileRunner::Profile& out) {
  out.name = profile.name;
  out.node_selector = profile.node_selector;
  if (const config::PluginConfig* entry = profile.pluginConfig(config::kMigrationControllerName);
      entry != nullptr && entry->migration_controller) {
    out.args = *entry->migration_controller;
  }
  auto filters = profileFilters(profile, out.args);
  if (!filters.ok()) {
    return filters.status();
  }
  out.filters.emplace(std::move(*filters));
  std::map<std::string, framework::Plugin*> built;
  for (const std::string& name : profile.plugins.deschedule.enabled) {
    KOORD_ASSIGN_OR_RETURN(framework::Plugin * plugin,
                           pluginFor(profile, registry, name, out, built));
    auto* typed = dynamic_cast<framework::DeschedulePlugin*>(plugin);
    if (typed == nullptr) {
      return Status::invalidArgument("plugin " + name + " does not extend deschedule plugin");
    }
    out.deschedule.emplace_back(name, typed);
  }
  for (const std::string& name : profile.plugins.balance.enabled) {
    KOORD_ASSIGN_OR_RETURN(framework::Plugin * plugin,
                           pluginFor(profile, registry, name, out, built));
    auto* typed = dynamic_cast<framework::BalancePlugin*>(plugin);
    if (typed == nullptr) {
      return Status::invalidArgument("plugin " + name + " does not extend balance plugin");
    }
    out.balance.emplace_back(name, typed);
  }
  return Status::ok();
}

}  // namespace profilerunner_detail

ProfileRunner::ProfileRunner(const config::DeschedulerConfiguration& config, log::Logger logger)
    : limits_{prd::limitOf(config.max_no_of_pods_to_evict_per_node),
              prd::limitOf(config.max_no_of_pods_to_evict_per_namespace),
              prd::limitOf(config.max_no_of_pods_to_evict_total)},
      node_selector_(config.node_selector),
      logger_(std::move(logger)) {}

ProfileRunner::~ProfileRunner() = default;

Result<std::unique_ptr<ProfileRunner>> ProfileRunner::create(
    const config::DeschedulerConfiguration& config, const PluginRegistry& registry,
    const log::Logger& logger) {
  KOORD_RETURN_IF_ERROR(registry.checkConfiguration(config));
  if (config.profiles.empty()) {
    return Status::invalidArgument("at least one profile is required");
  }
  std::unique_ptr<ProfileRunner> runner(new ProfileRunner(config, logger));
  for (const config::DeschedulerProfile& profile : config.profiles) {
    auto built = std::make_unique<Profile>();
    built->handle.logger = logger;
    built->handle.pod_fits_any_other_node = framework::makePodFitsAnyOtherNode(built->handle);
    if (Status status = prd::buildProfile(profile, registry, *built); !status.isOk()) {
      return status.withPrefix("profile \"" + profile.name + "\"");
    }
    runner->profiles_.push_back(std::move(built));
  }
  return runner;
}

std::vector<std::string> ProfileRunner::pluginOrder() const {
  std::vector<std::string> out;
  for (const auto& profile : profiles_) {
    for (const auto& [name, plugin] : profile->deschedule) {
      out.push_back(profile->name + "/" + name);
    }
  }
  for (const auto& profile : profiles_) {
    for (const auto& [name, plugin] : profile->balance) {
      out.push_back(profile->name + "/" + name);
    }
  }
  return out;
}

PassResult ProfileRunner::runPass(const framework::ClusterSnapshot& snapshot,
                                  const VictimSink& sink, const PodPredicate& has_active_job,
                                  std::chrono::system_clock::time_point now,
                                  const migration::ArbitrationSnapshot* jobs) {
  PassResult result;
  auto ready = framework::readyNodes(snapshot, "");
  if (!ready.ok()) {
    result.status = ready.status().withPrefix("unable to get ready nodes");
    return result;
  }
  framework::NodeList nodes;
  for (const auto& node : *ready) {
    if (prd::matches(node_selector_, *node)) {
      nodes.push_back(node);
    }
  }
  result.nodes = nodes.size();
  if (nodes.size() <= 1) {
    result.status = Status::failedPrecondition(
        "the cluster size is 0 or 1 meaning eviction causes service disruption or degradation");
    return result;
  }
  const ProfileContext* current = nullptr;
  framework::EvictSink shared_sink = [&sink, &current](const api::core::Pod& pod,
                                                       const framework::EvictOptions& options) {
    return current != nullptr && sink && sink(pod, options, *current);
  };
  const framework::NowFunc clock = [now] { return now; };
  framework::LimitedEvictor shared(*profiles_.front()->filters, &snapshot, limits_,
                                   std::move(shared_sink), clock, logger_);
  std::vector<std::unique_ptr<framework::LimitedEvictor>> filters;
  std::vector<std::unique_ptr<ProfileContext>> contexts;
  std::vector<std::unique_ptr<prd::ProfileEvictor>> evictors;
  std::vector<framework::NodeList> profile_nodes;
  for (const auto& profile : profiles_) {
    filters.push_back(std::make_unique<framework::LimitedEvictor>(
        *profile->filters, &snapshot, framework::EvictionLimits{}, framework::EvictSink{}, clock,
        logger_));
    contexts.push_back(
        std::make_unique<ProfileContext>(ProfileContext{profile->name, profile->args}));
    evictors.push_back(std::make_unique<prd::ProfileEvictor>(
        *filters.back(), shared, has_active_job, jobs, contexts.back().get(), current, logger_));
    profile->handle.snapshot = &snapshot;
    profile->handle.evictor = evictors.back().get();
    profile->handle.now = now;
    framework::NodeList mine;
    for (const auto& node : nodes) {
      if (prd::matches(profile->node_selector, *node)) {
        mine.push_back(node);
      }
    }
    profile_nodes.push_back(std::move(mine));
  }
  std::vector<std::string> errors;
  for (size_t i = 0; i < profiles_.size(); ++i) {
    for (const auto& [name, plugin] : profiles_[i]->deschedule) {
      if (Status status = plugin->deschedule(profile_nodes[i]); !status.isOk()) {
        errors.push_back(profiles_[i]->name + "/" + name + ": " + status.message());
      }
    }
  }
  if (errors.empty()) {
    for (size_t i = 0; i < profiles_.size(); ++i) {
      for (const auto& [name, plugin] : profiles_[i]->balance) {
        if (Status status = plugin->balance(profile_nodes[i]); !status.isOk()) {
          errors.push_back(profiles_[i]->name + "/" + name + ": " + status.message());
        }
      }
    }
  }
  for (const auto& profile : profiles_) {
    profile->handle.snapshot = nullptr;
    profile->handle.evictor = nullptr;
  }
  result.victims = shared.victims();
  if (!errors.empty()) {
    result.status = Status::internal(prd::joinErrors(errors));
  }
  return result;
}

}  // namespace koord::manager::descheduler::app
