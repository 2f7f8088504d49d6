#include "agent/metricsadvisor/pod_collector.hpp"

#include <chrono>

namespace koord::agent::metricsadvisor {

namespace {

using metriccache::MetricKind;

int64_t toNanos(metriccache::TimePoint t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

bool missingFile(const Status& status) {
  return status.code() == StatusCode::kNotFound;
}

}  // namespace

PodCollector::PodCollector(const CgroupReader& reader, PodProvider provider,
                           metriccache::MetricCache& cache)
    : reader_(reader), provider_(std::move(provider)), cache_(cache) {}

PodCollector::CpuState& PodCollector::touch(StateMap& map, std::string_view id) {
  auto it = map.find(id);
  if (it == map.end()) {
    it = map.emplace(std::string(id), CpuState{}).first;
  }
  it->second.cycle = cycle_;
  return it->second;
}

std::optional<double> PodCollector::cpuCores(CpuState& state, uint64_t usage_nanos,
                                             int64_t now_ns) {
  std::optional<double> cores;
  if (state.primed && usage_nanos >= state.usage_nanos && now_ns > state.time_ns) {
    cores = static_cast<double>(usage_nanos - state.usage_nanos) /
            static_cast<double>(now_ns - state.time_ns);
  }
  state.usage_nanos = usage_nanos;
  state.time_ns = now_ns;
  state.primed = true;
  return cores;
}

bool PodCollector::record(MetricKind kind, std::string_view id, metriccache::TimePoint now,
                          double value, CollectStats& stats) {
  const Status appended = cache_.append(kind, id, now, value);
  if (!appended.isOk()) {
    stats.addError(kind, appended);
    return false;
  }
  ++stats.samples;
  return true;
}

PodCollector::Reading PodCollector::collectOne(std::string_view id, std::string_view dir,
                                               CpuState& state, MetricKind cpu_kind,
                                               MetricKind memory_kind, metriccache::TimePoint now,
                                               CollectStats& stats) {
  Reading reading;
  const Result<uint64_t> usage = reader_.cpuUsageNanos(dir);
  if (!usage.ok()) {
    if (missingFile(usage.status())) {
      reading.gone = true;
      return reading;
    }
    stats.addError(cpu_kind, usage.status());
  } else if (const std::optional<double> cores = cpuCores(state, *usage, toNanos(now))) {
    if (record(cpu_kind, id, now, *cores, stats)) {
      reading.cpu_cores = cores;
    }
  }
  const Result<uint64_t> memory = reader_.memoryWorkingSetBytes(dir);
  if (!memory.ok()) {
    if (missingFile(memory.status())) {
      reading.gone = true;
      return reading;
    }
    stats.addError(memory_kind, memory.status());
  } else if (record(memory_kind, id, now, static_cast<double>(*memory), stats)) {
    reading.memory_bytes = static_cast<double>(*memory);
  }
  return reading;
}

PodsUsage PodCollector::collect(metriccache::TimePoint now, CollectStats& stats) {
  ++cycle_;
  PodsUsage usage;
  const std::shared_ptr<const std::vector<PodCgroup>> pods =
      provider_ ? provider_() : std::shared_ptr<const std::vector<PodCgroup>>();
  if (pods != nullptr) {
    for (const PodCgroup& pod : *pods) {
      if (pod.uid.empty() || pod.cgroup_dir.empty()) {
        continue;
      }
      ++stats.pods;
      stats.containers += pod.containers.size();
      CpuState& pod_state = touch(pods_, pod.uid);
      for (const ContainerCgroup& container : pod.containers) {
        if (!container.id.empty()) {
          touch(containers_, container.id);
        }
      }
      const Reading reading = collectOne(pod.uid, pod.cgroup_dir, pod_state, MetricKind::kPodCpu,
                                         MetricKind::kPodMemory, now, stats);
      if (reading.gone) {
        ++stats.missing_pods;
        continue;
      }
      if (reading.cpu_cores.has_value()) {
        usage.cpu_cores += *reading.cpu_cores;
        ++usage.cpu_pods;
      }
      if (reading.memory_bytes.has_value()) {
        usage.memory_bytes += *reading.memory_bytes;
        ++usage.memory_pods;
      }
      for (const ContainerCgroup& container : pod.containers) {
        if (container.id.empty() || container.cgroup_dir.empty()) {
          continue;
        }
        CpuState& state = touch(containers_, container.id);
        if (collectOne(container.id, container.cgroup_dir, state, MetricKind::kContainerCpu,
                       MetricKind::kContainerMemory, now, stats)
                .gone) {
          ++stats.missing_containers;
        }
      }
    }
  }
  dropUnlisted();
  return usage;
}

void PodCollector::dropUnlisted() {
  const auto unlisted = [this](const auto& entry) { return entry.second.cycle != cycle_; };
  if (std::erase_if(pods_, unlisted) > 0) {
    const auto listed = [this](std::string_view id) { return pods_.find(id) != pods_.end(); };
    cache_.retainIf(MetricKind::kPodCpu, listed);
    cache_.retainIf(MetricKind::kPodMemory, listed);
  }
  if (std::erase_if(containers_, unlisted) > 0) {
    const auto listed = [this](std::string_view id) {
      return containers_.find(id) != containers_.end();
    };
    cache_.retainIf(MetricKind::kContainerCpu, listed);
    cache_.retainIf(MetricKind::kContainerMemory, listed);
  }
}

}  // namespace koord::agent::metricsadvisor
