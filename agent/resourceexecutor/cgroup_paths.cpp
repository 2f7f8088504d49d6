#include "agent/resourceexecutor/cgroup_paths.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "agent/system/kubelet_cgroup_name.hpp"

namespace koord::agent::resourceexecutor {

namespace {

using system::CgroupDriver;

constexpr std::string_view kKubepods = "kubepods";
constexpr std::string_view kIdScheme = "://";

// The kubelet's cgroup name of the kubepods folder: the --cgroup-root components, then
// "kubepods".
std::vector<std::string> kubepodsName(const KubeletCgroupNaming& naming) {
  std::vector<std::string> name;
  std::string_view rest = naming.cgroup_root;
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (!part.empty() && part != ".") {
      name.emplace_back(part);
    }
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  name.emplace_back(kKubepods);
  return name;
}

std::vector<std::string> qosName(const KubeletCgroupNaming& naming, api::core::QosClass qos) {
  std::vector<std::string> name = kubepodsName(naming);
  switch (qos) {
    case api::core::QosClass::kBurstable:
      name.emplace_back("burstable");
      break;
    case api::core::QosClass::kBestEffort:
      name.emplace_back("besteffort");
      break;
    case api::core::QosClass::kGuaranteed:
      break;
  }
  return name;
}

// The folder of a kubelet cgroup name under the driver (the one rule: kubelet_cgroup_name.hpp).
std::filesystem::path toDir(const KubeletCgroupNaming& naming,
                            const std::vector<std::string>& name) {
  return system::kubeletCgroupDir(naming.driver, name);
}

bool isIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// Empty when `id` is a usable path component, else why not.
std::string checkId(std::string_view id) {
  if (id.empty()) {
    return "empty id";
  }
  if (!std::all_of(id.begin(), id.end(), isIdChar)) {
    return "id may only hold letters, digits, '-' and '_'";
  }
  return {};
}

}  // namespace

std::filesystem::path kubepodsDir(const KubeletCgroupNaming& naming) {
  return toDir(naming, kubepodsName(naming));
}

std::filesystem::path qosDir(const KubeletCgroupNaming& naming, api::core::QosClass qos) {
  return toDir(naming, qosName(naming, qos));
}

Result<std::filesystem::path> podDir(const KubeletCgroupNaming& naming, api::core::QosClass qos,
                                     std::string_view pod_uid) {
  if (const std::string why = checkId(pod_uid); !why.empty()) {
    return Status::invalidArgument("failed to build cgroup path of pod '" + std::string(pod_uid) +
                                   "': " + why);
  }
  std::vector<std::string> name = qosName(naming, qos);
  name.push_back("pod" + std::string(pod_uid));
  return toDir(naming, name);
}

Result<std::filesystem::path> containerDir(const KubeletCgroupNaming& naming,
                                           api::core::QosClass qos, std::string_view pod_uid,
                                           std::string_view container_id) {
  const auto fail = [container_id](const std::string& why) {
    return Status::invalidArgument("failed to build cgroup path of container '" +
                                   std::string(container_id) + "': " + why);
  };
  const size_t scheme_end = container_id.find(kIdScheme);
  if (scheme_end == std::string_view::npos) {
    return fail("expected '<runtime>://<id>'");
  }
  const std::string_view runtime = container_id.substr(0, scheme_end);
  const std::string_view id = container_id.substr(scheme_end + kIdScheme.size());
  std::string_view scope_prefix;
  if (runtime == "containerd") {
    scope_prefix = "cri-containerd";
  } else if (runtime == "docker") {
    scope_prefix = "docker";
  } else if (runtime == "cri-o") {
    scope_prefix = "crio";
  } else {
    return fail("unknown runtime '" + std::string(runtime) +
                "', expected containerd, docker or cri-o");
  }
  if (const std::string why = checkId(id); !why.empty()) {
    return fail(why);
  }
  KOORD_ASSIGN_OR_RETURN(std::filesystem::path pod, podDir(naming, qos, pod_uid));
  if (naming.driver == CgroupDriver::kCgroupfs) {
    return pod / std::string(id);
  }
  return pod / (std::string(scope_prefix) + "-" + std::string(id) + ".scope");
}

Result<api::core::QosClass> parseKubeQosClass(std::string_view text) {
  if (const std::optional<api::core::QosClass> qos = api::core::parseQosClass(text)) {
    return *qos;
  }
  return Status::invalidArgument("failed to parse QoS class '" + std::string(text) +
                                 "': expected Guaranteed, Burstable or BestEffort");
}

}  // namespace koord::agent::resourceexecutor
