// DlopenNvml: the Nvml interface over libnvidia-ml loaded at run time, so koord-agent builds and
// runs without the NVIDIA driver or headers; nodes without it simply have no GPUs.
#pragma once

#include <memory>
#include <string>

#include "agent/devices/nvml.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::devices {

// The library name NVML is installed under by every NVIDIA driver package.
inline constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

class DlopenNvml final : public Nvml {
 public:
  // Loads `library` with dlopen(RTLD_NOW | RTLD_LOCAL) and resolves the NVML v2 entry points:
  // nvmlInit_v2, nvmlShutdown, nvmlErrorString, nvmlSystemGetDriverVersion,
  // nvmlDeviceGetCount_v2, nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetName, nvmlDeviceGetUUID,
  // nvmlDeviceGetMinorNumber, nvmlDeviceGetMemoryInfo and nvmlDeviceGetPciInfo_v3 (or _v2); and,
  // when present, nvmlDeviceGetUtilizationRates. Does not initialise NVML (see init()).
  //
  // Errors:
  //   kNotFound           "failed to load '<library>': <dlerror>": the library is not installed;
  //                       callers treat this as a node without GPUs.
  //   kFailedPrecondition "failed to resolve symbol '<name>' in '<library>': <dlerror>": the
  //                       library loads but is not a usable NVML (too old, or another library).
  [[nodiscard]] static Result<std::unique_ptr<Nvml>> create(const std::string& library);

  // Calls nvmlShutdown when NVML is still initialised, then dlclose.
  ~DlopenNvml() override;
  DlopenNvml(const DlopenNvml&) = delete;
  DlopenNvml& operator=(const DlopenNvml&) = delete;

  [[nodiscard]] Status init() override;
  [[nodiscard]] Status shutdown() override;
  [[nodiscard]] Result<std::string> driverVersion() override;
  [[nodiscard]] Result<uint32_t> deviceCount() override;
  [[nodiscard]] Status deviceHandle(uint32_t index) override;
  [[nodiscard]] Result<std::string> deviceName(uint32_t index) override;
  [[nodiscard]] Result<std::string> deviceUuid(uint32_t index) override;
  [[nodiscard]] Result<uint32_t> deviceMinorNumber(uint32_t index) override;
  [[nodiscard]] Result<GpuMemoryInfo> deviceMemory(uint32_t index) override;
  [[nodiscard]] Result<GpuPciInfo> devicePciInfo(uint32_t index) override;
  [[nodiscard]] Result<GpuUtilization> deviceUtilization(uint32_t index) override;

 private:
  // The resolved entry points (defined in the .cpp: no NVML type leaves it).
  struct Api;

  DlopenNvml(void* handle, std::string library, std::unique_ptr<const Api> api);

  void* handle_;
  std::string library_;
  std::unique_ptr<const Api> api_;
  bool initialized_ = false;
};

}  // namespace koord::agent::devices
