// Decoders that trim objects on their way into an informer cache (Informer<T>::Decoder), after
// client-go's SetTransform. A cache holds every Pod of a cluster for the life of the process, so
// what no koord component reads is dropped before decoding: with 50,000 Pods this is the
// difference between hundreds of megabytes and tens.
#pragma once

#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"

namespace koord::k8s {

// A Pod for a cluster-wide cache (the extender, the manager, the descheduler: every Pod of the
// cluster, for the life of the process). Kept: metadata (name, namespace, uid, resourceVersion,
// labels, annotations except kubectl's last-applied-configuration, ownerReferences, timestamps,
// finalizers), every typed spec field the schedulers read (nodeName, schedulerName, priority,
// node selector, affinity, tolerations, containers' names and resources, overhead, pod-level
// resources, runtimeClassName, hostNetwork), spec.topologySpreadConstraints, and of the status
// the phase, reason, message, QoS class, IPs, startTime and nominatedNodeName. Dropped:
// managedFields, volumes, images, env/command/args/ports/probes/mounts of containers, the other
// spec fields, conditions and container statuses (placement does not read them; a component
// that needs readiness or container IDs uses decodePodForNode).
[[nodiscard]] Result<api::core::Pod> decodePodForCache(Json&& object);

// A Pod for a cache that only accounts for pods' resources node by node (koord-manager's node
// resource controller: every Pod of the cluster, for the life of the process, read for its
// requests, priority and QoS). Kept: metadata name, namespace, uid, resourceVersion and timestamps,
// the labels and annotations whose key is in a koordinator.sh domain (qosClass, priority-class,
// resource-status, ...); spec nodeName, priority, priorityClassName, containers' and init
// containers' names and resources, overhead and pod-level resources; status phase and qosClass.
// About half of decodePodForCache's resident size per pod.
[[nodiscard]] Result<api::core::Pod> decodePodForAccounting(Json&& object);

// A Pod for a node-local cache (koord-agent: the pods of one node). As decodePodForCache, but
// status.conditions (type, status, reason, lastTransitionTime) and each container status's
// name, containerID, ready and restartCount are kept (the agent finds cgroups by container ID).
[[nodiscard]] Result<api::core::Pod> decodePodForNode(Json&& object);

// Trim `object` in place as the decoders above do, without decoding.
void trimPodJson(Json& object);
void trimPodJsonForNode(Json& object);

}  // namespace koord::k8s
