#include "koord/k8s/transforms.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "koord/api/core/pod_helpers.hpp"

namespace koord::k8s {
namespace {

Json typicalPod() {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/typical-pod.json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

TEST(TransformsTest, CachedPodKeepsWhatTheSchedulersAndTheAgentRead) {
  auto full = decodeObject<api::core::Pod>(typicalPod());
  auto cached = decodePodForCache(typicalPod());
  ASSERT_TRUE(full.ok()) << full.status().toString();
  ASSERT_TRUE(cached.ok()) << cached.status().toString();

  EXPECT_EQ(cached->metadata.name, full->metadata.name);
  EXPECT_EQ(cached->metadata.uid, full->metadata.uid);
  EXPECT_EQ(cached->metadata.resourceVersion, "48213377");
  EXPECT_EQ(cached->metadata.labels, full->metadata.labels);
  EXPECT_EQ(cached->metadata.ownerReferences, full->metadata.ownerReferences);
  EXPECT_EQ(cached->metadata.annotations.count("scheduling.koordinator.sh/resource-spec"), 1u);
  EXPECT_EQ(cached->spec.nodeName, "node-0042");
  EXPECT_EQ(cached->spec.priority, full->spec.priority);
  EXPECT_EQ(cached->spec.tolerations, full->spec.tolerations);
  auto full_requests = api::core::podRequests(*full);
  auto cached_requests = api::core::podRequests(*cached);
  ASSERT_TRUE(full_requests.ok() && cached_requests.ok());
  EXPECT_EQ(*cached_requests, *full_requests);
  EXPECT_EQ(api::core::podQosClass(*cached), api::core::podQosClass(*full));
  EXPECT_EQ(cached->status.phase, "Running");
  EXPECT_EQ(cached->status.podIP, "10.244.42.17");
  EXPECT_EQ(cached->status.qosClass, "Burstable");
  // Placement reads neither conditions nor container statuses.
  EXPECT_TRUE(cached->status.conditions.empty());
  EXPECT_TRUE(cached->status.containerStatuses.is_null());
}

TEST(TransformsTest, NodeCachePodKeepsContainerIdsAndConditions) {
  auto full = decodeObject<api::core::Pod>(typicalPod());
  auto local = decodePodForNode(typicalPod());
  ASSERT_TRUE(full.ok() && local.ok());
  ASSERT_EQ(local->status.containerStatuses.size(), 1u);
  EXPECT_EQ(local->status.containerStatuses[0]["containerID"],
            full->status.containerStatuses[0]["containerID"]);
  EXPECT_EQ(local->status.containerStatuses[0]["ready"], true);
  EXPECT_FALSE(local->status.containerStatuses[0].contains("imageID"));
  ASSERT_EQ(local->status.conditions.size(), 4u);
  EXPECT_EQ(local->status.conditions[3].type, "Ready");
  EXPECT_EQ(local->status.conditions[3].status, "True");
  EXPECT_EQ(local->metadata.annotations.count("kubectl.kubernetes.io/last-applied-configuration"),
            0u);
}

TEST(TransformsTest, CachedPodDropsWhatNobodyReads) {
  auto cached = decodePodForCache(typicalPod());
  ASSERT_TRUE(cached.ok());
  EXPECT_EQ(cached->metadata.annotations.count("kubectl.kubernetes.io/last-applied-configuration"),
            0u);
  EXPECT_TRUE(cached->metadata.extra.is_null() || cached->metadata.extra.empty());
  EXPECT_TRUE(cached->spec.extra.is_null() || !cached->spec.extra.contains("volumes"));
  ASSERT_EQ(cached->spec.containers.size(), 1u);
  EXPECT_TRUE(cached->spec.containers[0].image.empty());
  EXPECT_TRUE(cached->spec.containers[0].extra.is_null() ||
              cached->spec.containers[0].extra.empty());
  // Re-encoding the cached pod gives a much smaller object.
  EXPECT_LT(toJson(*cached).dump().size() * 2, typicalPod().dump().size());
}

TEST(TransformsTest, AccountingPodKeepsRequestsPriorityQosAndKoordinatorKeysOnly) {
  auto full = decodeObject<api::core::Pod>(typicalPod());
  auto cached = decodePodForCache(typicalPod());
  auto lean = decodePodForAccounting(typicalPod());
  ASSERT_TRUE(full.ok() && cached.ok() && lean.ok()) << lean.status().toString();
  EXPECT_EQ(lean->metadata.name, full->metadata.name);
  EXPECT_EQ(lean->metadata.namespace_, full->metadata.namespace_);
  EXPECT_EQ(lean->spec.nodeName, "node-0042");
  EXPECT_EQ(lean->spec.priority, full->spec.priority);
  auto full_requests = api::core::podRequests(*full);
  auto lean_requests = api::core::podRequests(*lean);
  ASSERT_TRUE(full_requests.ok() && lean_requests.ok());
  EXPECT_EQ(*lean_requests, *full_requests);
  EXPECT_EQ(api::core::podQosClass(*lean), api::core::podQosClass(*full));
  EXPECT_EQ(lean->status.phase, "Running");
  EXPECT_EQ(lean->status.qosClass, "Burstable");
  // Only koordinator.sh keys of labels and annotations stay.
  EXPECT_EQ(lean->metadata.annotations.count("scheduling.koordinator.sh/resource-spec"), 1u);
  for (const auto& [key, value] : lean->metadata.labels) {
    EXPECT_NE(key.find("koordinator.sh/"), std::string::npos) << key;
  }
  for (const auto& [key, value] : lean->metadata.annotations) {
    EXPECT_NE(key.find("koordinator.sh/"), std::string::npos) << key;
  }
  EXPECT_TRUE(lean->metadata.ownerReferences.empty());
  EXPECT_TRUE(lean->spec.tolerations.empty());
  EXPECT_TRUE(lean->status.podIP.empty());
  EXPECT_LT(toJson(*lean).dump().size(), toJson(*cached).dump().size());
}

TEST(TransformsTest, OddShapesAreLeftToTheDecoder) {
  Json not_object = "text";
  trimPodJson(not_object);
  EXPECT_EQ(not_object, "text");
  Json pod = {{"metadata", {{"name", "p"}}}, {"spec", {{"containers", "bad"}}}};
  auto decoded = decodePodForCache(std::move(pod));
  EXPECT_FALSE(decoded.ok());
}

}  // namespace
}  // namespace koord::k8s
