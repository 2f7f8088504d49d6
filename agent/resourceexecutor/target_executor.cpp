#include "agent/resourceexecutor/target_executor.hpp"

#include <algorithm>

#include "agent/resourceexecutor/confinement.hpp"
#include "agent/resourceexecutor/executor_metrics.hpp"

namespace koord::agent::resourceexecutor {

namespace {

// The folders of the resctrl filesystem that are not control groups.
bool isResctrlInfoDir(const std::string& name) {
  return name == "info" || name == "mon_data" || name == "mon_groups";
}

bool isDeviceChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

bool isHexChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// A tc handle part: 1 to 4 hex digits (16 bits), compared without leading zeros.
std::optional<std::string> handlePart(std::string_view text) {
  if (text.empty() || text.size() > 4) {
    return std::nullopt;
  }
  std::string out;
  for (char c : text) {
    if (!isHexChar(c)) {
      return std::nullopt;
    }
    const char lower = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
    if (!(out.empty() && lower == '0')) {
      out += lower;
    }
  }
  return out.empty() ? "0" : out;
}

// Empty when `parts` names a group of the resctrl root, else why not.
std::string resctrlProblem(const std::vector<std::string>& parts) {
  if (parts.size() > 1) {
    return "resctrl control groups are one level deep";
  }
  if (parts.size() == 1 && isResctrlInfoDir(parts[0])) {
    return "'" + parts[0] + "' is not a resctrl control group";
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<TargetExecutor>> TargetExecutor::create(TargetExecutorOptions options,
                                                               const Clock& clock,
                                                               const log::Logger* logger,
                                                               metrics::MetricsRegistry* registry) {
  const std::optional<std::string> major = handlePart(options.net_qos_major);
  if (!major.has_value() || *major == "0") {
    return Status::invalidArgument("failed to create target executor: net-QoS qdisc major '" +
                                   options.net_qos_major +
                                   "' must be 1 to 4 hex digits other than 0");
  }
  options.net_qos_major = *major;
  std::optional<metrics::CounterFamily> writes;
  if (registry != nullptr) {
    KOORD_ASSIGN_OR_RETURN(
        writes, registry->counterFamily(std::string(kExecutorWritesMetric),
                                        std::string(kExecutorWritesHelp), {"resource", "result"}));
  }
  return std::unique_ptr<TargetExecutor>(new TargetExecutor(
      std::move(options), clock, logger != nullptr ? *logger : log::Logger(), writes));
}

TargetExecutor::TargetExecutor(TargetExecutorOptions options, const Clock& clock,
                               log::Logger logger, std::optional<metrics::CounterFamily> writes)
    : options_(std::move(options)), clock_(&clock), logger_(std::move(logger)), writes_(writes) {
  options_.audit_capacity = options_.audit_capacity == 0 ? 1 : options_.audit_capacity;
}

Result<std::filesystem::path> TargetExecutor::confine(const TargetUpdate& update) const {
  const auto parts = relativeComponents(update.dir);
  std::string why;
  if (!parts.has_value()) {
    why = "an absolute path or one with '..'";
  } else if (isResctrlTarget(update.target)) {
    why = resctrlProblem(*parts);
  } else if (parts->size() != 2) {
    why = "want '<device>/<classid>'";
  } else {
    const std::string& device = (*parts)[0];
    const std::string& classid = (*parts)[1];
    const size_t colon = classid.find(':');
    const std::optional<std::string> major =
        colon == std::string::npos ? std::nullopt : handlePart(classid.substr(0, colon));
    const std::optional<std::string> minor =
        colon == std::string::npos ? std::nullopt : handlePart(classid.substr(colon + 1));
    if (device.empty() || device.size() > 15 ||
        !std::all_of(device.begin(), device.end(), isDeviceChar)) {
      why = "'" + device + "' is not a network device name";
    } else if (!options_.net_qos_devices.empty() && options_.net_qos_devices.count(device) == 0) {
      why = "device '" + device + "' is not one the agent manages";
    } else if (!major.has_value() || !minor.has_value() || *major != options_.net_qos_major ||
               *minor == "0") {
      why = "'" + classid + "' is not a class of the agent's qdisc " + options_.net_qos_major + ":";
    }
  }
  if (!why.empty()) {
    return Status::permissionDenied("refusing to write '" +
                                    (update.dir / kernelTargetName(update.target)).string() +
                                    "': " + why);
  }
  return joinComponents(*parts);
}

TargetWriter* TargetExecutor::writerFor(KernelTarget target) const {
  return isResctrlTarget(target) ? options_.resctrl.get() : options_.net_qos.get();
}

Status TargetExecutor::update(const TargetUpdate& update) {
  const std::lock_guard<std::mutex> lock(mu_);
  const std::string requested = (update.dir / kernelTargetName(update.target)).string();
  Result<std::filesystem::path> dir = confine(update);
  if (!dir.ok()) {
    audit({clock_->now(), update.target, requested, std::nullopt, update.value, update.reason,
           WriteResult::kRefused, dir.status()});
    count(update.target, WriteResult::kRefused);
    return dir.status();
  }
  Result<std::string> value = canonicalTargetValue(update.target, update.value);
  TargetWriter* writer = writerFor(update.target);
  if (!value.ok() || writer == nullptr) {
    Status status = !value.ok()
                        ? value.status()
                        : Status::unimplemented(
                              "failed to write '" + requested + "': no " +
                              (isResctrlTarget(update.target) ? "resctrl" : "net-QoS") + " writer");
    audit({clock_->now(), update.target, requested, std::nullopt, update.value, update.reason,
           WriteResult::kFailed, status});
    count(update.target, WriteResult::kFailed);
    return status;
  }
  const CacheKey key{update.target, dir->string()};
  const auto cached = cache_.find(key);
  if (cached != cache_.end() && cached->second.value == *value &&
      (options_.cache_max_age <= Clock::Duration::zero() ||
       clock_->now() - cached->second.written < options_.cache_max_age)) {
    ++skipped_;
    count(update.target, WriteResult::kSkipped);
    return Status::ok();
  }
  Result<std::string> old_value = writer->read(update.target, *dir);
  Status status = writer->write(update.target, *dir, *value);
  const Clock::TimePoint now = clock_->now();
  if (status.isOk()) {
    cache_[key] = CacheEntry{*value, now};
  } else {
    cache_.erase(key);
  }
  Result<std::string> location = writer->location(update.target, *dir);
  audit({now, update.target, location.ok() ? *location : requested,
         old_value.ok() ? std::optional<std::string>(*old_value) : std::nullopt, *value,
         update.reason, status.isOk() ? WriteResult::kOk : WriteResult::kFailed, status});
  count(update.target, status.isOk() ? WriteResult::kOk : WriteResult::kFailed);
  return status;
}

void TargetExecutor::forget(KernelTarget target, const std::filesystem::path& dir) {
  const std::lock_guard<std::mutex> lock(mu_);
  const auto parts = relativeComponents(dir);
  if (!parts.has_value()) {
    return;
  }
  const std::vector<std::string>& base = *parts;
  for (auto it = cache_.begin(); it != cache_.end();) {
    const auto cached = relativeComponents(it->first.second);
    const bool same_family = isResctrlTarget(it->first.first) == isResctrlTarget(target);
    const bool under = cached.has_value() && startsWith(*cached, base);
    it = same_family && under ? cache_.erase(it) : std::next(it);
  }
}

std::vector<TargetAuditRecord> TargetExecutor::auditLog() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return {audit_.begin(), audit_.end()};
}

uint64_t TargetExecutor::skippedWrites() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return skipped_;
}

void TargetExecutor::audit(TargetAuditRecord record) {
  if (record.result == WriteResult::kOk) {
    logger_.info("kernel target written", {{"target", kernelTargetName(record.target)},
                                           {"location", record.location},
                                           {"old", record.old_value.value_or("")},
                                           {"new", record.new_value},
                                           {"reason", record.reason}});
  } else {
    logger_.warn("kernel target not written", {{"target", kernelTargetName(record.target)},
                                               {"location", record.location},
                                               {"new", record.new_value},
                                               {"reason", record.reason},
                                               {"result", writeResultName(record.result)},
                                               {"error", record.status}});
  }
  audit_.push_back(std::move(record));
  while (audit_.size() > options_.audit_capacity) {
    audit_.pop_front();
  }
}

void TargetExecutor::count(KernelTarget target, WriteResult result) {
  if (!writes_.has_value()) {
    return;
  }
  const Result<metrics::Counter> counter =
      writes_->withLabels({kernelTargetName(target), writeResultName(result)});
  if (counter.ok()) {
    counter->inc();
  }
}

}  // namespace koord::agent::resourceexecutor
