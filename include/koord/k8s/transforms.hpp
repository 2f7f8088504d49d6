// Decoders that trim objects on their way into an informer cache (Informer<T>::Decoder), after
// client-go's SetTransform. A cache holds every Pod of a cluster for the life of the process, so
// what no koord component reads is dropped before decoding: with 50,000 Pods this is the
// difference between hundreds of megabytes and tens.
#pragma once

#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"

namespace koord::k8s {

// A Pod for the cache. Kept: metadata (name, namespace, uid, resourceVersion, labels, annotations
// except kubectl's last-applied-configuration, ownerReferences, timestamps, finalizers), every
// typed spec field the schedulers read (nodeName, schedulerName, priority, node selector,
// affinity, tolerations, containers' names and resources, overhead, runtimeClassName,
// hostNetwork), spec.topologySpreadConstraints, status phase, conditions, QoS class, IPs and
// nominatedNodeName, and of each container status its name, containerID, ready and restartCount
// (the agent finds cgroups by container ID). Dropped: managedFields, volumes, images,
// env/command/args/ports/probes/mounts of containers, the rest of spec and status.
[[nodiscard]] Result<api::core::Pod> decodePodForCache(Json&& object);

// Trims `object` in place as decodePodForCache does, without decoding.
void trimPodJson(Json& object);

}  // namespace koord::k8s
