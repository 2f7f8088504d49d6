// PriorityQoS: rejects a pod whose Koordinator QoS class (label koordinator.sh/qosClass) and
// priority band (spec.priority, or the koordinator.sh/priority-class label) are a pair that
// Koordinator's pod webhook forbids (koordinator-reference.md 2.1):
//   BE  with no band or koord-prod;
//   LSR/LSE with no band, koord-mid, koord-batch or koord-free.
// With args {"requireIntegerCPU": true} (the default) an LSR or LSE pod must also request whole
// CPUs, as the webhook requires. Such a pod fits no node, so the rejection comes from preFilter
// as kUnschedulableAndUnresolvable (preemption cannot help) with a reason naming both sides:
//   "pod with QoS class BE cannot use priority class koord-prod (priority 9000)"
//   "pod with QoS class LSR must request whole CPUs, got cpu 1500m"
//
// Thread safety: immutable after create().
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::priority_qos {

inline constexpr std::string_view kName = "PriorityQoS";

// JSON: {"requireIntegerCPU": bool} (default true).
struct Args {
  bool require_integer_cpu = true;
};

[[nodiscard]] Result<Args> decodeArgs(const api::Json& args);

// The reason the pod is rejected, or std::nullopt when its QoS class and priority are allowed.
[[nodiscard]] std::optional<std::string> rejection(const Args& args, const framework::PodInfo& pod);

class PriorityQoSPlugin final : public framework::PreFilterPlugin {
 public:
  explicit PriorityQoSPlugin(Args args) : args_(args) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  // kUnschedulableAndUnresolvable for a forbidden pair; kSkip otherwise (nothing per node).
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;

 private:
  Args args_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

}  // namespace koord::extender::plugins::priority_qos
