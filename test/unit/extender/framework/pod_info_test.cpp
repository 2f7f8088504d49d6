#include "extender/framework/pod_info.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace koord::extender::framework {
namespace {

using testing::makePod;

// PodInfo reads the QoS class as api::qosClassOf does (an exact spelling of the label).
TEST(PodInfoTest, QosFromLabel) {
  struct Case {
    std::string label;  // "-": no label
    api::QoSClass want;
    std::string name;
  };
  const std::vector<Case> cases = {
      {"LSE", api::QoSClass::kLSE, "LSE"},
      {"LSR", api::QoSClass::kLSR, "LSR"},
      {"LS", api::QoSClass::kLS, "LS"},
      {"BE", api::QoSClass::kBE, "BE"},
      {"SYSTEM", api::QoSClass::kSystem, "SYSTEM"},
      {"be", api::QoSClass::kNone, ""},
      {"", api::QoSClass::kNone, ""},
      {"-", api::QoSClass::kNone, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.label);
    auto pod = makePod("p");
    if (c.label != "-")
      pod->metadata.labels["koordinator.sh/qosClass"] = c.label;
    auto info = PodInfo::create(pod);
    ASSERT_TRUE(info.ok()) << info.status();
    EXPECT_EQ((*info)->qos, c.want);
    EXPECT_EQ(api::toString((*info)->qos), c.name);
  }
}

// PodInfo reads the priority band as api::priorityClassOf does.
TEST(PodInfoTest, BandFromPriorityAndLabel) {
  struct Case {
    std::optional<int32_t> priority;
    std::string label;
    api::PriorityClass want;
  };
  const std::vector<Case> cases = {
      {9000, "", api::PriorityClass::kProd},
      {9999, "", api::PriorityClass::kProd},
      {10000, "", api::PriorityClass::kNone},
      {7500, "", api::PriorityClass::kMid},
      {5000, "", api::PriorityClass::kBatch},
      {5999, "", api::PriorityClass::kBatch},
      {3999, "", api::PriorityClass::kFree},
      {2999, "", api::PriorityClass::kNone},
      {std::nullopt, "", api::PriorityClass::kNone},
      // The explicit class label wins over spec.priority.
      {9500, "koord-batch", api::PriorityClass::kBatch},
      {std::nullopt, "koord-free", api::PriorityClass::kFree},
      // An unknown word in the label is no band, whatever spec.priority says (Koordinator's
      // GetPodPriorityClassRaw; its own test expects PriorityNone here).
      {5500, "unknown", api::PriorityClass::kNone},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::to_string(c.priority.value_or(-1)) + " " + c.label);
    auto pod = makePod("p");
    pod->spec.priority = c.priority;
    if (!c.label.empty())
      pod->metadata.labels["koordinator.sh/priority-class"] = c.label;
    auto info = PodInfo::create(pod);
    ASSERT_TRUE(info.ok()) << info.status();
    EXPECT_EQ((*info)->band, c.want);
  }
  EXPECT_EQ(api::toString(api::PriorityClass::kMid), "koord-mid");
  EXPECT_EQ(api::toString(api::PriorityClass::kNone), "");
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
  EXPECT_EQ((*info)->qos, api::QoSClass::kLS);
  EXPECT_EQ((*info)->band, api::PriorityClass::kProd);
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
