#include "extender/plugins/batch_resources/batch_resources.hpp"

#include <gtest/gtest.h>

#include "../plugin_test_util.hpp"

namespace koord::extender::plugins::batch_resources {
namespace {

using testing::Quantities;

constexpr const char* kBatchCpu = "kubernetes.io/batch-cpu";
constexpr const char* kBatchMemory = "kubernetes.io/batch-memory";
constexpr const char* kMidCpu = "kubernetes.io/mid-cpu";

struct Case {
  std::string name;
  Quantities allocatable;
  Quantities existing;
  Quantities request;
  framework::Code want_code = framework::Code::kSuccess;
  std::vector<std::string> want_reasons = {};
};

TEST(BatchResourcesTest, FitsOnlyWhatTheNodeAdvertises) {
  const std::vector<Case> cases = {
      {"fits", {{kBatchCpu, "4000"}, {kBatchMemory, "8Gi"}}, {}, {{kBatchCpu, "4000"}}},
      {"too much batch-cpu",
       {{kBatchCpu, "4000"}},
       {},
       {{kBatchCpu, "4001"}},
       framework::Code::kUnschedulable,
       {"Insufficient kubernetes.io/batch-cpu"}},
      {"node advertises none",
       {{"cpu", "8"}},
       {},
       {{kBatchMemory, "1Gi"}},
       framework::Code::kUnschedulable,
       {"Insufficient kubernetes.io/batch-memory"}},
      {"pods already there count",
       {{kBatchCpu, "4000"}},
       {{kBatchCpu, "3000"}},
       {{kBatchCpu, "2000"}},
       framework::Code::kUnschedulable,
       {"Insufficient kubernetes.io/batch-cpu"}},
      {"pods already there, still fits",
       {{kBatchCpu, "4000"}},
       {{kBatchCpu, "3000"}},
       {{kBatchCpu, "1000"}}},
      {"every short resource is a reason",
       {{kBatchCpu, "1000"}, {kMidCpu, "1000"}},
       {},
       {{kBatchCpu, "2000"}, {kMidCpu, "2000"}},
       framework::Code::kUnschedulable,
       {"Insufficient kubernetes.io/batch-cpu", "Insufficient kubernetes.io/mid-cpu"}},
      {"plain cpu is not this plugin's business", {{"cpu", "1"}}, {}, {{"cpu", "4"}}},
  };
  BatchResourcesPlugin plugin(*decodeArgs(nullptr));
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::shared_ptr<const framework::PodInfo>> pods;
    if (!c.existing.empty()) {
      pods.push_back(testing::podInfo(testing::makePod("old", c.existing)));
    }
    auto node = testing::nodeInfo(testing::makeNode("n1", c.allocatable), pods);
    auto pod = testing::podInfo(testing::makePod("p", c.request));
    framework::CycleState state;
    framework::PluginStatus status = plugin.filter(state, *pod, *node);
    EXPECT_EQ(status.code(), c.want_code) << status.message();
    EXPECT_EQ(status.reasons(), c.want_reasons);
  }
}

TEST(BatchResourcesTest, PreFilterSkipsPodsWithoutColocationResources) {
  BatchResourcesPlugin plugin(*decodeArgs(nullptr));
  framework::CycleState state;
  auto plain = testing::podInfo(testing::makePod("p", {{"cpu", "1"}}));
  auto batch = testing::podInfo(testing::makePod("p", {{kBatchMemory, "1Gi"}}));
  EXPECT_EQ(plugin.preFilter(state, *plain).code(), framework::Code::kSkip);
  EXPECT_EQ(plugin.preFilter(state, *batch).code(), framework::Code::kSuccess);
}

TEST(BatchResourcesTest, ConfiguredResourcesOnly) {
  auto args = decodeArgs(api::Json{{"resources", {kBatchCpu}}});
  ASSERT_TRUE(args.ok()) << args.status();
  BatchResourcesPlugin plugin(*args);
  framework::CycleState state;
  auto pod = testing::podInfo(testing::makePod("p", {{kBatchMemory, "1Gi"}}));
  auto node = testing::nodeInfo(testing::makeNode("n1", {}));
  EXPECT_EQ(plugin.preFilter(state, *pod).code(), framework::Code::kSkip);
  EXPECT_TRUE(plugin.filter(state, *pod, *node).isSuccess());
}

TEST(BatchResourcesTest, ArgsAreStrict) {
  const std::vector<std::pair<api::Json, std::vector<std::string>>> cases = {
      {nullptr, {}},
      {api::Json{{"resources", {kBatchCpu, kMidCpu}}}, {}},
      {api::Json{{"resources", api::Json::array()}}, {"args.resources: must not be empty"}},
      {api::Json{{"resources", {"cpu", kBatchCpu, kBatchCpu}}},
       {"args.resources[0]: unsupported resource \"cpu\"",
        "args.resources[2]: duplicate resource \"kubernetes.io/batch-cpu\""}},
      {api::Json{{"resources", "batch"}, {"x", 1}},
       {"args.resources: expected array, got string", "args.x: unknown field"}},
  };
  for (const auto& [json, wants] : cases) {
    SCOPED_TRACE(json.dump());
    auto args = decodeArgs(json);
    ASSERT_EQ(args.ok(), wants.empty()) << args.status();
    for (const auto& want : wants) {
      EXPECT_NE(args.status().message().find(want), std::string::npos) << args.status();
    }
  }
}

}  // namespace
}  // namespace koord::extender::plugins::batch_resources
