#include "agent/devices/gpu_discovery.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test/unit/agent/devices/static_nvml.hpp"
#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::devices {
namespace {

using system::testing::FakeRoot;
using testing::FakeGpu;
using ::testing::HasSubstr;
using testing::NvmlCall;
using testing::NvmlTable;
using testing::StaticNvml;

namespace fs = std::filesystem;

const char* const kCapture = "h200-gpu-cgroup2";

// "gpu0 name=NVIDIA H200 uuid=GPU-... total=1" as {"": "gpu0", "name": "NVIDIA H200", ...}: a
// word without '=' continues the previous value (names hold spaces).
std::map<std::string, std::string> parseProbeLine(const std::string& line) {
  std::map<std::string, std::string> fields;
  std::istringstream words(line);
  std::string word;
  std::string key;
  while (words >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos) {
      fields[key] += (fields[key].empty() ? "" : " ") + word;
      continue;
    }
    key = word.substr(0, eq);
    fields[key] = word.substr(eq + 1);
  }
  return fields;
}

std::string readCaptureFile(const std::string& relative) {
  std::ifstream in(system::testing::captureDir(kCapture) / relative);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// The NVML table of the real H200 capture: nvidia/nvml-probe.txt (what NVML returned through
// dlopen on that host) and the bus id of nvidia/pci-numa.txt.
::testing::AssertionResult loadCaptureTable(NvmlTable* table, std::string* pci_numa_line) {
  std::istringstream probe(readCaptureFile("nvidia/nvml-probe.txt"));
  std::string line;
  while (std::getline(probe, line)) {
    auto fields = parseProbeLine(line);
    if (fields.count("driver") != 0) {
      table->driver_version = fields["driver"];
    }
    if (fields[""].rfind("gpu", 0) == 0) {
      FakeGpu gpu;
      gpu.name = fields["name"];
      gpu.uuid = fields["uuid"];
      gpu.minor = static_cast<uint32_t>(std::stoul(fields["minor"]));
      gpu.memory = {std::stoull(fields["total"]), std::stoull(fields["free"]),
                    std::stoull(fields["used"])};
      gpu.utilization = GpuUtilization{static_cast<uint32_t>(std::stoul(fields["gpu"])),
                                       static_cast<uint32_t>(std::stoul(fields["mem"]))};
      table->gpus.push_back(gpu);
    }
  }
  std::istringstream numa(readCaptureFile("nvidia/pci-numa.txt"));
  if (!std::getline(numa, *pci_numa_line) || table->gpus.size() != 1) {
    return ::testing::AssertionFailure()
           << "capture " << system::testing::captureDir(kCapture) << ": expected one GPU and "
           << "one pci-numa line, got " << table->gpus.size() << " GPUs";
  }
  table->gpus[0].pci.bus_id = pci_numa_line->substr(0, pci_numa_line->find('\t'));
  return ::testing::AssertionSuccess();
}

// Writes numa_node and local_cpulist of PCI device `bus_id` the way sysfs lays them out:
// devices/pci<domain>:<bus>/<bus_id>/ and the bus/pci/devices/<bus_id> link to it.
void writePciDevice(const FakeRoot& root, const std::string& bus_id, const std::string& numa,
                    const std::string& cpus) {
  const std::string device = "sys/devices/pci" + bus_id.substr(0, 7) + "/" + bus_id;
  root.write(device + "/numa_node", numa + "\n");
  root.write(device + "/local_cpulist", cpus + "\n");
  fs::create_directories(root.path() / "sys/bus/pci/devices");
  fs::create_directory_symlink(root.path() / device, root.path() / "sys/bus/pci/devices" / bus_id);
}

TEST(GpuDiscoveryTest, H200CaptureGolden) {
  NvmlTable table;
  std::string pci_numa;
  ASSERT_TRUE(loadCaptureTable(&table, &pci_numa));
  // pci-numa.txt: "<nvml bus id>\tnuma_node=<n>\tlocal_cpulist=<list>".
  auto pci_fields = parseProbeLine(pci_numa);
  FakeRoot root;
  writePciDevice(root, "0000:00:06.0", pci_fields["numa_node"], pci_fields["local_cpulist"]);
  StaticNvml nvml(table);

  auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));

  ASSERT_TRUE(gpus.ok()) << gpus.status();
  ASSERT_EQ(gpus->size(), 1U);
  const GpuDevice& gpu = gpus->front();
  EXPECT_EQ(gpu.index, 0U);
  EXPECT_EQ(gpu.model, "NVIDIA H200");
  EXPECT_EQ(gpu.uuid, "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29");
  EXPECT_EQ(gpu.minor, 0);
  EXPECT_EQ(gpu.memory_total_bytes, 150754820096ULL);
  EXPECT_EQ(gpu.driver_version, "580.159.04");
  EXPECT_TRUE(gpu.healthy);
  EXPECT_EQ(gpu.unhealthy_reason, "");
  EXPECT_EQ(gpu.pci_bus_id, "0000:00:06.0");
  EXPECT_EQ(gpu.numa_node, -1);
  EXPECT_EQ(gpu.local_cpus.toString(), "0-15");
  EXPECT_EQ(gpu.utilization, (GpuUtilization{0, 0}));
  EXPECT_TRUE(nvml.initialized()) << "discovery must leave NVML initialised for the next call";
}

TEST(GpuDiscoveryTest, NoLibraryIsNoGpus) {
  FakeRoot root;
  auto gpus = discoverGpus(nullptr, system::SysPaths::under(root.path()));
  ASSERT_TRUE(gpus.ok()) << gpus.status();
  EXPECT_TRUE(gpus->empty());
}

TEST(GpuDiscoveryTest, NoDevicesIsEmptyList) {
  FakeRoot root;
  StaticNvml nvml(NvmlTable{"580.159.04", {}, {}});
  auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));
  ASSERT_TRUE(gpus.ok()) << gpus.status();
  EXPECT_TRUE(gpus->empty());
}

// An HGX-style node: 8 GPUs, four on each of two NUMA nodes, NVML printing upper-case bus ids.
TEST(GpuDiscoveryTest, EightGpusOnTwoNumaNodes) {
  const std::vector<std::string> buses = {"1B", "43", "52", "61", "9D", "C3", "D1", "DF"};
  NvmlTable table{"550.54.15", {}, {}};
  FakeRoot root;
  for (size_t i = 0; i < buses.size(); ++i) {
    FakeGpu gpu;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.uuid = "GPU-0000000" + std::to_string(i);
    gpu.minor = static_cast<uint32_t>(7 - i);  // minors need not follow NVML's order
    gpu.memory = {85520809984ULL, 85000000000ULL, 520809984ULL};
    gpu.pci.bus_id = "00000000:" + buses[i] + ":00.0";
    table.gpus.push_back(gpu);
    std::string sysfs_id = "0000:" + buses[i] + ":00.0";
    for (char& c : sysfs_id) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    writePciDevice(root, sysfs_id, i < 4 ? "0" : "1", i < 4 ? "0-47,96-143" : "48-95,144-191");
  }
  StaticNvml nvml(table);

  auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));

  ASSERT_TRUE(gpus.ok()) << gpus.status();
  ASSERT_EQ(gpus->size(), 8U);
  const std::vector<std::string> want_bus = {"0000:1b:00.0", "0000:43:00.0", "0000:52:00.0",
                                             "0000:61:00.0", "0000:9d:00.0", "0000:c3:00.0",
                                             "0000:d1:00.0", "0000:df:00.0"};
  for (size_t i = 0; i < gpus->size(); ++i) {
    const GpuDevice& gpu = (*gpus)[i];
    SCOPED_TRACE("GPU " + std::to_string(i));
    EXPECT_EQ(gpu.index, i);
    EXPECT_EQ(gpu.uuid, "GPU-0000000" + std::to_string(i));
    EXPECT_EQ(gpu.minor, static_cast<int32_t>(7 - i));
    EXPECT_EQ(gpu.memory_total_bytes, 85520809984ULL);
    EXPECT_EQ(gpu.driver_version, "550.54.15");
    EXPECT_TRUE(gpu.healthy) << gpu.unhealthy_reason;
    EXPECT_EQ(gpu.pci_bus_id, want_bus[i]);
    EXPECT_EQ(gpu.numa_node, i < 4 ? 0 : 1);
    EXPECT_EQ(gpu.local_cpus.toString(), i < 4 ? "0-47,96-143" : "48-95,144-191");
    EXPECT_FALSE(gpu.utilization.has_value());
  }
}

// A table of three GPUs where GPU 1 fails one call: GPU 1 alone is affected.
struct DeviceFailureCase {
  const char* name;
  NvmlCall call;
  bool healthy;
  std::function<void(const GpuDevice&)> check;  // the fields of GPU 1
};

TEST(GpuDiscoveryTest, OneDeviceFailingLeavesOthersHealthy) {
  const Status failure(StatusCode::kUnavailable,
                       "failed to call 'nvmlCall' for GPU 1: GPU is lost (NVML error 15)");
  const std::vector<DeviceFailureCase> cases = {
      {"memory", NvmlCall::kMemory, false,
       [](const GpuDevice& gpu) {
         EXPECT_EQ(gpu.memory_total_bytes, 0U);
         EXPECT_EQ(gpu.uuid, "GPU-1");
         EXPECT_EQ(gpu.numa_node, 1);
       }},
      {"handle", NvmlCall::kHandle, false,
       [](const GpuDevice& gpu) {
         EXPECT_EQ(gpu.uuid, "");
         EXPECT_EQ(gpu.minor, -1);
         EXPECT_EQ(gpu.pci_bus_id, "");
         EXPECT_EQ(gpu.numa_node, -1);
         EXPECT_EQ(gpu.driver_version, "580.159.04");
       }},
      {"name", NvmlCall::kName, false,
       [](const GpuDevice& gpu) {
         EXPECT_EQ(gpu.model, "");
         EXPECT_EQ(gpu.memory_total_bytes, 1000U);
       }},
      {"uuid", NvmlCall::kUuid, false, [](const GpuDevice& gpu) { EXPECT_EQ(gpu.uuid, ""); }},
      {"minor", NvmlCall::kMinor, false, [](const GpuDevice& gpu) { EXPECT_EQ(gpu.minor, -1); }},
      {"pci", NvmlCall::kPci, false,
       [](const GpuDevice& gpu) {
         EXPECT_EQ(gpu.pci_bus_id, "");
         EXPECT_EQ(gpu.numa_node, -1);
         EXPECT_TRUE(gpu.local_cpus.empty());
         EXPECT_EQ(gpu.uuid, "GPU-1");
       }},
      {"utilization is optional", NvmlCall::kUtilization, true,
       [](const GpuDevice& gpu) {
         EXPECT_FALSE(gpu.utilization.has_value());
         EXPECT_EQ(gpu.memory_total_bytes, 1000U);
       }},
  };
  for (const DeviceFailureCase& c : cases) {
    SCOPED_TRACE(c.name);
    NvmlTable table{"580.159.04", {}, {}};
    FakeRoot root;
    for (uint32_t i = 0; i < 3; ++i) {
      FakeGpu gpu;
      gpu.name = "NVIDIA H200";
      gpu.uuid = "GPU-" + std::to_string(i);
      gpu.minor = i;
      gpu.memory = {1000, 600, 400};
      gpu.pci.bus_id = "00000000:0" + std::to_string(i) + ":00.0";
      gpu.utilization = GpuUtilization{50, 10};
      table.gpus.push_back(gpu);
      writePciDevice(root, "0000:0" + std::to_string(i) + ":00.0", std::to_string(i), "0-3");
    }
    table.gpus[1].failures[c.call] = failure;
    StaticNvml nvml(table);

    auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));

    ASSERT_TRUE(gpus.ok()) << gpus.status();
    ASSERT_EQ(gpus->size(), 3U);
    for (uint32_t i : {0U, 2U}) {
      const GpuDevice& other = (*gpus)[i];
      EXPECT_TRUE(other.healthy) << "GPU " << i << ": " << other.unhealthy_reason;
      EXPECT_EQ(other.uuid, "GPU-" + std::to_string(i));
      EXPECT_EQ(other.memory_total_bytes, 1000U);
      EXPECT_EQ(other.numa_node, static_cast<int32_t>(i));
      EXPECT_EQ(other.utilization, (GpuUtilization{50, 10}));
    }
    const GpuDevice& gpu = (*gpus)[1];
    EXPECT_EQ(gpu.index, 1U);
    EXPECT_EQ(gpu.healthy, c.healthy);
    EXPECT_EQ(gpu.unhealthy_reason, c.healthy ? "" : failure.message());
    c.check(gpu);
  }
}

TEST(GpuDiscoveryTest, FirstFailureIsTheReason) {
  NvmlTable table{"580.159.04", {FakeGpu{}}, {}};
  table.gpus[0].pci.bus_id = "00000000:00:06.0";
  table.gpus[0].failures[NvmlCall::kUuid] = Status::unimplemented("uuid failed");
  table.gpus[0].failures[NvmlCall::kMemory] = Status::unavailable("memory failed");
  StaticNvml nvml(table);
  FakeRoot root;
  auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));
  ASSERT_TRUE(gpus.ok()) << gpus.status();
  ASSERT_EQ(gpus->size(), 1U);
  EXPECT_FALSE(gpus->front().healthy);
  EXPECT_EQ(gpus->front().unhealthy_reason, "uuid failed");
}

TEST(GpuDiscoveryTest, MalformedBusIdMakesDeviceUnhealthy) {
  NvmlTable table{"580.159.04", {FakeGpu{}}, {}};
  table.gpus[0].uuid = "GPU-x";
  table.gpus[0].pci.bus_id = "garbage";
  StaticNvml nvml(table);
  FakeRoot root;
  auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));
  ASSERT_TRUE(gpus.ok()) << gpus.status();
  ASSERT_EQ(gpus->size(), 1U);
  EXPECT_FALSE(gpus->front().healthy);
  EXPECT_THAT(gpus->front().unhealthy_reason, HasSubstr("'garbage'"));
  EXPECT_EQ(gpus->front().uuid, "GPU-x");
}

TEST(GpuDiscoveryTest, LibraryFailuresFailDiscovery) {
  for (NvmlCall call : {NvmlCall::kInit, NvmlCall::kDriverVersion, NvmlCall::kDeviceCount}) {
    SCOPED_TRACE(static_cast<int>(call));
    const Status failure(StatusCode::kUnavailable,
                         "failed to call 'nvmlInit_v2': Driver Not Loaded (NVML error 9)");
    NvmlTable table{"580.159.04", {FakeGpu{}}, {{call, failure}}};
    StaticNvml nvml(table);
    FakeRoot root;
    auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));
    ASSERT_FALSE(gpus.ok());
    EXPECT_EQ(gpus.status(), failure);
  }
}

// The device's sysfs folder: what is missing is unknown, what is there must parse.
struct SysfsCase {
  const char* name;
  std::function<void(const FakeRoot&)> write;
  bool ok;
  int32_t numa_node;
  const char* local_cpus;
  const char* error;  // the file the error names, relative to the root
};

TEST(GpuDiscoveryTest, PciSysfsFolder) {
  const std::string dir = "sys/bus/pci/devices/0000:3b:00.0/";
  const std::vector<SysfsCase> cases = {
      {"both files", [&](const FakeRoot& r) { writePciDevice(r, "0000:3b:00.0", "1", "8-15"); },
       true, 1, "8-15", ""},
      {"numa_node -1", [&](const FakeRoot& r) { writePciDevice(r, "0000:3b:00.0", "-1", "0-7"); },
       true, -1, "0-7", ""},
      {"no device folder", [](const FakeRoot&) {}, true, -1, "", ""},
      {"no numa_node", [&](const FakeRoot& r) { r.write(dir + "local_cpulist", "0-3\n"); }, true,
       -1, "0-3", ""},
      {"no local_cpulist", [&](const FakeRoot& r) { r.write(dir + "numa_node", "2\n"); }, true, 2,
       "", ""},
      {"malformed numa_node",
       [&](const FakeRoot& r) {
         r.write(dir + "numa_node", "one\n");
         r.write(dir + "local_cpulist", "0-3\n");
       },
       false, 0, "", "sys/bus/pci/devices/0000:3b:00.0/numa_node"},
      {"malformed local_cpulist",
       [&](const FakeRoot& r) {
         r.write(dir + "numa_node", "0\n");
         r.write(dir + "local_cpulist", "3-1\n");
       },
       false, 0, "", "sys/bus/pci/devices/0000:3b:00.0/local_cpulist"},
  };
  for (const SysfsCase& c : cases) {
    SCOPED_TRACE(c.name);
    NvmlTable table{"580.159.04", {FakeGpu{}}, {}};
    table.gpus[0].pci.bus_id = "00000000:3B:00.0";
    StaticNvml nvml(table);
    FakeRoot root;
    c.write(root);
    auto gpus = discoverGpus(&nvml, system::SysPaths::under(root.path()));
    if (!c.ok) {
      ASSERT_FALSE(gpus.ok());
      EXPECT_EQ(gpus.status().code(), StatusCode::kInvalidArgument) << gpus.status();
      EXPECT_THAT(gpus.status().message(), HasSubstr("'" + (root.path() / c.error).string() + "'"));
      continue;
    }
    ASSERT_TRUE(gpus.ok()) << gpus.status();
    ASSERT_EQ(gpus->size(), 1U);
    EXPECT_TRUE(gpus->front().healthy) << gpus->front().unhealthy_reason;
    EXPECT_EQ(gpus->front().numa_node, c.numa_node);
    EXPECT_EQ(gpus->front().local_cpus.toString(), c.local_cpus);
  }
}

TEST(GpuDiscoveryTest, SysfsPciBusId) {
  struct Case {
    const char* in;
    const char* want;  // nullptr: kInvalidArgument
  };
  const std::vector<Case> cases = {
      {"00000000:00:06.0", "0000:00:06.0"},
      {"00000000:3B:00.0", "0000:3b:00.0"},
      {"00000001:AF:1F.7", "0001:af:1f.7"},
      {"0000:3b:00.0", "0000:3b:00.0"},
      {"0:00:06.0", "0000:00:06.0"},
      {"00010000:01:00.0", "10000:01:00.0"},
      {"", nullptr},
      {"garbage", nullptr},
      {"000000000:00:06.0", nullptr},
      {"00000000:0:06.0", nullptr},
      {"00000000:00:06", nullptr},
      {"00000000:00:06.0 ", nullptr},
      {"0000000g:00:06.0", nullptr},
      {":00:06.0", nullptr},
      {"00000000:00-06.0", nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto id = sysfsPciBusId(c.in);
    if (c.want == nullptr) {
      ASSERT_FALSE(id.ok()) << *id;
      EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(id.status().message(), HasSubstr("'" + std::string(c.in) + "'"));
      continue;
    }
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(*id, c.want);
  }
}

}  // namespace
}  // namespace koord::agent::devices
