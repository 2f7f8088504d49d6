// CPU normalization (Koordinator v1.6's slo-controller cpunormalization plugin): the ratio of a
// node's CPU to the cluster's reference CPU, written as the node annotation
// node.koordinator.sh/cpu-normalization-ratio ("1.20": two decimals) and applied to batch-cpu
// (batch.hpp: a ratio > 1 multiplies batch-cpu). Pure; thread-safe.
//
// cpuNormalizationFor decides the annotation, in Koordinator's order:
// - enabled = the node label node.koordinator.sh/cpu-normalization-enabled ("true"/"false", Go's
//   ParseBool spellings) when present, else the node's cpu-normalization-config strategy `enable`
//   (false by default). A label that does not parse is an error.
// - disabled: the ratio is "1.00".
// - enabled: the node's NodeResourceTopology (same name as the node) must carry the annotation
//   node.koordinator.sh/cpu-basic-info ({"cpuModel","hyperThreadEnabled","turboEnabled",...},
//   written by koord-agent); ratioModel[cpuModel] gives the ratio: hyperThreadTurboEnabledRatio
//   when both hyper-threading and turbo are on, hyperThreadEnabledRatio with hyper-threading only,
//   turboEnabledRatio with turbo only, baseRatio otherwise. The ratio must be in [1, 5].
// - any failure (no NodeResourceTopology, no or bad cpu-basic-info, no ratio for the model or
//   the state, a ratio out of range, a bad label) is an error: as in Koordinator the annotation is
//   then left as it is and batch-cpu is not normalized in this round.
#pragma once

#include <optional>
#include <string>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/common/result.hpp"
#include "manager/sloconfig/resource_configs.hpp"

namespace koord::manager::noderesource {

inline constexpr double kMinCPUNormalizationRatio = 1.0;
inline constexpr double kMaxCPUNormalizationRatio = 5.0;
// Two ratios closer than this are the same (NeedSyncMeta's ratioDiffEpsilon).
inline constexpr double kCPUNormalizationRatioEpsilon = 0.01;

// The fields of node.koordinator.sh/cpu-basic-info this reads.
struct CPUBasicInfo {
  std::string cpuModel;
  bool hyperThreadEnabled = false;
  bool turboEnabled = false;
};

// The NodeResourceTopology annotation node.koordinator.sh/cpu-basic-info; nullopt when absent,
// kInvalidArgument naming the annotation when it is not a JSON object of that shape.
[[nodiscard]] Result<std::optional<CPUBasicInfo>> cpuBasicInfoOf(
    const api::core::ObjectMeta& nrt_meta);

struct CPUNormalization {
  double ratio = 1.0;
  std::string annotation;  // the ratio with two decimals: "1.00", "1.20"
  std::string source;      // "disabled", or "<cpuModel> (hyperThread on, turbo off)"
};

// `nrt` may be null (none for the node). Errors are kInvalidArgument or kNotFound with a message
// naming what is missing, e.g. "no CPU normalization ratio for CPU model \"Xeon\"".
[[nodiscard]] Result<CPUNormalization> cpuNormalizationFor(
    const api::core::Node& node, const api::topology::NodeResourceTopology* nrt,
    const sloconfig::CPUNormalizationStrategy& strategy);

// "1.20" for 1.2 (Go's FormatFloat(ratio, 'f', 2, 64)).
[[nodiscard]] std::string formatCPUNormalizationRatio(double ratio);

// Koordinator's NeedSyncMeta for the annotation: sync when the old value does not parse, when it
// is added or removed, or when the two differ by kCPUNormalizationRatioEpsilon or more.
[[nodiscard]] bool cpuNormalizationNeedsSync(const std::optional<std::string>& old_value,
                                             const std::optional<std::string>& new_value);

}  // namespace koord::manager::noderesource
