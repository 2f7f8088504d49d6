#include "manager/noderesource/batch.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "koord/api/codec.hpp"
#include "koord/api/extension/annotation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {

namespace {

bool isLowPriority(api::PriorityClass p) {
  return p == api::PriorityClass::kBatch || p == api::PriorityClass::kFree;
}

// The sums over pods, for both resources at once.
struct PodSums {
  int64_t used[2] = {0, 0};
  int64_t request[2] = {0, 0};
  int64_t max_used_req[2] = {0, 0};
  int64_t dangling[2] = {0, 0};
  int hp_pods = 0;
  int without_metric = 0;
  int dangling_metrics = 0;
};

int slot(Resource r) {
  return r == Resource::kCPU ? 0 : 1;
}

PodSums sumPods(const PodRefs& pods, const api::slo::NodeMetric& metric,
                std::vector<std::string>& notes) {
  PodSums sums;
  const auto dangling = visitActivePods(
      pods, metric, notes,
      [&](const api::core::Pod&, const PodView& view, const api::slo::PodMetricInfo* pod_metric) {
        if (isLowPriority(view.priority)) {
          return;
        }
        ++sums.hp_pods;
        if (pod_metric == nullptr) {
          ++sums.without_metric;
        }
        for (Resource r : {Resource::kCPU, Resource::kMemory}) {
          int i = slot(r);
          int64_t request = requestOf(view, r);
          sums.request[i] += request;
          if (pod_metric == nullptr) {
            sums.used[i] += request;
            sums.max_used_req[i] += request;
            continue;
          }
          int64_t usage = amountOf(pod_metric->podUsage.resources, r);
          // LSE pods do not give back CPU: they are charged their CPU request.
          int64_t used = (r == Resource::kCPU && view.qos == api::QoSClass::kLSE) ? request : usage;
          sums.used[i] += used;
          sums.max_used_req[i] += std::max(request, usage);
        }
      });
  for (const auto& [key, pod_metric] : dangling) {
    if (isLowPriority(api::parsePriorityClass(pod_metric->priority))) {
      continue;
    }
    ++sums.dangling_metrics;
    for (Resource r : {Resource::kCPU, Resource::kMemory}) {
      int64_t usage = amountOf(pod_metric->podUsage.resources, r);
      sums.dangling[slot(r)] += usage;
      sums.used[slot(r)] += usage;
      sums.max_used_req[slot(r)] += usage;
    }
  }
  return sums;
}

// Third-party koord-batch allocations: {"allocations":[{"name","priority","resources"}]}.
int64_t thirdPartyBatch(const api::core::Node& node, Resource r, std::vector<std::string>& notes) {
  auto it = node.metadata.annotations.find(std::string(api::kAnnotationNodeThirdPartyAllocations));
  if (it == node.metadata.annotations.end()) {
    return 0;
  }
  auto parsed =
      api::extension::parseAnnotationValue(api::kAnnotationNodeThirdPartyAllocations, it->second);
  if (!parsed.ok()) {
    notes.push_back(parsed.status().message() + " (no third-party allocations subtracted)");
    return 0;
  }
  const api::Json& root = *parsed;
  if (!root.is_object() || !root.contains("allocations")) {
    return 0;
  }
  const api::Json& allocations = root["allocations"];
  if (!allocations.is_array()) {
    notes.push_back("node annotation " + std::string(api::kAnnotationNodeThirdPartyAllocations) +
                    ": allocations: expected array (no third-party allocations subtracted)");
    return 0;
  }
  std::string_view name = r == Resource::kCPU ? api::kResourceBatchCPU : api::kResourceBatchMemory;
  int64_t total = 0;
  for (size_t i = 0; i < allocations.size(); ++i) {
    const api::Json& alloc = allocations[i];
    if (api::stringOr(alloc, "priority") != api::kPriorityBatch || !alloc.is_object() ||
        !alloc.contains("resources")) {
      continue;
    }
    resource::ResourceList resources;
    using api::fromJson;
    Status status =
        fromJson(alloc["resources"], resources, api::indexPath("allocations", i) + ".resources");
    if (!status.isOk()) {
      notes.push_back("node annotation " + std::string(api::kAnnotationNodeThirdPartyAllocations) +
                      ": " + status.message() + " (allocation ignored)");
      continue;
    }
    // batch-cpu is an integer count of milli-cores, batch-memory bytes: both are value().
    total += resource::get(resources, name).value();
  }
  return total;
}

BatchTerms batchTermsFor(Resource r, const api::core::Node& node,
                         const api::slo::NodeMetric& metric, const ColocationStrategy& strategy,
                         const PodSums& sums, const std::optional<double>& cpu_ratio,
                         std::vector<std::string>& notes) {
  BatchTerms t;
  t.resource = r;
  bool cpu = r == Resource::kCPU;
  t.capacity = amountOf(node.status.capacity, r);
  t.reclaimThresholdPercent =
      cpu ? strategy.cpuReclaimThresholdPercent : strategy.memoryReclaimThresholdPercent;
  t.safetyMargin = percentOf(t.capacity, 100 - t.reclaimThresholdPercent);
  Reservations reserved = reservationsOf(node, r, notes);
  t.kubeletReserved = reserved.kubeletReserved;
  t.annoReserved = reserved.annoReserved;
  t.nodeReserved = reserved.nodeReserved;
  SystemUsage system = systemUsageOf(metric, r, api::PriorityClass::kBatch);
  t.systemUsage = system.systemUsage;
  t.hostAppUsed = system.hostAppUsed;
  t.systemUsed = system.systemUsed;
  t.systemUsedOrReserved = std::max(t.systemUsed, t.nodeReserved);
  int i = slot(r);
  t.hpUsed = sums.used[i];
  t.hpRequest = sums.request[i];
  t.hpMaxUsedReq = sums.max_used_req[i];
  t.hpDanglingUsed = sums.dangling[i];
  t.policy = cpu ? strategy.cpuCalculatePolicy : strategy.memoryCalculatePolicy;
  if (cpu && t.policy == CalculatePolicy::kRequest) {
    t.policy = CalculatePolicy::kUsage;
  }
  switch (t.policy) {
    case CalculatePolicy::kUsage:
      t.byPolicy = t.capacity - t.safetyMargin - t.systemUsedOrReserved - t.hpUsed;
      break;
    case CalculatePolicy::kRequest:
      t.byPolicy = t.capacity - t.safetyMargin - t.nodeReserved - t.hpRequest;
      break;
    case CalculatePolicy::kMaxUsageRequest:
      t.byPolicy = t.capacity - t.safetyMargin - t.systemUsedOrReserved - t.hpMaxUsedReq;
      break;
  }
  t.clamped = std::max<int64_t>(t.byPolicy, 0);
  t.capped = t.clamped;
  t.thresholdPercent =
      cpu ? strategy.batchCPUThresholdPercent : strategy.batchMemoryThresholdPercent;
  if (t.thresholdPercent) {
    t.thresholdCap = percentOf(t.capacity, *t.thresholdPercent);
    t.capped = std::min(t.clamped, t.thresholdCap);
  }
  t.normalized = t.capped;
  if (cpu) {
    if (const auto& ratio = cpu_ratio; ratio && *ratio > 1.0) {
      t.normalizationRatio = *ratio;
      t.normalized = normalizeBatchCPU(t.capped, *ratio);
    }
  }
  t.thirdPartyAllocated = thirdPartyBatch(node, r, notes);
  t.value = std::max<int64_t>(t.normalized - t.thirdPartyAllocated, 0);
  return t;
}

}  // namespace

resource::ResourceList BatchResult::resources() const {
  if (degradeReason) {
    return {};
  }
  return {{std::string(api::kResourceBatchCPU), resource::Quantity::fromInt(cpu.value)},
          {std::string(api::kResourceBatchMemory),
           resource::Quantity::fromInt(memory.value, resource::QuantityFormat::kBinarySI)}};
}

std::optional<double> cpuNormalizationRatio(const api::core::Node& node,
                                            std::vector<std::string>& notes) {
  auto it = node.metadata.annotations.find(std::string(api::kAnnotationCPUNormalizationRatio));
  if (it == node.metadata.annotations.end()) {
    return std::nullopt;
  }
  const std::string& text = it->second;
  double ratio = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ratio);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(ratio)) {
    notes.push_back("node annotation " + std::string(api::kAnnotationCPUNormalizationRatio) +
                    ": \"" + text + "\" is not a number (batch-cpu not normalized)");
    return std::nullopt;
  }
  return ratio;
}

int64_t normalizeBatchCPU(int64_t milli, double ratio) {
  if (!(ratio > 1.0)) {
    return milli;
  }
  // Koordinator: MultiplyMilliQuant on a quantity whose value is the milli-core count keeps milli
  // precision (truncated), then Value() rounds up to an integer.
  auto scaled = static_cast<int64_t>(static_cast<double>(milli) * 1000.0 * ratio);
  return scaled / 1000 + (scaled % 1000 > 0 ? 1 : 0);
}

BatchResult calculateBatch(const api::core::Node& node, const std::vector<api::core::Pod>& pods,
                           const api::slo::NodeMetric* metric, const ColocationStrategy& strategy,
                           TimePoint now) {
  return calculateBatch(node, podRefs(pods), metric, strategy, now);
}

BatchResult calculateBatch(const api::core::Node& node, const PodRefs& pods,
                           const api::slo::NodeMetric* metric, const ColocationStrategy& strategy,
                           TimePoint now) {
  std::vector<std::string> notes;
  CPURatioOverride ratio{cpuNormalizationRatio(node, notes)};
  BatchResult out = calculateBatch(node, pods, metric, strategy, now, ratio);
  if (!out.degradeReason) {
    out.notes.insert(out.notes.begin(), notes.begin(), notes.end());
    dedupeNotes(out.notes);
  }
  return out;
}

BatchResult calculateBatch(const api::core::Node& node, const PodRefs& pods,
                           const api::slo::NodeMetric* metric, const ColocationStrategy& strategy,
                           TimePoint now, CPURatioOverride cpu_ratio) {
  BatchResult out;
  out.cpu.resource = Resource::kCPU;
  out.memory.resource = Resource::kMemory;
  out.degradeReason = degradeReason(metric, strategy, now);
  if (!out.degradeReason && !metric->status.nodeMetric) {
    out.degradeReason = "NodeMetric missing: status.nodeMetric is not set";
  }
  if (out.degradeReason) {
    return out;
  }
  PodSums sums = sumPods(pods, *metric, out.notes);
  out.hpPods = sums.hp_pods;
  out.hpPodsWithoutMetric = sums.without_metric;
  out.danglingMetrics = sums.dangling_metrics;
  out.cpu =
      batchTermsFor(Resource::kCPU, node, *metric, strategy, sums, cpu_ratio.ratio, out.notes);
  out.memory =
      batchTermsFor(Resource::kMemory, node, *metric, strategy, sums, cpu_ratio.ratio, out.notes);
  dedupeNotes(out.notes);
  return out;
}

}  // namespace koord::manager::noderesource
