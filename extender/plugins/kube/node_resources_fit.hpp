// NodeResourcesFit: kube-scheduler's resource filter (pkg/scheduler/framework/plugins/
// noderesources/fit.go fitsRequest), for the simulator and the Reservation loop, which stand in for
// kube-scheduler's own filters. Its LeastAllocated score is in default_scores.hpp.
//
// Filter: "Too many pods" when the node's pod count would exceed allocatable pods; then, unless the
// pod requests nothing, "Insufficient cpu|memory|ephemeral-storage|<extended>" for every resource
// whose request exceeds allocatable - requested (all reasons in one kUnschedulable status).
// Resources named in `ignoredResources`, or whose name's domain prefix is in
// `ignoredResourceGroups`, are not checked (kube-scheduler's NodeResourcesFitArgs).
//
// Thread safety: immutable after create().
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::kube {

inline constexpr std::string_view kNodeResourcesFitName = "NodeResourcesFit";

// JSON: {"ignoredResources": [name...], "ignoredResourceGroups": [prefix...]}.
struct NodeResourcesFitArgs {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
};

[[nodiscard]] Result<NodeResourcesFitArgs> decodeNodeResourcesFitArgs(const api::Json& args);

class NodeResourcesFit final : public framework::FilterPlugin {
 public:
  explicit NodeResourcesFit(NodeResourcesFitArgs args) : args_(std::move(args)) {}

  [[nodiscard]] std::string_view name() const override { return kNodeResourcesFitName; }
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;

 private:
  [[nodiscard]] bool ignored(const std::string& resource) const;

  NodeResourcesFitArgs args_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createNodeResourcesFit(
    const api::Json& args, const framework::Handle& handle);

}  // namespace koord::extender::plugins::kube
