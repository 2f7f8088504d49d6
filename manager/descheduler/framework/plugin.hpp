// The descheduling framework's plugin seam (sigs.k8s.io/descheduler's pkg/framework/types, as
// Koordinator's descheduler embeds it). A profile runs its enabled plugins in order: every
// DeschedulePlugin, then every BalancePlugin, each over the profile's nodes. A plugin looks at the
// ClusterSnapshot, picks victims, and hands each to the Evictor; it never writes to the API
// server itself. Which pods may go at all (DefaultEvictor's filters, nodeFit) is the Evictor's
// business: plugins ask evictor.filter() before choosing a pod and evictor.preEvictionFilter()
// right before evicting it, as the community plugins do.
//
// A plugin is created from its args (the pluginConfig entry's args as written; null when none)
// by its Factory; an invalid value is a kInvalidArgument naming the field
// ("<PluginName>Args.<field>: <cause>"). Plugins are not thread-safe; a profile runs them on one
// thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"
#include "koord/log/logger.hpp"
#include "manager/descheduler/framework/evictor.hpp"
#include "manager/descheduler/framework/snapshot.hpp"

namespace koord::manager::descheduler::framework {

using NodeList = std::vector<std::shared_ptr<const api::core::Node>>;

// Whether `pod` would fit on some node of `nodes` other than its own: the community's
// nodeutil.PodFitsAnyOtherNode (node selector and required affinity, NoSchedule taints,
// unschedulable, requests within allocatable less what the node's pods request).
using PodFitsAnyOtherNode = std::function<bool(const api::core::Pod& pod, const NodeList& nodes)>;

// What a plugin is given: the cluster as the pass sees it, the evictor, the pass's time.
struct Handle {
  const ClusterSnapshot* snapshot = nullptr;
  Evictor* evictor = nullptr;
  PodFitsAnyOtherNode pod_fits_any_other_node;
  std::chrono::system_clock::time_point now{};
  log::Logger logger;
};

class Plugin {
 public:
  virtual ~Plugin() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
};

// Deschedule extension point: evicts pods that break a rule (affinity, taints, age, ...).
class DeschedulePlugin : public virtual Plugin {
 public:
  // An error stops this plugin only; the pass goes on with the next.
  virtual Status deschedule(const NodeList& nodes) = 0;
};

// Balance extension point: evicts pods to even out the nodes (duplicates, utilization, spread).
class BalancePlugin : public virtual Plugin {
 public:
  virtual Status balance(const NodeList& nodes) = 0;
};

// `handle` outlives the plugin; its snapshot may be replaced between passes (the pointer is
// read on each call).
using Factory =
    std::function<Result<std::unique_ptr<Plugin>>(const nlohmann::json& args, Handle& handle)>;

struct RegisteredPlugin {
  std::string name;
  Factory factory;
};

}  // namespace koord::manager::descheduler::framework
