// CgroupResourceExecutor: the ResourceExecutor over a CgroupWriter (v1 or v2).
//
// Confinement. Every update's `dir` is checked lexically before anything is read or written:
// it must be relative, hold no ".." component and no NUL byte, and its components must start
// with those of the kubepods folder the executor was created with ("kubepods" allows
// "kubepods" and "kubepods/burstable/pod1", not "kubepods-evil", "kubepodsX/.." or "/kubepods").
// Refusals are kPermissionDenied "refusing to write '<dir>/<file>': outside <kubepods>".
// Symbolic links are not resolved: the check trusts that nothing under the cgroup mounts links
// out of them (cgroupfs cannot hold symlinks; a test tree could).
//
// Cache. After a successful write the canonical value is cached per (dir, resource); an update
// with the same value is skipped (counted in skippedWrites()) unless the entry is older than
// `cache_max_age` (when set), the write failed (the entry is dropped), or forget() dropped it.
// Like koordlet's cache expiry, the max age re-asserts values that something else may have
// changed behind the executor's back.
//
// Leveled cpuset updates. The kernel refuses a cpuset.cpus (or cpuset.mems) that is not a subset
// of the parent's (cgroup v1: EACCES), and a parent that would no longer hold a child's CPUs
// (EBUSY). updateBatch() therefore applies the other updates first, in order, and then, for
// cpuset.cpus and then cpuset.mems, the updates of that resource (the last one per folder wins):
//   1. loosen, top-down (shallowest folder first): each folder is written the union of its
//      current and new value when that differs from the current one (when the union is the new
//      value, that write is final);
//   2. tighten, bottom-up (deepest first): each folder not yet final is written its new value.
// A parent thus always holds what its children hold at every step, provided the new values are
// themselves consistent (each child's new value within its parent's). A folder whose current
// value cannot be read is not loosened. When a final write fails, its folder may keep the loosened
// value (old and new together, never less than its children hold); nothing is cached for it, so
// the next update writes it again. Loosening writes are audited with " (loosen)" after the
// reason; they are not counted in the metric, which counts one result per update.
//
// Audit and metrics. Every attempted write (ok, failed or refused; not skipped) is added to a
// ring of the last `audit_capacity` records and logged (info when ok, warn otherwise) when a
// logger is given. When a registry is given, koord_agent_executor_writes_total{resource,result}
// counts each update once with result ok, skipped, failed or refused.
//
// Thread-safe: one lock serialises updates, forget() and the accessors.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/resourceexecutor/audit_log.hpp"
#include "agent/resourceexecutor/cgroup_writer.hpp"
#include "agent/resourceexecutor/resource_executor.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"
#include "koord/metrics/registry.hpp"

namespace koord::agent::resourceexecutor {

struct ResourceExecutorOptions {
  // The kubelet's kubepods folder (kubepodsDir() of cgroup_paths.hpp): relative, no "..".
  std::filesystem::path kubepods_dir = "kubepods";
  // Cached values older than this are written again; zero keeps them until forget().
  Clock::Duration cache_max_age = Clock::Duration::zero();
  // How many audit records are kept (at least 1).
  size_t audit_capacity = 256;
};

class CgroupResourceExecutor final : public ResourceExecutor {
 public:
  // `clock` must outlive the executor; `logger` and `registry` may be null (no logging, no
  // metrics), and are copied / must outlive it. kInvalidArgument
  // "failed to create resource executor: kubepods folder '<dir>' ..." when kubepods_dir is
  // empty, absolute or holds ".."; a registry error when the metric family cannot be registered.
  [[nodiscard]] static Result<std::unique_ptr<CgroupResourceExecutor>> create(
      std::unique_ptr<CgroupWriter> writer, const Clock& clock, ResourceExecutorOptions options,
      const log::Logger* logger = nullptr, metrics::MetricsRegistry* registry = nullptr);

  [[nodiscard]] Status update(const ResourceUpdate& update) override;
  [[nodiscard]] Status updateBatch(std::vector<ResourceUpdate> updates) override;
  void forget(const std::filesystem::path& dir) override;

  // The kept audit records, oldest first.
  [[nodiscard]] std::vector<AuditRecord> auditLog() const;
  // How many updates were skipped: the cache held their value, or a later cpuset update of the
  // same folder in the same batch superseded them.
  [[nodiscard]] uint64_t skippedWrites() const;
  [[nodiscard]] const std::filesystem::path& kubepodsDir() const { return kubepods_; }

 private:
  // An update that passed confinement and validation.
  struct Checked {
    CgroupResource resource = CgroupResource::kCpuShares;
    std::filesystem::path dir;  // normalised
    std::string value;          // canonical
    std::string reason;
  };
  struct CacheEntry {
    std::string value;
    Clock::TimePoint written{};
  };
  using CacheKey = std::pair<std::string, CgroupResource>;

  CgroupResourceExecutor(std::unique_ptr<CgroupWriter> writer, const Clock& clock,
                         ResourceExecutorOptions options, std::filesystem::path kubepods,
                         log::Logger logger, std::optional<metrics::CounterFamily> writes);

  // Confines and validates `update`; a refusal or invalid value is audited and counted here.
  Result<Checked> check(const ResourceUpdate& update);
  // True (and counted) when the cache holds `checked.value` and it has not expired.
  bool skipCached(const Checked& checked);
  // Writes `value` for `checked` and audits it; `final` writes update the cache and the metric.
  Status write(const Checked& checked, const std::string& value,
               const std::optional<std::string>& old_value, bool final);
  // The leveled cpuset writes of one resource (see the header comment); appends each failed
  // update's error to `failures`.
  void applyLeveled(std::vector<Checked> updates, std::vector<Status>* failures);
  Status applyOne(const ResourceUpdate& update);

  void audit(AuditRecord record);
  void count(CgroupResource resource, WriteResult result);
  std::string displayFile(CgroupResource resource, const std::filesystem::path& dir) const;

  mutable std::mutex mu_;
  std::unique_ptr<CgroupWriter> writer_;
  const Clock* clock_;
  ResourceExecutorOptions options_;
  std::filesystem::path kubepods_;
  log::Logger logger_;
  std::optional<metrics::CounterFamily> writes_;
  std::map<CacheKey, CacheEntry> cache_;
  AuditLog audit_;
  uint64_t skipped_ = 0;
};

}  // namespace koord::agent::resourceexecutor
