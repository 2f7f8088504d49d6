// ProcSysConfigExecutor: the SystemConfigExecutor over procfs: setting S is the file
// <proc_root>/sys/vm/<systemSettingName(S)> (SysPaths::proc_root, so tests use a temporary tree).
//
// Ranges (checked before anything is read or written; kInvalidArgument
// "failed to set vm/<name> to <value>: must be <range>", audited and counted as failed):
//   min_free_kbytes         > 0
//   watermark_scale_factor  1..1000
// Skip-unchanged: set() reads the file first and writes nothing when it already holds the value
// (counted as skipped, not audited). There is no cache: what another writer changed behind the
// executor's back is seen and written again.
//
// Audit and metrics. Every attempted write (ok or failed; not skipped) is added to a ring of the
// last `audit_capacity` records and logged when a logger is given (info when ok, warn otherwise).
// koord_agent_executor_writes_total{resource,result} (executor_metrics.hpp: the cgroup executor's
// family) counts each set() once, `resource` being systemSettingName().
//
// Thread-safe: one lock serialises set() and the accessors; get() only reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "agent/resourceexecutor/audit_log.hpp"
#include "agent/resourceexecutor/system_config_executor.hpp"
#include "agent/system/sys_paths.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::resourceexecutor {

struct SystemAuditRecord {
  Clock::TimePoint time{};  // the executor's clock
  SystemSetting setting = SystemSetting::kMinFreeKbytes;
  std::string file;                  // the host file
  std::optional<int64_t> old_value;  // when it could be read
  int64_t new_value = 0;
  std::string reason;
  WriteResult result = WriteResult::kOk;  // kOk or kFailed
  Status status;                          // why it failed
};

class ProcSysConfigExecutor final : public SystemConfigExecutor {
 public:
  // `clock` must outlive the executor; `logger` and `registry` may be null (no logs, no metrics).
  // A registry error when the metric family cannot be registered.
  [[nodiscard]] static Result<std::unique_ptr<ProcSysConfigExecutor>> create(
      const system::SysPaths& paths, const Clock& clock, const log::Logger* logger = nullptr,
      metrics::MetricsRegistry* registry = nullptr, size_t audit_capacity = 64);

  // The file's integer (sysfs_file.hpp errors: kNotFound "failed to read '<file>': no such
  // file", kInvalidArgument when it does not hold one integer).
  [[nodiscard]] Result<int64_t> get(SystemSetting setting) const override;
  [[nodiscard]] Status set(SystemSetting setting, int64_t value,
                           const std::string& reason) override;

  // <proc_root>/sys/vm/<name>.
  [[nodiscard]] std::filesystem::path file(SystemSetting setting) const;
  // The kept audit records, oldest first.
  [[nodiscard]] std::vector<SystemAuditRecord> auditLog() const;
  // How many set() calls found the value already there.
  [[nodiscard]] uint64_t skippedWrites() const;

 private:
  ProcSysConfigExecutor(std::filesystem::path vm_dir, const Clock& clock, log::Logger logger,
                        std::optional<metrics::CounterFamily> writes, size_t audit_capacity);

  void audit(SystemAuditRecord record);
  void count(SystemSetting setting, WriteResult result);

  std::filesystem::path vm_dir_;
  const Clock* clock_;
  log::Logger logger_;
  std::optional<metrics::CounterFamily> writes_;
  size_t audit_capacity_;
  mutable std::mutex mu_;
  std::deque<SystemAuditRecord> audit_;  // guarded by mu_
  uint64_t skipped_ = 0;                 // guarded by mu_
};

}  // namespace koord::agent::resourceexecutor
