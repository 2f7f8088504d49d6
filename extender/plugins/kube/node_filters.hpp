// kube-scheduler's node-level filters, as framework plugins for the simulator (the stock
// kube-scheduler runs its own in production; koord-extender only sees the survivors). Each
// rejects with kUnschedulableAndUnresolvable and kube-scheduler's reason text:
//   NodeName           "node(s) didn't match the requested node name" (spec.nodeName set to
//                      another node)
//   NodeUnschedulable  "node(s) were unschedulable" (spec.unschedulable, unless the pod tolerates
//                      node.kubernetes.io/unschedulable:NoSchedule)
//   NodeAffinity       "node(s) didn't match Pod's node affinity/selector" (spec.nodeSelector and
//                      required node affinity); an invalid selector reads
//                      "invalid node affinity: <cause>"
//   TaintToleration    "node(s) had untolerated taint {<key>: <value>}" (the first NoSchedule or
//                      NoExecute taint not tolerated)
// None takes args: anything but null or {} is an error naming the field.
//
// Thread safety: stateless.
#pragma once

#include <memory>
#include <string_view>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::kube {

inline constexpr std::string_view kNodeNameName = "NodeName";
inline constexpr std::string_view kNodeUnschedulableName = "NodeUnschedulable";
inline constexpr std::string_view kNodeAffinityName = "NodeAffinity";
inline constexpr std::string_view kTaintTolerationName = "TaintToleration";

class NodeName final : public framework::FilterPlugin {
 public:
  [[nodiscard]] std::string_view name() const override { return kNodeNameName; }
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
};

class NodeUnschedulable final : public framework::FilterPlugin {
 public:
  [[nodiscard]] std::string_view name() const override { return kNodeUnschedulableName; }
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
};

class NodeAffinity final : public framework::FilterPlugin {
 public:
  [[nodiscard]] std::string_view name() const override { return kNodeAffinityName; }
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
};

class TaintToleration final : public framework::FilterPlugin {
 public:
  [[nodiscard]] std::string_view name() const override { return kTaintTolerationName; }
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;
};

// Registry factories.
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createNodeName(
    const api::Json& args, const framework::Handle& handle);
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createNodeUnschedulable(
    const api::Json& args, const framework::Handle& handle);
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createNodeAffinity(
    const api::Json& args, const framework::Handle& handle);
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createTaintToleration(
    const api::Json& args, const framework::Handle& handle);

}  // namespace koord::extender::plugins::kube
