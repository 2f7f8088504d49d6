#include "agent/devices/dlopen_nvml.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <utility>

namespace koord::agent::devices {

namespace {

// The slice of the NVML ABI (nvml.h) the agent calls, declared here so that building needs no
// NVIDIA header. Layouts are NVML's exactly; the static_asserts pin them.
using NvmlReturn = int;  // nvmlReturn_t, a C enum
struct NvmlDeviceSt;
using NvmlDevice = NvmlDeviceSt*;  // nvmlDevice_t, an opaque handle

constexpr NvmlReturn kNvmlSuccess = 0;
constexpr NvmlReturn kNvmlErrorUninitialized = 1;
constexpr NvmlReturn kNvmlErrorInvalidArgument = 2;
constexpr NvmlReturn kNvmlErrorNotSupported = 3;
constexpr NvmlReturn kNvmlErrorNoPermission = 4;
constexpr NvmlReturn kNvmlErrorNotFound = 6;
constexpr NvmlReturn kNvmlErrorDriverNotLoaded = 9;
constexpr NvmlReturn kNvmlErrorTimeout = 10;
constexpr NvmlReturn kNvmlErrorGpuIsLost = 15;
constexpr NvmlReturn kNvmlErrorResetRequired = 16;
constexpr NvmlReturn kNvmlErrorLibRmVersionMismatch = 18;

constexpr unsigned int kNameBufferSize = 96;           // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned int kUuidBufferSize = 96;           // NVML_DEVICE_UUID_V2_BUFFER_SIZE
constexpr unsigned int kDriverVersionBufferSize = 80;  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE

// nvmlMemory_t
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
static_assert(sizeof(NvmlMemory) == 24);

// nvmlPciInfo_t
struct NvmlPciInfo {
  char bus_id_legacy[16];  // NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_subsystem_id;
  char bus_id[32];  // NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE
};
static_assert(offsetof(NvmlPciInfo, domain) == 16);
static_assert(offsetof(NvmlPciInfo, pci_subsystem_id) == 32);
static_assert(offsetof(NvmlPciInfo, bus_id) == 36);
static_assert(sizeof(NvmlPciInfo) == 68);

// nvmlUtilization_t
struct NvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};
static_assert(sizeof(NvmlUtilization) == 8);

std::string fromBuffer(const char* buffer, size_t size) {
  return {buffer, ::strnlen(buffer, size)};
}

StatusCode codeOf(NvmlReturn rc) {
  switch (rc) {
    case kNvmlErrorUninitialized:
      return StatusCode::kFailedPrecondition;
    case kNvmlErrorInvalidArgument:
      return StatusCode::kInvalidArgument;
    case kNvmlErrorNotSupported:
      return StatusCode::kUnimplemented;
    case kNvmlErrorNoPermission:
      return StatusCode::kPermissionDenied;
    case kNvmlErrorNotFound:
      return StatusCode::kNotFound;
    case kNvmlErrorDriverNotLoaded:
    case kNvmlErrorGpuIsLost:
    case kNvmlErrorResetRequired:
    case kNvmlErrorLibRmVersionMismatch:
      return StatusCode::kUnavailable;
    case kNvmlErrorTimeout:
      return StatusCode::kDeadlineExceeded;
    default:
      return StatusCode::kInternal;
  }
}

// "for GPU 3" when the call names a device.
std::string subject(const char* call, std::optional<uint32_t> index) {
  std::string text = "'" + std::string(call) + "'";
  if (index) {
    text += " for GPU " + std::to_string(*index);
  }
  return text;
}

template <typename Fn>
Status resolve(void* handle, const std::string& library, const char* symbol, Fn* out) {
  ::dlerror();
  void* address = ::dlsym(handle, symbol);
  if (address == nullptr) {
    const char* error = ::dlerror();
    return Status::failedPrecondition("failed to resolve symbol '" + std::string(symbol) +
                                      "' in '" + library +
                                      "': " + (error != nullptr ? error : "null address"));
  }
  *out = reinterpret_cast<Fn>(address);
  return Status::ok();
}

struct LibraryCloser {
  void operator()(void* handle) const { ::dlclose(handle); }
};

}  // namespace

struct DlopenNvml::Api {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*driver_version)(char*, unsigned int) = nullptr;
  NvmlReturn (*device_count)(unsigned int*) = nullptr;
  NvmlReturn (*handle_by_index)(unsigned int, NvmlDevice*) = nullptr;
  NvmlReturn (*name)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*uuid)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*minor_number)(NvmlDevice, unsigned int*) = nullptr;
  NvmlReturn (*memory_info)(NvmlDevice, NvmlMemory*) = nullptr;
  NvmlReturn (*pci_info)(NvmlDevice, NvmlPciInfo*) = nullptr;
  const char* pci_info_symbol = "";
  NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;  // null: not exported

  // ok for NVML_SUCCESS, else "failed to call '<call>' [for GPU <index>]: <nvmlErrorString>".
  [[nodiscard]] Status check(NvmlReturn rc, const char* call,
                             std::optional<uint32_t> index = std::nullopt) const {
    if (rc == kNvmlSuccess) {
      return Status::ok();
    }
    const char* text = error_string(rc);
    return {codeOf(rc), "failed to call " + subject(call, index) + ": " +
                            (text != nullptr ? text : "unknown error") + " (NVML error " +
                            std::to_string(rc) + ")"};
  }

  [[nodiscard]] Result<NvmlDevice> device(uint32_t index) const {
    NvmlDevice device = nullptr;
    KOORD_RETURN_IF_ERROR(
        check(handle_by_index(index, &device), "nvmlDeviceGetHandleByIndex_v2", index));
    return device;
  }
};

Result<std::unique_ptr<Nvml>> DlopenNvml::create(const std::string& library) {
  ::dlerror();
  std::unique_ptr<void, LibraryCloser> handle(::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (handle == nullptr) {
    const char* error = ::dlerror();
    return Status::notFound("failed to load '" + library +
                            "': " + (error != nullptr ? error : "unknown error"));
  }
  auto api = std::make_unique<Api>();
  void* h = handle.get();
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlInit_v2", &api->init));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlShutdown", &api->shutdown));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlErrorString", &api->error_string));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlSystemGetDriverVersion", &api->driver_version));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlDeviceGetCount_v2", &api->device_count));
  KOORD_RETURN_IF_ERROR(
      resolve(h, library, "nvmlDeviceGetHandleByIndex_v2", &api->handle_by_index));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlDeviceGetName", &api->name));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlDeviceGetUUID", &api->uuid));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlDeviceGetMinorNumber", &api->minor_number));
  KOORD_RETURN_IF_ERROR(resolve(h, library, "nvmlDeviceGetMemoryInfo", &api->memory_info));
  api->pci_info_symbol = "nvmlDeviceGetPciInfo_v3";
  if (!resolve(h, library, api->pci_info_symbol, &api->pci_info).isOk()) {
    api->pci_info_symbol = "nvmlDeviceGetPciInfo_v2";
    KOORD_RETURN_IF_ERROR(resolve(h, library, api->pci_info_symbol, &api->pci_info));
  }
  if (!resolve(h, library, "nvmlDeviceGetUtilizationRates", &api->utilization).isOk()) {
    api->utilization = nullptr;
  }
  return std::unique_ptr<Nvml>(new DlopenNvml(handle.release(), library, std::move(api)));
}

DlopenNvml::DlopenNvml(void* handle, std::string library, std::unique_ptr<const Api> api)
    : handle_(handle), library_(std::move(library)), api_(std::move(api)) {}

DlopenNvml::~DlopenNvml() {
  if (initialized_) {
    api_->shutdown();
  }
  ::dlclose(handle_);
}

Status DlopenNvml::init() {
  if (initialized_) {
    return Status::ok();
  }
  KOORD_RETURN_IF_ERROR(api_->check(api_->init(), "nvmlInit_v2"));
  initialized_ = true;
  return Status::ok();
}

Status DlopenNvml::shutdown() {
  if (!initialized_) {
    return Status::ok();
  }
  initialized_ = false;
  return api_->check(api_->shutdown(), "nvmlShutdown");
}

Result<std::string> DlopenNvml::driverVersion() {
  char buffer[kDriverVersionBufferSize] = {};
  KOORD_RETURN_IF_ERROR(
      api_->check(api_->driver_version(buffer, sizeof(buffer)), "nvmlSystemGetDriverVersion"));
  return fromBuffer(buffer, sizeof(buffer));
}

Result<uint32_t> DlopenNvml::deviceCount() {
  unsigned int count = 0;
  KOORD_RETURN_IF_ERROR(api_->check(api_->device_count(&count), "nvmlDeviceGetCount_v2"));
  return uint32_t{count};
}

Status DlopenNvml::deviceHandle(uint32_t index) {
  return api_->device(index).status();
}

Result<std::string> DlopenNvml::deviceName(uint32_t index) {
  KOORD_ASSIGN_OR_RETURN(NvmlDevice device, api_->device(index));
  char buffer[kNameBufferSize] = {};
  KOORD_RETURN_IF_ERROR(
      api_->check(api_->name(device, buffer, sizeof(buffer)), "nvmlDeviceGetName", index));
  return fromBuffer(buffer, sizeof(buffer));
}

Result<std::string> DlopenNvml::deviceUuid(uint32_t index) {
  KOORD_ASSIGN_OR_RETURN(NvmlDevice device, api_->device(index));
  char buffer[kUuidBufferSize] = {};
  KOORD_RETURN_IF_ERROR(
      api_->check(api_->uuid(device, buffer, sizeof(buffer)), "nvmlDeviceGetUUID", index));
  return fromBuffer(buffer, sizeof(buffer));
}

Result<uint32_t> DlopenNvml::deviceMinorNumber(uint32_t index) {
  KOORD_ASSIGN_OR_RETURN(NvmlDevice device, api_->device(index));
  unsigned int minor = 0;
  KOORD_RETURN_IF_ERROR(
      api_->check(api_->minor_number(device, &minor), "nvmlDeviceGetMinorNumber", index));
  return uint32_t{minor};
}

Result<GpuMemoryInfo> DlopenNvml::deviceMemory(uint32_t index) {
  KOORD_ASSIGN_OR_RETURN(NvmlDevice device, api_->device(index));
  NvmlMemory memory{};
  KOORD_RETURN_IF_ERROR(
      api_->check(api_->memory_info(device, &memory), "nvmlDeviceGetMemoryInfo", index));
  return GpuMemoryInfo{memory.total, memory.free, memory.used};
}

Result<GpuPciInfo> DlopenNvml::devicePciInfo(uint32_t index) {
  KOORD_ASSIGN_OR_RETURN(NvmlDevice device, api_->device(index));
  NvmlPciInfo pci{};
  KOORD_RETURN_IF_ERROR(api_->check(api_->pci_info(device, &pci), api_->pci_info_symbol, index));
  GpuPciInfo info;
  info.bus_id = fromBuffer(pci.bus_id, sizeof(pci.bus_id));
  if (info.bus_id.empty()) {
    info.bus_id = fromBuffer(pci.bus_id_legacy, sizeof(pci.bus_id_legacy));
  }
  info.domain = pci.domain;
  info.bus = pci.bus;
  info.device = pci.device;
  info.pci_device_id = pci.pci_device_id;
  info.pci_subsystem_id = pci.pci_subsystem_id;
  return info;
}

Result<GpuUtilization> DlopenNvml::deviceUtilization(uint32_t index) {
  if (api_->utilization == nullptr) {
    return Status::unimplemented("failed to call " +
                                 subject("nvmlDeviceGetUtilizationRates", index) + ": not in '" +
                                 library_ + "'");
  }
  KOORD_ASSIGN_OR_RETURN(NvmlDevice device, api_->device(index));
  NvmlUtilization utilization{};
  KOORD_RETURN_IF_ERROR(
      api_->check(api_->utilization(device, &utilization), "nvmlDeviceGetUtilizationRates", index));
  return GpuUtilization{utilization.gpu, utilization.memory};
}

}  // namespace koord::agent::devices
