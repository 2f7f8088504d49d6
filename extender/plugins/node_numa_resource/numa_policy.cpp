#include "extender/plugins/node_numa_resource/numa_policy.hpp"

#include <string_view>

#include "koord/api/extension/enum_codec.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::node_numa_resource {

using api::extension::NUMATopologyPolicy;

api::extension::NUMATopologyPolicy nodeNUMAPolicy(
    const std::map<std::string, std::string>& node_labels,
    const std::vector<std::string>& nrt_topology_policies) {
  auto label = node_labels.find(std::string(api::kLabelNUMATopologyPolicy));
  if (label != node_labels.end()) {
    auto parsed = api::extension::enumFromString<NUMATopologyPolicy>(label->second);
    if (parsed && *parsed != NUMATopologyPolicy::kNone) {
      return *parsed;
    }
  }
  // convertToNUMATopologyPolicy: only these three NRT spellings are recognised.
  for (const auto& policy : nrt_topology_policies) {
    if (policy == "BestEffort") {
      return NUMATopologyPolicy::kBestEffort;
    }
    if (policy == "Restricted") {
      return NUMATopologyPolicy::kRestricted;
    }
    if (policy == "SingleNUMANodePodLevel") {
      return NUMATopologyPolicy::kSingleNUMANode;
    }
  }
  return NUMATopologyPolicy::kNone;
}

Result<api::extension::NUMATopologyPolicy> mergeTopologyPolicy(NUMATopologyPolicy node,
                                                               NUMATopologyPolicy pod) {
  if (node != NUMATopologyPolicy::kNone && pod != NUMATopologyPolicy::kNone && node != pod) {
    return Status::failedPrecondition(std::string(kErrNotMatchNUMATopology));
  }
  return pod != NUMATopologyPolicy::kNone ? pod : node;
}

}  // namespace koord::extender::plugins::node_numa_resource
