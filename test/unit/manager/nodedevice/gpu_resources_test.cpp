#include "manager/nodedevice/gpu_resources.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "koord/k8s/client.hpp"
#include "manager/nodedevice/device_decoder.hpp"
#include "test/unit/manager/nodedevice/fixture.hpp"

namespace koord::manager::nodedevice {
namespace {

using testing::deviceJson;
using testing::Gpu;

api::scheduling::Device decode(api::Json j) {
  auto d = k8s::decodeObject<api::scheduling::Device>(std::move(j));
  EXPECT_TRUE(d.ok()) << d.status().toString();
  return d.ok() ? *d : api::scheduling::Device{};
}

std::string text(const resource::ResourceList& list, std::string_view key) {
  const auto it = list.find(key);
  return it == list.end() ? "<none>" : it->second.toString();
}

TEST(GpuResourcesTest, HealthyGpusAreCountedAndTheirMemorySummed) {
  const auto device = decode(deviceJson(
      "n1", {{0, true, "16Gi"}, {1, true, "16Gi"}, {2, false, "16Gi"}, {3, true, "", "rdma"}}));
  const NodeGpu gpu = nodeGpuFor(&device, log::Logger());
  EXPECT_EQ(gpu.healthy_gpus, 2);
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-core"), "200");
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-memory"), "32Gi");
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-memory-ratio"), "200");
  EXPECT_EQ(gpu.resources.size(), 3U);
  EXPECT_EQ(gpu.labels, (std::map<std::string, std::string>{
                            {"node.koordinator.sh/gpu-driver-version", "535.104.05"},
                            {"node.koordinator.sh/gpu-model", "A100"}}));
}

TEST(GpuResourcesTest, MixedMemoryUnitsAddUp) {
  const auto device = decode(deviceJson("n1", {{0, true, "16Gi"}, {1, true, "17179869184"}}));
  const NodeGpu gpu = nodeGpuFor(&device, log::Logger());
  EXPECT_EQ(gpu.resources.at("koordinator.sh/gpu-memory").value(), int64_t{32} << 30);
}

TEST(GpuResourcesTest, GpuWithoutMemoryStillCountsForCore) {
  const auto device = decode(deviceJson("n1", {{0, true, ""}, {1, true, "8Gi"}}));
  const NodeGpu gpu = nodeGpuFor(&device, log::Logger());
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-core"), "200");
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-memory"), "8Gi");
}

TEST(GpuResourcesTest, NoDeviceOrNoHealthyGpuAdvertisesNothing) {
  EXPECT_EQ(nodeGpuFor(nullptr, log::Logger()), NodeGpu{});
  const auto sick = decode(deviceJson("n1", {{0, false}, {1, false}}));
  EXPECT_EQ(nodeGpuFor(&sick, log::Logger()), NodeGpu{});
  const auto rdma_only = decode(deviceJson("n1", {{0, true, "", "rdma"}}));
  EXPECT_EQ(nodeGpuFor(&rdma_only, log::Logger()), NodeGpu{});
}

TEST(GpuResourcesTest, MissingOrEmptyDeviceLabelsAreNotAdvertised) {
  const auto device = decode(deviceJson("n1", {{0, true}}, "", ""));
  EXPECT_TRUE(nodeGpuFor(&device, log::Logger()).labels.empty());
  auto empty_model = decode(deviceJson("n1", {{0, true}}, "", "550.1"));
  empty_model.metadata.labels["node.koordinator.sh/gpu-model"] = "";
  EXPECT_EQ(
      nodeGpuFor(&empty_model, log::Logger()).labels,
      (std::map<std::string, std::string>{{"node.koordinator.sh/gpu-driver-version", "550.1"}}));
}

TEST(DeviceDecoderTest, EntryWithAnUnparsableMemoryIsSkippedWithALogLine) {
  api::Json j = deviceJson("n1", {{0, true, "16Gi"}, {1, true, "sixteen-gigs"}, {2, true, "16Gi"}});
  std::ostringstream out;
  const log::Logger logger(log::LogSink::toStream(out), log::LogOptions{}, "test");
  auto decoded = decodeDeviceSkippingBadEntries(std::move(j), logger);
  ASSERT_TRUE(decoded.ok()) << decoded.status().toString();
  ASSERT_EQ(decoded->spec.devices.size(), 2U);
  EXPECT_EQ(decoded->spec.devices[0].minor, 0);
  EXPECT_EQ(decoded->spec.devices[1].minor, 2);
  const std::string logged = out.str();
  EXPECT_NE(logged.find("device entry left out"), std::string::npos) << logged;
  EXPECT_NE(logged.find("n1"), std::string::npos) << logged;
  EXPECT_NE(logged.find("spec.devices[1]"), std::string::npos) << logged;

  const NodeGpu gpu = nodeGpuFor(&*decoded, logger);
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-core"), "200");
  EXPECT_EQ(text(gpu.resources, "koordinator.sh/gpu-memory"), "32Gi");
}

TEST(DeviceDecoderTest, TheDefaultDecoderWouldRejectTheWholeDevice) {
  api::Json j = deviceJson("n1", {{0, true, "16Gi"}, {1, true, "sixteen-gigs"}});
  EXPECT_FALSE(k8s::decodeObject<api::scheduling::Device>(j).ok());
  EXPECT_TRUE(decodeDeviceSkippingBadEntries(std::move(j), log::Logger()).ok());
}

TEST(DeviceDecoderTest, DeviceWithoutDevicesAndGoodDevicesDecodeAsUsual) {
  api::Json bare = {{"apiVersion", "scheduling.koordinator.sh/v1alpha1"},
                    {"kind", "Device"},
                    {"metadata", {{"name", "n1"}}}};
  auto decoded = decodeDeviceSkippingBadEntries(api::Json(bare), log::Logger());
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(decoded->spec.devices.empty());
  api::Json good = deviceJson("n1", {{0, true}});
  auto a = decodeDeviceSkippingBadEntries(api::Json(good), log::Logger());
  auto b = k8s::decodeObject<api::scheduling::Device>(good);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*a, *b);
}

}  // namespace
}  // namespace koord::manager::nodedevice
