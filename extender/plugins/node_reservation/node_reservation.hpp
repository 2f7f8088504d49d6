// NodeReservation: keeps pods off what a node reserves through its node.koordinator.sh/reservation
// annotation (Koordinator v1.2.0 "node resource reservation"; koordinator-reference.md 2.4):
//   {"resources":{"cpu":"2","memory":"4Gi"},"reservedCPUs":"0-1","applyPolicy":"Default"}
// With applyPolicy Default (or unset) what pods may request on the node is
//   allocatable - reserved, where the cpu part is the reservedCPUs count when that list is set,
//   otherwise the cpu quantity rounded up to whole cores;
// ReservedCPUsOnly takes only the listed CPUs out of cpuset allocation and leaves allocatable
// alone, so this plugin lets such nodes through.
//
// Reasons: "Insufficient <resource> (node reservation)" (kUnschedulable), one per resource.
// A malformed annotation is treated as no reservation (what Koordinator does); with args
// {"invalidAnnotationPolicy":"Reject"} the node is rejected instead (kUnschedulableAndUnresolvable,
// "invalid node.koordinator.sh/reservation annotation: <cause>").
//
// Thread safety: immutable after create(); preFilter and filter are const.
#pragma once

#include <memory>
#include <string_view>

#include "extender/framework/handle.hpp"
#include "extender/framework/node_memo.hpp"
#include "extender/framework/plugin.hpp"
#include "extender/framework/resource.hpp"
#include "extender/plugins/node_reservation/annotated_nodes.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/core/node.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_reservation {

inline constexpr std::string_view kName = "NodeReservation";

enum class InvalidAnnotationPolicy { kIgnore, kReject };

// JSON: {"invalidAnnotationPolicy": "Ignore" | "Reject"} (default Ignore).
struct Args {
  InvalidAnnotationPolicy invalid_annotation_policy = InvalidAnnotationPolicy::kIgnore;
};

// Strict: unknown fields and bad values are kInvalidArgument, all listed, naming the field path.
[[nodiscard]] Result<Args> decodeArgs(const api::Json& args);

// What the node's annotation takes out of its allocatable for pods (milli_cpu in whole cores;
// `pods` always 0). Zero without the annotation, with an empty one, or with ReservedCPUsOnly.
// kInvalidArgument when the annotation does not parse (bad JSON, unknown policy, bad cpu list).
[[nodiscard]] Result<framework::Resource> reservedResources(const api::core::Node& node);

class NodeReservationPlugin final : public framework::PreFilterPlugin,
                                    public framework::FilterPlugin {
 public:
  // `handle` must outlive the plugin.
  // Reads which nodes carry the annotation from the handle's AnnotatedNodes when the cluster has
  // one (annotated_nodes.hpp), else from each Node.
  NodeReservationPlugin(Args args, const framework::Handle& handle)
      : args_(args), handle_(handle), annotated_(handle.cluster().nodeData<AnnotatedNodes>()) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  // kSkip for a pod that requests nothing but its pod slot, and for every pod while no node
  // carries the annotation (known only with AnnotatedNodes; then filter has nothing to check).
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;

 private:
  Args args_;
  const framework::Handle& handle_;
  const AnnotatedNodes* annotated_;  // nullptr: read each Node
  framework::NodeMemo<Result<framework::Resource>> memo_;
};

// The registry factory.
[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

}  // namespace koord::extender::plugins::node_reservation
