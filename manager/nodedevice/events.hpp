// Which informer events make the Device -> Node controller look at a node again (each mapped to
// the node's name; the Device is named after its node). The reconcile is level-triggered, so these
// filters only save work.
// - Device added or deleted: always; updated: when its spec or labels changed (not its status,
//   which holds the scheduler's allocations).
// - Node added: always; updated: when one of the managed resources (capacity or allocatable) or
//   managed labels changed (someone else wrote them; the controller puts them back). Deleted:
//   never (nothing is left to write).
#pragma once

#include <functional>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/scheduling/device.hpp"
#include "koord/k8s/informer.hpp"

namespace koord::manager::nodedevice {

[[nodiscard]] bool managedNodeFieldsChanged(const api::core::Node& old_node,
                                            const api::core::Node& new_node);
[[nodiscard]] bool deviceInputsChanged(const api::scheduling::Device& old_device,
                                       const api::scheduling::Device& new_device);

using EnqueueNode = std::function<void(const std::string& node_name)>;
[[nodiscard]] k8s::ResourceEventHandlers<api::core::Node> nodeHandlers(EnqueueNode enqueue);
[[nodiscard]] k8s::ResourceEventHandlers<api::scheduling::Device> deviceHandlers(
    EnqueueNode enqueue);

}  // namespace koord::manager::nodedevice
