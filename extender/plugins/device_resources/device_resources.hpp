// DeviceResources: a pod that requests Koordinator's device resources (koordinator.sh/gpu,
// gpu-core, gpu-memory, gpu-memory-ratio, rdma; koordinator-reference.md 2.2) fits a node only
// when the node's status.allocatable advertises enough of each, minus what the pods already there
// (bound and assumed) request, as kube-scheduler's NodeResourcesFit would check them.
//
// Why: the shipped scheduler configuration registers these names with ignoredByScheduler, so that
// GPU sharing can judge them; kube-scheduler then never checks them against the node. Until koord
// has GPU sharing (Koordinator's DeviceShare: per-device allocation, device-allocated), this plugin
// is what keeps a GPU pod off a node without GPUs. It checks node totals only, not single devices:
// a pod asking for 60% of one GPU fits a node with two GPUs at 50% free each.
//
// koordinator.sh/gpu: P counts as gpu-core P and gpu-memory-ratio P, as Koordinator reads it (on
// both the pod and the pods already on the node). koordinator.sh/gpu.shared is a count of GPUs,
// not an amount, and is not checked. Reasons, one per resource short:
//   "Insufficient koordinator.sh/gpu-memory-ratio" (kUnschedulable).
//
// Args: none ({} or null). Thread safety: immutable after create().
#pragma once

#include <memory>
#include <string_view>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::device_resources {

inline constexpr std::string_view kName = "DeviceResources";

class DeviceResourcesPlugin final : public framework::PreFilterPlugin,
                                    public framework::FilterPlugin {
 public:
  [[nodiscard]] std::string_view name() const override { return kName; }
  // kSkip for a pod that requests none of the device resources.
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

}  // namespace koord::extender::plugins::device_resources
