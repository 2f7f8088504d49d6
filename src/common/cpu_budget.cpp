// availableCpus(): the affinity mask and the cgroup CPU quota
// (include/koord/common/cpu_budget.hpp).
#include "koord/common/cpu_budget.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace koord {
namespace {

namespace fs = std::filesystem;

// The first line of a small file; nullopt when it cannot be read.
std::optional<std::string> firstLine(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) {
    return std::nullopt;
  }
  return line;
}

std::optional<int64_t> toInt(std::string_view text) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// CPUs from a quota and period in the same unit; nullopt for no limit or nonsense.
std::optional<double> ratio(std::optional<int64_t> quota, std::optional<int64_t> period) {
  if (!quota || !period || *quota <= 0 || *period <= 0) {
    return std::nullopt;
  }
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

// cgroup v2: cpu.max holds "max 100000" or "150000 100000".
std::optional<double> v2Limit(const fs::path& dir) {
  const auto line = firstLine(dir / "cpu.max");
  if (!line) {
    return std::nullopt;
  }
  std::istringstream words(*line);
  std::string quota;
  std::string period;
  if (!(words >> quota >> period) || quota == "max") {
    return std::nullopt;
  }
  return ratio(toInt(quota), toInt(period));
}

// cgroup v1: cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us.
std::optional<double> v1Limit(const fs::path& dir) {
  const auto quota = firstLine(dir / "cpu.cfs_quota_us");
  const auto period = firstLine(dir / "cpu.cfs_period_us");
  if (!quota || !period) {
    return std::nullopt;
  }
  return ratio(toInt(*quota), toInt(*period));
}

struct Hierarchy {
  fs::path mount;   // where the hierarchy is mounted
  fs::path cgroup;  // the process's cgroup in it, relative to the hierarchy's root
  bool v1 = false;
};

bool isDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// The hierarchy that carries the cpu controller for this process: v1's cpu one when mounted (a
// hybrid host keeps cpu in v1), else the v2 one.
std::optional<Hierarchy> cpuHierarchy(const CpuBudgetSources& sources) {
  std::ifstream in(sources.proc_self_cgroup);
  if (!in) {
    return std::nullopt;
  }
  std::optional<Hierarchy> v2;
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) {
      continue;
    }
    const std::string id = line.substr(0, first);
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const fs::path cgroup = fs::path(line.substr(second + 1)).relative_path();
    if (id == "0" && controllers.empty()) {
      fs::path mount = sources.cgroup_root;
      std::error_code ec;
      if (!fs::exists(mount / "cgroup.controllers", ec)) {
        mount = sources.cgroup_root / "unified";
      }
      v2 = Hierarchy{mount, cgroup, false};
      continue;
    }
    std::vector<std::string> names;
    std::istringstream list(controllers);
    for (std::string name; std::getline(list, name, ',');) {
      names.push_back(name);
    }
    if (std::find(names.begin(), names.end(), "cpu") == names.end()) {
      continue;
    }
    for (const fs::path& mount : {sources.cgroup_root / controllers, sources.cgroup_root / "cpu"}) {
      if (isDirectory(mount)) {
        return Hierarchy{mount, cgroup, true};
      }
    }
  }
  return v2;
}

int affinityCpus(const CpuBudgetSources& sources) {
  if (sources.affinity_cpus) {
    return sources.affinity_cpus();
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) == 0) {
    return CPU_COUNT(&set);
  }
  return static_cast<int>(std::thread::hardware_concurrency());
}

}  // namespace

std::optional<double> cgroupCpuLimit(const CpuBudgetSources& sources) {
  const auto hierarchy = cpuHierarchy(sources);
  if (!hierarchy) {
    return std::nullopt;
  }
  fs::path dir =
      hierarchy->cgroup.empty() ? hierarchy->mount : hierarchy->mount / hierarchy->cgroup;
  if (!isDirectory(dir)) {
    dir = hierarchy->mount;  // no cgroup namespace: the mount's root is our own cgroup
  }
  std::optional<double> smallest;
  for (;;) {
    const auto limit = hierarchy->v1 ? v1Limit(dir) : v2Limit(dir);
    if (limit && (!smallest || *limit < *smallest)) {
      smallest = limit;
    }
    if (dir == hierarchy->mount || !dir.has_parent_path() || dir.parent_path() == dir) {
      break;
    }
    dir = dir.parent_path();
  }
  return smallest;
}

int availableCpus(const CpuBudgetSources& sources) {
  int cpus = std::max(1, affinityCpus(sources));
  if (const auto limit = cgroupCpuLimit(sources)) {
    cpus = std::min(cpus, std::max(1, static_cast<int>(std::ceil(*limit - 1e-9))));
  }
  return cpus;
}

}  // namespace koord
