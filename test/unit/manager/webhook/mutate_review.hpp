// The mutating webhook benchmarks' request: an AdmissionReview (CREATE) of a realistic pod (a
// Deployment's pod with managedFields, an init container, two containers, probes, volumes and
// tolerations; a 4.6 KB body) and the cluster it is admitted in (three ClusterColocationProfiles:
// a batch profile that matches and converts the resources, one whose namespaceSelector does not
// match, one at 50% probability). Shared by the in-process bench (mutate_bench.cpp) and the
// HTTPS one (test/unit/manager/cert/https_mutate_bench.cpp), so that their figures differ only by
// the transport.
#pragma once

#include <string>

#include "koord/api/admission/review.hpp"
#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook::bench {

inline constexpr const char* kRealisticPod = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {
    "generateName": "spark-executor-7d9f8b6c5-", "namespace": "default",
    "labels": {"app": "spark-executor", "koordinator-colocation-pod": "true",
               "pod-template-hash": "7d9f8b6c5", "team": "analytics", "tier": "batch"},
    "annotations": {"kubectl.kubernetes.io/restartedAt": "2026-11-30T10:00:00Z",
                    "prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
      "name": "spark-executor-7d9f8b6c5", "uid": "1b2c3d4e-5f60-7182-93a4-b5c6d7e8f900",
      "controller": true, "blockOwnerDeletion": true}],
    "managedFields": [{"manager": "kube-controller-manager", "operation": "Update",
      "apiVersion": "v1", "time": "2026-11-30T10:00:00Z", "fieldsType": "FieldsV1",
      "fieldsV1": {"f:metadata": {"f:generateName": {}, "f:labels": {".": {}, "f:app": {},
        "f:koordinator-colocation-pod": {}, "f:pod-template-hash": {}, "f:team": {}, "f:tier": {}},
        "f:ownerReferences": {".": {}, "k:{\"uid\":\"1b2c3d4e-5f60-7182-93a4-b5c6d7e8f900\"}": {}}},
        "f:spec": {"f:containers": {"k:{\"name\":\"executor\"}": {".": {}, "f:env": {},
          "f:image": {}, "f:name": {}, "f:resources": {}}, "k:{\"name\":\"log-agent\"}": {}},
          "f:dnsPolicy": {}, "f:restartPolicy": {}, "f:schedulerName": {},
          "f:terminationGracePeriodSeconds": {}, "f:volumes": {}}}}]
  },
  "spec": {
    "volumes": [{"name": "spark-conf", "configMap": {"name": "spark-conf", "defaultMode": 420}},
                {"name": "scratch", "emptyDir": {"sizeLimit": "20Gi"}},
                {"name": "kube-api-access-x7k2p", "projected": {"defaultMode": 420, "sources": [
                  {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                  {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                  {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1",
                    "fieldPath": "metadata.namespace"}}]}}]}}],
    "initContainers": [{"name": "fetch-jars", "image": "registry.example.com/tools/fetch:1.4.2",
      "command": ["/bin/sh", "-c", "fetch --to /scratch/jars"],
      "resources": {"requests": {"cpu": "200m", "memory": "256Mi"},
                    "limits": {"cpu": "500m", "memory": "512Mi"}},
      "volumeMounts": [{"name": "scratch", "mountPath": "/scratch"}]}],
    "containers": [
      {"name": "executor", "image": "registry.example.com/analytics/spark:3.5.1",
       "args": ["executor", "--cores", "4", "--memory", "14g"],
       "env": [{"name": "SPARK_LOCAL_DIRS", "value": "/scratch"},
               {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}},
               {"name": "JAVA_TOOL_OPTIONS", "value": "-XX:+UseG1GC -XX:MaxRAMPercentage=80"}],
       "ports": [{"name": "blockmanager", "containerPort": 7079, "protocol": "TCP"},
                 {"name": "metrics", "containerPort": 9090, "protocol": "TCP"}],
       "resources": {"requests": {"cpu": "4", "memory": "16Gi", "ephemeral-storage": "10Gi"},
                     "limits": {"cpu": "4", "memory": "16Gi", "ephemeral-storage": "20Gi"}},
       "readinessProbe": {"httpGet": {"path": "/healthz", "port": 9090, "scheme": "HTTP"},
                          "periodSeconds": 10, "timeoutSeconds": 1, "failureThreshold": 3},
       "volumeMounts": [{"name": "spark-conf", "mountPath": "/opt/spark/conf"},
                        {"name": "scratch", "mountPath": "/scratch"},
                        {"name": "kube-api-access-x7k2p", "readOnly": true,
                         "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}],
       "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
       "imagePullPolicy": "IfNotPresent"},
      {"name": "log-agent", "image": "registry.example.com/infra/fluent-bit:2.2.0",
       "resources": {"requests": {"cpu": "100m", "memory": "128Mi"},
                     "limits": {"cpu": "200m", "memory": "256Mi"}},
       "volumeMounts": [{"name": "scratch", "mountPath": "/scratch", "readOnly": true}],
       "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
       "imagePullPolicy": "IfNotPresent"}],
    "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
    "serviceAccountName": "spark", "serviceAccount": "spark", "securityContext": {"fsGroup": 185},
    "schedulerName": "default-scheduler", "priority": 0, "enableServiceLinks": true,
    "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                     "effect": "NoExecute", "tolerationSeconds": 300},
                    {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
                     "effect": "NoExecute", "tolerationSeconds": 300}],
    "preemptionPolicy": "PreemptLowerPriority"
  },
  "status": {"phase": "Pending", "qosClass": "Burstable"}
})";

inline std::string reviewBody() {
  api::admission::AdmissionReview review;
  review.apiVersion = "admission.k8s.io/v1";
  review.kind = "AdmissionReview";
  review.request = testing::request("CREATE", "pods", testing::json(kRealisticPod));
  review.request->userInfo = testing::json(
      R"({"username": "system:serviceaccount:kube-system:replicaset-controller",
          "uid": "9a1b2c3d", "groups": ["system:serviceaccounts",
          "system:serviceaccounts:kube-system", "system:authenticated"]})");
  review.request->options =
      testing::json(R"({"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1"})");
  return toJson(review).dump();
}

inline testing::FakeCluster cluster() {
  testing::FakeCluster c;
  c.profiles = {testing::profile(R"({"metadata": {"name": "colocation-batch"}, "spec": {
          "namespaceSelector": {"matchLabels": {"enable-koordinator-colocation": "true"}},
          "selector": {"matchLabels": {"koordinator-colocation-pod": "true"}},
          "qosClass": "BE", "priorityClassName": "koord-batch", "koordinatorPriority": 1111,
          "schedulerName": "koord-scheduler", "labels": {"koordinator.sh/mutated": "true"},
          "annotations": {"koordinator.sh/profile": "colocation-batch"}}})"),
                testing::profile(R"({"metadata": {"name": "gpu-team"}, "spec": {
          "namespaceSelector": {"matchLabels": {"team": "gpu"}},
          "qosClass": "LS", "labels": {"gpu": "true"}}})"),
                testing::profile(R"({"metadata": {"name": "sampled-tracing"}, "spec": {
          "probability": "50%", "selector": {"matchExpressions": [{"key": "app",
          "operator": "In", "values": ["spark-executor", "flink"]}]},
          "annotations": {"tracing.example.com/sample": "true"},
          "labelSuffixes": {"team": "-colocated"}}})")};
  return c;
}

}  // namespace koord::manager::webhook::bench
