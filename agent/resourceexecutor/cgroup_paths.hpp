// Where the kubelet puts the cgroups of pods and containers, as paths relative to a hierarchy
// root (a cgroup v1 subsystem root such as `<cgroup_root>/cpu`, or the cgroup v2 root).
//
//   driver    cgroup_root  kubepodsDir             qosDir(Burstable)
//   cgroupfs  /            kubepods                kubepods/burstable
//   cgroupfs  /custom      custom/kubepods         custom/kubepods/burstable
//   systemd   /            kubepods.slice          kubepods.slice/kubepods-burstable.slice
//   systemd   /custom      custom.slice/custom-kubepods.slice
//                          custom.slice/custom-kubepods.slice/custom-kubepods-burstable.slice
//
// Guaranteed pods sit directly in the kubepods folder (qosDir(Guaranteed) == kubepodsDir).
// Pods: cgroupfs `<qos dir>/pod<uid>`; systemd `<qos dir>/<qos slice name>-pod<uid_>.slice`
// (every '-' of the uid becomes '_'), e.g. `kubepods-burstable-pod12_34.slice`, and for
// Guaranteed `kubepods-pod12_34.slice`. Containers: cgroupfs `<pod dir>/<id>`; systemd
// `<pod dir>/<runtime prefix>-<id>.scope` with cri-containerd, docker or crio.
//
// With the systemd driver the kubelet turns its cgroup name (the --cgroup-root components, then
// kubepods, qos, pod) into one systemd slice: each component has '-' replaced by '_', they are
// joined with '-', and the slice is expanded into its parents (runc's ExpandSlice). So
// --cgroup-root=/custom gives `custom.slice/custom-kubepods.slice`; a root given in slice form
// is taken as a plain component, as the kubelet does ("/x.slice" gives
// `x.slice.slice/x.slice-kubepods.slice`).
//
// Pure functions without I/O; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "agent/system/cgroup_types.hpp"
#include "koord/api/core/pod_helpers.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor {

// How the kubelet of this node names cgroups.
struct KubeletCgroupNaming {
  system::CgroupDriver driver = system::CgroupDriver::kCgroupfs;
  // The kubelet's --cgroup-root. Empty components and "." are ignored ("/", "" and "//" are
  // the root); other components are used as given (the executor refuses any path with "..").
  std::string cgroup_root = "/";
};

// The folder of every pod: `kubepods` or `kubepods.slice` under the default root.
[[nodiscard]] std::filesystem::path kubepodsDir(const KubeletCgroupNaming& naming);

// The folder of a QoS class: kubepodsDir for Guaranteed, its burstable or besteffort child
// otherwise.
[[nodiscard]] std::filesystem::path qosDir(const KubeletCgroupNaming& naming,
                                           api::core::QosClass qos);

// The folder of a pod. `pod_uid` (metadata.uid) must be non-empty and hold only letters,
// digits, '-' and '_'; anything else is kInvalidArgument
// "failed to build cgroup path of pod '<uid>': <why>".
[[nodiscard]] Result<std::filesystem::path> podDir(const KubeletCgroupNaming& naming,
                                                   api::core::QosClass qos,
                                                   std::string_view pod_uid);

// The folder of a container, from its status.containerStatuses[].containerID
// ("containerd://<id>", "docker://<id>" or "cri-o://<id>"). kInvalidArgument
// "failed to build cgroup path of container '<id>': <why>" for another runtime, a missing
// "://", or an id that is empty or holds anything but letters, digits, '-' and '_'; errors of
// podDir are returned as they are.
[[nodiscard]] Result<std::filesystem::path> containerDir(const KubeletCgroupNaming& naming,
                                                         api::core::QosClass qos,
                                                         std::string_view pod_uid,
                                                         std::string_view container_id);

// Parses status.qosClass (api::core::parseQosClass): exactly "Guaranteed", "Burstable" or
// "BestEffort"; anything else is kInvalidArgument "failed to parse QoS class '<text>': expected
// Guaranteed, Burstable or BestEffort".
[[nodiscard]] Result<api::core::QosClass> parseKubeQosClass(std::string_view text);

}  // namespace koord::agent::resourceexecutor
