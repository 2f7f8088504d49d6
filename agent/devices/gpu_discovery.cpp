#include "agent/devices/gpu_discovery.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <utility>

#include "agent/system/sysfs_file.hpp"

namespace koord::agent::devices {

namespace {

bool isHex(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// Records the first failed query of a device: it makes the device unhealthy.
void markUnhealthy(GpuDevice* device, const Status& status) {
  if (device->healthy) {
    device->healthy = false;
    device->unhealthy_reason = status.message();
  }
}

// numa_node and local_cpulist of the device's sysfs folder; a missing file leaves them unknown.
Status readPciTopology(const system::SysPaths& paths, GpuDevice* device) {
  const std::filesystem::path dir = paths.sys_root / "bus" / "pci" / "devices" / device->pci_bus_id;
  auto numa = system::readSysInt(dir / "numa_node");
  if (numa.ok()) {
    device->numa_node = *numa >= 0 && *numa <= std::numeric_limits<int32_t>::max()
                            ? static_cast<int32_t>(*numa)
                            : -1;
  } else if (numa.status().code() != StatusCode::kNotFound) {
    return numa.status();
  }
  auto cpus = system::readSysCpuList(dir / "local_cpulist");
  if (cpus.ok()) {
    device->local_cpus = std::move(cpus).value();
  } else if (cpus.status().code() != StatusCode::kNotFound) {
    return cpus.status();
  }
  return Status::ok();
}

Result<GpuDevice> discoverDevice(Nvml& nvml, uint32_t index, const system::SysPaths& paths) {
  GpuDevice device;
  device.index = index;
  device.healthy = true;
  if (Status handle = nvml.deviceHandle(index); !handle.isOk()) {
    markUnhealthy(&device, handle);
    return device;
  }
  if (auto name = nvml.deviceName(index); name.ok()) {
    device.model = std::move(name).value();
  } else {
    markUnhealthy(&device, name.status());
  }
  if (auto uuid = nvml.deviceUuid(index); uuid.ok()) {
    device.uuid = std::move(uuid).value();
  } else {
    markUnhealthy(&device, uuid.status());
  }
  if (auto minor = nvml.deviceMinorNumber(index); !minor.ok()) {
    markUnhealthy(&device, minor.status());
  } else if (*minor > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
    markUnhealthy(&device,
                  Status::outOfRange("failed to use minor number '" + std::to_string(*minor) +
                                     "' of GPU " + std::to_string(index) + ": out of range"));
  } else {
    device.minor = static_cast<int32_t>(*minor);
  }
  if (auto memory = nvml.deviceMemory(index); memory.ok()) {
    device.memory_total_bytes = memory->total_bytes;
  } else {
    markUnhealthy(&device, memory.status());
  }
  if (auto pci = nvml.devicePciInfo(index); !pci.ok()) {
    markUnhealthy(&device, pci.status());
  } else if (auto bus_id = sysfsPciBusId(pci->bus_id); !bus_id.ok()) {
    markUnhealthy(&device, bus_id.status());
  } else {
    device.pci_bus_id = std::move(bus_id).value();
  }
  if (auto utilization = nvml.deviceUtilization(index); utilization.ok()) {
    device.utilization = *utilization;
  }
  if (!device.pci_bus_id.empty()) {
    KOORD_RETURN_IF_ERROR(readPciTopology(paths, &device));
  }
  return device;
}

}  // namespace

Result<std::string> sysfsPciBusId(std::string_view nvml_bus_id) {
  const auto invalid = [nvml_bus_id] {
    return Status::invalidArgument("failed to parse PCI bus id '" + std::string(nvml_bus_id) +
                                   "': expected <domain>:<bus>:<device>.<function> in hex");
  };
  const size_t colon = nvml_bus_id.find(':');
  if (colon == std::string_view::npos) {
    return invalid();
  }
  const std::string_view domain_text = nvml_bus_id.substr(0, colon);
  const std::string_view rest = nvml_bus_id.substr(colon + 1);  // "BB:DD.F"
  if (domain_text.size() > 8 || !isHex(domain_text) || rest.size() != 7 || rest[2] != ':' ||
      rest[5] != '.' || !isHex(rest.substr(0, 2)) || !isHex(rest.substr(3, 2)) ||
      !isHex(rest.substr(6, 1))) {
    return invalid();
  }
  uint32_t domain = 0;
  std::from_chars(domain_text.data(), domain_text.data() + domain_text.size(), domain, 16);
  char domain_out[16] = {};
  std::snprintf(domain_out, sizeof(domain_out), "%04x", domain);
  std::string out = std::string(domain_out) + ":" + std::string(rest);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  return out;
}

Result<std::vector<GpuDevice>> discoverGpus(Nvml* nvml, const system::SysPaths& paths) {
  std::vector<GpuDevice> devices;
  if (nvml == nullptr) {
    return devices;
  }
  KOORD_RETURN_IF_ERROR(nvml->init());
  KOORD_ASSIGN_OR_RETURN(std::string driver_version, nvml->driverVersion());
  KOORD_ASSIGN_OR_RETURN(uint32_t count, nvml->deviceCount());
  devices.reserve(count);
  for (uint32_t index = 0; index < count; ++index) {
    KOORD_ASSIGN_OR_RETURN(GpuDevice device, discoverDevice(*nvml, index, paths));
    device.driver_version = driver_version;
    devices.push_back(std::move(device));
  }
  return devices;
}

}  // namespace koord::agent::devices
