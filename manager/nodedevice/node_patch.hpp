// The two merge patches (RFC 7386) that make a Node advertise a NodeGpu (gpu_resources.hpp),
// touching only the keys this controller owns:
// - status: {"status":{"capacity":{...},"allocatable":{...}}} for PATCH nodes/<name>/status, with
//   each of kManagedResources that differs from the node's (the Quantity compared by value) set to
//   the desired quantity, and each the node has but should not set to null. Other resources
//   (cpu, batch resources written by the batch resource controller, ...) are never named.
// - labels: {"metadata":{"labels":{...}}} for PATCH nodes/<name>, the same way over
//   kManagedLabels.
// A patch is nullopt when nothing of it differs (no write).
#pragma once

#include <optional>
#include <string>

#include "koord/api/core/node.hpp"
#include "manager/nodedevice/gpu_resources.hpp"

namespace koord::manager::nodedevice {

struct NodePatches {
  std::optional<std::string> status;
  std::optional<std::string> labels;
};

[[nodiscard]] NodePatches nodePatchesFor(const api::core::Node& node, const NodeGpu& desired);

}  // namespace koord::manager::nodedevice
