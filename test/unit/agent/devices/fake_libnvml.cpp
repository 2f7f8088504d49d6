// A stand-in for libnvidia-ml.so.1, loaded by dlopen_nvml_test through DlopenNvml::create. It
// exports the NVML entry points koord-agent resolves, with NVML's C ABI (written here from the
// NVML reference, independently of dlopen_nvml.cpp), and serves two GPUs:
//   GPU 0: the H200 of the real capture (h200-gpu-cgroup2/nvidia/nvml-probe.txt);
//   GPU 1: an H200 whose memory query answers NVML_ERROR_NOT_SUPPORTED.
// Built twice: the default exports nvmlDeviceGetPciInfo_v3 and nvmlDeviceGetUtilizationRates;
// with FAKE_NVML_V2_ONLY it exports nvmlDeviceGetPciInfo_v2 instead (filling only the legacy bus
// id) and no utilization. Like NVML, it refuses queries before nvmlInit_v2 and rejects buffers
// smaller than NVML's v2 sizes. Its init count is process state, as NVML's is.
#include <cstdio>
#include <cstring>

// NOLINTBEGIN(readability-identifier-naming): the exported names are NVML's.
extern "C" {

struct nvmlDevice_st {
  unsigned int index;
};
using nvmlDevice_t = nvmlDevice_st*;

struct FakeMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct FakePciInfo {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
};

struct FakeUtilization {
  unsigned int gpu;
  unsigned int memory;
};

int nvmlInit_v2();
int nvmlShutdown();
const char* nvmlErrorString(int result);
int nvmlSystemGetDriverVersion(char* version, unsigned int length);
int nvmlDeviceGetCount_v2(unsigned int* count);
int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device);
int nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length);
int nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length);
int nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int* minor);
int nvmlDeviceGetMemoryInfo(nvmlDevice_t device, FakeMemory* memory);
#ifdef FAKE_NVML_V2_ONLY
int nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, FakePciInfo* pci);
#else
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, FakePciInfo* pci);
int nvmlDeviceGetUtilizationRates(nvmlDevice_t device, FakeUtilization* utilization);
#endif
// Test hook: nvmlInit_v2 calls not yet balanced by nvmlShutdown.
int fakeNvmlActiveInits();

}  // extern "C"

namespace {

constexpr int kSuccess = 0;
constexpr int kUninitialized = 1;
constexpr int kInvalidArgument = 2;
constexpr int kNotSupported = 3;
constexpr int kInsufficientSize = 7;

struct FakeGpu {
  const char* name;
  const char* uuid;
  unsigned int minor;
  FakeMemory memory;
  int memory_rc;
  const char* bus_id;
  const char* bus_id_legacy;
  unsigned int bus;
  unsigned int device;
};

const FakeGpu kGpus[] = {
    {"NVIDIA H200",
     "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29",
     0,
     {150754820096ULL, 150109880320ULL, 644939776ULL},
     kSuccess,
     "00000000:00:06.0",
     "0000:00:06.0",
     0x00,
     0x06},
    {"NVIDIA H200",
     "GPU-00000000-0000-0000-0000-000000000001",
     3,
     {0, 0, 0},
     kNotSupported,
     "00000000:9A:00.0",
     "0000:9a:00.0",
     0x9a,
     0x00},
};
constexpr unsigned int kGpuCount = sizeof(kGpus) / sizeof(kGpus[0]);
nvmlDevice_st g_handles[kGpuCount] = {{0}, {1}};
int g_active_inits = 0;

int copyOut(const char* value, char* buffer, unsigned int length, unsigned int nvml_size) {
  if (buffer == nullptr || length < nvml_size || std::strlen(value) >= length) {
    return kInsufficientSize;
  }
  std::snprintf(buffer, length, "%s", value);
  return kSuccess;
}

const FakeGpu* gpuOf(nvmlDevice_t device) {
  if (g_active_inits == 0 || device == nullptr || device->index >= kGpuCount) {
    return nullptr;
  }
  return &kGpus[device->index];
}

int fillPci(nvmlDevice_t device, FakePciInfo* pci, bool legacy_only) {
  const FakeGpu* gpu = gpuOf(device);
  if (gpu == nullptr) {
    return g_active_inits == 0 ? kUninitialized : kInvalidArgument;
  }
  std::memset(pci, 0, sizeof(*pci));
  std::snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%s", gpu->bus_id_legacy);
  if (!legacy_only) {
    std::snprintf(pci->busId, sizeof(pci->busId), "%s", gpu->bus_id);
  }
  pci->domain = 0;
  pci->bus = gpu->bus;
  pci->device = gpu->device;
  pci->pciDeviceId = 0x233510de;
  pci->pciSubSystemId = 0x18bf10de;
  return kSuccess;
}

}  // namespace

extern "C" {

int nvmlInit_v2() {
  ++g_active_inits;
  return kSuccess;
}

int nvmlShutdown() {
  if (g_active_inits == 0) {
    return kUninitialized;
  }
  --g_active_inits;
  return kSuccess;
}

const char* nvmlErrorString(int result) {
  switch (result) {
    case kSuccess:
      return "Success";
    case kUninitialized:
      return "Uninitialized";
    case kInvalidArgument:
      return "Invalid Argument";
    case kNotSupported:
      return "Not Supported";
    case kInsufficientSize:
      return "Insufficient Size";
    default:
      return "Unknown Error";
  }
}

int nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  if (g_active_inits == 0) {
    return kUninitialized;
  }
  return copyOut("580.159.04", version, length, 80);
}

int nvmlDeviceGetCount_v2(unsigned int* count) {
  if (g_active_inits == 0) {
    return kUninitialized;
  }
  *count = kGpuCount;
  return kSuccess;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (g_active_inits == 0) {
    return kUninitialized;
  }
  if (index >= kGpuCount) {
    return kInvalidArgument;
  }
  *device = &g_handles[index];
  return kSuccess;
}

int nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
  const FakeGpu* gpu = gpuOf(device);
  return gpu == nullptr ? kInvalidArgument : copyOut(gpu->name, name, length, 96);
}

int nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
  const FakeGpu* gpu = gpuOf(device);
  return gpu == nullptr ? kInvalidArgument : copyOut(gpu->uuid, uuid, length, 96);
}

int nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int* minor) {
  const FakeGpu* gpu = gpuOf(device);
  if (gpu == nullptr) {
    return kInvalidArgument;
  }
  *minor = gpu->minor;
  return kSuccess;
}

int nvmlDeviceGetMemoryInfo(nvmlDevice_t device, FakeMemory* memory) {
  const FakeGpu* gpu = gpuOf(device);
  if (gpu == nullptr) {
    return kInvalidArgument;
  }
  if (gpu->memory_rc != kSuccess) {
    return gpu->memory_rc;
  }
  *memory = gpu->memory;
  return kSuccess;
}

#ifdef FAKE_NVML_V2_ONLY
int nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, FakePciInfo* pci) {
  return fillPci(device, pci, /*legacy_only=*/true);
}
#else
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, FakePciInfo* pci) {
  return fillPci(device, pci, /*legacy_only=*/false);
}

int nvmlDeviceGetUtilizationRates(nvmlDevice_t device, FakeUtilization* utilization) {
  const FakeGpu* gpu = gpuOf(device);
  if (gpu == nullptr) {
    return kInvalidArgument;
  }
  *utilization = {device->index == 0 ? 0U : 87U, device->index == 0 ? 0U : 41U};
  return kSuccess;
}
#endif

int fakeNvmlActiveInits() {
  return g_active_inits;
}

}  // extern "C"
// NOLINTEND(readability-identifier-naming)
