#include "agent/metricsadvisor/node_collector.hpp"

#include <array>

#include "agent/metricsadvisor/cgroup_file.hpp"

namespace koord::agent::metricsadvisor {

namespace {

using metriccache::MetricKind;

constexpr uint64_t kKiB = 1024;

Status statError(const std::string& path, const std::string& cause) {
  return Status::invalidArgument("failed to parse '" + path + "': " + cause);
}

// Splits `line` on spaces and tabs into at most fields.size() fields; returns how many.
size_t splitFields(std::string_view line, std::array<std::string_view, 12>& fields) {
  size_t count = 0;
  size_t pos = 0;
  while (count < fields.size()) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) {
      break;
    }
    const size_t end = line.find_first_of(" \t", pos);
    fields[count++] = line.substr(pos, end == std::string_view::npos ? end : end - pos);
    pos = end;
  }
  return count;
}

bool isCpuNLine(std::string_view line) {
  return line.size() > 3 && line.compare(0, 3, "cpu") == 0 && line[3] >= '0' && line[3] <= '9';
}

}  // namespace

Result<ProcCpuTicks> parseProcStat(std::string_view text, const std::string& path) {
  const size_t eol = text.find('\n');
  const std::string_view first = text.substr(0, eol);
  std::array<std::string_view, 12> fields;
  const size_t n = splitFields(first, fields);
  // cpu user nice system idle iowait irq softirq [steal guest guest_nice]
  if (n < 8 || fields[0] != "cpu") {
    return statError(path,
                     "expected a first line 'cpu <user> <nice> <system> <idle> <iowait> "
                     "<irq> <softirq> ...', got '" +
                         std::string(first) + "'");
  }
  std::array<uint64_t, 8> ticks{};
  for (size_t i = 1; i < n && i <= ticks.size(); ++i) {
    if (!parseUint64(fields[i], &ticks[i - 1])) {
      return statError(path, "expected a tick count, got '" + std::string(fields[i]) + "'");
    }
  }
  const uint64_t user = ticks[0];
  const uint64_t nice = ticks[1];
  const uint64_t sys = ticks[2];
  const uint64_t idle = ticks[3];
  const uint64_t iowait = ticks[4];
  const uint64_t irq = ticks[5];
  const uint64_t softirq = ticks[6];
  const uint64_t steal = ticks[7];  // 0 when the kernel does not print it
  ProcCpuTicks result;
  result.busy = user + nice + sys + irq + softirq + steal;
  result.total = result.busy + idle + iowait;
  size_t pos = eol == std::string_view::npos ? text.size() : eol + 1;
  while (pos < text.size()) {
    const size_t next = text.find('\n', pos);
    if (isCpuNLine(text.substr(pos, next == std::string_view::npos ? next : next - pos))) {
      ++result.cpus;
    }
    pos = next == std::string_view::npos ? text.size() : next + 1;
  }
  if (result.cpus == 0) {
    return statError(path, "no 'cpuN' line");
  }
  return result;
}

Result<uint64_t> parseMeminfoUsedBytes(std::string_view text, const std::string& path) {
  uint64_t total_kb = 0;
  uint64_t available_kb = 0;
  if (!findKeyValue(text, "MemTotal", &total_kb)) {
    return missingKey(path, "MemTotal");
  }
  if (!findKeyValue(text, "MemAvailable", &available_kb)) {
    return missingKey(path, "MemAvailable");
  }
  return total_kb > available_kb ? (total_kb - available_kb) * kKiB : 0;
}

NodeCollector::NodeCollector(const system::SysPaths& paths, metriccache::MetricCache& cache)
    : stat_path_((paths.proc_root / "stat").string()),
      meminfo_path_((paths.proc_root / "meminfo").string()),
      cache_(cache) {}

Result<ProcCpuTicks> NodeCollector::readStat() {
  KOORD_RETURN_IF_ERROR(readWholeFile(stat_path_, &buffer_));
  return parseProcStat(buffer_, stat_path_);
}

Result<uint64_t> NodeCollector::readMeminfo() {
  KOORD_RETURN_IF_ERROR(readWholeFile(meminfo_path_, &buffer_));
  return parseMeminfoUsedBytes(buffer_, meminfo_path_);
}

NodeUsage NodeCollector::collect(metriccache::TimePoint now, CollectStats& stats) {
  NodeUsage usage;
  const auto record = [&](MetricKind kind, double value) {
    const Status appended = cache_.append(kind, "", now, value);
    if (!appended.isOk()) {
      stats.addError(kind, appended);
      return false;
    }
    ++stats.samples;
    return true;
  };

  const Result<ProcCpuTicks> ticks = readStat();
  if (!ticks.ok()) {
    stats.addError(MetricKind::kNodeCpu, ticks.status());
  } else {
    const ProcCpuTicks current = *ticks;
    if (last_.has_value() && current.busy >= last_->busy && current.total > last_->total) {
      const double cores = static_cast<double>(current.busy - last_->busy) /
                           static_cast<double>(current.total - last_->total) * current.cpus;
      if (record(MetricKind::kNodeCpu, cores)) {
        usage.cpu_cores = cores;
      }
    }
    last_ = current;
  }

  const Result<uint64_t> used = readMeminfo();
  if (!used.ok()) {
    stats.addError(MetricKind::kNodeMemory, used.status());
  } else if (record(MetricKind::kNodeMemory, static_cast<double>(*used))) {
    usage.memory_bytes = static_cast<double>(*used);
  }
  return usage;
}

}  // namespace koord::agent::metricsadvisor
