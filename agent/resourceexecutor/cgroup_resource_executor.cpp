#include "agent/resourceexecutor/cgroup_resource_executor.hpp"

#include <algorithm>
#include <set>

#include "agent/resourceexecutor/confinement.hpp"
#include "agent/resourceexecutor/executor_metrics.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::resourceexecutor {

namespace {

size_t depthOf(const std::filesystem::path& dir) {
  return static_cast<size_t>(std::distance(dir.begin(), dir.end()));
}

}  // namespace

Result<std::unique_ptr<CgroupResourceExecutor>> CgroupResourceExecutor::create(
    std::unique_ptr<CgroupWriter> writer, const Clock& clock, ResourceExecutorOptions options,
    const log::Logger* logger, metrics::MetricsRegistry* registry) {
  const auto parts = relativeComponents(options.kubepods_dir);
  if (!parts.has_value() || parts->empty()) {
    return Status::invalidArgument("failed to create resource executor: kubepods folder '" +
                                   options.kubepods_dir.string() +
                                   "' must be a relative path without '..'");
  }
  if (writer == nullptr) {
    return Status::invalidArgument("failed to create resource executor: no cgroup writer");
  }
  std::optional<metrics::CounterFamily> writes;
  if (registry != nullptr) {
    KOORD_ASSIGN_OR_RETURN(
        writes, registry->counterFamily(std::string(kExecutorWritesMetric),
                                        std::string(kExecutorWritesHelp), {"resource", "result"}));
  }
  std::filesystem::path kubepods = joinComponents(*parts);
  return std::unique_ptr<CgroupResourceExecutor>(
      new CgroupResourceExecutor(std::move(writer), clock, std::move(options), std::move(kubepods),
                                 logger != nullptr ? *logger : log::Logger(), writes));
}

CgroupResourceExecutor::CgroupResourceExecutor(std::unique_ptr<CgroupWriter> writer,
                                               const Clock& clock, ResourceExecutorOptions options,
                                               std::filesystem::path kubepods, log::Logger logger,
                                               std::optional<metrics::CounterFamily> writes)
    : writer_(std::move(writer)),
      clock_(&clock),
      options_(std::move(options)),
      kubepods_(std::move(kubepods)),
      logger_(std::move(logger)),
      writes_(writes),
      audit_(options_.audit_capacity) {}

Status CgroupResourceExecutor::update(const ResourceUpdate& update) {
  const std::lock_guard<std::mutex> lock(mu_);
  return applyOne(update);
}

Status CgroupResourceExecutor::updateBatch(std::vector<ResourceUpdate> updates) {
  const std::lock_guard<std::mutex> lock(mu_);
  std::vector<Status> failures;
  std::vector<Checked> cpus;
  std::vector<Checked> mems;
  for (const ResourceUpdate& update : updates) {
    if (!isCpusetResource(update.resource)) {
      if (Status status = applyOne(update); !status.isOk()) {
        failures.push_back(std::move(status));
      }
      continue;
    }
    Result<Checked> checked = check(update);
    if (!checked.ok()) {
      failures.push_back(checked.status());
      continue;
    }
    (update.resource == CgroupResource::kCpusetCpus ? cpus : mems)
        .push_back(std::move(checked).value());
  }
  applyLeveled(std::move(cpus), &failures);
  applyLeveled(std::move(mems), &failures);
  if (failures.empty()) {
    return Status::ok();
  }
  return failures.front().withPrefix("failed to apply " + std::to_string(failures.size()) + " of " +
                                     std::to_string(updates.size()) + " updates");
}

void CgroupResourceExecutor::forget(const std::filesystem::path& dir) {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto parts = relativeComponents(dir);
  if (!parts.has_value() || parts->empty()) {
    return;
  }
  const std::string prefix = joinComponents(*parts).string();
  for (auto it = cache_.begin(); it != cache_.end();) {
    const std::string& key = it->first.first;
    const bool under =
        key == prefix || (key.size() > prefix.size() &&
                          key.compare(0, prefix.size(), prefix) == 0 && key[prefix.size()] == '/');
    it = under ? cache_.erase(it) : std::next(it);
  }
}

std::vector<AuditRecord> CgroupResourceExecutor::auditLog() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return audit_.records();
}

uint64_t CgroupResourceExecutor::skippedWrites() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return skipped_;
}

Result<CgroupResourceExecutor::Checked> CgroupResourceExecutor::check(
    const ResourceUpdate& update) {
  const auto parts = relativeComponents(update.dir);
  const std::vector<std::string> kubepods = *relativeComponents(kubepods_);
  const bool inside = parts.has_value() && startsWith(*parts, kubepods);
  if (!inside) {
    Status refusal =
        Status::permissionDenied("refusing to write '" + displayFile(update.resource, update.dir) +
                                 "': outside " + kubepods_.string());
    audit({clock_->now(), update.resource, displayFile(update.resource, update.dir), std::nullopt,
           update.value, update.reason, WriteResult::kRefused, refusal});
    count(update.resource, WriteResult::kRefused);
    return refusal;
  }
  Checked checked;
  checked.resource = update.resource;
  checked.dir = joinComponents(*parts);
  checked.reason = update.reason;
  Result<std::string> value = canonicalValue(update.resource, update.value);
  if (!value.ok()) {
    audit({clock_->now(), update.resource, displayFile(update.resource, checked.dir), std::nullopt,
           update.value, update.reason, WriteResult::kFailed, value.status()});
    count(update.resource, WriteResult::kFailed);
    return value.status();
  }
  checked.value = std::move(value).value();
  return checked;
}

bool CgroupResourceExecutor::skipCached(const Checked& checked) {
  const auto it = cache_.find({checked.dir.string(), checked.resource});
  if (it == cache_.end() || it->second.value != checked.value) {
    return false;
  }
  if (options_.cache_max_age > Clock::Duration::zero() &&
      clock_->now() - it->second.written >= options_.cache_max_age) {
    return false;
  }
  ++skipped_;
  count(checked.resource, WriteResult::kSkipped);
  return true;
}

Status CgroupResourceExecutor::write(const Checked& checked, const std::string& value,
                                     const std::optional<std::string>& old_value, bool final) {
  const Result<std::filesystem::path> file = writer_->filePath(checked.resource, checked.dir);
  Status status = writer_->write(checked.resource, checked.dir, value);
  const Clock::TimePoint now = clock_->now();
  const CacheKey key{checked.dir.string(), checked.resource};
  if (final && status.isOk()) {
    cache_[key] = CacheEntry{value, now};
  } else {
    cache_.erase(key);
  }
  audit({now, checked.resource,
         file.ok() ? file->string() : displayFile(checked.resource, checked.dir), old_value, value,
         final ? checked.reason : checked.reason + " (loosen)",
         status.isOk() ? WriteResult::kOk : WriteResult::kFailed, status});
  if (final) {
    count(checked.resource, status.isOk() ? WriteResult::kOk : WriteResult::kFailed);
  }
  return status;
}

Status CgroupResourceExecutor::applyOne(const ResourceUpdate& update) {
  KOORD_ASSIGN_OR_RETURN(Checked checked, check(update));
  if (skipCached(checked)) {
    return Status::ok();
  }
  Result<std::string> old_value = writer_->read(checked.resource, checked.dir);
  return write(
      checked, checked.value,
      old_value.ok() ? std::optional<std::string>(std::move(old_value).value()) : std::nullopt,
      /*final=*/true);
}

void CgroupResourceExecutor::applyLeveled(std::vector<Checked> updates,
                                          std::vector<Status>* failures) {
  // The last update of each folder wins; earlier ones are superseded (counted as skipped).
  std::vector<Checked> latest;
  std::set<std::string> seen;
  for (auto it = updates.rbegin(); it != updates.rend(); ++it) {
    if (!seen.insert(it->dir.string()).second) {
      ++skipped_;
      count(it->resource, WriteResult::kSkipped);
      continue;
    }
    if (!skipCached(*it)) {
      latest.push_back(std::move(*it));
    }
  }
  std::reverse(latest.begin(), latest.end());
  std::stable_sort(latest.begin(), latest.end(), [](const Checked& a, const Checked& b) {
    return depthOf(a.dir) < depthOf(b.dir);
  });

  struct Step {
    std::optional<std::string> old_value;
    bool done = false;
  };
  std::vector<Step> steps(latest.size());
  const auto note = [failures](Status status) {
    if (!status.isOk()) {
      failures->push_back(std::move(status));
    }
  };
  // Loosen, top-down.
  for (size_t i = 0; i < latest.size(); ++i) {
    const Checked& checked = latest[i];
    Result<std::string> current = writer_->read(checked.resource, checked.dir);
    if (!current.ok()) {
      continue;
    }
    steps[i].old_value = *current;
    const Result<cpuset::CpuSet> current_set = cpuset::CpuSet::parse(*current);
    const Result<cpuset::CpuSet> new_set = cpuset::CpuSet::parse(checked.value);
    if (!current_set.ok() || !new_set.ok()) {
      continue;
    }
    const cpuset::CpuSet loose = current_set->unionWith(*new_set);
    if (loose == *new_set) {
      steps[i].done = true;
      note(write(checked, checked.value, steps[i].old_value, /*final=*/true));
    } else if (!(loose == *current_set)) {
      const std::string loose_text = loose.toString();
      if (write(checked, loose_text, steps[i].old_value, /*final=*/false).isOk()) {
        steps[i].old_value = loose_text;
      }
    }
  }
  // Tighten, bottom-up.
  for (size_t i = latest.size(); i-- > 0;) {
    if (!steps[i].done) {
      note(write(latest[i], latest[i].value, steps[i].old_value, /*final=*/true));
    }
  }
}

void CgroupResourceExecutor::audit(AuditRecord record) {
  if (record.result == WriteResult::kOk) {
    logger_.info("cgroup written", {{"resource", cgroupResourceName(record.resource)},
                                    {"file", record.file},
                                    {"old", record.old_value.value_or("")},
                                    {"new", record.new_value},
                                    {"reason", record.reason}});
  } else {
    logger_.warn("cgroup not written", {{"resource", cgroupResourceName(record.resource)},
                                        {"file", record.file},
                                        {"new", record.new_value},
                                        {"reason", record.reason},
                                        {"result", writeResultName(record.result)},
                                        {"error", record.status}});
  }
  audit_.add(std::move(record));
}

void CgroupResourceExecutor::count(CgroupResource resource, WriteResult result) {
  if (!writes_.has_value()) {
    return;
  }
  const Result<metrics::Counter> counter =
      writes_->withLabels({cgroupResourceName(resource), writeResultName(result)});
  if (counter.ok()) {
    counter->inc();
  }
}

std::string CgroupResourceExecutor::displayFile(CgroupResource resource,
                                                const std::filesystem::path& dir) const {
  const Result<std::string> name = writer_->fileName(resource);
  return (dir / (name.ok() ? *name : std::string(cgroupResourceName(resource)))).string();
}

}  // namespace koord::agent::resourceexecutor
