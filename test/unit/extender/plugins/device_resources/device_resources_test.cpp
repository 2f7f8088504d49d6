#include "extender/plugins/device_resources/device_resources.hpp"

#include <gtest/gtest.h>

#include "../plugin_test_util.hpp"

namespace koord::extender::plugins::device_resources {
namespace {

using testing::Quantities;

constexpr const char* kGpu = "koordinator.sh/gpu";
constexpr const char* kGpuCore = "koordinator.sh/gpu-core";
constexpr const char* kGpuMemory = "koordinator.sh/gpu-memory";
constexpr const char* kGpuRatio = "koordinator.sh/gpu-memory-ratio";
constexpr const char* kGpuShared = "koordinator.sh/gpu.shared";
constexpr const char* kRdma = "koordinator.sh/rdma";

// What koord's Device report makes of one 80 GiB GPU, as a node would advertise it.
const Quantities kOneGpu = {
    {"cpu", "8"}, {kGpuCore, "100"}, {kGpuMemory, "80Gi"}, {kGpuRatio, "100"}};

struct Case {
  std::string name;
  Quantities allocatable;
  Quantities existing;
  Quantities request;
  std::vector<std::string> want_reasons = {};  // empty: fits
};

TEST(DeviceResourcesTest, FitsOnlyWhatTheNodeAdvertises) {
  const std::vector<Case> cases = {
      // The defect this plugin closes: a whole GPU asked of a node that has none.
      {"a GPU on a node without GPUs",
       {{"cpu", "8"}},
       {},
       {{kGpuRatio, "100"}},
       {"Insufficient koordinator.sh/gpu-memory-ratio"}},
      {"a GPU on a node with one", kOneGpu, {}, {{kGpuRatio, "100"}}},
      {"koordinator.sh/gpu counts as core and memory ratio",
       {{"cpu", "8"}},
       {},
       {{kGpu, "50"}},
       {"Insufficient koordinator.sh/gpu-core", "Insufficient koordinator.sh/gpu-memory-ratio"}},
      {"koordinator.sh/gpu fits a node with a GPU", kOneGpu, {}, {{kGpu, "100"}}},
      {"half a GPU beside another half",
       kOneGpu,
       {{kGpu, "50"}},
       {{kGpuCore, "50"}, {kGpuRatio, "50"}}},
      {"the GPU already taken by koordinator.sh/gpu",
       kOneGpu,
       {{kGpu, "100"}},
       {{kGpuCore, "10"}},
       {"Insufficient koordinator.sh/gpu-core"}},
      {"GPU memory in bytes",
       kOneGpu,
       {{kGpuMemory, "60Gi"}},
       {{kGpuMemory, "30Gi"}},
       {"Insufficient koordinator.sh/gpu-memory"}},
      {"RDMA on a node without it",
       kOneGpu,
       {},
       {{kRdma, "100"}},
       {"Insufficient koordinator.sh/rdma"}},
      {"gpu.shared is a count, not checked", kOneGpu, {}, {{kGpuShared, "2"}, {kGpuRatio, "100"}}},
      {"cpu is not this plugin's business", {{"cpu", "1"}}, {}, {{"cpu", "4"}}},
  };
  DeviceResourcesPlugin plugin;
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
    EXPECT_EQ(status.code(),
              c.want_reasons.empty() ? framework::Code::kSuccess : framework::Code::kUnschedulable)
        << status.message();
    EXPECT_EQ(status.reasons(), c.want_reasons);
  }
}

TEST(DeviceResourcesTest, PreFilterSkipsPodsWithoutDeviceResources) {
  DeviceResourcesPlugin plugin;
  framework::CycleState state;
  EXPECT_EQ(
      plugin.preFilter(state, *testing::podInfo(testing::makePod("p", {{"cpu", "1"}}))).code(),
      framework::Code::kSkip);
  EXPECT_EQ(
      plugin.preFilter(state, *testing::podInfo(testing::makePod("p", {{kGpuShared, "1"}}))).code(),
      framework::Code::kSkip);
  for (const char* name : {kGpu, kGpuCore, kGpuMemory, kGpuRatio, kRdma}) {
    EXPECT_EQ(
        plugin.preFilter(state, *testing::podInfo(testing::makePod("p", {{name, "1"}}))).code(),
        framework::Code::kSuccess)
        << name;
  }
}

}  // namespace
}  // namespace koord::extender::plugins::device_resources
