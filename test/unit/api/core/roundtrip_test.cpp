// Decode -> encode of objects as the API server writes them: every field, modelled or not, must
// come back (compared as parsed JSON), and the modelled fields must read right.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/api/core/pod.hpp"

namespace koord::api::core {
namespace {

constexpr const char* kPod = R"({
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "web-7d4b9c-x2x8k",
    "generateName": "web-7d4b9c-",
    "namespace": "default",
    "uid": "6c2b7c8e-3f0a-4d5e-9b1a-2f3e4d5c6b7a",
    "resourceVersion": "123456",
    "creationTimestamp": "2024-05-01T10:00:00Z",
    "labels": {"app": "web", "pod-template-hash": "7d4b9c"},
    "annotations": {"scheduling.koordinator.sh/resource-spec": "{\"preferredCPUBindPolicy\":\"FullPCPUs\"}"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d4b9c",
                         "uid": "0a1b2c3d-0000-1111-2222-333344445555", "controller": true,
                         "blockOwnerDeletion": true}],
    "finalizers": ["example.com/cleanup"],
    "managedFields": [{"manager": "kube-controller-manager", "operation": "Update",
                       "apiVersion": "v1", "time": "2024-05-01T10:00:00Z",
                       "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}}]
  },
  "spec": {
    "volumes": [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420,
                 "sources": [{"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}],
    "initContainers": [
      {"name": "init", "image": "busybox:1.36", "command": ["sh", "-c", "true"],
       "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}},
       "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
       "imagePullPolicy": "IfNotPresent"},
      {"name": "proxy", "image": "envoy:1.30", "restartPolicy": "Always",
       "resources": {"limits": {"cpu": "1", "memory": "256Mi"}, "requests": {"cpu": "100m", "memory": "128Mi"}}}
    ],
    "containers": [
      {"name": "web", "image": "nginx:1.25",
       "ports": [{"containerPort": 80, "protocol": "TCP"}],
       "resources": {"limits": {"cpu": "2", "memory": "4Gi", "nvidia.com/gpu": "1"},
                     "requests": {"cpu": "1500m", "memory": "2Gi", "nvidia.com/gpu": "1"}},
       "livenessProbe": {"httpGet": {"path": "/healthz", "port": 80, "scheme": "HTTP"},
                         "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1,
                         "failureThreshold": 3},
       "volumeMounts": [{"name": "kube-api-access-abcde", "readOnly": true,
                         "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}],
       "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
       "imagePullPolicy": "IfNotPresent"},
      {"name": "log", "image": "fluent-bit:3", "resources": {}}
    ],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "dnsPolicy": "ClusterFirst",
    "nodeSelector": {"kubernetes.io/os": "linux"},
    "serviceAccountName": "default",
    "serviceAccount": "default",
    "nodeName": "node-1",
    "securityContext": {},
    "affinity": {
      "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
          {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z1", "z2"]}]},
          {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 10, "preference": {"matchExpressions": [{"key": "disk", "operator": "Exists"}]}}]
      },
      "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100,
        "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}},
                            "topologyKey": "kubernetes.io/hostname"}}]}
    },
    "schedulerName": "koord-scheduler",
    "tolerations": [
      {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
      {"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}
    ],
    "priorityClassName": "koord-prod",
    "priority": 9000,
    "enableServiceLinks": true,
    "preemptionPolicy": "PreemptLowerPriority",
    "overhead": {"cpu": "50m", "memory": "32Mi"},
    "runtimeClassName": "kata"
  },
  "status": {
    "phase": "Running",
    "conditions": [
      {"type": "Initialized", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2024-05-01T10:00:05Z"},
      {"type": "Ready", "status": "False", "lastProbeTime": null, "lastTransitionTime": "2024-05-01T10:00:09Z",
       "reason": "ContainersNotReady", "message": "containers with unready status: [web]"},
      {"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2024-05-01T10:00:00Z"}
    ],
    "hostIP": "10.0.0.11",
    "hostIPs": [{"ip": "10.0.0.11"}],
    "podIP": "10.244.1.7",
    "podIPs": [{"ip": "10.244.1.7"}],
    "startTime": "2024-05-01T10:00:00Z",
    "containerStatuses": [{"name": "web", "state": {"running": {"startedAt": "2024-05-01T10:00:08Z"}},
                           "lastState": {}, "ready": false, "restartCount": 0, "image": "nginx:1.25",
                           "imageID": "docker.io/library/nginx@sha256:0d", "containerID": "containerd://ab",
                           "started": true}],
    "qosClass": "Burstable"
  }
})";

constexpr const char* kNode = R"json({
  "apiVersion": "v1",
  "kind": "Node",
  "metadata": {
    "name": "node-1",
    "uid": "11111111-2222-3333-4444-555555555555",
    "resourceVersion": "987",
    "creationTimestamp": "2024-04-01T00:00:00Z",
    "labels": {"kubernetes.io/hostname": "node-1", "kubernetes.io/os": "linux",
               "topology.kubernetes.io/zone": "z1", "node.koordinator.sh/gpu-model": "A100"},
    "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                    "volumes.kubernetes.io/controller-managed-attach-detach": "true"}
  },
  "spec": {
    "podCIDR": "10.244.1.0/24",
    "podCIDRs": ["10.244.1.0/24"],
    "providerID": "kind://docker/kind/node-1",
    "unschedulable": true,
    "taints": [
      {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule", "timeAdded": "2024-05-01T00:00:00Z"},
      {"key": "dedicated", "value": "web", "effect": "NoExecute"}
    ]
  },
  "status": {
    "capacity": {"cpu": "8", "ephemeral-storage": "102626232Ki", "hugepages-2Mi": "0",
                 "memory": "32863680Ki", "pods": "110", "kubernetes.io/batch-cpu": "6k",
                 "kubernetes.io/batch-memory": "12Gi"},
    "allocatable": {"cpu": "7800m", "ephemeral-storage": "94580335255", "hugepages-2Mi": "0",
                    "memory": "32261280Ki", "pods": "110", "kubernetes.io/batch-cpu": "5k",
                    "kubernetes.io/batch-memory": "10Gi"},
    "conditions": [
      {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": "2024-05-01T10:00:00Z",
       "lastTransitionTime": "2024-04-01T00:00:10Z", "reason": "KubeletHasSufficientMemory",
       "message": "kubelet has sufficient memory available"},
      {"type": "Ready", "status": "True", "lastHeartbeatTime": "2024-05-01T10:00:00Z",
       "lastTransitionTime": "2024-04-01T00:00:30Z", "reason": "KubeletReady",
       "message": "kubelet is posting ready status"}
    ],
    "addresses": [{"type": "InternalIP", "address": "10.0.0.11"}, {"type": "Hostname", "address": "node-1"}],
    "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
    "nodeInfo": {"machineID": "abc", "systemUUID": "def", "bootID": "ghi", "kernelVersion": "6.1.0",
                 "osImage": "Debian GNU/Linux 12 (bookworm)", "containerRuntimeVersion": "containerd://1.7.13",
                 "kubeletVersion": "v1.30.0", "kubeProxyVersion": "v1.30.0", "operatingSystem": "linux",
                 "architecture": "amd64"},
    "images": [{"names": ["docker.io/library/nginx:1.25"], "sizeBytes": 70000000}]
  }
})json";

constexpr const char* kEvent = R"({
  "apiVersion": "v1",
  "kind": "Event",
  "metadata": {"name": "web-7d4b9c-x2x8k.17c1a2b3c4d5e6f7", "namespace": "default",
               "uid": "aaaa", "resourceVersion": "5", "creationTimestamp": "2024-05-01T10:00:00Z"},
  "involvedObject": {"kind": "Pod", "namespace": "default", "name": "web-7d4b9c-x2x8k",
                     "uid": "6c2b7c8e-3f0a-4d5e-9b1a-2f3e4d5c6b7a", "apiVersion": "v1", "resourceVersion": "123450"},
  "reason": "Scheduled",
  "message": "Successfully assigned default/web-7d4b9c-x2x8k to node-1",
  "source": {"component": "koord-scheduler"},
  "firstTimestamp": "2024-05-01T10:00:00Z",
  "lastTimestamp": "2024-05-01T10:00:00Z",
  "count": 1,
  "type": "Normal",
  "eventTime": null,
  "reportingComponent": "koord-scheduler",
  "reportingInstance": "koord-scheduler-0"
})";

constexpr const char* kLease = R"({
  "apiVersion": "coordination.k8s.io/v1",
  "kind": "Lease",
  "metadata": {"name": "koord-manager", "namespace": "koordinator-system", "uid": "bbbb",
               "resourceVersion": "77", "creationTimestamp": "2024-05-01T09:00:00Z"},
  "spec": {"holderIdentity": "koord-manager-5f6d_1a2b", "leaseDurationSeconds": 15,
           "acquireTime": "2024-05-01T09:00:00.123456Z", "renewTime": "2024-05-01T10:00:00.654321Z",
           "leaseTransitions": 3}
})";

constexpr const char* kConfigMap = R"({
  "apiVersion": "v1",
  "kind": "ConfigMap",
  "metadata": {"name": "slo-controller-config", "namespace": "koordinator-system",
               "creationTimestamp": "2024-05-01T09:00:00Z"},
  "data": {"colocation-config": "{\"enable\":true}"},
  "binaryData": {"blob": "AAEC"},
  "immutable": false
})";

constexpr const char* kBinding = R"({
  "apiVersion": "v1", "kind": "Binding",
  "metadata": {"name": "web-7d4b9c-x2x8k", "namespace": "default", "uid": "6c2b", "creationTimestamp": null},
  "target": {"kind": "Node", "name": "node-1"}
})";

constexpr const char* kEviction = R"({
  "apiVersion": "policy/v1", "kind": "Eviction",
  "metadata": {"name": "web-7d4b9c-x2x8k", "namespace": "default", "creationTimestamp": null},
  "deleteOptions": {"gracePeriodSeconds": 0, "preconditions": {"uid": "6c2b", "resourceVersion": ""},
                    "propagationPolicy": "Background", "dryRun": ["All"]}
})";

constexpr const char* kStatus = R"({
  "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
  "message": "pods \"web\" is forbidden: exceeded quota",
  "reason": "Forbidden",
  "details": {"name": "web", "kind": "pods", "causes": [{"reason": "FieldValueInvalid",
              "message": "bad", "field": "spec.containers[0]"}], "retryAfterSeconds": 2},
  "code": 403
})";

constexpr const char* kPodList = R"({
  "kind": "PodList", "apiVersion": "v1",
  "metadata": {"resourceVersion": "1000", "continue": "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", "remainingItemCount": 12},
  "items": [{"metadata": {"name": "a", "namespace": "ns", "creationTimestamp": "2024-05-01T10:00:00Z"},
             "spec": {"containers": [{"name": "c", "image": "i", "resources": {}}]},
             "status": {"phase": "Pending", "qosClass": "BestEffort"}}]
})";

constexpr const char* kNodeList = R"({
  "metadata": {},
  "items": [{"metadata": {"name": "n1", "creationTimestamp": "2024-05-01T10:00:00Z"},
             "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}}}]
})";

// Go pointers that are set to an empty value are written back, not dropped.
constexpr const char* kEmptyPointers = R"({
  "metadata": {"name": "p", "creationTimestamp": null, "deletionGracePeriodSeconds": 0},
  "spec": {"containers": [], "affinity": {"nodeAffinity": {}}, "resources": {}, "priority": 0},
  "status": {}
})";

template <typename T>
Json roundTrip(const Json& in) {
  T obj{};
  Status st = fromJson(in, obj, "");
  EXPECT_TRUE(st.isOk()) << st;
  return toJson(obj);
}

struct RoundTripCase {
  const char* name;
  const char* text;
  std::function<Json(const Json&)> trip;
};

TEST(CoreRoundTripTest, ApiServerObjectsSurviveDecodeEncode) {
  const RoundTripCase cases[] = {
      {"Pod", kPod, roundTrip<Pod>},
      {"Node", kNode, roundTrip<Node>},
      {"Event", kEvent, roundTrip<Event>},
      {"Lease", kLease, roundTrip<Lease>},
      {"ConfigMap", kConfigMap, roundTrip<ConfigMap>},
      {"Binding", kBinding, roundTrip<Binding>},
      {"Eviction", kEviction, roundTrip<Eviction>},
      {"Status", kStatus, roundTrip<ApiStatus>},
      {"PodList", kPodList, roundTrip<PodList>},
      {"NodeList", kNodeList, roundTrip<NodeList>},
      {"Pod with empty pointers", kEmptyPointers, roundTrip<Pod>},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto in = parseJson(c.text);
    ASSERT_TRUE(in.ok()) << in.status();
    Json out = c.trip(*in);
    EXPECT_EQ(out, *in) << "diff: " << Json::diff(*in, out).dump();
  }
}

TEST(CoreRoundTripTest, PodFieldsAreTyped) {
  auto pod = decode<Pod>(kPod);
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(pod->metadata.namespace_, "default");
  EXPECT_EQ(pod->metadata.labels.at("app"), "web");
  ASSERT_EQ(pod->metadata.ownerReferences.size(), 1U);
  const OwnerReference* owner = controllerOf(pod->metadata);
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->kind, "ReplicaSet");
  EXPECT_TRUE(pod->metadata.extra.contains("managedFields"));
  EXPECT_EQ(pod->spec.priority, 9000);
  EXPECT_EQ(pod->spec.schedulerName, "koord-scheduler");
  ASSERT_EQ(pod->spec.containers.size(), 2U);
  EXPECT_EQ(pod->spec.containers[0].resources.requests.at("cpu").milliValue(), 1500);
  EXPECT_EQ(pod->spec.containers[0].resources.limits.at("nvidia.com/gpu").value(), 1);
  EXPECT_TRUE(pod->spec.containers[0].extra.contains("livenessProbe"));
  ASSERT_EQ(pod->spec.initContainers.size(), 2U);
  EXPECT_EQ(pod->spec.initContainers[1].restartPolicy, "Always");
  EXPECT_EQ(pod->spec.overhead.at("memory").value(), 32 * 1024 * 1024);
  ASSERT_TRUE(pod->spec.affinity && pod->spec.affinity->nodeAffinity);
  const NodeAffinity& na = *pod->spec.affinity->nodeAffinity;
  ASSERT_TRUE(na.required);
  ASSERT_EQ(na.required->nodeSelectorTerms.size(), 2U);
  EXPECT_EQ(na.required->nodeSelectorTerms[0].matchExpressions[0].operator_, "In");
  EXPECT_EQ(na.required->nodeSelectorTerms[1].matchFields[0].values[0], "node-1");
  ASSERT_EQ(na.preferred.size(), 1U);
  EXPECT_EQ(na.preferred[0].weight, 10);
  EXPECT_TRUE(pod->spec.affinity->podAntiAffinity.is_object());
  EXPECT_TRUE(pod->spec.affinity->podAffinity.is_null());
  ASSERT_EQ(pod->spec.tolerations.size(), 2U);
  EXPECT_EQ(pod->spec.tolerations[0].tolerationSeconds, 300);
  EXPECT_EQ(pod->status.phase, "Running");
  ASSERT_EQ(pod->status.conditions.size(), 3U);
  EXPECT_EQ(pod->status.conditions[1].reason, "ContainersNotReady");
  EXPECT_EQ(pod->status.conditions[1].lastProbeTime, "");
  EXPECT_EQ(pod->status.qosClass, "Burstable");
  EXPECT_TRUE(pod->status.containerStatuses.is_array());
}

TEST(CoreRoundTripTest, NodeFieldsAreTyped) {
  auto node = decode<Node>(kNode);
  ASSERT_TRUE(node.ok()) << node.status();
  EXPECT_TRUE(node->spec.unschedulable);
  ASSERT_EQ(node->spec.taints.size(), 2U);
  EXPECT_EQ(node->spec.taints[1].value, "web");
  EXPECT_EQ(node->spec.taints[0].timeAdded, "2024-05-01T00:00:00Z");
  EXPECT_EQ(node->status.allocatable.at("cpu").milliValue(), 7800);
  EXPECT_EQ(node->status.capacity.at("kubernetes.io/batch-memory").value(),
            12LL * 1024 * 1024 * 1024);
  ASSERT_EQ(node->status.addresses.size(), 2U);
  EXPECT_EQ(node->status.addresses[0].address, "10.0.0.11");
  EXPECT_EQ(node->status.nodeInfo.at("kubeletVersion"), "v1.30.0");
}

TEST(CoreRoundTripTest, SmallObjectsAreTyped) {
  auto lease = decode<Lease>(kLease);
  ASSERT_TRUE(lease.ok()) << lease.status();
  EXPECT_EQ(lease->spec.holderIdentity, "koord-manager-5f6d_1a2b");
  EXPECT_EQ(lease->spec.leaseDurationSeconds, 15);
  EXPECT_EQ(lease->spec.leaseTransitions, 3);
  EXPECT_EQ(lease->spec.renewTime, "2024-05-01T10:00:00.654321Z");

  auto event = decode<Event>(kEvent);
  ASSERT_TRUE(event.ok()) << event.status();
  EXPECT_EQ(event->involvedObject.name, "web-7d4b9c-x2x8k");
  EXPECT_EQ(event->source.component, "koord-scheduler");
  EXPECT_EQ(event->count, 1);

  auto eviction = decode<Eviction>(kEviction);
  ASSERT_TRUE(eviction.ok()) << eviction.status();
  ASSERT_TRUE(eviction->deleteOptions && eviction->deleteOptions->preconditions);
  EXPECT_EQ(eviction->deleteOptions->gracePeriodSeconds, 0);
  EXPECT_EQ(eviction->deleteOptions->preconditions->uid, "6c2b");
  // An empty but present precondition is kept apart from an absent one.
  EXPECT_EQ(eviction->deleteOptions->preconditions->resourceVersion, "");

  auto status = decode<ApiStatus>(kStatus);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status->code, 403);
  EXPECT_EQ(status->reason, "Forbidden");
  ASSERT_TRUE(status->details);
  EXPECT_EQ(status->details->causes.at(0).field, "spec.containers[0]");

  auto list = decode<PodList>(kPodList);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->metadata.continue_, "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ");
  EXPECT_EQ(list->metadata.remainingItemCount, 12);
  ASSERT_EQ(list->items.size(), 1U);
  EXPECT_EQ(list->items[0].metadata.name, "a");
}

// Objects built in code encode the way Go's encoding/json writes the same values.
TEST(CoreEncodeTest, BuiltObjectsEncodeLikeGo) {
  struct Case {
    const char* name;
    Json got;
    const char* want;
  };
  Pod pod;
  pod.metadata.name = "p";
  pod.spec.containers.emplace_back().name = "c";
  Lease lease;
  lease.spec.holderIdentity = "";
  lease.spec.leaseDurationSeconds = 0;
  Event event;
  event.involvedObject.name = "p";
  const Case cases[] = {
      {"pod", toJson(pod),
       R"({"metadata":{"name":"p","creationTimestamp":null},
           "spec":{"containers":[{"name":"c","resources":{}}]},"status":{}})"},
      {"binding", toJson(makeBinding("ns", "p", "uid-1", "node-1")),
       R"({"apiVersion":"v1","kind":"Binding",
           "metadata":{"name":"p","namespace":"ns","uid":"uid-1","creationTimestamp":null},
           "target":{"kind":"Node","name":"node-1"}})"},
      {"lease pointers set to zero values are written", toJson(lease),
       R"({"metadata":{"creationTimestamp":null},
           "spec":{"holderIdentity":"","leaseDurationSeconds":0}})"},
      {"event", toJson(event),
       R"({"metadata":{"creationTimestamp":null},"involvedObject":{"name":"p"},"source":{},
           "firstTimestamp":null,"lastTimestamp":null,"eventTime":null,
           "reportingComponent":"","reportingInstance":""})"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto want = parseJson(c.want);
    ASSERT_TRUE(want.ok()) << want.status();
    EXPECT_EQ(c.got, *want) << c.got.dump();
  }
}

TEST(CoreEncodeTest, TypedFieldsWinOverExtraOnEncode) {
  auto pod = decode<Pod>(R"({"metadata":{"name":"a"},"spec":{"containers":[]}})");
  ASSERT_TRUE(pod.ok()) << pod.status();
  pod->metadata.name = "b";
  pod->spec.nodeName = "n1";
  Json out = toJson(*pod);
  EXPECT_EQ(out["metadata"]["name"], "b");
  EXPECT_EQ(out["spec"]["nodeName"], "n1");
}

}  // namespace
}  // namespace koord::api::core
