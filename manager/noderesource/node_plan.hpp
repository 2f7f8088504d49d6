// planNode: everything the node resource controller decides for one node, from the objects alone
// (no Kubernetes I/O, no memory of earlier rounds), so that koord-manager's live controller and the
// offline `koord-manager calculate -f cluster.yaml` command compute the same numbers with the
// same code. Pure; thread-safe.
//
// In order:
// 1. The node's colocation strategy (strategy_config.hpp). When the configuration gives a value
//    the calculation cannot use, `strategyError` says why and nothing else is computed (the
//    controller then leaves the node as it is).
// 2. CPU normalization (cpu_normalization.hpp): the ratio annotation to write, or an error (the
//    annotation is left as it is). The ratio batch-cpu is multiplied by is this round's ratio
//    when it was computed, none otherwise (Koordinator's prepareNodeForResource).
// 3. Batch (batch.hpp) and mid (mid.hpp).
// 4. Resource amplification (amplification.hpp): the ratio annotation, from the node's
//    resource-amplification-config strategy and the CPU normalization ratio the node carries after
//    this round (this round's when computed, else the node's annotation). Koordinator reads the
//    ratio the node carried before the round, which converges to the same value one round later.
// 5. NUMA-level batch (numa_batch.hpp) when `nrt` is given, batch is not degraded and the NRT has
//    cpu or memory zone resources.
//
// explainPlan: the node's explanation annotation
// (koord-manager.koordinator.sh/resource-calculation, a koord addition): a first line with the time
// and the policies,
//   calculated 2026-01-01T12:00:00Z: cpuCalculatePolicy usage, memoryCalculatePolicy usage,
//   midReclaimMode dynamic
// or, degraded, "calculated 2026-01-01T12:00:00Z: degraded: NodeMetric stale: updated 20m ago,
// degradeTimeMinutes 15"; then explainBatch's and explainMid's lines (explain.hpp); then, when
// CPU normalization was decided, "cpu-normalization-ratio 1.20 (<cpu model> (hyperThread on,
// turbo on))" or "cpu-normalization-ratio not changed: <why>"; then one line per NUMA zone,
// "zone node-0: batch-cpu 12000m, batch-memory 20Gi (before CPU normalization)".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/common/status.hpp"
#include "koord/resource/resource_list.hpp"
#include "manager/noderesource/batch.hpp"
#include "manager/noderesource/cpu_normalization.hpp"
#include "manager/noderesource/mid.hpp"
#include "manager/noderesource/node_inputs.hpp"
#include "manager/noderesource/numa_batch.hpp"
#include "manager/noderesource/strategy.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"

namespace koord::manager::noderesource {

// The annotation koord-manager explains a node's batch and mid resources with (a koord addition;
// Koordinator logs these terms instead).
inline constexpr std::string_view kAnnotationResourceCalculation =
    "koord-manager.koordinator.sh/resource-calculation";

struct NodePlanInputs {
  const api::core::Node& node;
  const PodRefs& pods;                                       // the node's pods
  const api::slo::NodeMetric* metric = nullptr;              // null: none
  const api::topology::NodeResourceTopology* nrt = nullptr;  // null: none
  const sloconfig::SloControllerConfig& config;
  TimePoint now;
};

struct NodePlan {
  Status strategyError;  // not OK: nothing below is computed
  ColocationStrategy strategy;
  BatchResult batch;
  MidResult mid;
  std::optional<CPUNormalization> cpuNormalization;  // set when computed
  Status cpuNormalizationError;                      // why not, otherwise
  // The resource-amplification-ratio annotation; nullopt: remove it.
  std::optional<std::string> amplificationRatio;
  Status amplificationError;  // not OK: the annotation is removed (Koordinator's Prepare)
  std::optional<std::vector<ZoneBatch>> zones;

  // batch-cpu, batch-memory, mid-cpu, mid-memory (none when degraded).
  [[nodiscard]] resource::ResourceList resources() const;
  // batch's degrade reason (mid degrades on the same inputs).
  [[nodiscard]] const std::optional<std::string>& degradeReason() const {
    return batch.degradeReason;
  }
};

[[nodiscard]] NodePlan planNode(const NodePlanInputs& inputs);

[[nodiscard]] std::vector<std::string> explainPlan(const NodePlan& plan, TimePoint now);

// "2026-01-01T12:00:00Z" (UTC, whole seconds).
[[nodiscard]] std::string formatRFC3339(TimePoint t);

}  // namespace koord::manager::noderesource
