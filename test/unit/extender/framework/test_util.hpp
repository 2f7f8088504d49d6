// Builders and fakes shared by the framework's unit tests.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extender/framework/cluster_state.hpp"
#include "extender/framework/handle.hpp"
#include "extender/framework/plugin.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::framework::testing {

inline resource::Quantity q(const std::string& text) {
  return resource::Quantity::parse(text).value();
}

inline std::shared_ptr<const api::core::Node> makeNode(const std::string& name,
                                                       const std::string& cpu = "4",
                                                       const std::string& memory = "8Gi",
                                                       const std::string& pods = "110") {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = name;
  node->status.allocatable = {{"cpu", q(cpu)}, {"memory", q(memory)}, {"pods", q(pods)}};
  return node;
}

// A pod "default/<name>" with UID "uid-<name>", one container requesting cpu and memory (an
// empty string requests none), bound to `node` when not empty.
inline std::shared_ptr<api::core::Pod> makePod(const std::string& name,
                                               const std::string& cpu = "1",
                                               const std::string& node = "",
                                               const std::string& memory = "1Gi") {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "default";
  pod->metadata.name = name;
  pod->metadata.uid = "uid-" + name;
  pod->spec.nodeName = node;
  api::core::Container c;
  c.name = "main";
  if (!cpu.empty())
    c.resources.requests["cpu"] = q(cpu);
  if (!memory.empty())
    c.resources.requests["memory"] = q(memory);
  pod->spec.containers.push_back(std::move(c));
  return pod;
}

inline std::shared_ptr<const PodInfo> makePodInfo(const std::string& name,
                                                  const std::string& cpu = "1",
                                                  const std::string& node = "") {
  return PodInfo::create(makePod(name, cpu, node)).value();
}

using TestHandle = BasicHandle;

// A plugin at every extension point, each behaviour a std::function (unset: success / no-op),
// appending "<name>.<point>" to a shared call log for the sequential points.
class ScriptedPlugin final : public PreFilterPlugin,
                             public FilterPlugin,
                             public ScorePlugin,
                             public ReservePlugin,
                             public PermitPlugin,
                             public PreBindPlugin,
                             public PreemptPlugin {
 public:
  ScriptedPlugin(std::string name, std::vector<std::string>* log)
      : name_(std::move(name)), log_(log) {}

  std::function<PluginStatus(const PodInfo&)> on_pre_filter;
  std::function<PluginStatus(const PodInfo&, const NodeInfo&)> on_filter;
  std::function<bool()> on_scores;
  std::function<int64_t(const NodeInfo&)> on_score;
  mutable std::atomic<int> score_calls{0};
  std::function<void(std::vector<int64_t>&)> on_normalize;
  std::function<PluginStatus()> on_reserve;
  std::function<PluginStatus(CycleState&, std::chrono::milliseconds&)> on_permit;
  std::function<PluginStatus(BindPatch&)> on_pre_bind;
  std::function<PluginStatus(std::vector<std::shared_ptr<const PodInfo>>&)> on_select;

  std::string_view name() const override { return name_; }
  PluginStatus preFilter(CycleState&, const PodInfo& pod) const override {
    record("preFilter");
    return on_pre_filter ? on_pre_filter(pod) : PluginStatus::success();
  }
  PluginStatus filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    return on_filter ? on_filter(pod, node) : PluginStatus::success();
  }
  bool scores(const CycleState&, const PodInfo&) const override {
    return on_scores ? on_scores() : true;
  }
  int64_t score(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    ++score_calls;
    return on_score ? on_score(node) : 0;
  }
  void normalizeScores(const CycleState&, const PodInfo&, const std::vector<const NodeInfo*>&,
                       std::vector<int64_t>& scores) const override {
    if (on_normalize)
      on_normalize(scores);
  }
  PluginStatus reserve(CycleState&, const PodInfo&, const NodeInfo&) override {
    record("reserve");
    return on_reserve ? on_reserve() : PluginStatus::success();
  }
  void unreserve(CycleState&, const PodInfo&, const std::string&) override { record("unreserve"); }
  PluginStatus permit(CycleState& state, const PodInfo&, const std::string&,
                      std::chrono::milliseconds& timeout) override {
    record("permit");
    return on_permit ? on_permit(state, timeout) : PluginStatus::success();
  }
  PluginStatus preBind(CycleState&, const PodInfo&, const NodeInfo&, BindPatch& patch) override {
    record("preBind");
    return on_pre_bind ? on_pre_bind(patch) : PluginStatus::success();
  }
  PluginStatus selectVictims(const CycleState&, const PodInfo&, const NodeInfo&,
                             std::vector<std::shared_ptr<const PodInfo>>& victims) const override {
    return on_select ? on_select(victims) : PluginStatus::success();
  }

 private:
  void record(const std::string& point) const {
    if (log_ != nullptr) {
      std::lock_guard<std::mutex> lock(log_mu_);
      log_->push_back(name_ + "." + point);
    }
  }
  std::string name_;
  std::vector<std::string>* log_;
  mutable std::mutex log_mu_;
};

// A filter-only plugin (to check that the runtime only calls what a plugin implements).
class FilterOnlyPlugin final : public FilterPlugin {
 public:
  explicit FilterOnlyPlugin(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  PluginStatus filter(const CycleState&, const PodInfo&, const NodeInfo&) const override {
    return PluginStatus::success();
  }

 private:
  std::string name_;
};

}  // namespace koord::extender::framework::testing
