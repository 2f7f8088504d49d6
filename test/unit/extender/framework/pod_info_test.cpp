#include "extender/framework/pod_info.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace koord::extender::framework {
namespace {

using testing::makePod;

TEST(PodInfoTest, QosFromLabel) {
  struct Case {
    std::string label;  // "-": no label
    KoordQos want;
    std::string name;
  };
  const std::vector<Case> cases = {
      {"LSE", KoordQos::kLSE, "LSE"},
      {"LSR", KoordQos::kLSR, "LSR"},
      {"LS", KoordQos::kLS, "LS"},
      {"BE", KoordQos::kBE, "BE"},
      {"SYSTEM", KoordQos::kSystem, "SYSTEM"},
      {"be", KoordQos::kNone, ""},
      {"", KoordQos::kNone, ""},
      {"-", KoordQos::kNone, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.label);
    auto pod = makePod("p");
    if (c.label != "-")
      pod->metadata.labels["koordinator.sh/qosClass"] = c.label;
    EXPECT_EQ(koordQosOf(*pod), c.want);
    EXPECT_EQ(koordQosName(koordQosOf(*pod)), c.name);
  }
}

TEST(PodInfoTest, BandFromPriorityAndLabel) {
  struct Case {
    std::optional<int32_t> priority;
    std::string label;
    PriorityBand want;
  };
  const std::vector<Case> cases = {
      {9000, "", PriorityBand::kProd},
      {9999, "", PriorityBand::kProd},
      {10000, "", PriorityBand::kNone},
      {7500, "", PriorityBand::kMid},
      {5000, "", PriorityBand::kBatch},
      {5999, "", PriorityBand::kBatch},
      {3999, "", PriorityBand::kFree},
      {2999, "", PriorityBand::kNone},
      {std::nullopt, "", PriorityBand::kNone},
      // The explicit class label wins over spec.priority.
      {9500, "koord-batch", PriorityBand::kBatch},
      {std::nullopt, "koord-free", PriorityBand::kFree},
      // An unknown word in the label is no band, whatever spec.priority says (Koordinator's
      // GetPodPriorityClassRaw; its own test expects PriorityNone here).
      {5500, "unknown", PriorityBand::kNone},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.priority.value_or(-1)) + " " + c.label);
    auto pod = makePod("p");
    pod->spec.priority = c.priority;
    if (!c.label.empty())
      pod->metadata.labels["koordinator.sh/priority-class"] = c.label;
    EXPECT_EQ(priorityBandOf(*pod), c.want);
  }
  EXPECT_EQ(priorityBandName(PriorityBand::kMid), "koord-mid");
  EXPECT_EQ(priorityBandName(PriorityBand::kNone), "");
}

TEST(PodInfoTest, CreateComputesKeyRequestsAndClasses) {
  auto pod = makePod("web", "500m", "", "256Mi");
  pod->metadata.labels["koordinator.sh/qosClass"] = "LS";
  pod->spec.priority = 9100;
  api::core::Container init;
  init.name = "init";
  init.resources.requests["cpu"] = testing::q("2");
  pod->spec.initContainers.push_back(init);
  pod->spec.containers[0].resources.requests["kubernetes.io/batch-cpu"] = testing::q("300");
  auto info = PodInfo::create(pod);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ((*info)->key, "default/web");
  EXPECT_EQ((*info)->uid, "uid-web");
  EXPECT_EQ((*info)->requests.milli_cpu, 2000);  // the init container raises the sum
  EXPECT_EQ((*info)->requests.memory, 256 << 20);
  EXPECT_EQ((*info)->requests.pods, 1);
  EXPECT_EQ((*info)->requests.get("kubernetes.io/batch-cpu"), 300);
  EXPECT_EQ((*info)->qos, KoordQos::kLS);
  EXPECT_EQ((*info)->band, PriorityBand::kProd);
  EXPECT_EQ((*info)->priority, 9100);
}

TEST(PodInfoTest, CreateRejectsNamelessPod) {
  auto pod = makePod("");
  auto info = PodInfo::create(pod);
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(info.status().message().find("metadata.name"), std::string::npos);
  EXPECT_FALSE(PodInfo::create(nullptr).ok());
}

}  // namespace
}  // namespace koord::extender::framework
