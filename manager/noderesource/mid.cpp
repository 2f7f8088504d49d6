#include "manager/noderesource/mid.hpp"

#include <algorithm>

#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {

namespace {

bool isProdLike(api::PriorityClass p) {
  return p != api::PriorityClass::kMid && p != api::PriorityClass::kBatch &&
         p != api::PriorityClass::kFree;
}

MidTerms midTermsFor(Resource r, const api::core::Node& node, const api::slo::NodeMetric& metric,
                     const ColocationStrategy& strategy, int64_t prod_request,
                     std::vector<std::string>& notes) {
  MidTerms t;
  bool cpu = r == Resource::kCPU;
  t.resource = r;
  t.mode = strategy.midReclaimMode.value_or(MidReclaimMode::kDynamic);
  t.capacity = amountOf(node.status.capacity, r);
  t.thresholdPercent = cpu ? strategy.midCPUThresholdPercent : strategy.midMemoryThresholdPercent;
  t.thresholdCap = percentOf(t.capacity, t.thresholdPercent);
  if (t.mode == MidReclaimMode::kStatic) {
    t.staticReservedPercent =
        cpu ? strategy.midStaticCPUReservedPercent : strategy.midStaticMemoryReservedPercent;
    t.staticReserved = percentOf(t.capacity, t.staticReservedPercent);
    t.value = std::max<int64_t>(std::min(t.staticReserved, t.thresholdCap), 0);
    return t;
  }
  std::string_view name = resourceName(r);
  if (metric.status.prodReclaimableMetric) {
    const auto& reclaimable = metric.status.prodReclaimableMetric->resource.resources;
    t.prodReclaimableReported = reclaimable.find(name) != reclaimable.end();
    t.prodReclaimable = amountOf(reclaimable, r);
  }
  if (metric.status.nodeMetric) {
    const auto& usage = metric.status.nodeMetric->nodeUsage.resources;
    t.nodeUsageReported = usage.find(name) != usage.end();
    t.nodeUsage = amountOf(usage, r);
  }
  // Without a node usage, nothing is believed unused (Koordinator keeps mid strict then).
  t.nodeUnused = t.nodeUsageReported ? t.capacity - t.nodeUsage : 0;
  Reservations reserved = reservationsOf(node, r, notes);
  t.kubeletReserved = reserved.kubeletReserved;
  t.annoReserved = reserved.annoReserved;
  t.nodeReserved = reserved.nodeReserved;
  SystemUsage system = systemUsageOf(metric, r, api::PriorityClass::kMid);
  t.systemUsage = system.systemUsage;
  t.hostAppUsed = system.hostAppUsed;
  t.systemUsed = system.systemUsed;
  t.systemUsedOrReserved = std::max(t.systemUsed, t.nodeReserved);
  t.prodRequest = prod_request;
  t.unallocated = std::max<int64_t>(t.capacity - t.systemUsedOrReserved - t.prodRequest, 0);
  t.unallocatedPercent = strategy.midUnallocatedPercent;
  t.unallocatedShare = percentOf(t.unallocated, t.unallocatedPercent);
  t.reclaimable = std::min(t.prodReclaimable, t.nodeUnused) + t.unallocatedShare;
  t.value = std::max<int64_t>(std::min(t.reclaimable, t.thresholdCap), 0);
  return t;
}

}  // namespace

resource::ResourceList MidResult::resources() const {
  if (degradeReason) {
    return {};
  }
  return {{std::string(api::kResourceMidCPU), resource::Quantity::fromInt(cpu.value)},
          {std::string(api::kResourceMidMemory),
           resource::Quantity::fromInt(memory.value, resource::QuantityFormat::kBinarySI)}};
}

MidResult calculateMid(const api::core::Node& node, const std::vector<api::core::Pod>& pods,
                       const api::slo::NodeMetric* metric, const ColocationStrategy& strategy,
                       TimePoint now) {
  return calculateMid(node, podRefs(pods), metric, strategy, now);
}

MidResult calculateMid(const api::core::Node& node, const PodRefs& pods,
                       const api::slo::NodeMetric* metric, const ColocationStrategy& strategy,
                       TimePoint now) {
  MidResult out;
  out.cpu.resource = Resource::kCPU;
  out.memory.resource = Resource::kMemory;
  out.degradeReason = degradeReason(metric, strategy, now);
  if (out.degradeReason) {
    return out;
  }
  // Requests of the Running and Pending prod pods, summed in one pass (no per-pod storage).
  int64_t prod_cpu = 0;
  int64_t prod_memory = 0;
  for (const api::core::Pod* pod : pods) {
    const PodView view = viewOf(*pod, out.notes);
    if (view.active && isProdLike(view.priority)) {
      prod_cpu += view.requestCPU;
      prod_memory += view.requestMemory;
    }
  }
  out.cpu = midTermsFor(Resource::kCPU, node, *metric, strategy, prod_cpu, out.notes);
  out.memory = midTermsFor(Resource::kMemory, node, *metric, strategy, prod_memory, out.notes);
  dedupeNotes(out.notes);
  return out;
}

}  // namespace koord::manager::noderesource
