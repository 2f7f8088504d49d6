#include "agent/system/kubelet_cgroup_name.hpp"

#include <algorithm>

namespace koord::agent::system {

std::filesystem::path kubeletCgroupDir(CgroupDriver driver, const std::vector<std::string>& name) {
  std::filesystem::path dir;
  if (driver == CgroupDriver::kCgroupfs) {
    for (const std::string& part : name) {
      dir /= part;
    }
    return dir;
  }
  std::string prefix;
  for (std::string part : name) {
    std::replace(part.begin(), part.end(), '-', '_');
    prefix += (prefix.empty() ? "" : "-") + part;
    dir /= prefix + ".slice";
  }
  return dir;
}

}  // namespace koord::agent::system
