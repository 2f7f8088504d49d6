#include "agent/app/daemon.hpp"

#include <time.h>

#include <algorithm>
#include <string>
#include <utility>

#include "agent/app/collected_pods.hpp"
#include "agent/app/process_memory.hpp"
#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/qosmanager/framework/metric_windows.hpp"
#include "agent/qosmanager/strategies/builtin.hpp"
#include "agent/qosmanager/strategies/runtime_reconcile/runtime_reconcile.hpp"
#include "agent/resourceexecutor/cgroup_writer.hpp"
#include "koord/common/thread_name.hpp"

namespace koord::agent::app {

namespace {

// The process's CPU time in seconds.
double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

Status checkOptions(const DaemonOptions& options) {
  if (options.node_name.empty()) {
    return Status::invalidArgument(
        "failed to start koord-agent: --node-name (or NODE_NAME) is required");
  }
  for (const auto& [name, value] : {std::pair{"collect", options.collect_interval},
                                    std::pair{"report", options.report_interval},
                                    std::pair{"reconcile", options.reconcile_interval}}) {
    if (value.count() <= 0) {
      return Status::invalidArgument(std::string("failed to start koord-agent: --") + name +
                                     "-interval must be positive, got " +
                                     std::to_string(value.count()) + "ms");
    }
  }
  return Status::ok();
}

}  // namespace

Result<std::unique_ptr<Daemon>> Daemon::create(DaemonOptions options, log::Logger logger, Host host,
                                               DaemonDeps deps) {
  KOORD_RETURN_IF_ERROR(checkOptions(options));
  resourceexecutor::ResourceExecutorOptions executor_options;
  executor_options.kubepods_dir = host.layout.kubepods;
  // Values changed behind the agent's back are written again within a minute (the BE cgroup
  // reconcile); at 200 pods that is a pass of about 2,000 rewrites once a minute.
  executor_options.cache_max_age = std::chrono::minutes(1);
  KOORD_ASSIGN_OR_RETURN(auto executor,
                         resourceexecutor::CgroupResourceExecutor::create(
                             resourceexecutor::newCgroupWriter(host.layout.version, options.paths),
                             deps.clock, std::move(executor_options), &logger, &deps.registry));
  // The QoS strategies (for now the runtime reconciler alone) and the evictor they may use.
  KOORD_ASSIGN_OR_RETURN(
      auto evictor, qosmanager::framework::Evictor::create(deps.client, deps.clock, deps.events, {},
                                                           logger, &deps.registry));
  qosmanager::strategies::StrategyArgs strategy_args;
  strategy_args.reconcile_interval = options.reconcile_interval;
  strategy_args.logger = logger;
  strategy_args.registry = &deps.registry;
  qosmanager::framework::SchedulerOptions scheduler_options;
  scheduler_options.logger = logger;
  scheduler_options.disabled = qosmanager::strategies::strategiesOffByGates(options.feature_gates);
  if (!options.reconciler) {
    scheduler_options.disabled.insert(
        std::string(qosmanager::strategies::runtime_reconcile::RuntimeReconcile::kName));
  }
  KOORD_ASSIGN_OR_RETURN(auto scheduler,
                         qosmanager::framework::Scheduler::create(
                             qosmanager::strategies::builtinStrategies(strategy_args), deps.clock,
                             std::move(scheduler_options), &deps.registry));
  KOORD_ASSIGN_OR_RETURN(auto system_config,
                         resourceexecutor::ProcSysConfigExecutor::create(options.paths, deps.clock,
                                                                         &logger, &deps.registry));
  KOORD_ASSIGN_OR_RETURN(auto collect_metrics,
                         metricsadvisor::CollectMetrics::create(deps.registry));
  KOORD_ASSIGN_OR_RETURN(auto reports, ReportCounter::create(deps.registry));
  KOORD_ASSIGN_OR_RETURN(auto rss_bytes, deps.registry.gauge("koord_agent_resident_memory_bytes",
                                                             "Resident memory of koord-agent."));
  Parts parts{std::move(executor),
              std::move(system_config),
              std::move(evictor),
              std::move(scheduler),
              collect_metrics,
              reports,
              rss_bytes};
  std::unique_ptr<Daemon> daemon(new Daemon(std::move(options), std::move(logger), std::move(host),
                                            std::move(deps), std::move(parts)));
  Daemon* self = daemon.get();
  self->deps_.states.onChange([self](statesinformer::StateKind kind) {
    if (kind == statesinformer::StateKind::kPods || kind == statesinformer::StateKind::kNode) {
      self->dirty_ = true;
      self->cv_.notify_all();
    }
  });
  return daemon;
}

Daemon::Daemon(DaemonOptions options, log::Logger logger, Host host, DaemonDeps deps, Parts parts)
    : options_(std::move(options)),
      logger_(std::move(logger)),
      host_(std::move(host)),
      deps_(std::move(deps)),
      naming_{host_.layout.driver, host_.layout.cgroup_root},
      cache_(std::make_shared<metriccache::MetricCache>(cache_config_)),
      parts_(std::move(parts)),
      advisor_(
          options_.paths, metricsadvisor::newCgroupReader(options_.paths, host_.layout.version),
          [this] { return collectedPods(pods_); }, cache_),
      // CPU burst reads every LS container's cpu.stat each second: enough open files for 1,000
      // containers, so none is reopened (agent_strategies_bench: 3.9 -> 3.2 ms per pass at 400).
      qos_reader_(metricsadvisor::newCgroupReader(options_.paths, host_.layout.version, 1024)),
      events_(deps_.events, logger_),
      topology_report_(options_, host_, deps_.client, deps_.states, parts_.reports, events_,
                       logger_),
      metric_report_(
          deps_.client, deps_.states, *cache_,
          std::chrono::duration_cast<std::chrono::seconds>(
              options_.collect_interval * static_cast<int64_t>(cache_config_.node_capacity)),
          parts_.reports, events_, logger_) {
  cpus_.online = system::onlineCpus(host_.cpus);
}

Daemon::~Daemon() {
  stop();
}

void Daemon::start() {
  thread_ = std::thread([this] {
    nameThisThread("agent-loop");
    loop();
  });
}

void Daemon::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

bool Daemon::healthy() const {
  const auto last = last_cycle_.load();
  return last != 0 && deps_.clock.now().time_since_epoch().count() - last <
                          std::chrono::duration_cast<Clock::Duration>(
                              options_.collect_interval * 10 + std::chrono::seconds(30))
                              .count();
}

// Collects on its own cadence; a change of the node's pods or Node (once the caches have synced)
// wakes the loop early for the reports and the QoS strategies only, so pod churn neither adds
// collection cycles nor, before the first sync, keeps the loop from sleeping. The QoS strategies
// (the runtime reconciler among them) run once the caches have synced, each on its own interval,
// through the scheduler.
void Daemon::loop() {
  const Clock& clock = deps_.clock;
  Clock::TimePoint next_collect{};
  Clock::TimePoint next_report{};
  Clock::TimePoint next_metric{};
  Clock::TimePoint next_strategy = Clock::TimePoint::max();
  while (true) {
    const Clock::TimePoint now = clock.now();
    // The pods' cgroup folders, resolved once for every part of this pass.
    pods_ = resourceexecutor::PodCgroups::resolve(naming_, deps_.states.pods());
    if (now >= next_collect) {
      collect();
      last_cycle_ = now.time_since_epoch().count();
      next_collect = now + options_.collect_interval;
    }
    if (deps_.states.hasSynced()) {
      const bool changed = dirty_.exchange(false);
      if ((changed || now >= next_report) && topology_report_.ready(now)) {
        topology_report_.run(now, cpus_);
        next_report = now + options_.report_interval;
      }
      if (now >= next_metric && metric_report_.ready(now)) {
        const reporters::EffectiveCollectPolicy policy = metric_report_.policy();
        metric_report_.run(now, policy);
        next_metric = now + policy.report_interval;  // at most a day: no overflow
      }
      next_strategy = runStrategies(changed);
    } else {
      next_strategy = Clock::TimePoint::max();
    }
    std::unique_lock lock(mu_);
    if (clock.waitUntil(
            lock, cv_, std::min(next_collect, next_strategy),
            [this] { return stopping_ || (dirty_.load() && deps_.states.hasSynced()); }) &&
        stopping_) {
      return;
    }
  }
}

// One collection cycle: its errors and CPU time go to the collect metrics (a debug line names
// the cycle's last error), the agent's RSS to its gauge.
void Daemon::collect() {
  const double before = processCpuSeconds();
  metricsadvisor::CollectStats stats = advisor_.collect(std::chrono::system_clock::now());
  parts_.collect_metrics.record(stats, processCpuSeconds() - before);
  if (!stats.last_error.isOk()) {
    logger_.debug("some metrics were not collected",
                  {{"errors", stats.errorCount()}, {"error", stats.last_error}});
  }
  parts_.rss_bytes.set(static_cast<double>(currentRssBytes()));
}

Clock::TimePoint Daemon::runStrategies(bool state_changed) {
  const qosmanager::framework::MetricWindows windows(*cache_, std::chrono::system_clock::now());
  const qosmanager::framework::NodeFacts facts{host_.cpus, naming_, host_.layout.version,
                                               host_.layout.cfs_burst, *qos_reader_};
  const qosmanager::framework::StrategyContext context{deps_.states,    windows, *parts_.executor,
                                                       *parts_.evictor, pods_,   cpus_,
                                                       deps_.clock,     facts,   shared_};
  return parts_.scheduler->runDue(context, state_changed).next_due;
}

}  // namespace koord::agent::app
