// StaticNvml: a table-driven Nvml for the discovery tests. Each row of the table is one GPU as
// NVML would report it; any call (for the whole library or one device) can be made to fail with
// a chosen Status. Like NVML, every query before a successful init() fails.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/devices/nvml.hpp"

namespace koord::agent::devices::testing {

enum class NvmlCall {
  kInit,
  kDriverVersion,
  kDeviceCount,
  kHandle,
  kName,
  kUuid,
  kMinor,
  kMemory,
  kPci,
  kUtilization,
};

// One GPU row.
struct FakeGpu {
  std::string name;
  std::string uuid;
  uint32_t minor = 0;
  GpuMemoryInfo memory;
  GpuPciInfo pci;
  std::optional<GpuUtilization> utilization;  // absent: the call answers kUnimplemented
  std::map<NvmlCall, Status> failures;        // per-device calls that fail, with their status
};

struct NvmlTable {
  std::string driver_version;
  std::vector<FakeGpu> gpus;
  std::map<NvmlCall, Status> failures;  // kInit, kDriverVersion, kDeviceCount
};

class StaticNvml final : public Nvml {
 public:
  explicit StaticNvml(NvmlTable table) : table_(std::move(table)) {}

  [[nodiscard]] Status init() override {
    KOORD_RETURN_IF_ERROR(failure(table_.failures, NvmlCall::kInit));
    initialized_ = true;
    return Status::ok();
  }
  [[nodiscard]] Status shutdown() override {
    initialized_ = false;
    return Status::ok();
  }
  [[nodiscard]] bool initialized() const { return initialized_; }

  [[nodiscard]] Result<std::string> driverVersion() override {
    KOORD_RETURN_IF_ERROR(ready(table_.failures, NvmlCall::kDriverVersion));
    return table_.driver_version;
  }
  [[nodiscard]] Result<uint32_t> deviceCount() override {
    KOORD_RETURN_IF_ERROR(ready(table_.failures, NvmlCall::kDeviceCount));
    return static_cast<uint32_t>(table_.gpus.size());
  }
  [[nodiscard]] Status deviceHandle(uint32_t index) override {
    return gpu(index, NvmlCall::kHandle).status();
  }
  [[nodiscard]] Result<std::string> deviceName(uint32_t index) override {
    KOORD_ASSIGN_OR_RETURN(const FakeGpu* row, gpu(index, NvmlCall::kName));
    return row->name;
  }
  [[nodiscard]] Result<std::string> deviceUuid(uint32_t index) override {
    KOORD_ASSIGN_OR_RETURN(const FakeGpu* row, gpu(index, NvmlCall::kUuid));
    return row->uuid;
  }
  [[nodiscard]] Result<uint32_t> deviceMinorNumber(uint32_t index) override {
    KOORD_ASSIGN_OR_RETURN(const FakeGpu* row, gpu(index, NvmlCall::kMinor));
    return row->minor;
  }
  [[nodiscard]] Result<GpuMemoryInfo> deviceMemory(uint32_t index) override {
    KOORD_ASSIGN_OR_RETURN(const FakeGpu* row, gpu(index, NvmlCall::kMemory));
    return row->memory;
  }
  [[nodiscard]] Result<GpuPciInfo> devicePciInfo(uint32_t index) override {
    KOORD_ASSIGN_OR_RETURN(const FakeGpu* row, gpu(index, NvmlCall::kPci));
    return row->pci;
  }
  [[nodiscard]] Result<GpuUtilization> deviceUtilization(uint32_t index) override {
    KOORD_ASSIGN_OR_RETURN(const FakeGpu* row, gpu(index, NvmlCall::kUtilization));
    if (!row->utilization) {
      return Status::unimplemented("failed to call 'nvmlDeviceGetUtilizationRates' for GPU " +
                                   std::to_string(index) + ": Not Supported (NVML error 3)");
    }
    return *row->utilization;
  }

 private:
  static Status failure(const std::map<NvmlCall, Status>& failures, NvmlCall call) {
    const auto it = failures.find(call);
    return it == failures.end() ? Status::ok() : it->second;
  }
  [[nodiscard]] Status ready(const std::map<NvmlCall, Status>& failures, NvmlCall call) const {
    if (!initialized_) {
      return Status::failedPrecondition("NVML called before init()");
    }
    return failure(failures, call);
  }
  // The row at `index` when initialised, the index exists and `call` does not fail for it; a
  // failed handle fails every call of the device, as in NVML.
  [[nodiscard]] Result<const FakeGpu*> gpu(uint32_t index, NvmlCall call) const {
    KOORD_RETURN_IF_ERROR(ready({}, call));
    if (index >= table_.gpus.size()) {
      return Status::invalidArgument("no GPU " + std::to_string(index));
    }
    const FakeGpu& row = table_.gpus[index];
    KOORD_RETURN_IF_ERROR(failure(row.failures, NvmlCall::kHandle));
    KOORD_RETURN_IF_ERROR(failure(row.failures, call));
    return &row;
  }

  NvmlTable table_;
  bool initialized_ = false;
};

}  // namespace koord::agent::devices::testing
