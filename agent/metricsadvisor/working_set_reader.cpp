#include "agent/metricsadvisor/working_set_reader.hpp"

#include <utility>

#include "agent/metricsadvisor/cgroup_file.hpp"

namespace koord::agent::metricsadvisor {

namespace {

uint64_t workingSet(uint64_t usage, uint64_t inactive_file) {
  return usage > inactive_file ? usage - inactive_file : 0;
}

bool isNotFound(const Status& status) {
  return status.code() == StatusCode::kNotFound;
}

}  // namespace

WorkingSetReader::WorkingSetReader(CgroupFileCache& files, std::string usage_file,
                                   std::string inactive_key, uint32_t period, size_t max_entries)
    : files_(files),
      usage_file_(std::move(usage_file)),
      inactive_key_(std::move(inactive_key)),
      period_(period),
      max_entries_(max_entries) {}

Result<uint64_t> WorkingSetReader::read(std::string_view hierarchy_dir,
                                        std::string_view relative_dir) {
  const Result<uint64_t> usage =
      files_.readUint64(joinCgroupPath(hierarchy_dir, relative_dir, usage_file_));
  if (!usage.ok()) {
    if (isNotFound(usage.status())) {
      forget(relative_dir);
    }
    return usage.status();
  }
  const std::string stat_path = joinCgroupPath(hierarchy_dir, relative_dir, "memory.stat");
  if (const std::optional<uint64_t> kept = lookup(relative_dir)) {
    files_.keepOpen(stat_path);  // read again in a few calls: opening it costs more than reading
    return workingSet(*usage, *kept);
  }
  uint64_t inactive_file = 0;
  const Status stat = files_.readKeys(stat_path, {{inactive_key_, &inactive_file}});
  if (!stat.isOk()) {
    if (isNotFound(stat)) {
      forget(relative_dir);
    }
    return stat;
  }
  store(relative_dir, inactive_file);
  return workingSet(*usage, inactive_file);
}

size_t WorkingSetReader::keptFigures() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

std::optional<uint64_t> WorkingSetReader::lookup(std::string_view dir) {
  if (period_ <= 1) {
    return std::nullopt;
  }
  const std::lock_guard<std::mutex> lock(mu_);
  maybeSweepLocked();
  const auto it = entries_.find(dir);
  if (it == entries_.end()) {
    return std::nullopt;
  }
  Entry& entry = it->second;
  entry.used = true;
  if (entry.age + 1 >= period_) {
    return std::nullopt;  // due: the caller reads memory.stat and stores the new figure
  }
  ++entry.age;
  return entry.inactive_file;
}

void WorkingSetReader::store(std::string_view dir, uint64_t inactive_file) {
  if (period_ <= 1) {
    return;
  }
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = entries_.find(dir);
  if (it != entries_.end()) {
    it->second = Entry{.inactive_file = inactive_file, .age = 0, .used = true};
  } else if (entries_.size() < max_entries_) {
    // Starting older shortens the first interval, so that refreshes spread over `period_` cycles.
    const auto offset = static_cast<uint32_t>(new_figures_++ % period_);
    entries_.emplace(std::string(dir),
                     Entry{.inactive_file = inactive_file, .age = offset, .used = true});
  }
}

void WorkingSetReader::forget(std::string_view dir) {
  if (period_ <= 1) {
    return;
  }
  const std::lock_guard<std::mutex> lock(mu_);
  const auto it = entries_.find(dir);
  if (it != entries_.end()) {
    entries_.erase(it);
  }
}

void WorkingSetReader::maybeSweepLocked() {
  sweep_.countRead(entries_, [](const Entry&) {});
}

}  // namespace koord::agent::metricsadvisor
