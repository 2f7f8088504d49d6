#include "extender/plugins/load_aware/estimator.hpp"

#include <gtest/gtest.h>

#include <string>

#include "load_aware_test_util.hpp"

namespace koord::extender::plugins::load_aware {
namespace {

using testing::PodInput;

struct EstimateCase {
  std::string name;  // Koordinator's default_estimator_test.go case
  PodInput pod;
  ResourceAmounts factors;  // laid over the defaults (cpu 85, memory 70)
  bool allow_customize = false;
  int64_t want_cpu;
  int64_t want_memory;
};

Estimator estimatorFor(const std::string& json) {
  auto args = decodeArgs(api::Json::parse(json), "LoadAwareScheduling");
  EXPECT_TRUE(args.ok()) << args.status();
  return Estimator(*args, ResourceNames::fromArgs(*args));
}

// As Koordinator's table, the estimator is built from args without their validation (its zoomed
// cases use a factor of 110, which the args refuse).
TEST(EstimatorTest, KoordinatorsEstimatePodTable) {
  PodInput empty;
  PodInput guaranteed;
  guaranteed.requests = {{"cpu", "4"}, {"memory", "8Gi"}};
  guaranteed.limits = guaranteed.requests;
  PodInput burstable = guaranteed;
  burstable.limits = {{"cpu", "8"}, {"memory", "8Gi"}};
  PodInput batch;
  batch.labels = {{"koordinator.sh/qosClass", "BE"}};
  batch.priority = api::kPriorityBatchValueMin;
  batch.requests = {{"kubernetes.io/batch-cpu", "4000"}, {"kubernetes.io/batch-memory", "8Gi"}};
  batch.limits = batch.requests;
  PodInput request_only;
  request_only.labels = {{"koordinator.sh/qosClass", "LS"}};
  request_only.priority = api::kPriorityProdValueMax;
  request_only.requests = {{"cpu", "4"}, {"memory", "8Gi"}};
  PodInput customized = request_only;
  customized.annotations = {
      {"scheduling.koordinator.sh/load-estimated-scaling-factors", R"({"cpu":100})"}};

  const std::vector<EstimateCase> cases = {
      {"estimate empty pod", empty, {}, false, 250, kDefaultMemoryRequest},
      {"estimate guaranteed pod", guaranteed, {}, false, 3400, 6012954214},
      {"estimate burstable pod", burstable, {}, false, 6800, 6012954214},
      {"estimate guaranteed pod and zoomed cpu factors",
       guaranteed,
       {{"cpu", 110}},
       false,
       4000,
       6012954214},
      {"estimate guaranteed pod and zoomed memory factors",
       guaranteed,
       {{"memory", 110}},
       false,
       3400,
       8 * testing::kGi},
      {"estimate Batch pod", batch, {}, false, 3400, 6012954214},
      {"estimate pod only has request",
       request_only,
       {{"cpu", 80}, {"memory", 80}},
       false,
       3200,
       6871947674},
      {"estimate pod with customized factors",
       customized,
       {{"cpu", 80}, {"memory", 80}},
       true,
       4000,
       6871947674},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    LoadAwareArgs args;
    args.estimated_scaling_factors = {{"cpu", 85}, {"memory", 70}};
    for (const auto& [name, factor] : c.factors)
      args.estimated_scaling_factors[name] = factor;
    args.allow_customize_estimation = c.allow_customize;
    Estimator estimator(args, ResourceNames::fromArgs(args));
    const ResourceVector got = estimator.estimatePod(*makePod(c.pod));
    ASSERT_EQ(got.size(), 2u);  // cpu, memory
    EXPECT_EQ(got[0], c.want_cpu);
    EXPECT_EQ(got[1], c.want_memory);
  }
}

TEST(EstimatorTest, TheEstimateIsCappedAtTheLimit) {
  PodInput pod;
  pod.requests = {{"cpu", "2"}};
  pod.limits = {{"cpu", "2"}};
  pod.annotations = {
      {"scheduling.koordinator.sh/load-estimated-scaling-factors", R"({"cpu":150})"}};
  // A customized factor is not range-checked (the annotation is the pod owner's), but the
  // estimate never passes the limit.
  EXPECT_EQ(estimatorFor(R"({"allowCustomizeEstimation": true})").estimatePod(*makePod(pod))[0],
            2000);
}

TEST(EstimatorTest, CustomizedFactorsNeedAllowCustomizeEstimation) {
  PodInput pod;
  pod.requests = {{"cpu", "4"}};
  pod.limits = {{"cpu", "4"}};
  pod.annotations = {
      {"scheduling.koordinator.sh/load-estimated-scaling-factors", R"({"cpu":100})"}};
  EXPECT_EQ(estimatorFor("{}").estimatePod(*makePod(pod))[0], 3400);
  // An unreadable annotation is ignored.
  pod.annotations.begin()->second = "{cpu";
  EXPECT_EQ(estimatorFor(R"({"allowCustomizeEstimation": true})").estimatePod(*makePod(pod))[0],
            3400);
}

// Koordinator's translation: a koord-mid pod is read on mid-cpu / mid-memory, which get no 250m /
// 200Mi default when absent (only cpu, memory and the batch resources do).
TEST(EstimatorTest, MidPodsAreReadOnMidResourcesWithoutDefaults) {
  PodInput mid;
  mid.priority = api::kPriorityMidValueDefault;
  mid.requests = {{"kubernetes.io/mid-cpu", "4k"}};
  const ResourceVector got = estimatorFor("{}").estimatePod(*makePod(mid));
  EXPECT_EQ(got[0], 3400);
  EXPECT_EQ(got[1], 0);
}

TEST(EstimatorTest, KoordinatorsEstimateNodeTable) {
  Estimator estimator = estimatorFor("{}");
  struct Case {
    std::string name;
    testing::Quantities allocatable;
    std::map<std::string, std::string> annotations;
    int64_t want_cpu;
    int64_t want_memory;
  };
  const std::vector<Case> cases = {
      {"estimate empty node", {{"cpu", "32"}}, {}, 32000, 0},
      {"estimate node with original allocatable",
       {{"cpu", "32"}, {"memory", "42Gi"}},
       {{"node.koordinator.sh/raw-allocatable", R"({"cpu":28,"memory":"32Gi"})"}},
       28000,
       32 * testing::kGi},
      {"estimate node with original allocatable and sames",
       {{"cpu", "32"}, {"memory", "42Gi"}},
       {{"node.koordinator.sh/raw-allocatable", R"({"cpu":32,"memory":"42Gi"})"}},
       32000,
       42 * testing::kGi},
      {"an unreadable raw-allocatable is ignored",
       {{"cpu", "32"}, {"memory", "42Gi"}},
       {{"node.koordinator.sh/raw-allocatable", "not json"}},
       32000,
       42 * testing::kGi},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto node = extender::testing::makeNode("n", c.allocatable, c.annotations);
    const ResourceVector got = estimator.allocatable(*node);
    EXPECT_EQ(got[0], c.want_cpu);
    EXPECT_EQ(got[1], c.want_memory);
  }
}

TEST(EstimatorTest, PriorityWithDefaultFollowsTheQoSClassWhenNoBandIsGiven) {
  PodInput pod;
  EXPECT_EQ(priorityWithDefault(*makePod(pod)), api::PriorityClass::kBatch);  // BestEffort
  pod.requests = {{"cpu", "1"}};
  EXPECT_EQ(priorityWithDefault(*makePod(pod)), api::PriorityClass::kProd);  // Burstable: LS
  pod.labels = {{"koordinator.sh/priority-class", "koord-mid"}};
  EXPECT_EQ(priorityWithDefault(*makePod(pod)), api::PriorityClass::kMid);
  pod.labels = {};
  pod.priority = api::kPriorityBatchValueDefault;
  EXPECT_EQ(priorityWithDefault(*makePod(pod)), api::PriorityClass::kBatch);
}

}  // namespace
}  // namespace koord::extender::plugins::load_aware
