// RemovePodsHavingTooManyRestarts (the community descheduler v0.36
// removepodshavingtoomanyrestarts plugin): evicts, node by node, pods that pass the evictor's
// filter and preEvictionFilter and whose containers restarted at least podRestartThreshold times
// in total (status.containerStatuses[].restartCount, plus initContainerStatuses with
// includingInitContainers), and, when `states` is set, whose phase or a container's waiting reason
// (init containers' too when included) is one of them. A node's pods go most restarts first (ties
// keep the listing order); its eviction limit moves on to the next node. EvictOptions: plugin
// "RemovePodsHavingTooManyRestarts", no reason (the community passes none).
//
// Args are decoded strictly and validated as ValidateRemovePodsHavingTooManyRestartsArgs
// (podRestartThreshold >= 1; states among Running and CrashLoopBackOff).
// Not thread-safe; one profile runs it on one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/args_decode.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/pod_facts.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

inline constexpr std::string_view kRemovePodsHavingTooManyRestartsName =
    "RemovePodsHavingTooManyRestarts";

struct RemovePodsHavingTooManyRestartsArgs {
  std::optional<Namespaces> namespaces;
  std::optional<api::core::LabelSelector> labelSelector;
  int32_t podRestartThreshold = 0;
  bool includingInitContainers = false;
  std::vector<std::string> states;
};

[[nodiscard]] Result<RemovePodsHavingTooManyRestartsArgs> decodeRemovePodsHavingTooManyRestartsArgs(
    const nlohmann::json& args);
[[nodiscard]] Status validateRemovePodsHavingTooManyRestartsArgs(
    const RemovePodsHavingTooManyRestartsArgs& args);

// The pod's total restarts as the plugin counts them.
[[nodiscard]] int32_t podTotalRestarts(const api::core::Pod& pod, bool including_init_containers);

class RemovePodsHavingTooManyRestarts final : public framework::DeschedulePlugin {
 public:
  RemovePodsHavingTooManyRestarts(RemovePodsHavingTooManyRestartsArgs args, PodScope scope,
                                  framework::Handle& handle);

  [[nodiscard]] std::string_view name() const override {
    return kRemovePodsHavingTooManyRestartsName;
  }
  Status deschedule(const framework::NodeList& nodes) override;

 private:
  [[nodiscard]] bool selects(const api::core::Pod& pod) const;
  [[nodiscard]] bool inStates(const api::core::Pod& pod) const;

  RemovePodsHavingTooManyRestartsArgs args_;
  PodScope scope_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createRemovePodsHavingTooManyRestarts(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::pod_lifecycle
