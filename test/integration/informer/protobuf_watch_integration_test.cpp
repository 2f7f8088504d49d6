// A Pod watch in protobuf against a real kube-apiserver (koord-extender's pod informer uses one):
// two informers on the same namespace, one watching in JSON and one in protobuf, must hold the
// same Pods after the same creations, updates and deletions. The JSON watch is the reference, so
// any field the protobuf schema reads wrong (a field number, a time, a quantity) shows as a
// difference. Both informers start before the pods exist, so every pod reaches them as a watch
// event, not through the (JSON) list. A third informer decodes the protobuf straight into the Pod
// (protobuf_pod.hpp) and must hold the same Pods again.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/informer.hpp"
#include "koord/k8s/protobuf_pod.hpp"
#include "koord/k8s/transforms.hpp"
#include "test/integration/support/test_cluster.hpp"

namespace koord::k8s {
namespace {

using api::core::Pod;
using itest::connectToTestCluster;
using itest::eventually;
using std::chrono::seconds;

constexpr std::array kRichPods{"rich-0", "rich-1", "rich-2"};

// A pod that uses every field the protobuf schema carries; `owner` is the ConfigMap named in its
// ownerReferences (an existing object, so that the garbage collector leaves the pod alone).
Json richPod(const std::string& name, const Json& owner) {
  const Json selector = {
      {"matchLabels", {{"app", "web"}}},
      {"matchExpressions", {{{"key", "tier"}, {"operator", "In"}, {"values", {"a", "b"}}}}}};
  const Json term = {{"labelSelector", selector},
                     {"namespaces", {"default"}},
                     {"topologyKey", "kubernetes.io/hostname"},
                     {"namespaceSelector", {{"matchLabels", {{"team", "x"}}}}},
                     {"matchLabelKeys", {"pod-template-hash"}}};
  const Json node_term = {
      {"matchExpressions",
       {{{"key", "zone"}, {"operator", "NotIn"}, {"values", {"z9"}}},
        {{"key", "gpu"}, {"operator", "Exists"}}}},
      {"matchFields", {{{"key", "metadata.name"}, {"operator", "NotIn"}, {"values", {"n0"}}}}}};
  const Json resources = {
      {"requests", {{"cpu", "250m"}, {"memory", "1Gi"}, {"kubernetes.io/batch-cpu", "1500"}}},
      {"limits", {{"cpu", "2"}, {"memory", "1Gi"}, {"kubernetes.io/batch-cpu", "1500"}}}};
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"name", name},
            {"labels", {{"app", "web"}, {"koordinator.sh/qosClass", "LS"}}},
            {"annotations",
             {{"scheduling.koordinator.sh/resource-spec",
               R"({"preferredCPUBindPolicy":"SpreadByPCPUs"})"},
              {"note", ""}}},
            {"finalizers", {"koord.test/keep"}},
            {"ownerReferences",
             {{{"apiVersion", "v1"},
               {"kind", "ConfigMap"},
               {"name", owner["metadata"]["name"]},
               {"uid", owner["metadata"]["uid"]},
               {"controller", true},
               {"blockOwnerDeletion", false}}}}}},
          {"spec",
           {{"automountServiceAccountToken", false},
            {"schedulerName", "koord-scheduler"},
            {"priorityClassName", "koord-test-pb-watch"},
            {"nodeSelector", {{"pool", "online"}}},
            {"affinity",
             {{"nodeAffinity",
               {{"requiredDuringSchedulingIgnoredDuringExecution",
                 {{"nodeSelectorTerms", {node_term}}}},
                {"preferredDuringSchedulingIgnoredDuringExecution",
                 {{{"weight", 7}, {"preference", node_term}}}}}},
              {"podAffinity",
               {{"preferredDuringSchedulingIgnoredDuringExecution",
                 {{{"weight", 3}, {"podAffinityTerm", term}}}}}},
              {"podAntiAffinity", {{"requiredDuringSchedulingIgnoredDuringExecution", {term}}}}}},
            {"tolerations",
             {{{"key", "dedicated"},
               {"operator", "Equal"},
               {"value", "batch"},
               {"effect", "NoSchedule"}},
              {{"operator", "Exists"}, {"effect", "NoExecute"}, {"tolerationSeconds", 30}}}},
            {"topologySpreadConstraints",
             {{{"maxSkew", 2},
               {"topologyKey", "zone"},
               {"whenUnsatisfiable", "ScheduleAnyway"},
               {"labelSelector", selector},
               {"nodeAffinityPolicy", "Honor"},
               {"nodeTaintsPolicy", "Ignore"}}}},
            {"initContainers",
             {{{"name", "init"},
               {"image", "busybox"},
               {"restartPolicy", "Always"},
               {"resources", {{"requests", {{"cpu", "100m"}}}}}}}},
            {"containers",
             {{{"name", "main"}, {"image", "nginx"}, {"resources", resources}},
              {{"name", "side"}, {"image", "envoy"}}}}}}};
}

class ProtobufWatchIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    client_ = connectToTestCluster();
    if (!client_) {
      GTEST_SKIP() << "KOORD_TEST_KUBECONFIG is not set (run under ctest)";
    }
    // Gives the pods a priority and a preemption policy (left in place: the cluster is shared).
    const GroupVersionResource priority_classes{"scheduling.k8s.io", "v1", "priorityclasses",
                                                false};
    auto priority_class = client_->create(priority_classes, "",
                                          {{"apiVersion", "scheduling.k8s.io/v1"},
                                           {"kind", "PriorityClass"},
                                           {"metadata", {{"name", "koord-test-pb-watch"}}},
                                           {"value", 9000},
                                           {"preemptionPolicy", "Never"}});
    ASSERT_TRUE(priority_class.ok() || isAlreadyExists(priority_class.status()))
        << priority_class.status();
    auto ns = client_->create(kNamespaces, "", {{"metadata", {{"generateName", "pb-watch-"}}}});
    ASSERT_TRUE(ns.ok()) << ns.status();
    ns_ = (*ns)["metadata"]["name"].get<std::string>();
  }
  void TearDown() override {
    if (client_ && !ns_.empty()) {
      (void)client_->remove(kNamespaces, "", ns_, {});
    }
  }
  ReflectorOptions options(WatchFormat format) const {
    ReflectorOptions o;
    o.gvr = kPods;
    o.ns = ns_;
    o.watch_format = format;
    return o;
  }

  std::unique_ptr<RestApiClient> client_;
  std::string ns_;
};

TEST_F(ProtobufWatchIntegrationTest, HoldsTheSamePodsAsAJsonWatch) {
  Informer<Pod> json(*client_, options(WatchFormat::kJson), &decodePodForNode);
  Informer<Pod> protobuf(*client_, options(WatchFormat::kProtobuf), &decodePodForNode);
  // The third reads each event's protobuf straight into the Pod, as koord-extender and
  // koord-agent do, and counts the events its direct path left to the JSON path.
  Informer<Pod> direct(*client_, options(WatchFormat::kProtobuf), &decodePodForNode);
  std::atomic<int> direct_decoded{0};
  std::atomic<int> left_to_json{0};
  direct.setProtobufDecoder([&](std::string_view envelope) -> Result<Pod> {
    if (auto pod = decodeProtobufPodDirect(envelope, PodFields::kNode)) {
      ++direct_decoded;
      return std::move(*pod);
    }
    ++left_to_json;
    return decodeProtobufPodForNode(envelope);
  });
  json.start();
  protobuf.start();
  direct.start();
  ASSERT_TRUE(json.waitForSync(seconds(30)));
  ASSERT_TRUE(protobuf.waitForSync(seconds(30)));
  ASSERT_TRUE(direct.waitForSync(seconds(30)));

  auto owner = client_->create(kConfigMaps, ns_, {{"metadata", {{"name", "owner"}}}});
  ASSERT_TRUE(owner.ok()) << owner.status();
  for (const char* name : kRichPods) {
    auto created = client_->create(kPods, ns_, richPod(name, *owner));
    ASSERT_TRUE(created.ok()) << created.status();
  }
  auto plain = client_->create(kPods, ns_,
                               {{"metadata", {{"name", "plain"}}},
                                {"spec", {{"containers", {{{"name", "c"}, {"image", "x"}}}}}}});
  ASSERT_TRUE(plain.ok()) << plain.status();
  // An update (a new label), a deletion with a finalizer (deletionTimestamp and grace period
  // set, the pod kept) and a deletion that removes the pod.
  auto patched = client_->patch(kPods, ns_, "rich-0", PatchType::kMerge,
                                R"({"metadata":{"labels":{"rev":"2"}}})", {});
  ASSERT_TRUE(patched.ok()) << patched.status();
  ASSERT_TRUE(client_->remove(kPods, ns_, "rich-1", {}).isOk());
  ASSERT_TRUE(client_->remove(kPods, ns_, "plain", {}).isOk());

  const auto settled = [&](Informer<Pod>& informer) {
    auto r0 = informer.store().get(ns_ + "/rich-0");
    auto r1 = informer.store().get(ns_ + "/rich-1");
    return informer.store().size() == 3 && r0 && r0->metadata.labels.contains("rev") && r1 &&
           !r1->metadata.deletionTimestamp.empty() &&
           informer.store().get(ns_ + "/plain") == nullptr;
  };
  // Both have seen the same last version of every pod.
  const auto same_versions = [&](Informer<Pod>& other) {
    for (const std::string& key : json.store().listKeys()) {
      auto a = json.store().get(key);
      auto b = other.store().get(key);
      if (!a || !b || a->metadata.resourceVersion != b->metadata.resourceVersion) {
        return false;
      }
    }
    return true;
  };
  ASSERT_TRUE(eventually(
      [&] {
        return settled(json) && settled(protobuf) && settled(direct) && same_versions(protobuf) &&
               same_versions(direct);
      },
      seconds(30)));
  EXPECT_GE(protobuf.stats().events, 7u);  // 4 added, 1 label, 2 deletion updates, 1 deleted
  EXPECT_EQ(direct.stats().events, protobuf.stats().events);
  EXPECT_EQ(direct.stats().handler_errors, 0u);
  EXPECT_GE(direct_decoded.load(), 7);
  EXPECT_EQ(left_to_json.load(), 0);

  for (const std::string& key : json.store().listKeys()) {
    auto from_json = json.store().get(key);
    auto from_protobuf = protobuf.store().get(key);
    auto from_direct = direct.store().get(key);
    ASSERT_NE(from_protobuf, nullptr) << key;
    ASSERT_NE(from_direct, nullptr) << key;
    EXPECT_EQ(api::core::toJson(*from_protobuf).dump(2), api::core::toJson(*from_json).dump(2))
        << key;
    EXPECT_EQ(api::core::toJson(*from_direct).dump(2), api::core::toJson(*from_json).dump(2))
        << key;
    EXPECT_TRUE(*from_direct == *from_protobuf) << key;
  }
  // The comparison is not between two empty pods: the protobuf one carries what was sent.
  auto rich = protobuf.store().get(ns_ + "/rich-2");
  ASSERT_NE(rich, nullptr);
  const Json spec = api::core::toJson(*rich)["spec"];
  EXPECT_EQ(spec["tolerations"][1]["tolerationSeconds"], 30);
  EXPECT_EQ(spec["priority"], 9000);
  EXPECT_EQ(spec["preemptionPolicy"], "Never");
  EXPECT_EQ(spec["containers"][0]["resources"]["requests"]["kubernetes.io/batch-cpu"], "1500");
  EXPECT_EQ(spec["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
                ["topologyKey"],
            "kubernetes.io/hostname");
  EXPECT_EQ(rich->metadata.ownerReferences.size(), 1u);
  EXPECT_FALSE(rich->metadata.creationTimestamp.empty());

  for (const char* name : kRichPods) {  // lets the namespace go
    (void)client_->patch(kPods, ns_, name, PatchType::kMerge, R"({"metadata":{"finalizers":null}})",
                         {});
  }
  json.stop();
  protobuf.stop();
  direct.stop();
}

}  // namespace
}  // namespace koord::k8s
