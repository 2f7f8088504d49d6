// PluginStatus: what a plugin says about a pod (and a node), after the Kubernetes scheduling
// framework's Status. The code decides what the runtime does; the reasons are what the user sees
// (FailedNodes messages, the pod's PodScheduled condition, the simulator's table).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace koord::extender::framework {

enum class Code {
  kSuccess,
  // Something went wrong (not the pod's fault): the verb fails with an error.
  kError,
  // The node does not fit now; preemption may help (FailedNodes).
  kUnschedulable,
  // The node does not fit and preemption cannot help (FailedAndUnresolvableNodes).
  kUnschedulableAndUnresolvable,
  // The plugin has nothing to do for this pod (from preFilter: its filter/score are skipped).
  kSkip,
  // bind only: the pod waits (gangs) before it may bind.
  kWait,
};

class PluginStatus {
 public:
  PluginStatus() = default;
  PluginStatus(Code code, std::vector<std::string> reasons)
      : code_(code), reasons_(std::move(reasons)) {}

  static PluginStatus success() { return {}; }
  static PluginStatus skip() { return {Code::kSkip, {}}; }
  static PluginStatus error(std::string message) { return {Code::kError, {std::move(message)}}; }
  static PluginStatus unschedulable(std::string reason) {
    return {Code::kUnschedulable, {std::move(reason)}};
  }
  static PluginStatus unresolvable(std::string reason) {
    return {Code::kUnschedulableAndUnresolvable, {std::move(reason)}};
  }

  [[nodiscard]] Code code() const { return code_; }
  [[nodiscard]] bool isSuccess() const { return code_ == Code::kSuccess; }
  [[nodiscard]] bool isSkip() const { return code_ == Code::kSkip; }
  [[nodiscard]] bool isRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable;
  }
  [[nodiscard]] const std::vector<std::string>& reasons() const { return reasons_; }
  // The reasons joined with ", " ("" for none).
  [[nodiscard]] std::string message() const;
  // The plugin that returned it (set by the runtime).
  [[nodiscard]] const std::string& plugin() const { return plugin_; }
  PluginStatus& withPlugin(std::string plugin) {
    plugin_ = std::move(plugin);
    return *this;
  }

 private:
  Code code_ = Code::kSuccess;
  std::vector<std::string> reasons_;
  std::string plugin_;
};

}  // namespace koord::extender::framework
