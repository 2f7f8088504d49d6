#include "agent/resourceexecutor/pod_cgroups.hpp"

#include <utility>

namespace koord::agent::resourceexecutor {

namespace {

PodCgroup resolvePod(const KubeletCgroupNaming& naming, std::shared_ptr<const api::core::Pod> pod) {
  PodCgroup out;
  out.pod = std::move(pod);
  const api::core::Pod& p = *out.pod;
  const auto qos = parseKubeQosClass(p.status.qosClass);
  out.dir =
      qos.ok() ? podDir(naming, *qos, p.metadata.uid) : Result<std::filesystem::path>(qos.status());
  const api::Json& statuses = p.status.containerStatuses;
  if (!statuses.is_array()) {
    return out;
  }
  for (const api::Json& status : statuses) {
    if (!status.is_object()) {
      continue;
    }
    auto name = status.find("name");
    auto id = status.find("containerID");
    if (name == status.end() || !name->is_string() || id == status.end() || !id->is_string() ||
        id->get<std::string>().empty()) {
      continue;
    }
    const std::string& raw = id->get_ref<const std::string&>();
    const size_t scheme = raw.find("://");
    ContainerCgroup container;
    container.name = name->get<std::string>();
    container.id = scheme == std::string::npos ? raw : raw.substr(scheme + 3);
    container.dir = out.dir.ok() ? containerDir(naming, *qos, p.metadata.uid, raw)
                                 : Result<std::filesystem::path>(out.dir.status());
    out.containers.push_back(std::move(container));
  }
  return out;
}

}  // namespace

PodCgroups::PodCgroups() : pods_(std::make_shared<const std::vector<PodCgroup>>()) {}

bool PodCgroup::terminal() const {
  return pod->status.phase == "Succeeded" || pod->status.phase == "Failed";
}

const ContainerCgroup* PodCgroup::container(std::string_view name) const {
  for (auto it = containers.rbegin(); it != containers.rend(); ++it) {
    if (it->name == name) {
      return &*it;
    }
  }
  return nullptr;
}

PodCgroups PodCgroups::resolve(const KubeletCgroupNaming& naming,
                               const std::vector<std::shared_ptr<const api::core::Pod>>& pods) {
  auto out = std::make_shared<std::vector<PodCgroup>>();
  out->reserve(pods.size());
  for (const auto& pod : pods) {
    if (pod != nullptr) {
      out->push_back(resolvePod(naming, pod));
    }
  }
  return PodCgroups(std::move(out));
}

}  // namespace koord::agent::resourceexecutor
