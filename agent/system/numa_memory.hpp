// Memory per NUMA node, read from sysfs/procfs under an injected root.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::agent::system {

struct NumaMemory {
  int32_t node = 0;
  int64_t total_bytes = 0;  // MemTotal
  int64_t free_bytes = 0;   // MemFree

  friend bool operator==(const NumaMemory&, const NumaMemory&) = default;
};

// One entry per <root>/sys/devices/system/node/nodeN, sorted by node, from nodeN/meminfo
// ("Node N MemTotal:  4548384 kB"). Without a node folder, or with no nodeN in it, one node 0
// from <root>/proc/meminfo ("MemTotal:  24683656 kB"). Values are converted from kB to bytes.
//
// Errors name the file: kNotFound when a meminfo file is missing, kInvalidArgument when it lacks
// MemTotal or MemFree, or when one of their lines does not parse (or, in nodeN/meminfo, names
// another node). Stateless; thread-safe.
[[nodiscard]] Result<std::vector<NumaMemory>> discoverNumaMemory(const std::filesystem::path& root);

}  // namespace koord::agent::system
