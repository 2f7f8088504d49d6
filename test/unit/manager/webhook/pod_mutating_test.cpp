// The pod mutating webhook: ClusterColocationProfile matching and injection, probability, the
// batch/mid resource conversion, the extended-resource-spec annotation, and bad input.
#include "manager/webhook/pod_mutating.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "manager/webhook/review_io.hpp"
#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

using api::Json;
using testing::FakeCluster;
using testing::json;
using testing::patched;
using testing::profile;
using testing::request;

// Koordinator's test pod: an init container, a container and an overhead, priority in the batch
// band (5999) before any profile runs.
constexpr const char* kPod = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "test-pod-1", "namespace": "default",
               "labels": {"koordinator-colocation-pod": "true"}},
  "spec": {
    "initContainers": [{"name": "init", "image": "busybox",
      "resources": {"limits": {"cpu": "500m", "memory": "1Gi"},
                    "requests": {"cpu": "500m", "memory": "1Gi"}}}],
    "containers": [{"name": "main", "image": "nginx",
      "resources": {"limits": {"cpu": "1", "memory": "4Gi"},
                    "requests": {"cpu": "1", "memory": "4Gi"}}}],
    "overhead": {"cpu": "1", "memory": "2Gi"},
    "schedulerName": "default-scheduler",
    "priority": 5999
  }
})";

constexpr const char* kBatchProfile = R"({
  "metadata": {"name": "colocation-batch"},
  "spec": {
    "namespaceSelector": {"matchLabels": {"enable-koordinator-colocation": "true"}},
    "selector": {"matchLabels": {"koordinator-colocation-pod": "true"}},
    "labels": {"testLabelA": "valueA"},
    "annotations": {"testAnnotationA": "valueA"},
    "schedulerName": "koord-scheduler",
    "qosClass": "BE",
    "priorityClassName": "koord-batch",
    "koordinatorPriority": 1111,
    "patch": {"metadata": {"labels": {"test-patch-label": "patch-a"},
                           "annotations": {"test-patch-annotation": "patch-b"}}}
  }
})";

struct Mutation {
  api::admission::AdmissionResponse response;
  Json original;
  Json result;
};

Mutation mutate(const FakeCluster& cluster, const Json& pod, const log::Logger& logger = {},
                std::string operation = "CREATE") {
  PodMutatingHandler handler(cluster.sources(), logger);
  Mutation m;
  m.original = pod;
  m.response = handler.admit(request(std::move(operation), "pods", pod));
  m.result = patched(pod, m.response);
  return m;
}

TEST(PodMutatingTest, BatchProfileInjectsEverythingAndConvertsResources) {
  FakeCluster cluster;
  cluster.profiles = {profile(kBatchProfile)};
  auto m = mutate(cluster, json(kPod));
  ASSERT_TRUE(m.response.allowed) << m.response.result->message;
  Json want = json(kPod);
  want["metadata"]["labels"] = json(R"({"koordinator-colocation-pod": "true",
      "testLabelA": "valueA", "test-patch-label": "patch-a", "koordinator.sh/qosClass": "BE",
      "koordinator.sh/priority": "1111"})");
  want["metadata"]["annotations"] = json(R"({"testAnnotationA": "valueA",
      "test-patch-annotation": "patch-b",
      "node.koordinator.sh/extended-resource-spec":
        "{\"containers\":{\"main\":{\"limits\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":\"4Gi\"},\"requests\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":\"4Gi\"}}}}"})");
  want["spec"]["schedulerName"] = "koord-scheduler";
  want["spec"]["priorityClassName"] = "koord-batch";
  want["spec"]["priority"] = 5000;
  want["spec"]["preemptionPolicy"] = "Never";
  want["spec"]["initContainers"][0]["resources"] = json(R"({
      "limits": {"kubernetes.io/batch-cpu": "500", "kubernetes.io/batch-memory": "1Gi"},
      "requests": {"kubernetes.io/batch-cpu": "500", "kubernetes.io/batch-memory": "1Gi"}})");
  want["spec"]["containers"][0]["resources"] = json(R"({
      "limits": {"kubernetes.io/batch-cpu": "1k", "kubernetes.io/batch-memory": "4Gi"},
      "requests": {"kubernetes.io/batch-cpu": "1k", "kubernetes.io/batch-memory": "4Gi"}})");
  want["spec"]["overhead"] = json(R"({"kubernetes.io/batch-cpu": "1k",
                                      "kubernetes.io/batch-memory": "2Gi"})");
  EXPECT_EQ(m.result, want) << m.result.dump(2);
}

TEST(PodMutatingTest, ResourceConversionByBand) {
  struct Case {
    std::string name;
    std::string priority_class;  // the profile's priorityClassName
    std::string resources;       // the container's resources
    std::string want;            // its resources after the webhook
  };
  const std::vector<Case> cases = {
      {"batch: limit without request also becomes the request", "koord-batch",
       R"({"limits": {"cpu": "2", "memory": "4Gi"}})",
       R"({"limits": {"kubernetes.io/batch-cpu": "2k", "kubernetes.io/batch-memory": "4Gi"},
           "requests": {"kubernetes.io/batch-cpu": "2k", "kubernetes.io/batch-memory": "4Gi"}})"},
      {"batch: request without limit keeps the limit unset", "koord-batch",
       R"({"requests": {"cpu": "250m", "memory": "512Mi"}})",
       R"({"requests": {"kubernetes.io/batch-cpu": "250", "kubernetes.io/batch-memory": "512Mi"}})"},
      {"batch: other resources stay", "koord-batch",
       R"({"requests": {"cpu": "1500m", "nvidia.com/gpu": "1"}, "limits": {"nvidia.com/gpu": "1"}})",
       R"({"requests": {"kubernetes.io/batch-cpu": "1500", "nvidia.com/gpu": "1"},
           "limits": {"nvidia.com/gpu": "1"}})"},
      {"mid: cpu and memory become mid-*", "koord-mid",
       R"({"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "2Gi"}})",
       R"({"requests": {"kubernetes.io/mid-cpu": "1k", "kubernetes.io/mid-memory": "1Gi"},
           "limits": {"kubernetes.io/mid-cpu": "2k", "kubernetes.io/mid-memory": "2Gi"}})"},
      {"prod: unchanged", "koord-prod", R"({"requests": {"cpu": "1", "memory": "1Gi"}})",
       R"({"requests": {"cpu": "1", "memory": "1Gi"}})"},
      {"free: unchanged (Koordinator has no free resources)", "koord-free",
       R"({"requests": {"cpu": "1", "memory": "1Gi"}})",
       R"({"requests": {"cpu": "1", "memory": "1Gi"}})"},
  };
  for (const auto& tc : cases) {
    FakeCluster cluster;
    cluster.profiles = {profile(R"({"metadata": {"name": "p"}, "spec": {"priorityClassName": ")" +
                                tc.priority_class + R"("}})")};
    Json pod = json(R"({"metadata": {"name": "p1"}, "spec": {"containers": [{"name": "c"}]}})");
    pod["spec"]["containers"][0]["resources"] = json(tc.resources);
    auto m = mutate(cluster, pod);
    ASSERT_TRUE(m.response.allowed) << tc.name;
    EXPECT_EQ(m.result["spec"]["containers"][0]["resources"], json(tc.want)) << tc.name;
  }
}

TEST(PodMutatingTest, PriorityClassLabelDecidesTheBand) {
  // The koordinator.sh/priority-class label wins over spec.priority (9500, prod).
  FakeCluster cluster;
  cluster.profiles = {profile(R"({"metadata": {"name": "p"},
      "spec": {"labels": {"koordinator.sh/priority-class": "koord-batch"}}})")};
  auto m = mutate(cluster, json(R"({"metadata": {"name": "p1"}, "spec": {"priority": 9500,
      "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]}})"));
  EXPECT_EQ(m.result["spec"]["containers"][0]["resources"],
            json(R"({"requests": {"kubernetes.io/batch-cpu": "2k"}})"));
}

TEST(PodMutatingTest, Probability) {
  struct Case {
    std::string name;
    std::string probability;  // JSON
    std::vector<int> draws;
    bool applied;
    int draw_calls;
  };
  const std::vector<Case> cases = {
      {"unset: always, no draw", "null", {}, true, 0},
      {"100: always, no draw", "100", {}, true, 0},
      {"\"100%\": always, no draw", "\"100%\"", {}, true, 0},
      {"0: never, no draw", "0", {}, false, 0},
      {"50 with draw 49: applied", "50", {49}, true, 1},
      {"50 with draw 50: skipped", "\"50%\"", {50}, false, 1},
      {"50 with draw 70: skipped", "50", {70}, false, 1},
      {"1 with draw 0: applied", "1", {0}, true, 1},
  };
  for (const auto& tc : cases) {
    FakeCluster cluster;
    *cluster.draws = tc.draws;
    cluster.profiles = {profile(R"({"metadata": {"name": "p"}, "spec": {"probability": )" +
                                tc.probability + R"(, "qosClass": "BE"}})")};
    auto m = mutate(cluster, json(kPod));
    ASSERT_TRUE(m.response.allowed) << tc.name;
    EXPECT_EQ(m.result["metadata"]["labels"].contains("koordinator.sh/qosClass"), tc.applied)
        << tc.name;
    EXPECT_EQ(*cluster.draw_calls, tc.draw_calls) << tc.name;
    // Matched but not applied still converts: the pod is already in the batch band (5999).
    EXPECT_EQ(m.result["spec"]["containers"][0]["resources"]["requests"],
              json(R"({"kubernetes.io/batch-cpu": "1k", "kubernetes.io/batch-memory": "4Gi"})"))
        << tc.name;
  }
}

TEST(PodMutatingTest, Matching) {
  struct Case {
    std::string name;
    std::string pod_namespace;
    std::string selectors;  // the spec's selector members, JSON
    bool applied;
  };
  const std::vector<Case> cases = {
      {"no selectors match every pod", "plain", "", true},
      {"namespace labels match", "default",
       R"("namespaceSelector": {"matchLabels": {"enable-koordinator-colocation": "true"}},)", true},
      {"namespace labels do not match", "plain",
       R"("namespaceSelector": {"matchLabels": {"enable-koordinator-colocation": "true"}},)",
       false},
      {"unknown namespace matches nothing", "gone",
       R"("namespaceSelector": {"matchLabels": {"enable-koordinator-colocation": "true"}},)",
       false},
      {"empty namespaceSelector matches an unknown namespace", "gone",
       R"("namespaceSelector": {},)", true},
      {"pod labels match", "plain",
       R"("selector": {"matchExpressions": [{"key": "koordinator-colocation-pod",
           "operator": "In", "values": ["true"]}]},)",
       true},
      {"pod labels do not match", "plain", R"("selector": {"matchLabels": {"app": "db"}},)", false},
      {"both must match", "plain",
       R"("namespaceSelector": {"matchLabels": {"enable-koordinator-colocation": "true"}},
          "selector": {"matchLabels": {"koordinator-colocation-pod": "true"}},)",
       false},
  };
  for (const auto& tc : cases) {
    FakeCluster cluster;
    cluster.profiles = {profile(R"({"metadata": {"name": "p"}, "spec": {)" + tc.selectors +
                                R"("labels": {"x": "y"}}})")};
    Json pod = json(kPod);
    pod["metadata"]["namespace"] = tc.pod_namespace;
    auto m = mutate(cluster, pod);
    ASSERT_TRUE(m.response.allowed) << tc.name;
    EXPECT_EQ(m.result["metadata"]["labels"].contains("x"), tc.applied) << tc.name;
  }
}

TEST(PodMutatingTest, BadSelectorMatchesNothingAndIsLogged) {
  std::ostringstream log_text;
  log::Logger logger(log::LogSink::toStream(log_text),
                     {log::LogLevel::kInfo, log::LogFormat::kText});
  FakeCluster cluster;
  cluster.profiles = {
      profile(R"({"metadata": {"name": "a-bad"}, "spec": {"selector": {"matchExpressions":
          [{"key": "app", "operator": "Sometimes", "values": ["x"]}]}, "labels": {"bad": "1"}}})"),
      profile(R"({"metadata": {"name": "b-bad-ns"}, "spec": {"namespaceSelector":
          {"matchExpressions": [{"key": "k", "operator": "In"}]}, "labels": {"badns": "1"}}})"),
      profile(R"({"metadata": {"name": "c-good"}, "spec": {"labels": {"good": "1"}}})")};
  auto m = mutate(cluster, json(kPod), logger);
  ASSERT_TRUE(m.response.allowed);
  EXPECT_FALSE(m.result["metadata"]["labels"].contains("bad"));
  EXPECT_FALSE(m.result["metadata"]["labels"].contains("badns"));
  EXPECT_EQ(m.result["metadata"]["labels"]["good"], "1");
  const std::string text = log_text.str();
  EXPECT_NE(text.find("invalid selector"), std::string::npos) << text;
  EXPECT_NE(text.find("profile=a-bad"), std::string::npos) << text;
  EXPECT_NE(text.find("invalid namespaceSelector"), std::string::npos) << text;
  EXPECT_NE(text.find("profile=b-bad-ns"), std::string::npos) << text;
}

TEST(PodMutatingTest, ProfilesApplyInNameOrderAndMappingsSeeEarlierOnes) {
  FakeCluster cluster;
  // Listed out of order: "b" runs after "a", so its value wins and its mapping sees "a"'s label.
  cluster.profiles = {
      profile(R"({"metadata": {"name": "b"}, "spec": {"labels": {"tier": "b"},
          "labelKeysMapping": {"from-a": "copied", "missing": "never-set"},
          "annotationKeysMapping": {"team": "owner"},
          "labelSuffixes": {"app": "-batch", "absent": "-x"}}})"),
      profile(R"({"metadata": {"name": "a"}, "spec": {"labels": {"tier": "a", "from-a": "v"},
          "annotations": {"team": "infra"}}})")};
  Json pod = json(kPod);
  pod["metadata"]["labels"]["app"] = "web";
  auto m = mutate(cluster, pod);
  const Json& labels = m.result["metadata"]["labels"];
  EXPECT_EQ(labels["tier"], "b");
  EXPECT_EQ(labels["copied"], "v");
  EXPECT_FALSE(labels.contains("never-set"));
  EXPECT_EQ(labels["app"], "web-batch");
  EXPECT_FALSE(labels.contains("absent"));
  EXPECT_EQ(m.result["metadata"]["annotations"]["owner"], "infra");
}

TEST(PodMutatingTest, SkipUpdateResources) {
  struct Case {
    std::string name;
    std::string profile;
  };
  const std::vector<Case> cases = {
      {"profile metadata annotation",
       R"({"metadata": {"name": "p", "annotations": {"config.koordinator.sh/skip-update-resources":
           "true"}}, "spec": {"priorityClassName": "koord-batch"}})"},
      {"annotation the profile puts on the pod",
       R"({"metadata": {"name": "p"}, "spec": {"priorityClassName": "koord-batch",
           "annotations": {"config.koordinator.sh/skip-update-resources": "true"}}})"},
  };
  for (const auto& tc : cases) {
    FakeCluster cluster;
    cluster.profiles = {profile(tc.profile)};
    auto m = mutate(cluster, json(kPod));
    ASSERT_TRUE(m.response.allowed) << tc.name;
    EXPECT_EQ(m.result["spec"]["priorityClassName"], "koord-batch") << tc.name;
    EXPECT_EQ(m.result["spec"]["containers"], json(kPod)["spec"]["containers"]) << tc.name;
  }
}

TEST(PodMutatingTest, PatchMergesContainersByName) {
  FakeCluster cluster;
  cluster.profiles = {profile(R"({"metadata": {"name": "p"}, "spec": {"patch": {"spec": {
      "containers": [{"name": "main", "env": [{"name": "MODE", "value": "batch"}]},
                     {"name": "sidecar", "image": "envoy"}],
      "tolerations": [{"key": "batch", "operator": "Exists"}],
      "schedulerName": null}}}})")};
  Json pod = json(kPod);
  pod["spec"]["priority"] = 9500;
  pod["spec"]["tolerations"] = json(R"([{"key": "old", "operator": "Exists"}])");
  auto m = mutate(cluster, pod);
  ASSERT_TRUE(m.response.allowed);
  const Json& containers = m.result["spec"]["containers"];
  ASSERT_EQ(containers.size(), 2U);
  EXPECT_EQ(containers[0]["image"], "nginx");
  EXPECT_EQ(containers[0]["env"], json(R"([{"name": "MODE", "value": "batch"}])"));
  EXPECT_EQ(containers[1]["name"], "sidecar");
  EXPECT_EQ(m.result["spec"]["tolerations"], json(R"([{"key": "batch", "operator": "Exists"}])"));
  EXPECT_FALSE(m.result["spec"].contains("schedulerName"));
}

TEST(PodMutatingTest, ExtendedResourceSpecOnlyForBatchContainers) {
  FakeCluster cluster;  // no profiles: the annotation follows the pod's own batch resources
  Json pod = json(R"({"metadata": {"name": "p1"}, "spec": {
      "initContainers": [{"name": "i", "resources": {"requests": {"kubernetes.io/batch-cpu": "1k"}}}],
      "containers": [{"name": "a", "resources": {"requests": {"kubernetes.io/batch-cpu": "500",
                        "kubernetes.io/batch-memory": "1Gi", "cpu": "1"}}},
                     {"name": "b", "resources": {"requests": {"cpu": "1"}}}]}})");
  auto m = mutate(cluster, pod);
  ASSERT_TRUE(m.response.allowed);
  EXPECT_EQ(json(m.result["metadata"]["annotations"]["node.koordinator.sh/extended-resource-spec"]
                     .get<std::string>()),
            json(R"({"containers": {"a": {"requests": {"kubernetes.io/batch-cpu": "500",
                     "kubernetes.io/batch-memory": "1Gi"}}}})"));
  // Already right: no patch at all.
  auto again = mutate(cluster, m.result);
  EXPECT_TRUE(again.response.allowed);
  EXPECT_TRUE(again.response.patch.empty()) << again.response.patch;
}

TEST(PodMutatingTest, NothingToDoIsAPlainAllow) {
  struct Case {
    std::string name;
    std::string operation;
    std::string resource;
    std::string sub_resource;
  };
  const std::vector<Case> cases = {
      {"UPDATE", "UPDATE", "pods", ""},
      {"DELETE", "DELETE", "pods", ""},
      {"a subresource", "CREATE", "pods", "binding"},
      {"another resource", "CREATE", "services", ""},
  };
  FakeCluster cluster;
  cluster.profiles = {profile(kBatchProfile)};
  PodMutatingHandler handler(cluster.sources(), {});
  for (const auto& tc : cases) {
    auto r = request(tc.operation, tc.resource, json(kPod));
    r.subResource = tc.sub_resource;
    auto response = handler.admit(r);
    EXPECT_TRUE(response.allowed) << tc.name;
    EXPECT_TRUE(response.patch.empty()) << tc.name;
    EXPECT_EQ(response.uid, r.uid) << tc.name;
  }
  // No profile matches and no batch resources: allowed without a patch.
  FakeCluster empty;
  auto m = mutate(empty, json(kPod));
  EXPECT_TRUE(m.response.allowed);
  EXPECT_TRUE(m.response.patch.empty());
}

TEST(PodMutatingTest, BadInputIsDenied) {
  struct Case {
    std::string name;
    Json object;
    int code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"missing object", Json(), 400, "failed to decode Pod: request.object: expected object"},
      {"object not a pod", json(R"({"spec": {"containers": "nginx"}})"), 400,
       "failed to decode Pod: object.spec.containers: expected array, got string"},
  };
  FakeCluster cluster;
  PodMutatingHandler handler(cluster.sources(), {});
  for (const auto& tc : cases) {
    auto response = handler.admit(request("CREATE", "pods", tc.object));
    EXPECT_FALSE(response.allowed) << tc.name;
    ASSERT_TRUE(response.result.has_value()) << tc.name;
    EXPECT_EQ(response.result->code, tc.code) << tc.name;
    EXPECT_EQ(response.result->message, tc.message) << tc.name;
  }
}

TEST(PodMutatingTest, ProfileFailuresDenyNamingTheProfile) {
  struct Case {
    std::string name;
    std::string profile;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"missing PriorityClass",
       R"({"metadata": {"name": "p"}, "spec": {"priorityClassName": "koord-batch"}})",
       "failed to mutate Pod 'default/test-pod-1' by ClusterColocationProfile 'p': "
       "PriorityClass 'koord-batch' not found"},
      {"strategic merge directive",
       R"({"metadata": {"name": "p"}, "spec": {"patch": {"spec": {"$patch": "replace"}}}})",
       "failed to mutate Pod 'default/test-pod-1' by ClusterColocationProfile 'p': "
       "spec.patch: spec: $patch: strategic merge directives are not supported"},
  };
  for (const auto& tc : cases) {
    FakeCluster cluster;
    cluster.priority_classes.clear();
    cluster.profiles = {profile(tc.profile)};
    auto m = mutate(cluster, json(kPod));
    EXPECT_FALSE(m.response.allowed) << tc.name;
    ASSERT_TRUE(m.response.result.has_value()) << tc.name;
    EXPECT_EQ(m.response.result->code, 500) << tc.name;
    EXPECT_EQ(m.response.result->message, tc.message) << tc.name;
  }
  // A patch that leaves something that is not a Pod is refused too.
  FakeCluster cluster;
  cluster.profiles = {
      profile(R"({"metadata": {"name": "p"}, "spec": {"patch": {"spec": {"priority": "high"}}}})")};
  auto m = mutate(cluster, json(kPod));
  EXPECT_FALSE(m.response.allowed);
  EXPECT_EQ(m.response.result->message,
            "failed to mutate Pod: the ClusterColocationProfiles 'p' leave an object that is not "
            "a Pod: object.spec.priority: expected integer, got string");
}

TEST(PodMutatingTest, NamespaceFromTheRequestAndLeftOutOfThePatch) {
  FakeCluster cluster;
  cluster.profiles = {profile(R"({"metadata": {"name": "p"}, "spec": {"namespaceSelector":
      {"matchLabels": {"enable-koordinator-colocation": "true"}}, "labels": {"x": "y"}}})")};
  Json pod = json(kPod);
  pod["metadata"].erase("namespace");
  auto m = mutate(cluster, pod);  // the request's namespace is "default"
  EXPECT_EQ(m.result["metadata"]["labels"]["x"], "y");
  EXPECT_FALSE(m.result["metadata"].contains("namespace"));
}

TEST(PodMutatingTest, SameInputSamePatchAndOnlyWhatChanged) {
  FakeCluster cluster;
  cluster.profiles = {profile(kBatchProfile)};
  auto first = mutate(cluster, json(kPod));
  auto second = mutate(cluster, json(kPod));
  EXPECT_EQ(first.response.patch, second.response.patch);
  auto ops = json(first.response.patch);
  for (const Json& op : ops) {
    const std::string path = op["path"];
    EXPECT_EQ(path.find("/spec/containers/0/image"), std::string::npos);
    EXPECT_NE(path, "/metadata/name");
  }
  // JSON Pointer escaping of resource names with a slash.
  EXPECT_NE(first.response.patch.find("kubernetes.io~1batch-cpu"), std::string::npos);
}

TEST(PodMutatingTest, EndToEndThroughTheReviewWire) {
  FakeCluster cluster;
  cluster.profiles = {profile(kBatchProfile)};
  PodMutatingHandler handler(cluster.sources(), {});
  api::admission::AdmissionReview review;
  review.apiVersion = "admission.k8s.io/v1";
  review.kind = "AdmissionReview";
  review.request = request("CREATE", "pods", json(kPod));
  WebhookReply reply = serveAdmission(handler, toJson(review).dump());
  ASSERT_EQ(reply.http_status, 200);
  auto answer = decodeAdmissionReview(
      json(reply.body).dump());  // the reply is a review, but with a response, not a request
  EXPECT_FALSE(answer.ok());
  api::admission::AdmissionReview out;
  ASSERT_TRUE(fromJson(json(reply.body), out, "").isOk());
  ASSERT_TRUE(out.response.has_value());
  EXPECT_TRUE(out.response->allowed);
  Json result = patched(json(kPod), *out.response);
  EXPECT_EQ(result["metadata"]["labels"]["koordinator.sh/qosClass"], "BE");
  EXPECT_EQ(result["spec"]["priority"], 5000);
}

}  // namespace
}  // namespace koord::manager::webhook
