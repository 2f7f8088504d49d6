// RemoveFailedPods (the community descheduler v0.36 removefailedpods plugin): evicts pods in
// phase Failed, node by node, that pass the evictor's filter and preEvictionFilter and the args:
// old enough (minPodLifetimeSeconds, default 3600, against creationTimestamp), no owner of an
// excluded kind, a matching reason (container waiting/terminated reasons and the pod's own
// status.reason; init containers' too with includingInitContainers) and a matching terminated
// exit code, when those lists are set. Pods go in the node's listing order; a node's eviction limit
// moves on to the next node. EvictOptions: plugin "RemoveFailedPods", no reason (the community
// passes none).
//
// Args are decoded strictly (see args_decode.hpp) and validated as ValidateRemoveFailedPodsArgs.
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

inline constexpr std::string_view kRemoveFailedPodsName = "RemoveFailedPods";

struct RemoveFailedPodsArgs {
  std::optional<Namespaces> namespaces;
  std::optional<api::core::LabelSelector> labelSelector;
  std::vector<std::string> excludeOwnerKinds;
  std::optional<uint64_t> minPodLifetimeSeconds = 3600;
  std::vector<std::string> reasons;
  std::vector<int32_t> exitCodes;
  bool includingInitContainers = false;
};

// Decodes (null: all defaults), defaults and validates.
[[nodiscard]] Result<RemoveFailedPodsArgs> decodeRemoveFailedPodsArgs(const nlohmann::json& args);
[[nodiscard]] Status validateRemoveFailedPodsArgs(const RemoveFailedPodsArgs& args);

class RemoveFailedPods final : public framework::DeschedulePlugin {
 public:
  RemoveFailedPods(RemoveFailedPodsArgs args, PodScope scope, framework::Handle& handle);

  [[nodiscard]] std::string_view name() const override { return kRemoveFailedPodsName; }
  Status deschedule(const framework::NodeList& nodes) override;

 private:
  [[nodiscard]] bool selects(const api::core::Pod& pod) const;
  [[nodiscard]] bool meetsArgs(const api::core::Pod& pod) const;

  RemoveFailedPodsArgs args_;
  PodScope scope_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createRemoveFailedPods(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::pod_lifecycle
