#include "agent/devices/dlopen_nvml.hpp"

#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "agent/devices/gpu_discovery.hpp"
#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::devices {
namespace {

using system::testing::FakeRoot;
using ::testing::HasSubstr;

// An extra reference to the fake library, so its state (the init count) outlives a DlopenNvml
// and the test can read it.
class FakeLibrary {
 public:
  explicit FakeLibrary(const char* path) : handle_(::dlopen(path, RTLD_NOW | RTLD_LOCAL)) {}
  ~FakeLibrary() {
    if (handle_ != nullptr) {
      ::dlclose(handle_);
    }
  }
  FakeLibrary(const FakeLibrary&) = delete;
  FakeLibrary& operator=(const FakeLibrary&) = delete;

  [[nodiscard]] bool loaded() const { return handle_ != nullptr; }
  // nvmlInit_v2 calls not balanced by nvmlShutdown; -1 when the hook is missing.
  [[nodiscard]] int activeInits() const {
    void* hook = handle_ == nullptr ? nullptr : ::dlsym(handle_, "fakeNvmlActiveInits");
    return hook == nullptr ? -1 : reinterpret_cast<int (*)()>(hook)();
  }

 private:
  void* handle_;
};

bool loadable(const std::string& library) {
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return false;
  }
  ::dlclose(handle);
  return true;
}

TEST(DlopenNvmlTest, MissingLibraryIsNotFound) {
  for (const std::string library : {kNvmlLibrary, "libkoord-no-such-nvml.so.1"}) {
    SCOPED_TRACE(library);
    if (loadable(library)) {
      GTEST_SKIP() << library << " is installed on this host (an NVIDIA driver is present)";
    }
    auto nvml = DlopenNvml::create(library);
    ASSERT_FALSE(nvml.ok());
    EXPECT_EQ(nvml.status().code(), StatusCode::kNotFound);
    EXPECT_THAT(nvml.status().message(), HasSubstr("failed to load '" + library + "'"));
  }
}

TEST(DlopenNvmlTest, LibraryWithoutNvmlSymbolsNamesTheSymbol) {
  auto nvml = DlopenNvml::create("libm.so.6");
  ASSERT_FALSE(nvml.ok());
  EXPECT_EQ(nvml.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(nvml.status().message(),
              HasSubstr("failed to resolve symbol 'nvmlInit_v2' in 'libm.so.6'"));
}

TEST(DlopenNvmlTest, QueriesBeforeInitFail) {
  FakeLibrary library(FAKE_NVML_PATH);
  ASSERT_TRUE(library.loaded()) << ::dlerror();
  auto nvml = DlopenNvml::create(FAKE_NVML_PATH);
  ASSERT_TRUE(nvml.ok()) << nvml.status();
  auto count = (*nvml)->deviceCount();
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(count.status().message(),
            "failed to call 'nvmlDeviceGetCount_v2': Uninitialized (NVML error 1)");
  EXPECT_EQ(library.activeInits(), 0);
}

TEST(DlopenNvmlTest, InitIsIdempotentAndUndoneOnDestruction) {
  FakeLibrary library(FAKE_NVML_PATH);
  ASSERT_TRUE(library.loaded()) << ::dlerror();
  {
    auto nvml = DlopenNvml::create(FAKE_NVML_PATH);
    ASSERT_TRUE(nvml.ok()) << nvml.status();
    ASSERT_TRUE((*nvml)->init().isOk());
    ASSERT_TRUE((*nvml)->init().isOk());
    EXPECT_EQ(library.activeInits(), 1);
  }
  EXPECT_EQ(library.activeInits(), 0);
  {
    auto nvml = DlopenNvml::create(FAKE_NVML_PATH);
    ASSERT_TRUE(nvml.ok()) << nvml.status();
    ASSERT_TRUE((*nvml)->init().isOk());
    ASSERT_TRUE((*nvml)->shutdown().isOk());
    EXPECT_EQ(library.activeInits(), 0);
    ASSERT_TRUE((*nvml)->shutdown().isOk()) << "a second shutdown is a no-op";
  }
  EXPECT_EQ(library.activeInits(), 0) << "the destructor must not shut down twice";
}

// The whole path through the C ABI: buffers, structs, handles and error strings.
TEST(DlopenNvmlTest, DiscoversThroughTheLibrary) {
  struct Case {
    const char* library;
    const char* pci_symbol;
    bool utilization;
  };
  for (const Case& c : {Case{FAKE_NVML_PATH, "nvmlDeviceGetPciInfo_v3", true},
                        Case{FAKE_NVML_V2_PATH, "nvmlDeviceGetPciInfo_v2", false}}) {
    SCOPED_TRACE(c.library);
    auto nvml = DlopenNvml::create(c.library);
    ASSERT_TRUE(nvml.ok()) << nvml.status();
    FakeRoot root;
    root.write("sys/bus/pci/devices/0000:00:06.0/numa_node", "-1\n");
    root.write("sys/bus/pci/devices/0000:00:06.0/local_cpulist", "0-15\n");
    root.write("sys/bus/pci/devices/0000:9a:00.0/numa_node", "1\n");

    auto gpus = discoverGpus(nvml->get(), system::SysPaths::under(root.path()));

    ASSERT_TRUE(gpus.ok()) << gpus.status();
    ASSERT_EQ(gpus->size(), 2U);
    const GpuDevice& h200 = (*gpus)[0];
    EXPECT_EQ(h200.model, "NVIDIA H200");
    EXPECT_EQ(h200.uuid, "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29");
    EXPECT_EQ(h200.minor, 0);
    EXPECT_EQ(h200.memory_total_bytes, 150754820096ULL);
    EXPECT_EQ(h200.driver_version, "580.159.04");
    EXPECT_TRUE(h200.healthy) << h200.unhealthy_reason;
    EXPECT_EQ(h200.pci_bus_id, "0000:00:06.0");
    EXPECT_EQ(h200.numa_node, -1);
    EXPECT_EQ(h200.local_cpus.toString(), "0-15");
    EXPECT_EQ(h200.utilization.has_value(), c.utilization);

    const GpuDevice& broken = (*gpus)[1];
    EXPECT_EQ(broken.index, 1U);
    EXPECT_EQ(broken.minor, 3);
    EXPECT_FALSE(broken.healthy);
    EXPECT_EQ(broken.unhealthy_reason,
              "failed to call 'nvmlDeviceGetMemoryInfo' for GPU 1: Not Supported (NVML error 3)");
    EXPECT_EQ(broken.pci_bus_id, "0000:9a:00.0");
    EXPECT_EQ(broken.numa_node, 1);
    if (c.utilization) {
      EXPECT_EQ(broken.utilization, (GpuUtilization{87, 41}));
    }

    auto pci = (*nvml)->devicePciInfo(0);
    ASSERT_TRUE(pci.ok()) << pci.status();
    EXPECT_EQ(pci->pci_device_id, 0x233510deU);
    EXPECT_EQ(pci->pci_subsystem_id, 0x18bf10deU);
    EXPECT_EQ(pci->device, 6U);
    auto utilization = (*nvml)->deviceUtilization(0);
    if (!c.utilization) {
      ASSERT_FALSE(utilization.ok());
      EXPECT_EQ(utilization.status().code(), StatusCode::kUnimplemented);
      EXPECT_THAT(utilization.status().message(),
                  HasSubstr("'nvmlDeviceGetUtilizationRates' for GPU 0"));
    }
    auto out_of_range = (*nvml)->deviceHandle(2);
    EXPECT_EQ(out_of_range.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(out_of_range.message(),
              "failed to call 'nvmlDeviceGetHandleByIndex_v2' for GPU 2: Invalid Argument "
              "(NVML error 2)");
  }
}

}  // namespace
}  // namespace koord::agent::devices
