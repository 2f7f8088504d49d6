// Fuzz target for koord-descheduler's decoders (manager/descheduler/): the DeschedulerConfiguration
// loader, every built-in plugin's args decoder, and the PodMigrationJob helpers of the migration
// controller. Any input must give a value or an error, never a crash. Checked:
//  - the input as a DeschedulerConfiguration loads or fails with a message; a loaded one passes
//    or fails PluginRegistry::checkConfiguration with a message, and when it passes, its profiles
//    run one pass over a small cluster;
//  - the input as JSON is every built-in plugin's args: the factory gives a plugin (named as
//    registered, extending deschedule or balance) or an error with a message; the plugin runs
//    once over the cluster, into whose pods the same JSON is also written (topology spread
//    constraints, pod anti-affinity, container statuses, volumes), with a LimitedEvictor whose
//    sink checks that every victim is a pod of the cluster and that the limits hold;
//  - the input as a PodMigrationJob goes through job_status.hpp's helpers, the scavenger's age,
//    buildReservation with a pod of the cluster, and one arbitration.
//
// Input: a YAML document, or one JSON value (JSON is also YAML).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/resource/quantity.hpp"
#include "manager/descheduler/app/profile_runner.hpp"
#include "manager/descheduler/app/registry.hpp"
#include "manager/descheduler/config/descheduler_config.hpp"
#include "manager/descheduler/framework/default_evictor.hpp"
#include "manager/descheduler/framework/limited_evictor.hpp"
#include "manager/descheduler/framework/node_fit.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/framework/snapshot.hpp"
#include "manager/descheduler/migration/arbitration.hpp"
#include "manager/descheduler/migration/job_status.hpp"
#include "manager/descheduler/migration/migration_reservation.hpp"
#include "manager/descheduler/migration/scavenger.hpp"

namespace {

namespace core = koord::api::core;
namespace sched = koord::api::scheduling;
namespace ds = koord::manager::descheduler;
namespace fw = koord::manager::descheduler::framework;
namespace mig = koord::manager::descheduler::migration;
using koord::api::Json;
using koord::resource::Quantity;

// 2024-05-01T10:00:00Z, the pass's time.
constexpr std::chrono::system_clock::time_point kNow{std::chrono::seconds(1714557600)};
constexpr uint32_t kTotalLimit = 6;

void require(bool condition) {
  if (!condition)
    std::abort();
}

core::Node makeNode(const std::string& name, const std::string& zone) {
  core::Node node;
  node.metadata.name = name;
  node.metadata.uid = "uid-" + name;
  node.metadata.labels = {{"kubernetes.io/hostname", name}, {"zone", zone}};
  node.status.allocatable = {{"cpu", Quantity::fromInt(4)},
                             {"memory", *Quantity::parse("8Gi")},
                             {"pods", Quantity::fromInt(20)}};
  node.status.capacity = node.status.allocatable;
  core::NodeCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  node.status.conditions.push_back(ready);
  return node;
}

core::Pod makePod(const std::string& name, const std::string& node, const std::string& owner) {
  core::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + name;
  pod.metadata.labels = {{"app", owner}};
  pod.metadata.creationTimestamp = "2024-04-01T00:00:00Z";
  core::OwnerReference ref;
  ref.apiVersion = "apps/v1";
  ref.kind = "ReplicaSet";
  ref.name = owner;
  ref.uid = "uid-" + owner;
  ref.controller = true;
  pod.metadata.ownerReferences = {ref};
  pod.spec.nodeName = node;
  pod.spec.schedulerName = "koord-scheduler";
  core::Container container;
  container.name = "main";
  container.image = "nginx";
  container.resources.requests = {{"cpu", Quantity::fromMilli(500)},
                                  {"memory", *Quantity::parse("512Mi")}};
  pod.spec.containers.push_back(container);
  pod.status.phase = "Running";
  pod.status.startTime = "2024-04-01T00:00:10Z";
  core::PodCondition ready;
  ready.type = "Ready";
  ready.status = "True";
  pod.status.conditions.push_back(ready);
  return pod;
}

// Three nodes (one tainted), pods of two ReplicaSets, a restarting pod, a Failed pod, a pod whose
// node selector no node matches, and pods that carry `fuzz` where their models keep raw JSON.
std::vector<core::Pod> makePods(const Json* fuzz) {
  std::vector<core::Pod> pods;
  pods.reserve(14);
  const char* nodes[] = {"node-1", "node-1", "node-1", "node-2", "node-2", "node-3"};
  for (int i = 0; i < 6; ++i)
    pods.push_back(makePod("web-" + std::to_string(i), nodes[i], "web"));
  pods.push_back(makePod("db-0", "node-2", "db"));
  pods.back().spec.affinity.emplace().podAntiAffinity = Json::parse(
      R"({"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":)"
      R"({"app":"web"}},"topologyKey":"kubernetes.io/hostname"}]})");
  pods.push_back(makePod("restarting", "node-3", "db"));
  pods.back().status.containerStatuses =
      Json::parse(R"([{"name":"main","restartCount":30,"ready":false,)"
                  R"("state":{"waiting":{"reason":"CrashLoopBackOff"}}}])");
  pods.push_back(makePod("failed", "node-3", "db"));
  pods.back().status.phase = "Failed";
  pods.back().status.reason = "Evicted";
  pods.back().status.containerStatuses =
      Json::parse(R"([{"name":"main","restartCount":1,"state":{"terminated":{"exitCode":137,)"
                  R"("reason":"OOMKilled"}}}])");
  pods.push_back(makePod("misplaced", "node-1", "db"));
  pods.back().spec.nodeSelector = {{"zone", "z"}};
  pods.push_back(makePod("spread", "node-1", "web"));
  pods.back().spec.extra["topologySpreadConstraints"] =
      Json::parse(R"([{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",)"
                  R"("labelSelector":{"matchLabels":{"app":"web"}}}])");
  if (fuzz == nullptr)
    return pods;
  pods.push_back(makePod("fuzz-spec", "node-1", "web"));
  pods.back().spec.extra["topologySpreadConstraints"] = *fuzz;
  pods.back().spec.extra["volumes"] = *fuzz;
  pods.back().spec.affinity.emplace().podAntiAffinity = *fuzz;
  pods.back().spec.affinity->podAffinity = *fuzz;
  pods.push_back(makePod("fuzz-status", "node-2", "db"));
  pods.back().status.containerStatuses = *fuzz;
  pods.back().status.extra["initContainerStatuses"] = *fuzz;
  pods.back().status.phase = "Failed";
  core::Pod decoded;
  if (fromJson(*fuzz, decoded, "").isOk())
    pods.push_back(std::move(decoded));
  return pods;
}

fw::ClusterSnapshot makeSnapshot(const Json* fuzz) {
  fw::ClusterSnapshot::Input input;
  const char* zones[] = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i)
    input.nodes.push_back(
        std::make_shared<const core::Node>(makeNode("node-" + std::to_string(i + 1), zones[i])));
  auto tainted = std::make_shared<core::Node>(*input.nodes[0]);
  tainted->spec.taints.push_back({"dedicated", "infra", "NoSchedule", "", {}});
  input.nodes[0] = tainted;
  for (auto& pod : makePods(fuzz))
    input.pods.push_back(std::make_shared<const core::Pod>(std::move(pod)));
  const char* usages[] = {"3800m", "500m", "1"};
  for (int i = 0; i < 3; ++i) {
    auto metric = std::make_shared<koord::api::slo::NodeMetric>();
    metric->metadata.name = input.nodes[i]->metadata.name;
    metric->status.updateTime = "2024-05-01T09:59:30Z";
    metric->status.nodeMetric.emplace();
    metric->status.nodeMetric->nodeUsage.resources = {{"cpu", *Quantity::parse(usages[i])},
                                                      {"memory", *Quantity::parse("4Gi")}};
    for (const auto& pod : input.pods) {
      if (pod->spec.nodeName != metric->metadata.name)
        continue;
      koord::api::slo::PodMetricInfo info;
      info.name = pod->metadata.name;
      info.namespace_ = pod->metadata.namespace_;
      info.podUsage.resources = {{"cpu", Quantity::fromMilli(600)},
                                 {"memory", *Quantity::parse("256Mi")}};
      metric->status.podsMetric.push_back(info);
    }
    input.node_metrics.push_back(metric);
  }
  input.priority_classes = {{"high", 1000}, {"system-node-critical", 2000001000}};
  return fw::ClusterSnapshot::build(std::move(input));
}

std::string keyOf(const core::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name + "/" + pod.metadata.uid;
}

// A sink that only accepts pods of `snapshot`, and counts them.
struct CheckingSink {
  std::set<std::string> known;
  uint32_t count = 0;

  explicit CheckingSink(const fw::ClusterSnapshot& snapshot) {
    for (const auto& pod : snapshot.pods())
      known.insert(keyOf(*pod));
  }
  bool accept(const core::Pod& pod, const fw::EvictOptions& options) {
    require(known.count(keyOf(pod)) == 1 && !options.plugin.empty());
    ++count;
    return true;
  }
};

// 1. The input as a configuration file.
void checkConfiguration(const std::string& text, const fw::ClusterSnapshot& snapshot,
                        const ds::app::PluginRegistry& registry) {
  auto config = ds::config::loadDeschedulerConfiguration(text, "fuzz");
  if (!config.ok()) {
    require(!config.status().message().empty());
    return;
  }
  const koord::Status checked = registry.checkConfiguration(*config);
  if (!checked.isOk()) {
    require(!checked.message().empty());
    return;
  }
  auto runner = ds::app::ProfileRunner::create(*config, registry);
  if (!runner.ok()) {
    require(!runner.status().message().empty());
    return;
  }
  CheckingSink sink(snapshot);
  auto result = (*runner)->runPass(
      snapshot,
      [&sink](const core::Pod& pod, const fw::EvictOptions& options,
              const ds::app::ProfileContext&) { return sink.accept(pod, options); },
      {}, kNow);
  require(result.victims.size() == sink.count);
}

// 2. The input as every plugin's args.
void runPlugins(const Json& args, const fw::ClusterSnapshot& snapshot,
                const ds::app::PluginRegistry& registry) {
  fw::DefaultEvictorOptions options;
  if (auto decoded = fw::decodeDefaultEvictorArgs(args); decoded.ok())
    options = *decoded;
  auto filters = fw::DefaultEvictor::create(options);
  if (!filters.ok())
    filters = fw::DefaultEvictor::create({});
  require(filters.ok());
  for (const std::string& name : registry.names()) {
    CheckingSink sink(snapshot);
    fw::LimitedEvictor evictor(
        *filters, &snapshot, fw::EvictionLimits{4, std::nullopt, kTotalLimit},
        [&sink](const core::Pod& pod, const fw::EvictOptions& opts) {
          return sink.accept(pod, opts);
        },
        [] { return kNow; });
    fw::Handle handle;
    handle.snapshot = &snapshot;
    handle.evictor = &evictor;
    handle.pod_fits_any_other_node = fw::makePodFitsAnyOtherNode(handle);
    handle.now = kNow;
    const fw::Factory* factory = registry.find(name);
    require(factory != nullptr);
    auto plugin = (*factory)(args, handle);
    if (!plugin.ok()) {
      require(!plugin.status().message().empty());
      continue;
    }
    require(*plugin != nullptr && (*plugin)->name() == name);
    auto* deschedule = dynamic_cast<fw::DeschedulePlugin*>(plugin->get());
    auto* balance = dynamic_cast<fw::BalancePlugin*>(plugin->get());
    require(deschedule != nullptr || balance != nullptr);
    if (deschedule != nullptr) {
      const koord::Status status = deschedule->deschedule(snapshot.nodes());
      require(status.isOk() || !status.message().empty());
    }
    if (balance != nullptr) {
      const koord::Status status = balance->balance(snapshot.nodes());
      require(status.isOk() || !status.message().empty());
    }
    require(evictor.victims().size() == sink.count && sink.count <= kTotalLimit);
  }
}

class FixedArbitrationSnapshot final : public mig::ArbitrationSnapshot {
 public:
  FixedArbitrationSnapshot(std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs,
                           const fw::ClusterSnapshot& cluster)
      : jobs_(std::move(jobs)), cluster_(cluster) {}

  std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs() const override { return jobs_; }
  std::shared_ptr<const core::Pod> pod(const std::string& ns,
                                       const std::string& name) const override {
    for (const auto& pod : cluster_.pods()) {
      if (pod->metadata.namespace_ == ns && pod->metadata.name == name)
        return pod;
    }
    return nullptr;
  }
  std::optional<mig::Workload> workload(const std::string& ns,
                                        const core::OwnerReference& controller) const override {
    if (controller.uid != "uid-web" && controller.uid != "uid-db")
      return std::nullopt;
    mig::Workload out;
    out.expected_replicas = 5;
    for (const auto& pod : cluster_.pods()) {
      if (pod->metadata.namespace_ == ns && !pod->metadata.ownerReferences.empty() &&
          pod->metadata.ownerReferences[0].uid == controller.uid)
        out.pods.push_back(pod);
    }
    return out;
  }

 private:
  std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs_;
  const fw::ClusterSnapshot& cluster_;
};

// 3. The input as a PodMigrationJob.
void checkJob(const Json& json, const fw::ClusterSnapshot& snapshot) {
  sched::PodMigrationJob job;
  if (!fromJson(json, job, "").isOk())
    return;
  const ds::config::MigrationControllerArgs args;
  require(!mig::effectiveMode(job, args).empty());
  (void)mig::isEvictDirectly(job, args);
  require(!(mig::isTerminal(job) && (mig::isPending(job) || mig::isActive(job))));
  (void)mig::passedArbitration(job);
  (void)mig::podRefKey(job);
  (void)mig::jobReference(job);
  // A job created before now has a non-negative age, however long ago.
  if (auto created = koord::api::core::parseTime(job.metadata.creationTimestamp);
      created.ok() && *created <= kNow)
    require(mig::jobAge(job, kNow).count() >= 0);
  if (auto ttl = mig::jobTTL(job))
    require(ttl->count() > 0);
  require(mig::scavengeAge(job).count() > 0);
  auto shared = std::make_shared<const sched::PodMigrationJob>(job);
  require(mig::jobsToScavenge({shared}, kNow).size() <= 1);

  sched::PodMigrationJob edited = job;
  (void)mig::setCondition(edited.status, sched::kPodMigrationJobConditionEviction, "True",
                          sched::kPodMigrationJobReasonEvicting, "evicting", kNow);
  const auto* condition =
      mig::findCondition(edited.status, sched::kPodMigrationJobConditionEviction);
  require(condition != nullptr && condition->status == "True");
  require(!mig::setCondition(edited.status, sched::kPodMigrationJobConditionEviction, "True",
                             sched::kPodMigrationJobReasonEvicting, "evicting", kNow));

  fw::PodPtr target = snapshot.pods().front();
  for (const auto& pod : snapshot.pods()) {
    if (mig::refersTo(job, *pod))
      target = pod;
  }
  require(!mig::reservationOwners(*target).empty());
  auto reservation = mig::buildReservation(job, *target, kNow);
  if (reservation.ok()) {
    require(reservation->spec.allocateOnce.value_or(false));
    require(!reservation->spec.owners.empty());
    require(reservation->spec.template_ && reservation->spec.template_->spec.nodeName.empty());
    (void)mig::isReservationPending(*reservation);
    (void)mig::isReservationExpired(*reservation);
    (void)mig::isReservationSucceeded(*reservation);
    (void)mig::unschedulableCondition(*reservation);
    (void)mig::boundPod(*reservation, snapshot.pods());
  } else {
    require(!reservation.status().message().empty());
  }

  FixedArbitrationSnapshot arbitration({shared}, snapshot);
  for (const auto& verdict : mig::arbitrate(arbitration, args)) {
    require(verdict.job != nullptr);
    require(verdict.verdict == mig::Verdict::kPass || !verdict.reason.empty());
  }
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto registry = ds::app::PluginRegistry::builtIn();
  auto json = koord::api::parseJson(text);
  const fw::ClusterSnapshot snapshot = makeSnapshot(json.ok() ? &*json : nullptr);
  checkConfiguration(text, snapshot, registry);
  if (!json.ok())
    return 0;
  runPlugins(*json, snapshot, registry);
  checkJob(*json, snapshot);
  return 0;
}
