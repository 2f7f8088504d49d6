#include "extender/plugins/node_numa_resource/numa_split.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "koord/resource/quantity.hpp"

namespace koord::extender::plugins::node_numa_resource {
// Named (not anonymous) so that unity builds do not mix these helpers with other files' ones.
namespace numa_split_impl {

constexpr std::string_view kCPU = "cpu";
constexpr std::string_view kMemory = "memory";
constexpr int64_t kMaxNodeScore = 100;

const NUMANodeResources* findNode(const std::vector<NUMANodeResources>& nodes, int id) {
  for (const auto& node : nodes) {
    if (node.node == id) {
      return &node;
    }
  }
  return nullptr;
}

int64_t lookup(const std::map<std::string, int64_t>& list, const std::string& name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second;
}

std::vector<int> maskBits(uint64_t mask) {
  std::vector<int> bits;
  for (int i = 0; i < 64; ++i) {
    if ((mask >> i) & 1U) {
      bits.push_back(i);
    }
  }
  return bits;
}

// Go's Quantity.Value() for milli: rounded away from zero.
int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a + b - 1) / b);
}

// splitQuantity: the share of `remaining` for one of `count` NUMA nodes still to visit.
int64_t splitShare(const std::string& resource, int64_t remaining, int64_t count,
                   const NUMARequest& request) {
  if (resource != kCPU || !request.cpu_bind) {
    return remaining / count;  // milli CPU, bytes, or units
  }
  // Go takes quantity.Value(): whole CPUs, rounded up.
  int64_t cpus = ceilDiv(remaining, 1000);
  if (request.full_pcpus) {
    int64_t per_core = std::max(1, request.cpus_per_core);
    return (cpus / per_core) / count * per_core * 1000;
  }
  return cpus / count * 1000;
}

resource::Quantity toQuantity(const std::string& name, int64_t amount) {
  if (name == kCPU) {
    return resource::Quantity::fromMilli(amount);
  }
  if (name == kMemory || name.starts_with("hugepages-")) {
    return resource::Quantity::fromInt(amount, resource::QuantityFormat::kBinarySI);
  }
  return resource::Quantity::fromInt(amount);
}

// schedutil.IsScalarResourceName: extended, prefixed-native, hugepages and attachable volumes.
bool isScalarResource(const std::string& name) {
  return name.find('/') != std::string::npos || name.starts_with("hugepages-") ||
         name.starts_with("attachable-volumes-");
}

int64_t usable(const NUMANodeResources& node, const std::string& resource) {
  int64_t available = std::max<int64_t>(0, lookup(node.available, resource));
  if (resource == kCPU && node.free_cpus >= 0) {
    available = std::min<int64_t>(available, int64_t{node.free_cpus} * 1000);
  }
  return available;
}

Result<std::vector<api::extension::NUMANodeResource>> splitMask(
    const NUMAHint& hint, const NUMARequest& request, const std::vector<NUMANodeResources>& nodes) {
  std::set<std::string> names_by_numa;
  for (const auto& node : nodes) {
    for (const auto& [name, _] : node.allocatable) {
      names_by_numa.insert(name);
    }
    for (const auto& [name, _] : node.available) {
      names_by_numa.insert(name);
    }
  }
  auto available_of = [&](int id, const std::string& name) -> int64_t {
    const auto* node = findNode(nodes, id);
    return node == nullptr ? 0 : usable(*node, name);
  };

  const std::vector<int> numa_nodes = maskBits(hint.mask);
  const auto k = static_cast<int64_t>(numa_nodes.size());
  std::map<int, std::map<std::string, int64_t>> allocated_by_node;
  std::vector<std::string> insufficient;
  for (const auto& [name, quantity] : request.requests) {
    if (names_by_numa.count(name) == 0) {
      continue;
    }
    // Go: sort.Slice(sorted, func(i, j) { totalAvailable[i] < totalAvailable[j] }) - the less
    // function indexes availability by the *positions* i and j, not by the NUMA ids stored there
    // (reference 3(a) "Multi-NUMA split" quirk). sort.Slice runs insertion sort for up to 12
    // elements, so this is Go's exact order for any realistic hint.
    std::vector<int> sorted = numa_nodes;
    for (size_t i = 1; i < sorted.size(); ++i) {
      for (size_t j = i; j > 0 && available_of(static_cast<int>(j), name) <
                                      available_of(static_cast<int>(j - 1), name);
           --j) {
        std::swap(sorted[j], sorted[j - 1]);
      }
    }
    int64_t remaining = quantity;
    for (size_t i = 0; i < sorted.size(); ++i) {
      int64_t share = splitShare(name, remaining, k - static_cast<int64_t>(i), request);
      int64_t allocated = std::min(available_of(sorted[i], name), share);
      if (allocated != 0) {
        allocated_by_node[sorted[i]][name] = allocated;
        remaining -= allocated;
      }
    }
    if (remaining != 0) {
      insufficient.push_back("Insufficient NUMA " + name);
    }
  }
  if (!insufficient.empty()) {
    std::string message;
    for (const auto& reason : insufficient) {
      message += message.empty() ? reason : ", " + reason;
    }
    return Status::resourceExhausted(std::move(message));
  }

  // allocateCPUSet: each NUMA node hands out min(free CPUs, its whole-CPU share).
  bool free_cpus_known =
      !nodes.empty() &&
      std::all_of(nodes.begin(), nodes.end(), [](const auto& n) { return n.free_cpus >= 0; });
  if (request.cpu_bind && free_cpus_known) {
    int64_t needed = lookup(request.requests, std::string(kCPU)) / 1000;
    int64_t total_free = 0;
    for (const auto& node : nodes) {
      total_free += node.free_cpus;
    }
    if (total_free < needed) {
      return Status::resourceExhausted(std::string(kErrNotEnoughCPUsForNUMA));
    }
    if (!allocated_by_node.empty()) {
      int64_t taken = 0;
      for (const auto& [id, resources] : allocated_by_node) {
        const auto* node = findNode(nodes, id);
        int64_t free = node == nullptr ? 0 : node->free_cpus;
        taken += std::min(free, lookup(resources, std::string(kCPU)) / 1000);
      }
      if (taken != needed) {
        return Status::resourceExhausted(std::string(kErrNotEnoughCPUsForNUMA));
      }
    }
  }

  std::vector<api::extension::NUMANodeResource> result;
  result.reserve(allocated_by_node.size());
  for (const auto& [id, resources] : allocated_by_node) {
    api::extension::NUMANodeResource out;
    out.node = id;
    for (const auto& [name, amount] : resources) {
      out.resources.emplace(name, toQuantity(name, amount));
    }
    result.push_back(std::move(out));
  }
  return result;
}

int64_t scoreMask(bool most_allocated, const std::map<std::string, int64_t>& weights,
                  const NUMAHint& hint, const NUMARequest& request,
                  const std::vector<NUMANodeResources>& nodes) {
  std::map<std::string, int64_t> total;
  std::map<std::string, int64_t> available;
  for (int id : maskBits(hint.mask)) {
    const auto* node = findNode(nodes, id);
    if (node == nullptr) {
      continue;
    }
    for (const auto& [name, amount] : node->allocatable) {
      total[name] += amount;
    }
    for (const auto& [name, _] : node->available) {
      available[name] += usable(*node, name);
    }
  }
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const auto& [name, weight] : weights) {
    int64_t pod_request = lookup(request.requests, name);
    bool core = name == kCPU || name == kMemory || name == "ephemeral-storage";
    if (!core && (!isScalarResource(name) || pod_request == 0 || total.count(name) == 0)) {
      continue;
    }
    int64_t alloc = lookup(total, name);
    if (alloc == 0) {
      continue;
    }
    int64_t requested = std::max<int64_t>(0, alloc - lookup(available, name)) + pod_request;
    int64_t score = 0;
    if (most_allocated) {
      score = std::min(requested, alloc) * kMaxNodeScore / alloc;
    } else if (requested <= alloc) {
      score = (alloc - requested) * kMaxNodeScore / alloc;
    }
    node_score += score * weight;
    weight_sum += weight;
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

}  // namespace numa_split_impl

int64_t usableAvailable(const NUMANodeResources& node, const std::string& resource) {
  return numa_split_impl::usable(node, resource);
}

Result<std::vector<api::extension::NUMANodeResource>> splitByHint(
    const NUMAHint& hint, const NUMARequest& request, const std::vector<NUMANodeResources>& nodes) {
  return numa_split_impl::splitMask(hint, request, nodes);
}

int64_t scoreHint(bool most_allocated, const std::map<std::string, int64_t>& weights,
                  const NUMAHint& hint, const NUMARequest& request,
                  const std::vector<NUMANodeResources>& nodes) {
  return numa_split_impl::scoreMask(most_allocated, weights, hint, request, nodes);
}

}  // namespace koord::extender::plugins::node_numa_resource
