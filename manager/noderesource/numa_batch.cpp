#include "manager/noderesource/numa_batch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/well_known.hpp"
#include "manager/noderesource/amplification.hpp"

namespace koord::manager::noderesource {

namespace {

// {cpu milli, memory bytes}.
using Pair = std::array<int64_t, 2>;

int64_t ceilDiv(int64_t value, int64_t n) {
  if (n <= 0) {
    return value;
  }
  return static_cast<int64_t>(std::ceil(static_cast<double>(value) / static_cast<double>(n)));
}

Pair divide(const Pair& p, int64_t n) {
  return {ceilDiv(p[0], n), ceilDiv(p[1], n)};
}

void add(Pair& to, const Pair& p) {
  to[0] += p[0];
  to[1] += p[1];
}

Pair amounts(const resource::ResourceList& list) {
  return {amountOf(list, Resource::kCPU), amountOf(list, Resource::kMemory)};
}

bool isBatchOrFree(api::PriorityClass p) {
  return p == api::PriorityClass::kBatch || p == api::PriorityClass::kFree;
}

// The zones (indexes) a pod is bound to; empty: all.
std::set<int> podZones(const api::core::Pod& pod, int zone_count) {
  std::set<int> out;
  auto it = pod.metadata.annotations.find(std::string(api::kAnnotationResourceStatus));
  if (it == pod.metadata.annotations.end()) {
    return out;
  }
  auto status = api::extension::parseResourceStatus(it->second);
  if (!status.ok()) {
    return out;
  }
  for (const auto& numa : status->numaNodeResources) {
    if (numa.node >= 0 && numa.node < zone_count) {
      out.insert(numa.node);
    }
  }
  return out;
}

int64_t byPolicy(CalculatePolicy policy, int64_t capacity, int64_t margin, int64_t reserved,
                 int64_t system_used, int64_t request, int64_t used, int64_t max_used_req) {
  const int64_t used_or_reserved = std::max(system_used, reserved);
  int64_t value = 0;
  switch (policy) {
    case CalculatePolicy::kUsage:
      value = capacity - margin - used_or_reserved - used;
      break;
    case CalculatePolicy::kRequest:
      value = capacity - margin - reserved - request;
      break;
    case CalculatePolicy::kMaxUsageRequest:
      value = capacity - margin - used_or_reserved - max_used_req;
      break;
  }
  return std::max<int64_t>(value, 0);
}

bool movedBeyond(const resource::Quantity& old_q, const resource::Quantity& new_q,
                 double threshold) {
  auto old_milli = static_cast<double>(old_q.milliValue());
  auto new_milli = static_cast<double>(new_q.milliValue());
  return std::fabs(new_milli - old_milli) > old_milli * threshold;
}

bool hasCPUOrMemory(const api::topology::NodeResourceTopology& nrt) {
  for (const auto& zone : nrt.zones) {
    for (const auto& info : zone.resources) {
      if (info.name == "cpu" || info.name == "memory") {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::optional<std::vector<ZoneBatch>> calculateZoneBatch(
    const api::core::Node& node, const PodRefs& pods, const api::slo::NodeMetric& metric,
    const ColocationStrategy& strategy, const api::topology::NodeResourceTopology& nrt) {
  if (!hasCPUOrMemory(nrt)) {
    return std::nullopt;
  }
  const auto n = static_cast<int>(nrt.zones.size());
  std::vector<std::string> notes;  // the node-level calculation reports input problems
  Pair system_used{systemUsageOf(metric, Resource::kCPU, api::PriorityClass::kBatch).systemUsed,
                   systemUsageOf(metric, Resource::kMemory, api::PriorityClass::kBatch).systemUsed};
  Pair reserved{reservationsOf(node, Resource::kCPU, notes).nodeReserved,
                reservationsOf(node, Resource::kMemory, notes).nodeReserved};
  const Pair zone_system_used = divide(system_used, n);
  const Pair zone_reserved = divide(reserved, n);

  std::vector<Pair> requested(n, Pair{0, 0});
  std::vector<Pair> used(n, Pair{0, 0});
  std::vector<Pair> max_used_req(n, Pair{0, 0});

  const auto dangling = visitActivePods(
      pods, metric, notes,
      [&](const api::core::Pod& pod, const PodView& view,
          const api::slo::PodMetricInfo* pod_metric) {
        if (isBatchOrFree(view.priority)) {
          return;
        }
        const Pair request{view.requestCPU, view.requestMemory};
        const Pair usage =
            pod_metric == nullptr ? request : amounts(pod_metric->podUsage.resources);
        const std::set<int> bound = podZones(pod, n);
        const auto share = static_cast<int64_t>(bound.empty() ? n : bound.size());
        const Pair zone_request = divide(request, share);
        const Pair zone_usage = divide(usage, share);
        for (int i = 0; i < n; ++i) {
          if (!bound.empty() && bound.count(i) == 0) {
            continue;
          }
          add(requested[i], zone_request);
          if (pod_metric == nullptr) {
            add(used[i], zone_request);
            add(max_used_req[i], zone_request);
            continue;
          }
          const bool lse = view.qos == api::QoSClass::kLSE;
          add(used[i], {lse ? zone_request[0] : zone_usage[0], zone_usage[1]});
          add(max_used_req[i],
              {std::max(zone_request[0], zone_usage[0]), std::max(zone_request[1], zone_usage[1])});
        }
      });
  for (const auto& [key, pod_metric] : dangling) {
    if (isBatchOrFree(api::parsePriorityClass(pod_metric->priority))) {
      continue;
    }
    const Pair zone_usage = divide(amounts(pod_metric->podUsage.resources), n);
    for (int i = 0; i < n; ++i) {
      add(used[i], zone_usage);
      add(max_used_req[i], zone_usage);
    }
  }

  CalculatePolicy cpu_policy = strategy.cpuCalculatePolicy == CalculatePolicy::kMaxUsageRequest
                                   ? CalculatePolicy::kMaxUsageRequest
                                   : CalculatePolicy::kUsage;
  std::vector<ZoneBatch> out;
  out.reserve(nrt.zones.size());
  for (int i = 0; i < n; ++i) {
    const auto& zone = nrt.zones[static_cast<size_t>(i)];
    ZoneBatch batch;
    batch.zone = zone.name;
    for (const auto& info : zone.resources) {
      if (info.name == "cpu") {
        batch.capacityCPU = info.allocatable.milliValue();
      } else if (info.name == "memory") {
        batch.capacityMemory = info.allocatable.value();
      }
    }
    batch.cpu = byPolicy(cpu_policy, batch.capacityCPU,
                         percentOf(batch.capacityCPU, 100 - strategy.cpuReclaimThresholdPercent),
                         zone_reserved[0], zone_system_used[0], requested[i][0], used[i][0],
                         max_used_req[i][0]);
    batch.memory = byPolicy(
        strategy.memoryCalculatePolicy, batch.capacityMemory,
        percentOf(batch.capacityMemory, 100 - strategy.memoryReclaimThresholdPercent),
        zone_reserved[1], zone_system_used[1], requested[i][1], used[i][1], max_used_req[i][1]);
    out.push_back(std::move(batch));
  }
  return out;
}

bool applyZoneBatch(api::topology::NodeResourceTopology& nrt, const std::vector<ZoneBatch>& zones,
                    double cpu_normalization_ratio, double diff_threshold) {
  std::map<std::string, const ZoneBatch*> by_name;
  for (const auto& zone : zones) {
    by_name[zone.zone] = &zone;
  }
  const std::string batch_cpu(api::kResourceBatchCPU);
  const std::string batch_memory(api::kResourceBatchMemory);
  bool changed = false;
  for (auto& zone : nrt.zones) {
    auto it = by_name.find(zone.name);
    if (it == by_name.end()) {
      for (auto& info : zone.resources) {
        if (info.name != batch_cpu && info.name != batch_memory) {
          continue;
        }
        if (info.capacity.milliValue() == 0 && info.allocatable.milliValue() == 0 &&
            info.available.milliValue() == 0) {
          continue;
        }
        info.capacity = resource::Quantity::fromInt(0, info.capacity.format());
        info.allocatable = resource::Quantity::fromInt(0, info.allocatable.format());
        info.available = resource::Quantity::fromInt(0, info.available.format());
        changed = true;
      }
      continue;
    }
    resource::Quantity cpu = resource::Quantity::fromInt(it->second->cpu);
    if (cpu_normalization_ratio > 1.0) {
      cpu = multiplyMilli(cpu, cpu_normalization_ratio);
    }
    const resource::Quantity memory =
        resource::Quantity::fromInt(it->second->memory, resource::QuantityFormat::kBinarySI);
    for (const auto& entry :
         {std::pair<const std::string&, const resource::Quantity&>{batch_cpu, cpu},
          std::pair<const std::string&, const resource::Quantity&>{batch_memory, memory}}) {
      const std::string& name = entry.first;
      const resource::Quantity& quantity = entry.second;
      auto info = std::find_if(zone.resources.begin(), zone.resources.end(),
                               [&name](const auto& r) { return r.name == name; });
      if (info == zone.resources.end()) {
        api::topology::ResourceInfo added;
        added.name = name;
        added.capacity = quantity;
        added.allocatable = quantity;
        added.available = quantity;
        zone.resources.push_back(std::move(added));
        std::stable_sort(zone.resources.begin(), zone.resources.end(),
                         [](const auto& a, const auto& b) { return a.name < b.name; });
        changed = true;
        continue;
      }
      for (resource::Quantity* field : {&info->capacity, &info->allocatable, &info->available}) {
        if (movedBeyond(*field, quantity, diff_threshold)) {
          *field = quantity;
          changed = true;
        }
      }
    }
  }
  return changed;
}

}  // namespace koord::manager::noderesource
