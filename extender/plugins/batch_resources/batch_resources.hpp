// BatchResources: a pod that requests Koordinator's colocation resources
// (kubernetes.io/batch-cpu, batch-memory, mid-cpu, mid-memory; koordinator-reference.md 2.2) fits
// a node only when the node's status.allocatable advertises enough of each, minus what the pods
// already there (bound and assumed) request. batch-cpu and mid-cpu are integer milli-cores.
//
// kube-scheduler's NodeResourcesFit would check these names too unless they are ignored
// (ignoredResources, or the extended resource registered with ignoredByScheduler); this plugin
// gives Koordinator's reason either way:
//   "Insufficient kubernetes.io/batch-cpu" (kUnschedulable), one per resource short.
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

namespace koord::extender::plugins::batch_resources {

inline constexpr std::string_view kName = "BatchResources";

// JSON: {"resources": ["kubernetes.io/batch-cpu", ...]}: the names checked, each one of the four
// batch/mid names, no duplicates, not empty. Default: all four.
struct Args {
  std::vector<std::string> resources;
};

[[nodiscard]] Result<Args> decodeArgs(const api::Json& args);

class BatchResourcesPlugin final : public framework::PreFilterPlugin,
                                   public framework::FilterPlugin {
 public:
  explicit BatchResourcesPlugin(Args args) : args_(std::move(args)) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  // kSkip for a pod that requests none of the checked names.
  [[nodiscard]] framework::PluginStatus preFilter(framework::CycleState& state,
                                                  const framework::PodInfo& pod) const override;
  [[nodiscard]] framework::PluginStatus filter(const framework::CycleState& state,
                                               const framework::PodInfo& pod,
                                               const framework::NodeInfo& node) const override;

 private:
  Args args_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                                const framework::Handle& handle);

}  // namespace koord::extender::plugins::batch_resources
