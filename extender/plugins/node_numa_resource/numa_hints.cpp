#include "extender/plugins/node_numa_resource/numa_hints.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "extender/plugins/node_numa_resource/numa_split.hpp"

namespace koord::extender::plugins::node_numa_resource {
// Named (not anonymous) so that unity builds do not mix these helpers with other files' ones.
namespace numa_hints_impl {

using api::extension::NumaTopologyExclusive;
using api::extension::NUMATopologyPolicy;

// topologymanager.NUMATopologyHint; mask nullopt is Go's nil affinity ("don't care").
struct TopologyHint {
  std::optional<uint64_t> mask;
  bool unsatisfied = false;
  bool preferred = false;
  int64_t score = 0;
};

std::string formatMask(uint64_t mask);  // Go's bitmask String(), defined below

int popcount(uint64_t mask) {
  return std::popcount(mask);
}

// bitmask.IsNarrowerThan: fewer bits, or as many bits and a lower value.
bool isNarrowerThan(uint64_t a, uint64_t b) {
  if (popcount(a) == popcount(b)) {
    return a < b;
  }
  return popcount(a) < popcount(b);
}

// bitmask.IterateBitMasks: every non-empty subset, by size, then lexicographically by id.
void iterateBitMasks(const std::vector<int>& ids, const std::function<void(uint64_t)>& callback) {
  std::function<void(size_t, uint64_t, int, int)> iterate = [&](size_t start, uint64_t accum,
                                                                int have, int size) {
    if (have == size) {
      callback(accum);
      return;
    }
    for (size_t i = start; i < ids.size(); ++i) {
      iterate(i + 1, accum | (uint64_t{1} << ids[i]), have + 1, size);
    }
  };
  for (int size = 1; size <= static_cast<int>(ids.size()); ++size) {
    iterate(0, 0, 0, size);
  }
}

std::vector<int> sortedIds(const std::vector<NUMANodeResources>& nodes) {
  std::vector<int> ids;
  ids.reserve(nodes.size());
  for (const auto& node : nodes) {
    if (node.node >= 0 && node.node < 64) {
      ids.push_back(node.node);
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

NUMANodeStatus statusOf(const std::vector<NUMANodeResources>& nodes, int id) {
  for (const auto& node : nodes) {
    if (node.node == id) {
      return node.status;
    }
  }
  return NUMANodeStatus::kIdle;
}

// checkExclusivePolicy.
bool checkExclusivePolicy(const TopologyHint& hint, NumaTopologyExclusive exclusive,
                          const std::vector<NUMANodeResources>& nodes) {
  if (!hint.mask) {
    return false;
  }
  if (exclusive != NumaTopologyExclusive::kRequired) {
    return true;
  }
  uint64_t mask = *hint.mask;
  if (popcount(mask) > 1) {
    for (int id = 0; id < 64; ++id) {
      if (((mask >> id) & 1U) && statusOf(nodes, id) == NUMANodeStatus::kSingle) {
        return false;
      }
    }
    return true;
  }
  return statusOf(nodes, std::countr_zero(mask)) != NUMANodeStatus::kShared;
}

// mergePermutation.
TopologyHint mergePermutation(uint64_t default_mask, const std::vector<TopologyHint>& permutation) {
  bool preferred = true;
  bool satisfied = true;
  int max_nodes = 0;
  std::optional<uint64_t> first;
  uint64_t merged = default_mask;
  for (const auto& hint : permutation) {
    if (hint.mask) {
      if (!first) {
        first = hint.mask;
      }
      if (*hint.mask != *first) {
        preferred = false;
      }
      max_nodes = std::max(max_nodes, popcount(*hint.mask));
      merged &= *hint.mask;
    }
    if (!hint.preferred) {
      preferred = false;
    }
    if (hint.unsatisfied) {
      satisfied = false;
    }
  }
  satisfied = (!first || max_nodes == popcount(merged)) && satisfied;
  return TopologyHint{merged, !satisfied, preferred, 0};
}

// mergeFilteredHints: the best of all permutations (one hint per resource).
TopologyHint mergeFilteredHints(uint64_t default_mask,
                                const std::vector<std::vector<TopologyHint>>& filtered,
                                NumaTopologyExclusive exclusive,
                                const std::vector<NUMANodeResources>& nodes) {
  TopologyHint best{default_mask, false, false, 0};
  std::vector<TopologyHint> permutation;
  std::function<void(size_t)> iterate = [&](size_t i) {
    if (i == filtered.size()) {
      TopologyHint merged = mergePermutation(default_mask, permutation);
      if (popcount(*merged.mask) == 0) {
        return;
      }
      if (!checkExclusivePolicy(merged, exclusive, nodes)) {
        merged.preferred = false;
      }
      for (const auto& v : permutation) {
        if (v.mask && *v.mask == *merged.mask) {
          merged.score += v.score;
        }
      }
      if (merged.preferred && !best.preferred) {
        best = merged;
        return;
      }
      if (!merged.preferred && best.preferred) {
        return;
      }
      if (!isNarrowerThan(*merged.mask, *best.mask)) {
        if (popcount(*merged.mask) == popcount(*best.mask) && merged.score > best.score) {
          best = merged;
        }
        return;
      }
      best = merged;
      return;
    }
    for (const auto& hint : filtered[i]) {
      permutation.push_back(hint);
      iterate(i + 1);
      permutation.pop_back();
    }
  };
  iterate(0);
  return best;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

// getSummaryForResource.
std::string summaryForResource(const std::string& name, const std::vector<ResourceHint>& hints) {
  std::vector<std::string> preferred;
  std::vector<std::string> possible;
  for (const auto& hint : hints) {
    std::string mask = formatMask(hint.mask);
    if (hint.preferred) {
      preferred.push_back(mask);
    }
    possible.push_back(std::move(mask));
  }
  return name + " prefer [" + join(preferred, " ") + "] among [" + join(possible, " ") + "]";
}

// The Allocate step the topology manager runs for the admitted hint.
Status checkAllocatable(uint64_t mask, const NUMARequest& request,
                        const std::vector<NUMANodeResources>& nodes) {
  if (mask == 0) {
    return Status::ok();
  }
  auto split = splitByHint(NUMAHint{mask, false}, request, nodes);
  return split.status();
}

std::string formatMask(uint64_t mask) {
  constexpr int kGrouping = 2;
  int width = kGrouping;
  for (int shift = 64 - kGrouping; shift > 0; shift -= kGrouping) {
    if (mask > (uint64_t{1} << shift)) {
      width = shift + kGrouping;
      break;
    }
  }
  // Go's "%0<width>b" pads to width but never truncates.
  width = std::max(width, static_cast<int>(std::bit_width(mask)));
  std::string out;
  for (int i = width - 1; i >= 0; --i) {
    out += ((mask >> i) & 1U) ? '1' : '0';
  }
  return out;
}

std::map<std::string, std::vector<ResourceHint>> generateHints(
    api::extension::NUMATopologyPolicy policy, const NUMARequest& request,
    const std::vector<NUMANodeResources>& nodes, const NUMAScoring& scoring) {
  const std::vector<int> ids = sortedIds(nodes);
  std::set<std::string> names_by_numa;
  for (const auto& node : nodes) {
    for (const auto& [name, _] : node.allocatable) {
      names_by_numa.insert(name);
    }
  }
  std::map<std::string, uint64_t> lacking;  // NUMA nodes with none of the resource available
  for (const auto& name : names_by_numa) {
    for (const auto& node : nodes) {
      if (node.node >= 0 && node.node < 64 && usableAvailable(node, name) == 0) {
        lacking[name] |= uint64_t{1} << node.node;
      }
    }
  }
  std::map<std::string, int> min_affinity_size;
  for (const auto& [name, _] : request.requests) {
    min_affinity_size[name] = static_cast<int>(nodes.size());
  }

  std::map<std::string, std::vector<ResourceHint>> hints;
  std::set<std::string> total_names;  // accumulated over masks, as in Go
  iterateBitMasks(ids, [&](uint64_t mask) {
    for (const auto& [name, _] : request.requests) {
      for (const auto& node : nodes) {
        if (node.node >= 0 && node.node < 64 && ((mask >> node.node) & 1U) &&
            node.allocatable.count(name) > 0) {
          total_names.insert(name);
          break;
        }
      }
    }
    const NUMAHint hint{mask, false};
    int64_t score = scoreHint(scoring.most_allocated, scoring.weights, hint, request, nodes);
    if (!checkAllocatable(mask, request, nodes).isOk()) {
      return;
    }
    for (const auto& name : total_names) {
      auto lack = lacking.find(name);
      if (lack != lacking.end() && (mask & lack->second) != 0) {
        continue;
      }
      int count = popcount(mask);
      auto& min_size = min_affinity_size[name];
      min_size = std::min(min_size, count);
      hints[name].push_back(ResourceHint{mask, false, score});
    }
  });

  for (const auto& [name, _] : request.requests) {
    auto it = hints.find(name);
    if (it != hints.end()) {
      for (auto& hint : it->second) {
        hint.preferred = popcount(hint.mask) == min_affinity_size[name] ||
                         policy == NUMATopologyPolicy::kRestricted;
      }
    } else if (total_names.count(name) > 0) {
      hints[name] = {};  // no possible NUMA affinity for the resource
    }
  }
  return hints;
}

Result<NUMAHint> admit(api::extension::NUMATopologyPolicy policy,
                       api::extension::NumaTopologyExclusive exclusive, const NUMARequest& request,
                       const std::vector<NUMANodeResources>& nodes, const NUMAScoring& scoring) {
  if (policy == NUMATopologyPolicy::kNone) {
    return NUMAHint{0, true};
  }
  const std::vector<int> ids = sortedIds(nodes);
  if (ids.empty()) {
    return Status::failedPrecondition(std::string(kErrMissingNUMAResources));
  }
  uint64_t default_mask = 0;
  for (int id : ids) {
    default_mask |= uint64_t{1} << id;
  }

  // filterProvidersHints (one provider: this plugin), resources in name order.
  const auto resource_hints = generateHints(policy, request, nodes, scoring);
  std::vector<std::vector<TopologyHint>> filtered;
  std::vector<std::string> reasons;
  std::vector<std::string> summary;
  if (resource_hints.empty()) {
    filtered.push_back({TopologyHint{std::nullopt, false, true, 0}});
  }
  for (const auto& [name, list] : resource_hints) {
    if (list.empty()) {
      filtered.push_back({TopologyHint{std::nullopt, true, false, 0}});
      reasons.push_back("Unsatisfied NUMA " + name);
      continue;
    }
    summary.push_back(summaryForResource(name, list));
    std::vector<TopologyHint> converted;
    converted.reserve(list.size());
    for (const auto& hint : list) {
      converted.push_back(TopologyHint{hint.mask, false, hint.preferred, hint.score});
    }
    filtered.push_back(std::move(converted));
  }
  std::sort(summary.begin(), summary.end());

  TopologyHint best;
  switch (policy) {
    case NUMATopologyPolicy::kBestEffort: {
      best = mergeFilteredHints(default_mask, filtered, exclusive, nodes);
      if (best.unsatisfied) {
        best = TopologyHint{default_mask, false, false, 0};
      }
      break;
    }
    case NUMATopologyPolicy::kRestricted: {
      if (!reasons.empty()) {
        return Status::resourceExhausted(join(reasons, ", "));
      }
      best = mergeFilteredHints(default_mask, filtered, exclusive, nodes);
      if (!best.preferred) {
        return Status::resourceExhausted("Unaligned NUMA Hint cause " + join(summary, " & "));
      }
      break;
    }
    case NUMATopologyPolicy::kSingleNUMANode:
    default: {
      if (!reasons.empty()) {
        return Status::resourceExhausted(join(reasons, ", "));
      }
      // filterSingleNumaHints: only "don't care" and single-NUMA hints, preferred ones.
      std::vector<std::vector<TopologyHint>> single;
      for (const auto& list : filtered) {
        std::vector<TopologyHint> kept;
        for (const auto& hint : list) {
          if (hint.preferred && (!hint.mask || popcount(*hint.mask) == 1)) {
            kept.push_back(hint);
          }
        }
        single.push_back(std::move(kept));
      }
      best = mergeFilteredHints(default_mask, single, exclusive, nodes);
      if (best.mask && *best.mask == default_mask) {
        best = TopologyHint{std::nullopt, false, best.preferred, 0};
      }
      if (!best.preferred) {
        return Status::resourceExhausted("Unaligned NUMA Hint cause " + join(summary, ","));
      }
      break;
    }
  }

  NUMAHint admitted{best.mask.value_or(0), best.preferred};
  // Admit then runs Allocate for the chosen hint; BestEffort may still fail here.
  KOORD_RETURN_IF_ERROR(checkAllocatable(admitted.mask, request, nodes));
  return admitted;
}

}  // namespace numa_hints_impl

std::string formatNUMAMask(uint64_t mask) {
  return numa_hints_impl::formatMask(mask);
}

std::map<std::string, std::vector<ResourceHint>> generateResourceHints(
    api::extension::NUMATopologyPolicy policy, const NUMARequest& request,
    const std::vector<NUMANodeResources>& nodes, const NUMAScoring& scoring) {
  return numa_hints_impl::generateHints(policy, request, nodes, scoring);
}

Result<NUMAHint> admitByNUMA(api::extension::NUMATopologyPolicy policy,
                             api::extension::NumaTopologyExclusive exclusive,
                             const NUMARequest& request,
                             const std::vector<NUMANodeResources>& nodes,
                             const NUMAScoring& scoring) {
  return numa_hints_impl::admit(policy, exclusive, request, nodes, scoring);
}

}  // namespace koord::extender::plugins::node_numa_resource
