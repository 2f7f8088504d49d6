// kube-scheduler's filters as framework plugins, for the two places koord-extender chooses a node
// itself: the simulator (which stands in for kube-scheduler) and the Reservation loop
// (kube-scheduler never sees a reserve pod). In production kube-scheduler runs its own;
// koord-extender only sees the nodes that passed them. Their scores are default_scores.hpp, added
// by prioritize.hpp.
#pragma once

#include <vector>

#include "extender/framework/registry.hpp"
#include "extender/framework/runtime.hpp"

namespace koord::extender::plugins::kube {

// NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit.
[[nodiscard]] framework::Registry kubePlugins();

// The plugins above in kube-scheduler's filter order, NodeResourcesFit ignoring what the shipped
// scheduler configuration leaves to koord-extender: the batch and mid resources (BatchResources
// names them in its reasons) and the GPU and RDMA resources (DeviceResources judges them).
[[nodiscard]] std::vector<framework::PluginConfig> filterConfigs();

}  // namespace koord::extender::plugins::kube
