// NodeNUMAResource's args (Koordinator's NodeNUMAResourceArgs, koordinator-reference.md 5.2):
//   defaultCPUBindPolicy: FullPCPUs (default) | SpreadByPCPUs
//   scoringStrategy:      {type: LeastAllocated (default) | MostAllocated,
//                          resources: [{name, weight}]}  (default cpu 1, memory 1)
//   numaScoringStrategy:  the same shape, for the NUMA nodes a NUMA-policy pod is given.
// Unknown fields, unknown values and weights outside 1..100 are errors, all reported at once.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::plugins::node_numa_resource {

struct ScoringStrategy {
  bool most_allocated = false;
  std::vector<std::pair<std::string, int64_t>> weights = {{"cpu", 1}, {"memory", 1}};
};

struct NodeNUMAResourceArgs {
  api::extension::CPUBindPolicy default_bind_policy = api::extension::CPUBindPolicy::kFullPCPUs;
  ScoringStrategy scoring;
  ScoringStrategy numa_scoring;
};

// `plugin` names the plugin in error messages.
[[nodiscard]] Result<NodeNUMAResourceArgs> decodeArgs(const api::Json& args,
                                                      const std::string& plugin);

}  // namespace koord::extender::plugins::node_numa_resource
