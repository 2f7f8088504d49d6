// PodCgroups: where the node's pods and their started containers have their cgroups, resolved
// once per pass of the daemon's loop from the pods the StatesInformer lists and the kubelet's
// naming (cgroup_paths.hpp). The metric collectors, the runtime reconciler and the QoS strategies
// read this one result; none of them builds a pod's or a container's path itself.
//
// A snapshot: immutable once resolved, cheap to copy (the entries are shared), thread-safe to
// read.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor {

struct ContainerCgroup {
  std::string name;  // status.containerStatuses[].name
  std::string id;    // its containerID without the runtime's "<scheme>://"
  // containerDir(): an error for an unknown runtime or a malformed id, or the pod's own error.
  Result<std::filesystem::path> dir = std::filesystem::path();
};

struct PodCgroup {
  std::shared_ptr<const api::core::Pod> pod;  // never null
  // podDir() of its status.qosClass: an error when the class or the uid is not one the kubelet
  // names a folder for.
  Result<std::filesystem::path> dir = std::filesystem::path();
  // Every status in status.containerStatuses with a string name and a non-empty containerID (a
  // started container), in status order.
  std::vector<ContainerCgroup> containers;

  // Whether the pod is in a terminal phase (Succeeded or Failed).
  [[nodiscard]] bool terminal() const;
  // The container named `name` (the last status of that name); null when it has not started.
  [[nodiscard]] const ContainerCgroup* container(std::string_view name) const;
};

class PodCgroups {
 public:
  PodCgroups();  // no pods

  // The folders of `pods` (every pod, terminal ones included, in the given order) under `naming`.
  [[nodiscard]] static PodCgroups resolve(
      const KubeletCgroupNaming& naming,
      const std::vector<std::shared_ptr<const api::core::Pod>>& pods);

  [[nodiscard]] const std::vector<PodCgroup>& pods() const { return *pods_; }
  [[nodiscard]] bool empty() const { return pods().empty(); }

 private:
  explicit PodCgroups(std::shared_ptr<const std::vector<PodCgroup>> pods)
      : pods_(std::move(pods)) {}

  std::shared_ptr<const std::vector<PodCgroup>> pods_;  // never null
};

}  // namespace koord::agent::resourceexecutor
