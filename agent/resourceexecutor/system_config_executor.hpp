// SystemConfigExecutor: how koord-agent changes node-wide kernel settings that are not cgroup files
// (koordlet's sysreconcile): the memory watermarks under <proc_root>/sys/vm. Like the cgroup
// executor it is the only writer of what it covers, skips writes of the value already there, and
// audits every change.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"
#include "koord/common/status.hpp"

namespace koord::agent::resourceexecutor {

enum class SystemSetting {
  kMinFreeKbytes,         // vm/min_free_kbytes (kilobytes, > 0)
  kWatermarkScaleFactor,  // vm/watermark_scale_factor (1..1000: fractions of 10,000 of memory)
};

// "min_free_kbytes", "watermark_scale_factor": the file name under vm/, for logs and labels.
[[nodiscard]] std::string_view systemSettingName(SystemSetting setting);

// Thread-safe.
class SystemConfigExecutor {
 public:
  virtual ~SystemConfigExecutor() = default;

  // The setting's current value; kNotFound when the kernel has no such file.
  [[nodiscard]] virtual Result<int64_t> get(SystemSetting setting) const = 0;
  // Writes `value` unless it is already the current value. kInvalidArgument for a value outside
  // the setting's range (nothing written); otherwise the write's error naming the file. `reason`
  // goes to the audit log.
  [[nodiscard]] virtual Status set(SystemSetting setting, int64_t value,
                                   const std::string& reason) = 0;
};

}  // namespace koord::agent::resourceexecutor
