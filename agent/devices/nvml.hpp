// Nvml: the calls koord-agent makes to the NVIDIA Management Library, as plain C++ values.
//
// One method per NVML entry point the agent uses; devices are named by their NVML index
// (0 .. deviceCount()-1), so no NVML handle or type crosses this interface. Production uses
// DlopenNvml (dlopen_nvml.hpp); tests inject a table-driven fake.
//
// Error codes every method may return (the message names the NVML call and the device index):
//   kFailedPrecondition  NVML is not initialised (init() was not called or failed)
//   kInvalidArgument     an index at or beyond deviceCount()
//   kNotFound            NVML reported the object missing
//   kUnimplemented       the device, driver or library does not support the query
//   kPermissionDenied    the caller may not query it
//   kUnavailable         the driver is not loaded or does not match the library, the GPU is
//                        lost or needs a reset
//   kDeadlineExceeded    the driver timed out
//   kInternal            any other NVML failure
#pragma once

#include <cstdint>
#include <string>

#include "koord/common/result.hpp"
#include "koord/common/status.hpp"

namespace koord::agent::devices {

// nvmlDeviceGetMemoryInfo: frame-buffer memory in bytes.
struct GpuMemoryInfo {
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;
  uint64_t used_bytes = 0;

  friend bool operator==(const GpuMemoryInfo&, const GpuMemoryInfo&) = default;
};

// nvmlDeviceGetPciInfo: the PCI address as NVML prints it ("00000000:00:06.0", an 8-digit
// domain, upper-case hex) and the numeric fields.
struct GpuPciInfo {
  std::string bus_id;
  uint32_t domain = 0;
  uint32_t bus = 0;
  uint32_t device = 0;
  uint32_t pci_device_id = 0;     // device id << 16 | vendor id (0x233510de for an H200)
  uint32_t pci_subsystem_id = 0;  // subsystem id << 16 | subsystem vendor id

  friend bool operator==(const GpuPciInfo&, const GpuPciInfo&) = default;
};

// nvmlDeviceGetUtilizationRates: percent of the last sample period (0..100).
struct GpuUtilization {
  uint32_t gpu_percent = 0;
  uint32_t memory_percent = 0;

  friend bool operator==(const GpuUtilization&, const GpuUtilization&) = default;
};

// Thread safety: an implementation may be called from one thread at a time (the agent's
// discovery loop); it need not be thread-safe.
class Nvml {
 public:
  virtual ~Nvml() = default;

  // nvmlInit_v2. Idempotent: once it succeeded, later calls return ok without re-initialising;
  // after a failure the next call tries again. Every other method needs a successful init().
  [[nodiscard]] virtual Status init() = 0;
  // nvmlShutdown, when init() succeeded and shutdown() was not called since; otherwise a no-op.
  [[nodiscard]] virtual Status shutdown() = 0;

  // nvmlSystemGetDriverVersion: "580.159.04".
  [[nodiscard]] virtual Result<std::string> driverVersion() = 0;
  // nvmlDeviceGetCount_v2: the devices NVML can see (including ones it cannot query further).
  [[nodiscard]] virtual Result<uint32_t> deviceCount() = 0;

  // nvmlDeviceGetHandleByIndex_v2: ok when the device at `index` answers. A failure here (for
  // example a GPU that fell off the bus) means every other query of that index fails too.
  [[nodiscard]] virtual Status deviceHandle(uint32_t index) = 0;
  // nvmlDeviceGetName: the product name, "NVIDIA H200".
  [[nodiscard]] virtual Result<std::string> deviceName(uint32_t index) = 0;
  // nvmlDeviceGetUUID: "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29".
  [[nodiscard]] virtual Result<std::string> deviceUuid(uint32_t index) = 0;
  // nvmlDeviceGetMinorNumber: N of /dev/nvidiaN.
  [[nodiscard]] virtual Result<uint32_t> deviceMinorNumber(uint32_t index) = 0;
  // nvmlDeviceGetMemoryInfo.
  [[nodiscard]] virtual Result<GpuMemoryInfo> deviceMemory(uint32_t index) = 0;
  // nvmlDeviceGetPciInfo_v3 (or _v2 where the driver lacks v3).
  [[nodiscard]] virtual Result<GpuPciInfo> devicePciInfo(uint32_t index) = 0;
  // nvmlDeviceGetUtilizationRates; kUnimplemented where the device (or the library) lacks it.
  [[nodiscard]] virtual Result<GpuUtilization> deviceUtilization(uint32_t index) = 0;
};

}  // namespace koord::agent::devices
