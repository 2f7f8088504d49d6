#include "agent/app/daemon.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include "agent/devices/dlopen_nvml.hpp"
#include "agent/devices/gpu_discovery.hpp"
#include "agent/metriccache/metric_cache.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/metricsadvisor/metrics_advisor.hpp"
#include "agent/qosmanager/framework/evictor.hpp"
#include "agent/qosmanager/framework/scheduler.hpp"
#include "agent/qosmanager/strategies/builtin.hpp"
#include "agent/qosmanager/strategies/runtime_reconcile/runtime_reconcile.hpp"
#include "agent/reporters/device_report.hpp"
#include "agent/reporters/kubelet_state.hpp"
#include "agent/reporters/node_metric.hpp"
#include "agent/reporters/node_topology.hpp"
#include "agent/reporters/object_sync.hpp"
#include "agent/reporters/problem_events.hpp"
#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "agent/resourceexecutor/cgroup_resource_executor.hpp"
#include "agent/statesinformer/kube_states_informer.hpp"
#include "agent/system/cgroup_layout.hpp"
#include "agent/system/cpu_topology.hpp"
#include "agent/system/numa_memory.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/thread_name.hpp"
#include "koord/http/server.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/rest_client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/metrics/exposer.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::app {

namespace {

using Millis = std::chrono::milliseconds;
constexpr Millis kMinBackoff{1000};
constexpr Millis kMaxBackoff{300000};
constexpr Millis kStopGrace{2000};

// What discovery found at start.
struct Host {
  system::CpuTopology cpus;
  std::vector<system::NumaMemory> memory;
  system::CgroupLayout layout;
  // Whether libnvidia-ml loaded at start. It is loaded again for each Device report and unloaded
  // right after: loaded and initialised, NVML keeps about 20 MiB resident (measured on an H200
  // host), more than the rest of the agent.
  bool has_nvml = false;
};

Result<Host> discover(const DaemonOptions& options, const log::Logger& logger) {
  Host host;
  const std::filesystem::path root = options.paths.sys_root.parent_path();
  KOORD_ASSIGN_OR_RETURN(host.cpus, system::discoverCpuTopology(root));
  KOORD_ASSIGN_OR_RETURN(host.memory, system::discoverNumaMemory(root));
  system::CgroupLayoutOptions layout_options;
  layout_options.driver = options.cgroup_driver;
  layout_options.cgroup_root = options.kubelet_cgroup_root;
  layout_options.kubelet_config = options.kubelet_config.empty()
                                      ? options.kubelet_root_dir / "config.yaml"
                                      : options.kubelet_config;
  KOORD_ASSIGN_OR_RETURN(host.layout, system::discoverCgroupLayout(options.paths, layout_options));
  Result<std::unique_ptr<devices::Nvml>> nvml = devices::DlopenNvml::create(options.nvml_library);
  if (nvml.ok()) {
    host.has_nvml = true;
  } else {
    logger.info("no NVML library: no GPUs reported", {{"reason", nvml.status().message()}});
  }
  logger.info("discovered the host", {{"cpus", host.cpus.cpus.size()},
                                      {"numaNodes", host.cpus.numa_nodes},
                                      {"cgroup", system::toString(host.layout.version)},
                                      {"driver", system::toString(host.layout.driver)},
                                      {"kubepods", host.layout.kubepods.string()},
                                      {"cfsBurst", host.layout.cfs_burst}});
  return host;
}

// Exponential backoff for one kind of report.
class Backoff {
 public:
  [[nodiscard]] bool ready(Clock::TimePoint now) const { return now >= next_; }
  void failed(Clock::TimePoint now) {
    delay_ = delay_.count() == 0 ? kMinBackoff : std::min(delay_ * 2, kMaxBackoff);
    next_ = now + delay_;
  }
  void succeeded() { delay_ = Millis(0); }

 private:
  Millis delay_{0};
  Clock::TimePoint next_{};
};

// Whether the API server refused a write for its size (413, or etcd's "request is too large"):
// the same write would be refused again.
bool tooLarge(const Status& status) {
  return (status.code() == StatusCode::kResourceExhausted && !k8s::isTooManyRequests(status)) ||
         status.message().find("request is too large") != std::string::npos;
}

class Daemon {
 public:
  Daemon(const DaemonOptions& options, const log::Logger& logger, Host host, k8s::Client& client,
         statesinformer::StatesInformer& states, metrics::MetricsRegistry& registry,
         reporters::ProblemEvents::Sink events)
      : options_(options),
        logger_(logger),
        host_(std::move(host)),
        client_(client),
        states_(states),
        registry_(registry),
        naming_{host_.layout.driver, host_.layout.cgroup_root},
        cache_(std::make_shared<metriccache::MetricCache>(cache_config_)),
        event_sink_(events),
        events_(std::move(events), logger) {
    std::set<int> ids;
    for (const system::CpuInfo& cpu : host_.cpus.cpus) {
      ids.insert(cpu.id);
    }
    cpus_.online = cpuset::CpuSet(std::move(ids));
  }

  Status init() {
    advisor_ = std::make_unique<metricsadvisor::MetricsAdvisor>(
        options_.paths, metricsadvisor::newCgroupReader(options_.paths, host_.layout.version),
        [this] { return podCgroups(); }, cache_);
    resourceexecutor::ResourceExecutorOptions executor_options;
    executor_options.kubepods_dir = host_.layout.kubepods;
    executor_options.cache_max_age = std::chrono::minutes(10);
    KOORD_ASSIGN_OR_RETURN(
        executor_, resourceexecutor::CgroupResourceExecutor::create(
                       resourceexecutor::newCgroupWriter(host_.layout.version, options_.paths),
                       clock_, std::move(executor_options), &logger_, &registry_));
    // The QoS strategies (for now the runtime reconciler alone) and the evictor they may use.
    KOORD_ASSIGN_OR_RETURN(evictor_, qosmanager::framework::Evictor::create(
                                         client_, clock_, event_sink_, {}, logger_, &registry_));
    qosmanager::strategies::StrategyArgs strategy_args;
    strategy_args.reconcile_interval = std::max(options_.reconcile_interval, Millis(1));
    strategy_args.logger = logger_;
    qosmanager::framework::SchedulerOptions scheduler_options;
    scheduler_options.logger = logger_;
    if (!options_.reconciler) {
      scheduler_options.disabled.insert(
          std::string(qosmanager::strategies::runtime_reconcile::RuntimeReconcile::kName));
    }
    KOORD_ASSIGN_OR_RETURN(scheduler_, qosmanager::framework::Scheduler::create(
                                           qosmanager::strategies::builtinStrategies(strategy_args),
                                           clock_, std::move(scheduler_options), &registry_));
    KOORD_ASSIGN_OR_RETURN(
        auto reports,
        registry_.counterFamily("koord_agent_reports_total", "Reports written to the API server.",
                                {"object", "result"}));
    reports_ = reports;
    KOORD_ASSIGN_OR_RETURN(collect_seconds_,
                           registry_.histogram("koord_agent_collect_duration_seconds",
                                               "CPU time of one metric collection cycle.",
                                               {0.0005, 0.001, 0.002, 0.005, 0.01, 0.05}));
    KOORD_ASSIGN_OR_RETURN(rss_bytes_, registry_.gauge("koord_agent_resident_memory_bytes",
                                                       "Resident memory of koord-agent."));
    states_.onChange([this](statesinformer::StateKind kind) {
      if (kind == statesinformer::StateKind::Pods || kind == statesinformer::StateKind::Node) {
        dirty_ = true;
        wake();
      }
    });
    return Status::ok();
  }

  void start() {
    thread_ = std::thread([this] {
      nameThisThread("agent-loop");
      loop();
    });
  }

  void stop() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) {
      thread_.join();
    }
  }

  [[nodiscard]] bool healthy() const {
    const auto last = last_cycle_.load();
    return last != 0 && clock_.now().time_since_epoch().count() - last <
                            std::chrono::duration_cast<Clock::Duration>(
                                options_.collect_interval * 10 + std::chrono::seconds(30))
                                .count();
  }

 private:
  void wake() { cv_.notify_all(); }

  // Collects on its own cadence; a change of the node's pods or Node (once the caches have
  // synced) wakes the loop early for the reports and the QoS strategies only, so pod churn neither
  // adds collection cycles nor, before the first sync, keeps the loop from sleeping. The QoS
  // strategies (the runtime reconciler among them) run once the caches have synced, each on its
  // own interval, through the scheduler.
  void loop() {
    Clock::TimePoint next_collect{};
    Clock::TimePoint next_report{};
    Clock::TimePoint next_metric{};
    Clock::TimePoint next_strategy = Clock::TimePoint::max();
    while (true) {
      const Clock::TimePoint now = clock_.now();
      if (now >= next_collect) {
        collect();
        last_cycle_ = now.time_since_epoch().count();
        next_collect = now + options_.collect_interval;
      }
      if (states_.hasSynced()) {
        const bool changed = dirty_.exchange(false);
        if ((changed || now >= next_report) && topology_backoff_.ready(now)) {
          reportTopology(now);
          next_report = now + options_.report_interval;
        }
        if (now >= next_metric && metric_backoff_.ready(now)) {
          const reporters::EffectiveCollectPolicy policy = metricPolicy();
          reportNodeMetric(now, policy);
          next_metric = now + policy.report_interval;  // at most a day: no overflow
        }
        next_strategy = runStrategies(changed);
      } else {
        next_strategy = Clock::TimePoint::max();
      }
      std::unique_lock lock(mu_);
      const auto wait =
          std::max(std::min(next_collect, next_strategy) - clock_.now(), Clock::Duration::zero());
      if (cv_.wait_for(lock, wait,
                       [this] { return stopping_ || (dirty_.load() && states_.hasSynced()); }) &&
          stopping_) {
        return;
      }
    }
  }

  std::shared_ptr<const std::vector<metricsadvisor::PodCgroup>> podCgroups() const {
    auto out = std::make_shared<std::vector<metricsadvisor::PodCgroup>>();
    for (const auto& pod : states_.pods()) {
      if (pod->status.phase == "Succeeded" || pod->status.phase == "Failed") {
        continue;
      }
      auto qos = resourceexecutor::parseKubeQosClass(pod->status.qosClass);
      if (!qos.ok()) {
        continue;
      }
      auto dir = resourceexecutor::podDir(naming_, *qos, pod->metadata.uid);
      if (!dir.ok()) {
        continue;
      }
      metricsadvisor::PodCgroup entry;
      entry.uid = pod->metadata.uid;
      entry.pod_namespace = pod->metadata.namespace_;
      entry.name = pod->metadata.name;
      entry.cgroup_dir = dir->string();
      const api::Json& statuses = pod->status.containerStatuses;
      if (statuses.is_array()) {
        for (const api::Json& status : statuses) {
          const std::string id = status.value("containerID", "");
          if (id.empty()) {
            continue;
          }
          auto container_dir = resourceexecutor::containerDir(naming_, *qos, pod->metadata.uid, id);
          if (!container_dir.ok()) {
            continue;
          }
          const size_t scheme = id.find("://");
          entry.containers.push_back({scheme == std::string::npos ? id : id.substr(scheme + 3),
                                      status.value("name", ""), container_dir->string()});
        }
      }
      out->push_back(std::move(entry));
    }
    return out;
  }

  void collect() {
    timespec before{};
    timespec after{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &before);
    metricsadvisor::CollectStats stats = advisor_->collect(std::chrono::system_clock::now());
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &after);
    collect_seconds_.observe(static_cast<double>(after.tv_sec - before.tv_sec) +
                             static_cast<double>(after.tv_nsec - before.tv_nsec) / 1e9);
    if (!stats.last_error.isOk()) {
      logger_.debug("some metrics were not collected", {{"error", stats.last_error}});
    }
    rss_bytes_.set(static_cast<double>(currentRss()));
  }

  // VmRSS of this process in bytes (0 when /proc/self/status cannot be read).
  static int64_t currentRss() {
    FILE* file = std::fopen("/proc/self/status", "r");
    if (file == nullptr) {
      return 0;
    }
    char line[256];
    int64_t kib = 0;
    while (std::fgets(line, sizeof(line), file) != nullptr) {
      if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) {
        break;
      }
    }
    std::fclose(file);
    return kib * 1024;
  }

  // The NodeMetric's collect policy, held to the agent's bounds; each correction is a Warning
  // Event on the NodeMetric, once per distinct policy.
  reporters::EffectiveCollectPolicy metricPolicy() {
    auto metric = states_.nodeMetric();
    reporters::CollectPolicyLimits limits;
    limits.retention = std::chrono::duration_cast<std::chrono::seconds>(
        options_.collect_interval * static_cast<int64_t>(cache_config_.node_capacity));
    reporters::EffectiveCollectPolicy policy =
        reporters::effectivePolicy(metric ? metric->spec : api::slo::NodeMetricSpec{}, limits);
    std::vector<reporters::ObjectProblem> problems;
    if (metric) {
      problems = reporters::collectPolicyProblems(*metric, policy);
    }
    events_.report("metric-collect-policy", problems);
    return policy;
  }

  void count(const char* object, const Result<reporters::SyncOutcome>& outcome) {
    const char* result = !outcome.ok()                                 ? "failed"
                         : *outcome == reporters::SyncOutcome::Created ? "created"
                         : *outcome == reporters::SyncOutcome::Updated ? "updated"
                                                                       : "unchanged";
    auto counter = reports_.withLabels({object, result});
    if (counter.ok()) {
      counter->inc();
    }
  }

  reporters::NodeTopologyInputs topologyInputs(std::shared_ptr<const api::core::Node> node) const {
    reporters::NodeTopologyInputs in;
    in.node = std::move(node);
    in.cpus = host_.cpus;
    in.memory = host_.memory;
    in.pods = states_.pods();
    auto state = reporters::readKubeletCpuState(options_.kubelet_root_dir / "cpu_manager_state");
    if (state.ok()) {
      in.kubelet_state = *state;
    } else {
      logger_.warn("cannot read the kubelet's CPU manager state", {{"error", state.status()}});
    }
    auto config = reporters::readKubeletConfig(options_.kubelet_config.empty()
                                                   ? options_.kubelet_root_dir / "config.yaml"
                                                   : options_.kubelet_config);
    if (config.ok()) {
      in.kubelet_config = *config;
    }
    return in;
  }

  // Loads NVML, discovers the GPUs and unloads it again (nvmlShutdown, dlclose).
  [[nodiscard]] Result<std::vector<devices::GpuDevice>> discoverGpusOnce() const {
    KOORD_ASSIGN_OR_RETURN(std::unique_ptr<devices::Nvml> nvml,
                           devices::DlopenNvml::create(options_.nvml_library));
    return devices::discoverGpus(nvml.get(), options_.paths);
  }

  void reportTopology(Clock::TimePoint now) {
    auto node = states_.node();
    if (node == nullptr) {
      logger_.warn("the Node is not in the cache yet", {{"node", options_.node_name}});
      return;
    }
    std::vector<reporters::ObjectProblem> problems;
    auto nrt = reporters::buildNodeResourceTopology(topologyInputs(node), &problems);
    events_.report("cpuset", problems);
    cpus_.shared_pool = poolCpus(nrt, api::kAnnotationNodeCPUSharedPools);
    cpus_.be_pool = poolCpus(nrt, api::kAnnotationNodeBECPUSharedPools);
    auto topology = reporters::syncNodeResourceTopology(client_, nrt);
    count("NodeResourceTopology", topology);
    Result<reporters::SyncOutcome> device = reporters::SyncOutcome::Unchanged;
    if (host_.has_nvml) {
      auto gpus = discoverGpusOnce();
      if (gpus.ok()) {
        device = reporters::syncDevice(client_, reporters::buildDevice(*node, *gpus, host_.cpus));
        count("Device", device);
      } else {
        logger_.warn("GPU discovery failed", {{"error", gpus.status()}});
      }
    }
    for (const auto* result : {&topology, &device}) {
      if (!result->ok()) {
        logger_.warn("report failed; retrying with backoff", {{"error", result->status()}});
        topology_backoff_.failed(now);
        return;
      }
    }
    topology_backoff_.succeeded();
  }

  static cpuset::CpuSet poolCpus(const api::topology::NodeResourceTopology& nrt,
                                 std::string_view key) {
    cpuset::CpuSet out;
    auto it = nrt.metadata.annotations.find(std::string(key));
    if (it == nrt.metadata.annotations.end()) {
      return out;
    }
    auto pools = api::extension::parseCPUSharedPools(it->second);
    if (!pools.ok()) {
      return out;
    }
    for (const auto& pool : *pools) {
      out = out.unionWith(cpuset::CpuSet::parse(pool.cpuset).valueOr({}));
    }
    return out;
  }

  void reportNodeMetric(Clock::TimePoint now, const reporters::EffectiveCollectPolicy& policy) {
    auto node = states_.node();
    if (node == nullptr) {
      return;
    }
    auto status = reporters::buildNodeMetricStatus(*cache_, policy, states_.pods(),
                                                   std::chrono::system_clock::now());
    // A status over the budget is trimmed; one that cannot fit is not sent at all, and neither is
    // retried with backoff: the next report builds a new one.
    Result<reporters::StatusFit> fit = reporters::fitNodeMetricStatus(status);
    if (!fit.ok()) {
      count("NodeMetric", fit.status());
      logger_.error("NodeMetric status not written", {{"error", fit.status()}});
      return;
    }
    if (fit->dropped_pods != dropped_pods_ || fit->dropped_aggregates) {
      logger_.warn("NodeMetric status trimmed to its size budget",
                   {{"budgetBytes", reporters::kMaxNodeMetricStatusBytes},
                    {"bytes", fit->bytes},
                    {"droppedPods", fit->dropped_pods},
                    {"droppedAggregatedUsages", fit->dropped_aggregates}});
      dropped_pods_ = fit->dropped_pods;
    }
    auto outcome = reporters::syncNodeMetricStatus(client_, node->metadata, status);
    count("NodeMetric", outcome);
    if (!outcome.ok() && tooLarge(outcome.status())) {
      logger_.error("the API server refused the NodeMetric status as too large; not retried",
                    {{"bytes", fit->bytes}, {"error", outcome.status()}});
      return;
    }
    if (!outcome.ok()) {
      logger_.warn("NodeMetric report failed; retrying with backoff",
                   {{"error", outcome.status()}});
      metric_backoff_.failed(now);
      return;
    }
    metric_backoff_.succeeded();
  }

  // Runs the QoS strategies that are due; returns when the next one is.
  Clock::TimePoint runStrategies(bool state_changed) {
    const qosmanager::framework::MetricWindows windows(*cache_, std::chrono::system_clock::now());
    const qosmanager::framework::StrategyContext context{states_, windows, *executor_, *evictor_,
                                                         naming_, cpus_,   clock_};
    return scheduler_->runDue(context, state_changed).next_due;
  }

  const DaemonOptions& options_;
  log::Logger logger_;
  Host host_;
  k8s::Client& client_;
  statesinformer::StatesInformer& states_;
  metrics::MetricsRegistry& registry_;
  RealClock clock_;
  resourceexecutor::KubeletCgroupNaming naming_;
  metriccache::MetricCacheConfig cache_config_;  // before cache_
  std::shared_ptr<metriccache::MetricCache> cache_;
  reporters::ProblemEvents::Sink event_sink_;  // before events_
  reporters::ProblemEvents events_;            // loop thread only
  qosmanager::framework::NodeCpus cpus_;       // loop thread only
  size_t dropped_pods_ = 0;                    // by the last NodeMetric report
  std::unique_ptr<metricsadvisor::MetricsAdvisor> advisor_;
  std::unique_ptr<resourceexecutor::CgroupResourceExecutor> executor_;
  std::unique_ptr<qosmanager::framework::Evictor> evictor_;
  std::unique_ptr<qosmanager::framework::Scheduler> scheduler_;
  metrics::CounterFamily reports_;
  metrics::Histogram collect_seconds_;
  metrics::Gauge rss_bytes_;
  Backoff topology_backoff_;
  Backoff metric_backoff_;
  std::atomic<bool> dirty_{true};
  std::atomic<int64_t> last_cycle_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace

Status runDaemon(const DaemonOptions& options, const log::Logger& logger,
                 const std::function<void()>& wait_for_stop) {
  if (options.node_name.empty()) {
    return Status::invalidArgument(
        "failed to start koord-agent: --node-name (or NODE_NAME) is "
        "required");
  }
  KOORD_ASSIGN_OR_RETURN(Host host, discover(options, logger));
  // The cgroup reader keeps its files open between cycles (a quarter of the soft limit): raise
  // the soft limit to the hard one, as Go programs do at start.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }

  metrics::MetricsRegistry registry;
  KOORD_ASSIGN_OR_RETURN(k8s::ClientConfig client_config, k8s::loadConfig(options.kubeconfig));
  k8s::RestClientOptions rest_options;
  rest_options.logger = logger;
  Result<std::unique_ptr<k8s::RestClient>> rest =
      k8s::RestClient::create(std::move(client_config), std::move(rest_options));
  if (!rest.ok()) {
    return rest.status().withPrefix("failed to create the API client");
  }
  k8s::RestApiClient client(std::shared_ptr<k8s::RestClient>(std::move(*rest)));
  k8s::SharedInformerFactoryOptions factory_options;
  factory_options.logger = logger;
  k8s::SharedInformerFactory factory(client, std::move(factory_options));
  KOORD_ASSIGN_OR_RETURN(auto states,
                         statesinformer::KubeStatesInformer::create(factory, options.node_name));

  // Warning Events about what the agent found wrong in others' objects (a pod's cpuset, the
  // NodeMetric's collect policy); the recorder aggregates and rate-limits them.
  RealClock event_clock;
  k8s::EventRecorderOptions event_options;
  event_options.logger = logger;
  k8s::EventRecorder recorder(client, "koord-agent", options.node_name, event_clock,
                              std::move(event_options));
  Daemon daemon(options, logger, std::move(host), client, *states, registry,
                [&recorder](const api::core::ObjectReference& object, k8s::EventType type,
                            std::string reason, std::string message) {
                  recorder.event(object, type, std::move(reason), std::move(message));
                });
  KOORD_RETURN_IF_ERROR(daemon.init());

  http::HttpServerOptions server_options;
  server_options.address = options.listen_host;
  server_options.port = options.listen_port;
  // Every route is GET (no body is read); the caps only bound what a misbehaving client can make
  // the agent hold (docs/security.md).
  server_options.max_body_bytes = std::size_t{64} << 10;
  server_options.max_buffered_bytes = std::size_t{256} << 10;
  server_options.logger = logger;
  KOORD_ASSIGN_OR_RETURN(std::unique_ptr<http::HttpServer> server,
                         http::HttpServer::create(server_options));
  KOORD_RETURN_IF_ERROR(metrics::registerMetricsRoute(*server, registry));
  KOORD_RETURN_IF_ERROR(server->route("GET", "/healthz", [&daemon](const http::HttpRequest&) {
    return daemon.healthy() ? http::HttpResponse::text(200, "ok\n")
                            : http::HttpResponse::text(503, "collection loop stalled\n");
  }));
  KOORD_RETURN_IF_ERROR(server->route("GET", "/readyz", [&states](const http::HttpRequest&) {
    return states->hasSynced() ? http::HttpResponse::text(200, "ok\n")
                               : http::HttpResponse::text(503, "caches not synced\n");
  }));
  KOORD_RETURN_IF_ERROR(server->start());
  logger.info("serving /healthz, /readyz and /metrics",
              {{"address", options.listen_host}, {"port", server->port()}});

  // The loop collects from the first second and reports once the informers have synced; start-up
  // never blocks on the API server, so a termination signal is always handled at once.
  factory.start();
  daemon.start();
  wait_for_stop();
  logger.info("stopping");
  daemon.stop();
  if (Status flushed = recorder.shutdown(std::chrono::milliseconds(500)); !flushed.isOk()) {
    logger.warn("some Events were not written", {{"error", flushed}});
  }
  factory.shutdown();
  server->stop(kStopGrace);
  return Status::ok();
}

}  // namespace koord::agent::app
