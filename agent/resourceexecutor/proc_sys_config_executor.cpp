#include "agent/resourceexecutor/proc_sys_config_executor.hpp"

#include <utility>

#include "agent/resourceexecutor/cgroup_file.hpp"
#include "agent/resourceexecutor/executor_metrics.hpp"
#include "agent/system/sysfs_file.hpp"

namespace koord::agent::resourceexecutor {

namespace {

// Empty when `value` is in the setting's range, else the range.
std::string rangeProblem(SystemSetting setting, int64_t value) {
  switch (setting) {
    case SystemSetting::kMinFreeKbytes:
      return value > 0 ? std::string() : std::string("> 0");
    case SystemSetting::kWatermarkScaleFactor:
      return value >= 1 && value <= 1000 ? std::string() : std::string("1..1000");
  }
  return "a known setting";
}

}  // namespace

std::string_view systemSettingName(SystemSetting setting) {
  switch (setting) {
    case SystemSetting::kMinFreeKbytes:
      return "min_free_kbytes";
    case SystemSetting::kWatermarkScaleFactor:
      return "watermark_scale_factor";
  }
  return "unknown";
}

Result<std::unique_ptr<ProcSysConfigExecutor>> ProcSysConfigExecutor::create(
    const system::SysPaths& paths, const Clock& clock, const log::Logger* logger,
    metrics::MetricsRegistry* registry, size_t audit_capacity) {
  std::optional<metrics::CounterFamily> writes;
  if (registry != nullptr) {
    KOORD_ASSIGN_OR_RETURN(
        writes, registry->counterFamily(std::string(kExecutorWritesMetric),
                                        std::string(kExecutorWritesHelp), {"resource", "result"}));
  }
  return std::unique_ptr<ProcSysConfigExecutor>(new ProcSysConfigExecutor(
      paths.proc_root / "sys" / "vm", clock, logger != nullptr ? *logger : log::Logger(), writes,
      audit_capacity == 0 ? 1 : audit_capacity));
}

ProcSysConfigExecutor::ProcSysConfigExecutor(std::filesystem::path vm_dir, const Clock& clock,
                                             log::Logger logger,
                                             std::optional<metrics::CounterFamily> writes,
                                             size_t audit_capacity)
    : vm_dir_(std::move(vm_dir)),
      clock_(&clock),
      logger_(std::move(logger)),
      writes_(writes),
      audit_capacity_(audit_capacity) {}

std::filesystem::path ProcSysConfigExecutor::file(SystemSetting setting) const {
  return vm_dir_ / systemSettingName(setting);
}

Result<int64_t> ProcSysConfigExecutor::get(SystemSetting setting) const {
  return system::readSysInt(file(setting));
}

Status ProcSysConfigExecutor::set(SystemSetting setting, int64_t value, const std::string& reason) {
  const std::lock_guard<std::mutex> lock(mu_);
  const std::filesystem::path path = file(setting);
  if (const std::string range = rangeProblem(setting, value); !range.empty()) {
    Status status =
        Status::invalidArgument("failed to set vm/" + std::string(systemSettingName(setting)) +
                                " to " + std::to_string(value) + ": must be " + range);
    audit({clock_->now(), setting, path.string(), std::nullopt, value, reason, WriteResult::kFailed,
           status});
    count(setting, WriteResult::kFailed);
    return status;
  }
  const Result<int64_t> current = system::readSysInt(path);
  if (current.ok() && *current == value) {
    ++skipped_;
    count(setting, WriteResult::kSkipped);
    return Status::ok();
  }
  Status status = writeCgroupFile(path, std::to_string(value));
  const WriteResult result = status.isOk() ? WriteResult::kOk : WriteResult::kFailed;
  audit({clock_->now(), setting, path.string(),
         current.ok() ? std::optional<int64_t>(*current) : std::nullopt, value, reason, result,
         status});
  count(setting, result);
  return status;
}

std::vector<SystemAuditRecord> ProcSysConfigExecutor::auditLog() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return {audit_.begin(), audit_.end()};
}

uint64_t ProcSysConfigExecutor::skippedWrites() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return skipped_;
}

void ProcSysConfigExecutor::audit(SystemAuditRecord record) {
  const std::string old_value =
      record.old_value.has_value() ? std::to_string(*record.old_value) : std::string();
  if (record.result == WriteResult::kOk) {
    logger_.info("system setting written", {{"setting", systemSettingName(record.setting)},
                                            {"file", record.file},
                                            {"old", old_value},
                                            {"new", record.new_value},
                                            {"reason", record.reason}});
  } else {
    logger_.warn("system setting not written", {{"setting", systemSettingName(record.setting)},
                                                {"file", record.file},
                                                {"new", record.new_value},
                                                {"reason", record.reason},
                                                {"error", record.status}});
  }
  audit_.push_back(std::move(record));
  while (audit_.size() > audit_capacity_) {
    audit_.pop_front();
  }
}

void ProcSysConfigExecutor::count(SystemSetting setting, WriteResult result) {
  if (!writes_.has_value()) {
    return;
  }
  const Result<metrics::Counter> counter =
      writes_->withLabels({systemSettingName(setting), writeResultName(result)});
  if (counter.ok()) {
    counter->inc();
  }
}

}  // namespace koord::agent::resourceexecutor
