#include "manager/noderesource/amplification.hpp"

#include <gtest/gtest.h>

#include "fixture.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::cpuMem;

TEST(Amplification, RatiosFromConfigAndCPUNormalization) {
  struct Case {
    const char* name;
    std::optional<bool> enable;
    AmplificationRatios configured;
    std::optional<double> normalization;
    std::string want;  // "" : no annotation; "error" : invalid
  };
  const Case cases[] = {
      {"nothing", std::nullopt, {}, std::nullopt, ""},
      {"disabled config ignored", false, {{"cpu", 2}}, std::nullopt, ""},
      {"config", true, {{"cpu", 1.5}, {"memory", 2}}, std::nullopt, R"({"cpu":1.5,"memory":2})"},
      {"normalization alone", std::nullopt, {}, 1.2, R"({"cpu":1.2})"},
      {"normalization of one", std::nullopt, {}, 1.0, ""},
      {"multiplied", true, {{"cpu", 1.5}}, 1.2, R"({"cpu":1.7999999999999998})"},
      {"memory only", true, {{"memory", 1.25}}, std::nullopt, R"({"memory":1.25})"},
      {"below one", true, {{"memory", 0.5}}, std::nullopt, "error"},
  };
  for (const auto& c : cases) {
    sloconfig::ResourceAmplificationStrategy strategy{c.enable, c.configured};
    auto ratios = amplificationRatiosFor(strategy, c.normalization);
    if (std::string(c.want) == "error") {
      EXPECT_FALSE(ratios.ok()) << c.name;
      continue;
    }
    ASSERT_TRUE(ratios.ok()) << c.name << ": " << ratios.status().message();
    EXPECT_EQ(ratios->empty() ? "" : formatAmplificationRatios(*ratios), c.want) << c.name;
  }
}

api::core::Node kubeletNode(const std::string& cpu, const std::string& memory) {
  api::core::Node node = fixture::baseNode();
  node.status.allocatable = cpuMem(cpu, memory);
  node.status.allocatable["pods"] = fixture::q("110");
  return node;
}

TEST(Amplification, AllocatableIsAmplifiedFromTheRawValues) {
  const std::string ratio_key(api::kAnnotationNodeResourceAmplificationRatio);
  const std::string raw_key(api::kAnnotationNodeRawAllocatable);
  api::core::Node old_node = kubeletNode("31", "96Gi");
  api::core::Node node = old_node;
  node.metadata.annotations[ratio_key] = R"({"cpu":1.5,"memory":1.25})";
  ASSERT_TRUE(amplifyNodeOnUpdate(&old_node, node).isOk());
  EXPECT_EQ(node.metadata.annotations[raw_key], R"({"cpu":"31","memory":"96Gi"})");
  EXPECT_EQ(node.status.allocatable["cpu"].toString(), "46500m");
  EXPECT_EQ(node.status.allocatable["memory"].toString(), "120Gi");
  EXPECT_EQ(node.status.allocatable["pods"].toString(), "110");

  // The next update (another writer's) does not amplify twice.
  api::core::Node again = node;
  ASSERT_TRUE(amplifyNodeOnUpdate(&node, again).isOk());
  EXPECT_EQ(again.status.allocatable["cpu"].toString(), "46500m");

  // The kubelet reports new allocatable: it becomes the raw value.
  api::core::Node kubelet = node;
  kubelet.status.allocatable = kubeletNode("30", "96Gi").status.allocatable;
  ASSERT_TRUE(amplifyNodeOnUpdate(&node, kubelet).isOk());
  EXPECT_EQ(kubelet.metadata.annotations[raw_key], R"({"cpu":"30","memory":"96Gi"})");
  EXPECT_EQ(kubelet.status.allocatable["cpu"].toString(), "45");

  // The ratio removed: the raw annotation goes, allocatable is left to the kubelet.
  api::core::Node off = kubelet;
  off.metadata.annotations.erase(ratio_key);
  ASSERT_TRUE(amplifyNodeOnUpdate(&kubelet, off).isOk());
  EXPECT_EQ(off.metadata.annotations.count(raw_key), 0U);
}

TEST(Amplification, AnUnreadableRatioChangesNothing) {
  api::core::Node node = kubeletNode("31", "96Gi");
  node.metadata.annotations[std::string(api::kAnnotationNodeResourceAmplificationRatio)] =
      R"({"cpu":"fast"})";
  const api::core::Node before = node;
  EXPECT_FALSE(amplifyNodeOnUpdate(nullptr, node).isOk());
  EXPECT_EQ(node, before);
}

}  // namespace
}  // namespace koord::manager::noderesource
