#include "manager/noderesource/explain.hpp"

#include <sstream>

#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {

namespace {

std::string fmt(Resource r, int64_t amount) {
  return formatAmount(r, amount);
}

std::string ratioText(double ratio) {
  std::ostringstream out;
  out << ratio;
  return out.str();
}

// The value as written on the Node: CPU as an integer count of milli-cores, memory as bytes.
std::string nodeValue(Resource r, int64_t amount) {
  return r == Resource::kCPU ? std::to_string(amount) : fmt(r, amount);
}

std::string batchName(Resource r) {
  return r == Resource::kCPU ? "batch-cpu" : "batch-memory";
}
std::string midName(Resource r) {
  return r == Resource::kCPU ? "mid-cpu" : "mid-memory";
}

void appendNotes(std::vector<std::string>& lines, const std::vector<std::string>& notes) {
  for (const auto& note : notes) {
    lines.push_back("note: " + note);
  }
}

}  // namespace

std::vector<std::string> explainBatchTerms(const BatchTerms& t, int hp_pods,
                                           int hp_pods_without_metric, int dangling_metrics) {
  Resource r = t.resource;
  std::vector<std::string> lines;
  std::string third;
  std::string fourth;
  switch (t.policy) {
    case CalculatePolicy::kUsage:
    case CalculatePolicy::kMaxUsageRequest:
      third = (t.systemUsed >= t.nodeReserved ? "system used " : "node reserved ") +
              fmt(r, t.systemUsedOrReserved);
      fourth = t.policy == CalculatePolicy::kUsage
                   ? "high-priority used " + fmt(r, t.hpUsed)
                   : "high-priority max(used, requested) " + fmt(r, t.hpMaxUsedReq);
      break;
    case CalculatePolicy::kRequest:
      third = "node reserved " + fmt(r, t.nodeReserved);
      fourth = "high-priority requested " + fmt(r, t.hpRequest);
      break;
  }
  lines.push_back(batchName(r) + " = capacity " + fmt(r, t.capacity) + " - safety margin " +
                  fmt(r, t.safetyMargin) + " - " + third + " - " + fourth + " = " +
                  fmt(r, t.byPolicy) + " (policy " + std::string(toString(t.policy)) + ")");
  if (t.byPolicy < 0) {
    lines.push_back("  below zero: " + fmt(r, 0));
  }
  if (t.thresholdPercent) {
    lines.push_back(
        std::string("  ") +
        (r == Resource::kCPU ? "batchCPUThresholdPercent " : "batchMemoryThresholdPercent ") +
        std::to_string(*t.thresholdPercent) + ": min(" + fmt(r, t.clamped) + ", " +
        fmt(r, t.thresholdCap) + ") = " + fmt(r, t.capped));
  }
  if (t.normalizationRatio > 1.0) {
    lines.push_back("  cpu-normalization-ratio " + ratioText(t.normalizationRatio) + ": " +
                    fmt(r, t.capped) + " x " + ratioText(t.normalizationRatio) + " = " +
                    fmt(r, t.normalized));
  }
  if (t.thirdPartyAllocated != 0) {
    lines.push_back("  third-party koord-batch allocations: max(" + fmt(r, t.normalized) + " - " +
                    fmt(r, t.thirdPartyAllocated) + ", 0) = " + fmt(r, t.value));
  }
  lines.push_back("  system used " + fmt(r, t.systemUsed) + " = NodeMetric systemUsage " +
                  fmt(r, t.systemUsage) + " + host applications " + fmt(r, t.hostAppUsed) +
                  "; node reserved " + fmt(r, t.nodeReserved) + " = max(kubelet reserved " +
                  fmt(r, t.kubeletReserved) + ", annotation reserved " + fmt(r, t.annoReserved) +
                  ")");
  lines.push_back("  high-priority pods " + std::to_string(hp_pods) + " (" +
                  std::to_string(hp_pods_without_metric) +
                  " without metric: request counted), dangling metrics " +
                  std::to_string(dangling_metrics) + " (" + fmt(r, t.hpDanglingUsed) + "): used " +
                  fmt(r, t.hpUsed) + ", requested " + fmt(r, t.hpRequest) +
                  ", max(used, requested) " + fmt(r, t.hpMaxUsedReq));
  lines.push_back(
      "  => " +
      std::string(r == Resource::kCPU ? api::kResourceBatchCPU : api::kResourceBatchMemory) + ": " +
      nodeValue(r, t.value));
  return lines;
}

std::vector<std::string> explainBatch(const BatchResult& result) {
  std::vector<std::string> lines;
  if (result.degradeReason) {
    for (Resource r : {Resource::kCPU, Resource::kMemory}) {
      lines.push_back(batchName(r) + ": removed (" + *result.degradeReason + ")");
    }
  } else {
    for (const BatchTerms* t : {&result.cpu, &result.memory}) {
      auto part =
          explainBatchTerms(*t, result.hpPods, result.hpPodsWithoutMetric, result.danglingMetrics);
      lines.insert(lines.end(), part.begin(), part.end());
    }
  }
  appendNotes(lines, result.notes);
  return lines;
}

std::vector<std::string> explainMidTerms(const MidTerms& t) {
  Resource r = t.resource;
  std::vector<std::string> lines;
  std::string threshold = "threshold " + std::to_string(t.thresholdPercent) +
                          "% of capacity = " + fmt(r, t.thresholdCap);
  if (t.mode == MidReclaimMode::kStatic) {
    lines.push_back(midName(r) + " = min(static reserved " +
                    std::to_string(t.staticReservedPercent) + "% of capacity " +
                    fmt(r, t.capacity) + " = " + fmt(r, t.staticReserved) + ", " + threshold +
                    ") = " + fmt(r, t.value) + " (mode static)");
  } else {
    std::string not_reported = " (not reported)";
    lines.push_back(
        midName(r) + " = min(min(prod reclaimable " + fmt(r, t.prodReclaimable) +
        (t.prodReclaimableReported ? "" : not_reported) + ", node unused " + fmt(r, t.nodeUnused) +
        ") + " + std::to_string(t.unallocatedPercent) + "% of unallocated " +
        fmt(r, t.unallocated) + " = " + fmt(r, t.unallocatedShare) + ", " + threshold +
        ") = " + fmt(r, t.reclaimable < t.thresholdCap ? t.reclaimable : t.thresholdCap) +
        " (mode dynamic)");
    if (t.value == 0 && (t.reclaimable < 0 || t.thresholdCap < 0)) {
      lines.push_back("  below zero: " + fmt(r, 0));
    }
    lines.push_back("  node unused " + fmt(r, t.nodeUnused) + " = capacity " + fmt(r, t.capacity) +
                    " - node usage " + fmt(r, t.nodeUsage) +
                    (t.nodeUsageReported ? "" : not_reported + ", counted as no unused"));
    lines.push_back("  unallocated " + fmt(r, t.unallocated) + " = max(capacity " +
                    fmt(r, t.capacity) + " - max(system used, node reserved) " +
                    fmt(r, t.systemUsedOrReserved) + " - prod requests " + fmt(r, t.prodRequest) +
                    ", 0)");
  }
  lines.push_back(
      "  => " + std::string(r == Resource::kCPU ? api::kResourceMidCPU : api::kResourceMidMemory) +
      ": " + nodeValue(r, t.value));
  return lines;
}

std::vector<std::string> explainMid(const MidResult& result) {
  std::vector<std::string> lines;
  if (result.degradeReason) {
    for (Resource r : {Resource::kCPU, Resource::kMemory}) {
      lines.push_back(midName(r) + ": removed (" + *result.degradeReason + ")");
    }
  } else {
    for (const MidTerms* t : {&result.cpu, &result.memory}) {
      auto part = explainMidTerms(*t);
      lines.insert(lines.end(), part.begin(), part.end());
    }
  }
  appendNotes(lines, result.notes);
  return lines;
}

}  // namespace koord::manager::noderesource
