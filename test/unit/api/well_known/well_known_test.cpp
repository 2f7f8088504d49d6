#include "koord/api/well_known.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace koord::api {
namespace {

using StringMap = std::map<std::string, std::string>;

TEST(WellKnownTest, ExactSpellings) {
  // A sample across every section: these strings are the API and must never drift.
  EXPECT_EQ(kLabelPodQoS, "koordinator.sh/qosClass");
  EXPECT_EQ(kLabelPodPriorityClass, "koordinator.sh/priority-class");
  EXPECT_EQ(kResourceBatchCPU, "kubernetes.io/batch-cpu");
  EXPECT_EQ(kResourceGPUMemoryRatio, "koordinator.sh/gpu-memory-ratio");
  EXPECT_EQ(kAnnotationDeviceAllocated, "scheduling.koordinator.sh/device-allocated");
  EXPECT_EQ(kAnnotationNodeReservation, "node.koordinator.sh/reservation");
  EXPECT_EQ(kAnnotationKubeletCPUManagerPolicy, "kubelet.koordinator.sh/cpu-manager-policy");
  EXPECT_EQ(kAnnotationQuotaSharedWeight, "quota.scheduling.koordinator.sh/shared-weight");
  EXPECT_EQ(kAnnotationGangMinNum, "gang.scheduling.koordinator.sh/min-available");
  EXPECT_EQ(kAnnotationAliasGangMatchPolicy, "pod-group.scheduling.sigs.k8s.io/match-policy");
  EXPECT_EQ(kAnnotationBindGangGroupID, "internal.scheduling.koordinator.sh/bind-gang-group-id");
  EXPECT_EQ(kAnnotationDeschedulerEvict, "descheduler.alpha.kubernetes.io/evict");
  EXPECT_EQ(kRootQuotaName, "koordinator-root-quota");
}

TEST(WellKnownTest, QoSClassFromLabels) {
  struct Case {
    std::optional<std::string> label;
    QoSClass want;
  };
  const std::vector<Case> cases = {
      {std::nullopt, QoSClass::kNone}, {"LSE", QoSClass::kLSE}, {"LSR", QoSClass::kLSR},
      {"LS", QoSClass::kLS},           {"BE", QoSClass::kBE},   {"SYSTEM", QoSClass::kSystem},
      {"", QoSClass::kNone},           {"be", QoSClass::kNone}, {"NONE", QoSClass::kNone},
  };
  for (const auto& tc : cases) {
    StringMap labels = {{"app", "web"}};
    if (tc.label) {
      labels[std::string(kLabelPodQoS)] = *tc.label;
    }
    EXPECT_EQ(qosClassOf(labels), tc.want) << tc.label.value_or("<absent>");
  }
  for (QoSClass qos : {QoSClass::kLSE, QoSClass::kLSR, QoSClass::kLS, QoSClass::kBE,
                       QoSClass::kSystem, QoSClass::kNone}) {
    EXPECT_EQ(parseQoSClass(toString(qos)), qos) << toString(qos);
  }
  EXPECT_EQ(toString(QoSClass::kNone), "");
}

TEST(WellKnownTest, QoSFromKubeQoS) {
  EXPECT_EQ(qosClassFromKubeQoS("Guaranteed"), QoSClass::kLSR);
  EXPECT_EQ(qosClassFromKubeQoS("Burstable"), QoSClass::kLS);
  EXPECT_EQ(qosClassFromKubeQoS("BestEffort"), QoSClass::kBE);
  EXPECT_EQ(qosClassFromKubeQoS(""), QoSClass::kNone);
  EXPECT_EQ(qosClassFromKubeQoS("besteffort"), QoSClass::kNone);
  EXPECT_EQ(qosClassWithDefault({{"koordinator.sh/qosClass", "LSE"}}, "BestEffort"),
            QoSClass::kLSE);
  EXPECT_EQ(qosClassWithDefault({{"koordinator.sh/qosClass", "bad"}}, "Burstable"), QoSClass::kLS);
  EXPECT_EQ(qosClassWithDefault({}, "Guaranteed"), QoSClass::kLSR);
  EXPECT_EQ(qosClassWithDefault({}, ""), QoSClass::kNone);
}

TEST(WellKnownTest, PriorityBands) {
  struct Case {
    std::optional<int32_t> priority;
    PriorityClass want;
  };
  const std::vector<Case> cases = {
      {std::nullopt, PriorityClass::kNone}, {0, PriorityClass::kNone},
      {2999, PriorityClass::kNone},         {3000, PriorityClass::kFree},
      {3999, PriorityClass::kFree},         {4000, PriorityClass::kNone},
      {4999, PriorityClass::kNone},         {5000, PriorityClass::kBatch},
      {5500, PriorityClass::kBatch},        {5999, PriorityClass::kBatch},
      {6000, PriorityClass::kNone},         {6999, PriorityClass::kNone},
      {7000, PriorityClass::kMid},          {7999, PriorityClass::kMid},
      {8000, PriorityClass::kNone},         {8999, PriorityClass::kNone},
      {9000, PriorityClass::kProd},         {9999, PriorityClass::kProd},
      {10000, PriorityClass::kNone},        {2000000000, PriorityClass::kNone},
      {-5000, PriorityClass::kNone},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(priorityClassOfValue(tc.priority), tc.want) << tc.priority.value_or(-1);
    EXPECT_EQ(priorityClassOf(tc.priority, {}), tc.want);
  }
  EXPECT_EQ(priorityClassOfValue(kPriorityProdValueDefault), PriorityClass::kProd);
  EXPECT_EQ(priorityClassOfValue(kPriorityMidObjectValue), PriorityClass::kMid);
  EXPECT_EQ(priorityClassOfValue(kPriorityBatchValueDefault), PriorityClass::kBatch);
  EXPECT_EQ(priorityClassOfValue(kPriorityFreeObjectValue), PriorityClass::kFree);
}

TEST(WellKnownTest, PriorityClassLabelWins) {
  struct Case {
    std::string label;
    std::optional<int32_t> priority;
    PriorityClass want;
  };
  const std::vector<Case> cases = {
      {"koord-prod", 5500, PriorityClass::kProd},
      {"koord-batch", 9500, PriorityClass::kBatch},
      {"koord-free", std::nullopt, PriorityClass::kFree},
      {"koord-mid", 3500, PriorityClass::kMid},
      // A set but unknown label is None, whatever the priority says.
      {"unknown", 5500, PriorityClass::kNone},
      // An empty label is as good as none.
      {"", 5500, PriorityClass::kBatch},
  };
  for (const auto& tc : cases) {
    StringMap labels = {{std::string(kLabelPodPriorityClass), tc.label}};
    EXPECT_EQ(priorityClassOf(tc.priority, labels), tc.want) << tc.label;
  }
  for (PriorityClass p : {PriorityClass::kProd, PriorityClass::kMid, PriorityClass::kBatch,
                          PriorityClass::kFree, PriorityClass::kNone}) {
    EXPECT_EQ(parsePriorityClass(toString(p)), p) << toString(p);
  }
}

TEST(WellKnownTest, TranslateResourceName) {
  struct Case {
    PriorityClass priority;
    std::string name;
    std::string want;
  };
  const std::vector<Case> cases = {
      {PriorityClass::kProd, "cpu", "cpu"},
      {PriorityClass::kNone, "memory", "memory"},
      {PriorityClass::kProd, "nvidia.com/gpu", "nvidia.com/gpu"},
      {PriorityClass::kBatch, "cpu", "kubernetes.io/batch-cpu"},
      {PriorityClass::kBatch, "memory", "kubernetes.io/batch-memory"},
      {PriorityClass::kMid, "cpu", "kubernetes.io/mid-cpu"},
      {PriorityClass::kMid, "memory", "kubernetes.io/mid-memory"},
      // Koordinator's quirks, reproduced: no mapping for free, nor for other resources.
      {PriorityClass::kFree, "cpu", ""},
      {PriorityClass::kFree, "memory", ""},
      {PriorityClass::kBatch, "nvidia.com/gpu", ""},
      {PriorityClass::kMid, "ephemeral-storage", ""},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(translateResourceName(tc.priority, tc.name), tc.want)
        << toString(tc.priority) << " " << tc.name;
  }
}

TEST(WellKnownTest, GangNameResolutionOrder) {
  const std::string pg(kLabelPodGroup);
  const std::string lightweight(kLabelLightweightCoschedulingPodGroupName);
  const std::string anno(kAnnotationGangName);
  struct Case {
    std::string name;
    StringMap labels;
    StringMap annotations;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"none", {}, {}, ""},
      {"annotation only", {}, {{anno, "a"}}, "a"},
      {"deprecated label beats annotation", {{lightweight, "l"}}, {{anno, "a"}}, "l"},
      {"PodGroup label beats all", {{pg, "p"}, {lightweight, "l"}}, {{anno, "a"}}, "p"},
      {"empty label falls through", {{pg, ""}}, {{anno, "a"}}, "a"},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(gangNameOf(tc.labels, tc.annotations), tc.want) << tc.name;
  }
}

}  // namespace
}  // namespace koord::api
