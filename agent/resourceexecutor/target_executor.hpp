// TargetExecutor: the resource executor's writer of kernel targets other than cgroup files
// (kernel_target.hpp): resctrl's schemata and tasks, and the HTB classes of net QoS. It applies
// the same rules as CgroupResourceExecutor, so that every kernel write of koord-agent goes through
// one place with one behaviour. NOTHING CALLS IT YET: the resctrl and net-QoS strategies that will
// come later (docs/compatibility.md lists them as not built).
//
// Confinement, before anything is read or written (kPermissionDenied "refusing to write
// '<dir>/<target>': <why>", audited and counted as refused):
// - resctrl: `dir` is relative to the resctrl root, holds no ".." and at most one component, the
//   control group ("" is the root group); "info", "mon_data" and "mon_groups" are not groups;
// - net QoS: `dir` is "<device>/<classid>": a device name of 1 to 15 letters, digits, '.', '-' or
//   '_' (one of `net_qos_devices` when that is not empty), and a class "<major>:<minor>" in hex
//   whose major is `net_qos_major` (the agent's own qdisc handle) and whose minor is not 0 (the
//   qdisc itself).
// A target whose family has no writer is kUnimplemented (and counted as failed).
//
// Cache. After a successful write the canonical value is cached per (target, dir); the same value
// again is skipped (counted in skippedWrites()) until the entry is older than `cache_max_age`
// (when set), a write fails, or forget() drops it. A task id is cached too: moving the same task
// into the same group again is skipped.
//
// Audit and metrics. Every attempted write (ok, failed or refused; not skipped) is added to a ring
// of the last `audit_capacity` records and logged when a logger is given (info when ok, warn
// otherwise). koord_agent_executor_writes_total{resource,result} (executor_metrics.hpp, the
// cgroup executor's family) counts each update once, `resource` being kernelTargetName().
//
// Thread-safe: one lock serialises updates, forget() and the accessors.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "agent/resourceexecutor/audit_log.hpp"
#include "agent/resourceexecutor/kernel_target.hpp"
#include "agent/resourceexecutor/target_writer.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::resourceexecutor {

// One desired value of one kernel target.
struct TargetUpdate {
  KernelTarget target = KernelTarget::kResctrlSchemata;
  // Relative to the family's root (target_writer.hpp): the resctrl group, or
  // "<device>/<classid>".
  std::filesystem::path dir;
  std::string value;   // as kernel_target.hpp describes it
  std::string reason;  // who asked and why, for the audit log
};

struct TargetAuditRecord {
  Clock::TimePoint time{};  // the executor's clock
  KernelTarget target = KernelTarget::kResctrlSchemata;
  std::string location;  // the writer's location(); for a refusal, "<dir>/<target name>"
  std::optional<std::string> old_value;
  std::string new_value;  // canonical; as requested for a refusal or an invalid value
  std::string reason;
  WriteResult result = WriteResult::kOk;
  Status status;  // why it failed or was refused
};

struct TargetExecutorOptions {
  // The resctrl writer (newResctrlWriter(SysPaths::resctrl_root)); null: resctrl targets are
  // kUnimplemented.
  std::unique_ptr<TargetWriter> resctrl;
  // The net-QoS writer (newNetQosWriter()); null (the default): kUnimplemented.
  std::unique_ptr<TargetWriter> net_qos;
  // The devices net-QoS classes may be written on; empty: any well-formed device name.
  std::set<std::string> net_qos_devices;
  // The handle major (hex, without "0x") of the agent's HTB qdisc; only its classes are written.
  std::string net_qos_major = "1";
  Clock::Duration cache_max_age = Clock::Duration::zero();  // zero: until forget()
  size_t audit_capacity = 256;                              // at least 1
};

class TargetExecutor {
 public:
  // `clock` must outlive the executor; `logger` and `registry` may be null (no logs, no metrics).
  // kInvalidArgument when net_qos_major is not 1 to 4 hex digits other than 0; a registry error
  // when the metric family cannot be registered.
  [[nodiscard]] static Result<std::unique_ptr<TargetExecutor>> create(
      TargetExecutorOptions options, const Clock& clock, const log::Logger* logger = nullptr,
      metrics::MetricsRegistry* registry = nullptr);

  // Applies one update: ok when written or skipped as cached; the refusal, the value's
  // kInvalidArgument (canonicalTargetValue()) or the writer's error otherwise.
  [[nodiscard]] Status update(const TargetUpdate& update);

  // Drops what is cached for `dir`, and every dir under it, of the targets of `target`'s family:
  // a removed resctrl group, or a network device's classes ("eth0"). "" drops the whole family.
  void forget(KernelTarget target, const std::filesystem::path& dir);

  // The kept audit records, oldest first.
  [[nodiscard]] std::vector<TargetAuditRecord> auditLog() const;
  // How many updates were skipped because the cache held their value.
  [[nodiscard]] uint64_t skippedWrites() const;

 private:
  struct CacheEntry {
    std::string value;
    Clock::TimePoint written{};
  };
  using CacheKey = std::pair<KernelTarget, std::string>;

  TargetExecutor(TargetExecutorOptions options, const Clock& clock, log::Logger logger,
                 std::optional<metrics::CounterFamily> writes);

  // The confined, normalised dir of `update`; the refusal otherwise.
  [[nodiscard]] Result<std::filesystem::path> confine(const TargetUpdate& update) const;
  [[nodiscard]] TargetWriter* writerFor(KernelTarget target) const;
  void audit(TargetAuditRecord record);
  void count(KernelTarget target, WriteResult result);

  TargetExecutorOptions options_;
  const Clock* clock_;
  log::Logger logger_;
  std::optional<metrics::CounterFamily> writes_;
  mutable std::mutex mu_;
  std::map<CacheKey, CacheEntry> cache_;  // guarded by mu_
  std::deque<TargetAuditRecord> audit_;   // guarded by mu_
  uint64_t skipped_ = 0;                  // guarded by mu_
};

}  // namespace koord::agent::resourceexecutor
