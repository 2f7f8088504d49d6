// AuditLog: the last N cgroup writes the executor attempted, for tests and the /debug page.
// Not thread-safe on its own: the executor guards it with its lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/resourceexecutor/cgroup_resource.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/status.hpp"

namespace koord::agent::resourceexecutor {

// What became of one update; also the `result` label of koord_agent_executor_writes_total.
enum class WriteResult {
  kOk,       // written
  kSkipped,  // the cache holds the same value: nothing written
  kFailed,   // the value was invalid, or the kernel or filesystem refused the write
  kRefused,  // outside the kubepods folder: nothing written
};

// "ok", "skipped", "failed", "refused".
[[nodiscard]] std::string_view writeResultName(WriteResult result);

struct AuditRecord {
  // When the write was attempted (the executor's clock: monotonic, not wall time).
  Clock::TimePoint time{};
  CgroupResource resource = CgroupResource::kCpuShares;
  // The host file; for a refusal, the requested `dir/<file name>`.
  std::string file;
  // The value before the write in v1 units, when it could be read.
  std::optional<std::string> old_value;
  // The value written, canonical v1 units; for a refusal or invalid value, as requested.
  std::string new_value;
  // The update's reason; a cpuset loosening step ends in " (loosen)".
  std::string reason;
  WriteResult result = WriteResult::kOk;
  // Why it failed or was refused; ok otherwise.
  Status status;
};

class AuditLog {
 public:
  // Keeps the last `capacity` records (at least 1).
  explicit AuditLog(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // Appends `record`, dropping the oldest when full.
  void add(AuditRecord record);
  // The kept records, oldest first.
  [[nodiscard]] std::vector<AuditRecord> records() const {
    return {records_.begin(), records_.end()};
  }
  [[nodiscard]] size_t capacity() const { return capacity_; }
  // How many records were ever added (kept or dropped).
  [[nodiscard]] uint64_t total() const { return total_; }

 private:
  size_t capacity_;
  uint64_t total_ = 0;
  std::deque<AuditRecord> records_;
};

}  // namespace koord::agent::resourceexecutor
