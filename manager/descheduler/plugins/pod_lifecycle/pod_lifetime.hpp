// PodLifeTime (the community descheduler v0.36 podlifetime plugin): evicts pods, from every node
// given, that pass the evictor's filter and preEvictionFilter and every criterion set in the args:
// older than maxPodLifeTimeSeconds (creationTimestamp against Handle::now), in one of `states`
// (phase, status.reason, a container waiting or terminated reason; init and ephemeral containers
// when included), with an owner kind included / none excluded, with a matching condition, with a
// matching terminated exit code. Terminal pods are candidates too. All candidates are evicted
// oldest first (creationTimestamp; ties keep the nodes' listing order); a node whose eviction
// limit is reached is skipped. EvictOptions: plugin "PodLifeTime", no reason (the community
// passes none).
//
// Not thread-safe; one profile runs it on one thread.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "koord/common/result.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/pod_facts.hpp"
#include "manager/descheduler/plugins/pod_lifecycle/pod_lifetime_args.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

inline constexpr std::string_view kPodLifeTimeName = "PodLifeTime";

class PodLifeTime final : public framework::DeschedulePlugin {
 public:
  PodLifeTime(PodLifeTimeArgs args, PodScope scope, framework::Handle& handle);

  [[nodiscard]] std::string_view name() const override { return kPodLifeTimeName; }
  Status deschedule(const framework::NodeList& nodes) override;

 private:
  [[nodiscard]] bool selects(const api::core::Pod& pod) const;
  [[nodiscard]] bool oldEnough(const api::core::Pod& pod) const;
  [[nodiscard]] bool inStates(const api::core::Pod& pod) const;
  [[nodiscard]] bool ownerKindsAllow(const api::core::Pod& pod) const;
  [[nodiscard]] bool matchesConditions(const api::core::Pod& pod) const;
  [[nodiscard]] bool matchesExitCodes(const api::core::Pod& pod) const;

  PodLifeTimeArgs args_;
  PodScope scope_;
  framework::Handle& handle_;
};

[[nodiscard]] Result<std::unique_ptr<framework::Plugin>> createPodLifeTime(
    const nlohmann::json& args, framework::Handle& handle);

}  // namespace koord::manager::descheduler::pod_lifecycle
