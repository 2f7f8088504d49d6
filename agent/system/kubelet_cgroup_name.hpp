// How the kubelet turns a cgroup name into a folder, the one rule behind every cgroup path the
// agent computes: the kubepods folder of discovery (cgroup_layout.hpp) and the QoS, pod and
// container folders of the resource executor (resourceexecutor/cgroup_paths.hpp).
//
// A cgroup name is its components: the --cgroup-root ones, then "kubepods", the QoS class, the
// pod. cgroupfs joins them ("kubepods/burstable/pod<uid>"); systemd escapes each '-' to '_', joins
// them with '-' into one slice and expands it into its parents as runc's ExpandSlice does
// ("kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice").
//
// A pure function; thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "agent/system/cgroup_types.hpp"

namespace koord::agent::system {

// The folder of the cgroup `name` under `driver`, relative to a hierarchy root. Components are
// used as given (callers check them).
[[nodiscard]] std::filesystem::path kubeletCgroupDir(CgroupDriver driver,
                                                     const std::vector<std::string>& name);

}  // namespace koord::agent::system
