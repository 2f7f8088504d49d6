// The words that describe a node's cgroup layout, shared by discovery (cgroup_layout), the
// resource executor, the metric collectors and the reconciler.
#pragma once

namespace koord::agent::system {

// cgroup v1 (one hierarchy per subsystem) or v2 (the unified hierarchy).
enum class CgroupVersion { kV1, kV2 };

// How the kubelet names its cgroups: `kubepods/burstable/pod<uid>` (cgroupfs) or
// `kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_with_underscores>.slice`
// (systemd).
enum class CgroupDriver { kCgroupfs, kSystemd };

// A pod's Kubernetes QoS class (status.qosClass), which picks its folder under kubepods, is
// api::core::QosClass.

}  // namespace koord::agent::system
