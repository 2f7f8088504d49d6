#include "manager/noderesource/node_plan.hpp"

#include <charconv>
#include <cmath>
#include <ctime>

#include "koord/api/well_known.hpp"
#include "manager/noderesource/amplification.hpp"
#include "manager/noderesource/explain.hpp"
#include "manager/noderesource/strategy_config.hpp"

namespace koord::manager::noderesource {

namespace {

std::optional<std::string> annotationOf(const api::core::Node& node, std::string_view key) {
  auto it = node.metadata.annotations.find(std::string(key));
  if (it == node.metadata.annotations.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::optional<double> parsePositive(const std::optional<std::string>& text) {
  if (!text) {
    return std::nullopt;
  }
  double value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || !std::isfinite(value) ||
      value <= 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

resource::ResourceList NodePlan::resources() const {
  resource::ResourceList out = batch.resources();
  for (auto& [name, q] : mid.resources()) {
    out.emplace(name, q);
  }
  return out;
}

std::string formatRFC3339(TimePoint t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

NodePlan planNode(const NodePlanInputs& in) {
  NodePlan plan;
  auto strategy = strategyForNode(in.config.colocation, in.node);
  if (!strategy.ok()) {
    plan.strategyError = strategy.status();
    return plan;
  }
  plan.strategy = *strategy;

  const std::string ratio_key(api::kAnnotationCPUNormalizationRatio);
  auto normalization = cpuNormalizationFor(
      in.node, in.nrt, in.config.cpuNormalization.forNode(in.node.metadata.labels));
  CPURatioOverride ratio_for_batch;        // what batch-cpu is multiplied by this round
  std::optional<std::string> ratio_after;  // the annotation the node carries after the round
  if (normalization.ok()) {
    plan.cpuNormalization = *normalization;
    ratio_for_batch.ratio = normalization->ratio;
    ratio_after = normalization->annotation;
  } else {
    plan.cpuNormalizationError = normalization.status();
    ratio_after = annotationOf(in.node, ratio_key);
  }

  plan.batch = calculateBatch(in.node, in.pods, in.metric, plan.strategy, in.now, ratio_for_batch);
  plan.mid = calculateMid(in.node, in.pods, in.metric, plan.strategy, in.now);

  auto ratios = amplificationRatiosFor(
      in.config.resourceAmplification.forNode(in.node.metadata.labels), parsePositive(ratio_after));
  if (!ratios.ok()) {
    plan.amplificationError = ratios.status();
  } else if (!ratios->empty()) {
    plan.amplificationRatio = formatAmplificationRatios(*ratios);
  }

  if (in.nrt != nullptr && !plan.batch.degradeReason && in.metric != nullptr) {
    plan.zones = calculateZoneBatch(in.node, in.pods, *in.metric, plan.strategy, *in.nrt);
  }
  return plan;
}

std::vector<std::string> explainPlan(const NodePlan& plan, TimePoint now) {
  std::vector<std::string> lines;
  std::string first = "calculated " + formatRFC3339(now) + ": ";
  if (!plan.strategyError.isOk()) {
    lines.push_back(first + "not calculated: " + plan.strategyError.message());
    return lines;
  }
  if (plan.degradeReason()) {
    first += "degraded: " + *plan.degradeReason();
  } else {
    first += "cpuCalculatePolicy " + std::string(toString(plan.strategy.cpuCalculatePolicy)) +
             ", memoryCalculatePolicy " +
             std::string(toString(plan.strategy.memoryCalculatePolicy)) + ", midReclaimMode " +
             std::string(toString(plan.strategy.midReclaimMode.value_or(MidReclaimMode::kDynamic)));
  }
  lines.push_back(std::move(first));
  for (auto& line : explainBatch(plan.batch)) {
    lines.push_back(std::move(line));
  }
  for (auto& line : explainMid(plan.mid)) {
    lines.push_back(std::move(line));
  }
  if (plan.cpuNormalization) {
    lines.push_back("cpu-normalization-ratio " + plan.cpuNormalization->annotation + " (" +
                    plan.cpuNormalization->source + ")");
  } else {
    lines.push_back("cpu-normalization-ratio not changed: " + plan.cpuNormalizationError.message());
  }
  if (plan.zones) {
    for (const auto& zone : *plan.zones) {
      lines.push_back("zone " + zone.zone + ": batch-cpu " +
                      formatAmount(Resource::kCPU, zone.cpu) + ", batch-memory " +
                      formatAmount(Resource::kMemory, zone.memory) + " (before CPU normalization)");
    }
  }
  return lines;
}

}  // namespace koord::manager::noderesource
