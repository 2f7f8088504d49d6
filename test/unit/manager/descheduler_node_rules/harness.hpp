// A descheduling pass for the node-rule plugin tests: the cluster's snapshot, the real
// LimitedEvictor (DefaultEvictor filters, nodeFit, limits) with a sink that always succeeds, and
// the plugin's Handle.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "manager/descheduler/framework/limited_evictor.hpp"
#include "manager/descheduler/framework/node_fit.hpp"
#include "manager/descheduler/framework/plugin.hpp"
#include "test/unit/manager/descheduler_framework/builders.hpp"

namespace koord::manager::descheduler::testing {

struct Pass {
  Pass(const std::vector<core::Node>& node_list, const std::vector<core::Pod>& pods,
       framework::DefaultEvictorOptions options, framework::EvictionLimits limits = {})
      : snapshot(snapshotOf(node_list, pods)),
        evictor(framework::DefaultEvictor::create(std::move(options)).value(), &snapshot, limits,
                [](const core::Pod&, const framework::EvictOptions&) { return true; }) {
    handle.snapshot = &snapshot;
    handle.evictor = &evictor;
    handle.pod_fits_any_other_node = framework::makePodFitsAnyOtherNode(handle);
    for (const auto& node : node_list) {
      nodes.push_back(std::make_shared<const core::Node>(node));
    }
  }

  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;

  [[nodiscard]] std::vector<std::string> evictedNames() const {
    std::vector<std::string> names;
    for (const auto& victim : evictor.victims())
      names.push_back(victim.name);
    return names;
  }

  framework::ClusterSnapshot snapshot;
  framework::LimitedEvictor evictor;
  framework::Handle handle;
  framework::NodeList nodes;
};

}  // namespace koord::manager::descheduler::testing
