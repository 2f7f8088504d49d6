#include "agent/reporters/device_report.hpp"

#include <gtest/gtest.h>

namespace koord::agent::reporters {
namespace {

devices::GpuDevice h200() {
  // What discovery returns on the real H200 capture (numa_node -1 on a one-NUMA-node VM).
  devices::GpuDevice gpu;
  gpu.index = 0;
  gpu.model = "NVIDIA H200";
  gpu.uuid = "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29";
  gpu.minor = 0;
  gpu.memory_total_bytes = 150754820096ULL;
  gpu.driver_version = "580.159.04";
  gpu.healthy = true;
  gpu.pci_bus_id = "0000:00:06.0";
  gpu.numa_node = -1;
  return gpu;
}

system::CpuTopology oneNode(int32_t sockets_nodes) {
  system::CpuTopology topology;
  for (int32_t id = 0; id < 4 * sockets_nodes; ++id) {
    topology.cpus.push_back({id, id, id / 4, id / 4});
  }
  topology.numa_nodes = sockets_nodes;
  topology.sockets = sockets_nodes;
  return topology;
}

api::core::Node node() {
  api::core::Node out;
  out.metadata.name = "gpu-node";
  out.metadata.uid = "node-uid";
  return out;
}

TEST(DeviceReport, H200CaptureBecomesOneGpuDevice) {
  auto device = buildDevice(node(), {h200()}, oneNode(1));
  EXPECT_EQ(device.metadata.name, "gpu-node");
  EXPECT_EQ(device.metadata.ownerReferences.at(0).uid, "node-uid");
  EXPECT_EQ(device.metadata.labels.at("node.koordinator.sh/gpu-model"), "H200");
  EXPECT_EQ(device.metadata.labels.at("node.koordinator.sh/gpu-driver-version"), "580.159.04");
  EXPECT_EQ(device.metadata.labels.at("node.koordinator.sh/gpu-vendor"), "nvidia");
  ASSERT_EQ(device.spec.devices.size(), 1U);
  const auto& info = device.spec.devices[0];
  EXPECT_EQ(info.type, "gpu");
  EXPECT_EQ(info.id, "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29");
  EXPECT_EQ(info.minor, 0);
  EXPECT_TRUE(info.health);
  EXPECT_EQ(info.resources.at("koordinator.sh/gpu-core").toString(), "100");
  EXPECT_EQ(info.resources.at("koordinator.sh/gpu-memory-ratio").toString(), "100");
  EXPECT_EQ(info.resources.at("koordinator.sh/gpu-memory").value(), 150754820096LL);
  ASSERT_TRUE(info.topology.has_value());
  EXPECT_EQ(info.topology->nodeID, 0);  // unknown NUMA node on a one-node machine
  EXPECT_EQ(info.topology->socketID, 0);
  EXPECT_EQ(info.topology->busID, "0000:00:06.0");
  EXPECT_EQ(info.topology->pcieID, "0000:00");
}

TEST(DeviceReport, TopologyOnTwoNumaNodesAndUnhealthyGpus) {
  devices::GpuDevice second = h200();
  second.index = 1;
  second.uuid = "GPU-2";
  second.minor = 1;
  second.numa_node = 1;
  second.pci_bus_id = "0000:81:00.0";
  second.healthy = false;
  devices::GpuDevice unknown = h200();
  unknown.uuid = "GPU-3";
  unknown.minor = -1;
  auto device = buildDevice(node(), {h200(), second, unknown}, oneNode(2));
  ASSERT_EQ(device.spec.devices.size(), 3U);
  EXPECT_EQ(device.spec.devices[1].topology->nodeID, 1);
  EXPECT_EQ(device.spec.devices[1].topology->socketID, 1);
  EXPECT_EQ(device.spec.devices[1].topology->pcieID, "0000:81");
  EXPECT_FALSE(device.spec.devices[1].health);
  // Unknown NUMA node with two of them: reported as unknown, and no minor when NVML had none.
  EXPECT_EQ(device.spec.devices[2].topology->nodeID, -1);
  EXPECT_EQ(device.spec.devices[2].topology->socketID, -1);
  EXPECT_FALSE(device.spec.devices[2].minor.has_value());
}

TEST(DeviceReport, NoGpusNoLabels) {
  auto device = buildDevice(node(), {}, oneNode(1));
  EXPECT_TRUE(device.spec.devices.empty());
  EXPECT_TRUE(device.metadata.labels.empty());
}

TEST(DeviceReport, ModelLabels) {
  EXPECT_EQ(gpuModelLabel("NVIDIA H200"), "H200");
  EXPECT_EQ(gpuModelLabel("Tesla V100-SXM2-16GB"), "Tesla-V100-SXM2-16GB");
  EXPECT_EQ(gpuModelLabel("NVIDIA A100-SXM4-80GB"), "A100-SXM4-80GB");
}

}  // namespace
}  // namespace koord::agent::reporters
