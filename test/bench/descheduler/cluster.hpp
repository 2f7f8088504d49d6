// The cluster the descheduling pass benchmark runs over (issue 37): 5,000 nodes of 128 CPUs and
// 512Gi, 10 pods on each (50,000), and a NodeMetric per node, built deterministically.
//
// Nodes: hostname and zone labels (3 zones holding 3/7, 2/7 and 2/7 of the nodes), disktype=ssd
// on 6 nodes in 7, a NoSchedule taint on 1 node in 50 and a PreferNoSchedule one on another 1 in
// 50; a third of the nodes lightly requested (~12% cpu), a third heavily (~66%), the rest in
// between, and NodeMetric usage that follows (light nodes use half their requests, heavy ones
// more than all), so LowNodeUtilization and LowNodeLoad both find under- and over-utilized nodes.
//
// Pods: ReplicaSet owners over 2,000 ReplicaSets (25 pods each; on every 4th node two pods of one
// ReplicaSet share the node, for RemoveDuplicates) in 20 namespaces, a DaemonSet pod on every
// 10th node; some ReplicaSets carry required or preferred node affinity, the infra-taint
// toleration, required pod anti-affinity (hostname or zone), or a zone topology spread constraint
// (DoNotSchedule or ScheduleAnyway); ages from 0 to 39 days, ~1 pod in 37 with 150 restarts, 1
// node in 20 with a Failed pod; priorities 0..10000 and all three QoS classes.
//
// What each pod has depends only on its node and slot, so every build is the same cluster.
#pragma once

#include <chrono>

#include "manager/descheduler/framework/snapshot.hpp"

namespace koord::manager::descheduler::bench {

inline constexpr int kNodes = 5000;
inline constexpr int kPodsPerNode = 10;
inline constexpr int kReplicaSets = 2000;

// The pass's time: every age and NodeMetric updateTime is relative to it.
[[nodiscard]] std::chrono::system_clock::time_point benchNow();

// The input of the snapshot described above.
[[nodiscard]] framework::ClusterSnapshot::Input buildClusterInput();

}  // namespace koord::manager::descheduler::bench
