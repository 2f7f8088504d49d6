// CPUSuppress: koordlet's BECPUSuppress (qosmanager/plugins/cpusuppress). Every second it works
// out how much CPU BestEffort pods may use without hurting the others (suppress_formula.hpp) and
// holds BE to it:
// - policy cpuset (default): BE gets ceil(suppress/1000) CPUs (at least 2, increases stepped by
//   ceil(10% of the node's CPUs) per run) chosen by be_cpu_choice.hpp among the BE pool
//   (context.cpus.be_pool, the online CPUs when not known) less the LSE and LSR pods' CPUs. They
//   are written as cpuset.cpus to the BE QoS folder and to every BE pod's folder and container
//   folder in one ResourceExecutor::updateBatch (which loosens top-down and tightens bottom-up),
//   and published as SharedDecisions::be_cpuset so that RuntimeReconcile gives BE containers the
//   same CPUs.
// - policy cfsQuota: cpu.cfs_quota_us = max(suppress × 100000/1000, 2000) on the BE QoS folder,
//   skipped when it moves by less than 1% of the node, increases at most +10% of the node per run;
//   published as SharedDecisions::be_cfs_quota_us.
// What one policy wrote is undone once when the other takes over (cpusets back to the BE pool,
// quota back to -1), and both are undone once when the NodeSLO turns suppress off; the first run
// after a start undoes what a previous agent may have left (koordlet's "recover if needed").
// "BE pods" are those koordlet counts as BE (suppress_inputs.hpp isBePod), terminal ones included
// (their folders may still exist, and a parent's cpuset cannot shrink below a child's).
//
// Not done (as koordlet): the kubelet static CPU manager policy variant (container folders only)
// and cpu.idle for BE. The cpuset and quota in force are not read back from the kernel (the
// context has no cgroup reader for them): the strategy remembers what it wrote, and before its
// first cpuset write takes the BE pool as the current cpuset.
//
// Metrics (registry may be null): gauges koord_agent_be_suppress_cpus (BE cpuset size; 0 under
// cfsQuota or when off), koord_agent_be_suppress_quota_cores (BE quota / period; -1 unlimited),
// koord_agent_be_suppress_milli (the suppress figure; 0 when off).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/qosmanager/framework/strategy.hpp"
#include "agent/qosmanager/strategies/cpu_suppress/suppress_config.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {

struct CpuSuppressOptions {
  Clock::Duration interval = std::chrono::seconds(1);  // koordlet --cpu-suppress-interval-seconds
  // How old a usage sample may be: twice the metric collect interval (1 s), as koordlet queries.
  std::chrono::milliseconds metric_freshness = std::chrono::seconds(2);
};

class CpuSuppress final : public framework::Strategy {
 public:
  static constexpr std::string_view kName = "CPUSuppress";
  static constexpr std::string_view kCpusMetric = "koord_agent_be_suppress_cpus";
  static constexpr std::string_view kQuotaMetric = "koord_agent_be_suppress_quota_cores";
  static constexpr std::string_view kMilliMetric = "koord_agent_be_suppress_milli";

  // `registry` may be null (no metrics); a metric that cannot be registered is logged and left
  // out.
  CpuSuppress(CpuSuppressOptions options, log::Logger logger, metrics::MetricsRegistry* registry);

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] Clock::Duration interval() const override { return options_.interval; }
  [[nodiscard]] bool runsOnStateChange() const override { return false; }
  // Whenever the node has a NodeSLO, so that run() can undo its work when the NodeSLO turns
  // suppress off.
  [[nodiscard]] bool enabled(const api::slo::NodeSLO* node_slo) const override {
    return node_slo != nullptr;
  }
  // kInvalidArgument for a bad NodeSLO section (nothing written); the executor's error when the
  // batch failed for another reason than a vanished cgroup (kNotFound: a skip). A run without a
  // Node or without fresh node usage is skipped (ok; debugState says why).
  [[nodiscard]] Status run(const framework::StrategyContext& context) override;
  // The last run: {"enabled", "status", "updates" (how many were handed over), "reset" (whether
  // they undo a policy), "skipped" (why nothing was decided), "problems", "vanished"} and, when
  // enabled, "policy", "threshold_percent", "min_percent", "capacity_milli", "node_usage_milli",
  // "ls_usage_milli", "be_usage_milli", "system_usage_milli", "node_reserved_milli"
  // {"annotation", "kubelet"}, "suppress_milli", "floored"; under cpuset "candidates", "be_cpus",
  // "be_cpuset"; under cfsQuota "be_cfs_quota_us". null before the first run.
  [[nodiscard]] api::Json debugState() const override { return last_; }

 private:
  // Whether what a policy writes may still be in force (unknown after a start).
  enum class Applied { kUnknown, kUsing, kRecovered };

  Status runDisabled(const framework::StrategyContext& context);
  Status runCpuset(const framework::StrategyContext& context, const SuppressConfig& config,
                   int64_t suppress_milli, int64_t num_cpus);
  Status runCfsQuota(const framework::StrategyContext& context, int64_t suppress_milli,
                     int64_t capacity_cores);
  // Applies `updates` in one batch: ok also when a cgroup vanished (kNotFound, noted).
  Status apply(const framework::StrategyContext& context,
               std::vector<resourceexecutor::ResourceUpdate> updates);
  void setGauges(double cpus, double quota_cores, double milli) const;

  CpuSuppressOptions options_;
  log::Logger logger_;
  metrics::Gauge cpus_gauge_;
  metrics::Gauge quota_gauge_;
  metrics::Gauge milli_gauge_;

  Applied cpuset_ = Applied::kUnknown;
  Applied quota_ = Applied::kUnknown;
  std::optional<cpuset::CpuSet> last_cpuset_;  // written under policy cpuset
  int64_t last_quota_ = -1;                    // written under policy cfsQuota; -1 unlimited
  api::Json last_;
};

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
