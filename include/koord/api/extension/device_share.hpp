// Device payloads (apis/extension/device_share.go):
//   scheduling.koordinator.sh/device-allocated      DeviceAllocations (written by the scheduler)
//   scheduling.koordinator.sh/device-allocate-hint  DeviceAllocateHints
//   scheduling.koordinator.sh/device-joint-allocate DeviceJointAllocate
//   scheduling.koordinator.sh/gpu-partition-spec    GPUPartitionSpec
//   scheduling.koordinator.sh/gpu-partitions        GPUPartitionTable (on the Device)
// Device types ("gpu", "rdma", "fpga", "xpu", ...) are an open set and stay strings.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/extension/enum_codec.hpp"
#include "koord/resource/quantity.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

inline constexpr std::string_view kDeviceTypeGPU = "gpu";
inline constexpr std::string_view kDeviceTypeRDMA = "rdma";
inline constexpr std::string_view kDeviceTypeFPGA = "fpga";
inline constexpr std::string_view kDeviceTypeXPU = "xpu";

struct VirtualFunction {
  int32_t minor = 0;  // omitted when 0
  std::string busID;
  Json extra;

  bool operator==(const VirtualFunction&) const = default;
};

struct DeviceAllocationExtension {
  std::vector<VirtualFunction> vfs;
  std::string gpuSharedResourceTemplate;
  Json extra;

  bool operator==(const DeviceAllocationExtension&) const = default;
};

struct DeviceAllocation {
  int32_t minor = 0;                 // always written
  resource::ResourceList resources;  // always written
  std::string id;                    // GPU UUID or PCI address
  std::optional<DeviceAllocationExtension> extension;
  Json extra;

  bool operator==(const DeviceAllocation&) const = default;
};

// Device type -> allocations.
using DeviceAllocations = std::map<std::string, std::vector<DeviceAllocation>>;

enum class DeviceAllocateStrategy { kApplyForAll, kRequestsAsCount };
constexpr std::array<EnumName<DeviceAllocateStrategy>, 2> enumNames(DeviceAllocateStrategy) {
  return {{{DeviceAllocateStrategy::kApplyForAll, "ApplyForAll"},
           {DeviceAllocateStrategy::kRequestsAsCount, "RequestsAsCount"}}};
}
KOORD_API_ENUM_CODEC(DeviceAllocateStrategy)

enum class DeviceTopologyScope { kDevice, kPCIe, kNUMANode, kNode };
constexpr std::array<EnumName<DeviceTopologyScope>, 4> enumNames(DeviceTopologyScope) {
  return {{{DeviceTopologyScope::kDevice, "Device"},
           {DeviceTopologyScope::kPCIe, "PCIe"},
           {DeviceTopologyScope::kNUMANode, "NUMANode"},
           {DeviceTopologyScope::kNode, "Node"}}};
}
KOORD_API_ENUM_CODEC(DeviceTopologyScope)

enum class DeviceExclusivePolicy { kDeviceLevel, kPCIeLevel };
constexpr std::array<EnumName<DeviceExclusivePolicy>, 2> enumNames(DeviceExclusivePolicy) {
  return {{{DeviceExclusivePolicy::kDeviceLevel, "DeviceLevel"},
           {DeviceExclusivePolicy::kPCIeLevel, "PCIeLevel"}}};
}
KOORD_API_ENUM_CODEC(DeviceExclusivePolicy)

struct DeviceHint {
  std::optional<core::LabelSelector> selector;
  std::optional<core::LabelSelector> vfSelector;
  std::optional<DeviceAllocateStrategy> allocateStrategy;
  std::optional<DeviceTopologyScope> requiredTopologyScope;
  std::optional<DeviceExclusivePolicy> exclusivePolicy;
  Json extra;

  bool operator==(const DeviceHint&) const = default;
};

// Device type -> hint.
using DeviceAllocateHints = std::map<std::string, DeviceHint>;

enum class DeviceJointAllocateScope { kSamePCIe };
constexpr std::array<EnumName<DeviceJointAllocateScope>, 1> enumNames(DeviceJointAllocateScope) {
  return {{{DeviceJointAllocateScope::kSamePCIe, "SamePCIe"}}};
}
KOORD_API_ENUM_CODEC(DeviceJointAllocateScope)

struct DeviceJointAllocate {
  std::vector<std::string> deviceTypes;
  std::optional<DeviceJointAllocateScope> requiredScope;
  Json extra;

  bool operator==(const DeviceJointAllocate&) const = default;
};

enum class GPUPartitionAllocatePolicy { kRestricted, kBestEffort };
constexpr std::array<EnumName<GPUPartitionAllocatePolicy>, 2> enumNames(
    GPUPartitionAllocatePolicy) {
  return {{{GPUPartitionAllocatePolicy::kRestricted, "Restricted"},
           {GPUPartitionAllocatePolicy::kBestEffort, "BestEffort"}}};
}
KOORD_API_ENUM_CODEC(GPUPartitionAllocatePolicy)

struct GPUPartitionSpec {
  // Unset reads as kBestEffort (see effectiveAllocatePolicy).
  std::optional<GPUPartitionAllocatePolicy> allocatePolicy;
  std::optional<resource::Quantity> ringBusBandwidth;
  Json extra;

  bool operator==(const GPUPartitionSpec&) const = default;
};

// The policy Koordinator applies: allocatePolicy, or BestEffort when unset.
[[nodiscard]] GPUPartitionAllocatePolicy effectiveAllocatePolicy(const GPUPartitionSpec& spec);

struct GPUPartition {
  std::vector<int32_t> minors;  // always written
  std::string gpuLinkType;      // "NVLink"
  std::optional<resource::Quantity> ringBusBandwidth;
  int32_t allocationScore = 0;  // omitted when 0
  Json extra;

  bool operator==(const GPUPartition&) const = default;
};

// Number of GPUs -> the partitions of that size. JSON keys are the decimal numbers.
struct GPUPartitionTable {
  std::map<int32_t, std::vector<GPUPartition>> partitions;

  bool operator==(const GPUPartitionTable&) const = default;
};

Status fromJson(const Json& j, VirtualFunction& out, const std::string& path);
Status fromJson(const Json& j, DeviceAllocationExtension& out, const std::string& path);
Status fromJson(const Json& j, DeviceAllocation& out, const std::string& path);
Status fromJson(const Json& j, DeviceHint& out, const std::string& path);
Status fromJson(const Json& j, DeviceJointAllocate& out, const std::string& path);
Status fromJson(const Json& j, GPUPartitionSpec& out, const std::string& path);
Status fromJson(const Json& j, GPUPartition& out, const std::string& path);
Status fromJson(const Json& j, GPUPartitionTable& out, const std::string& path);
Json toJson(const VirtualFunction& v);
Json toJson(const DeviceAllocationExtension& v);
Json toJson(const DeviceAllocation& v);
Json toJson(const DeviceHint& v);
Json toJson(const DeviceJointAllocate& v);
Json toJson(const GPUPartitionSpec& v);
Json toJson(const GPUPartition& v);
Json toJson(const GPUPartitionTable& v);

[[nodiscard]] Result<DeviceAllocations> parseDeviceAllocations(std::string_view value);
[[nodiscard]] std::string formatDeviceAllocations(const DeviceAllocations& allocations);
[[nodiscard]] Result<DeviceAllocateHints> parseDeviceAllocateHints(std::string_view value);
[[nodiscard]] std::string formatDeviceAllocateHints(const DeviceAllocateHints& hints);
[[nodiscard]] Result<DeviceJointAllocate> parseDeviceJointAllocate(std::string_view value);
[[nodiscard]] std::string formatDeviceJointAllocate(const DeviceJointAllocate& joint);
[[nodiscard]] Result<GPUPartitionSpec> parseGPUPartitionSpec(std::string_view value);
[[nodiscard]] std::string formatGPUPartitionSpec(const GPUPartitionSpec& spec);
[[nodiscard]] Result<GPUPartitionTable> parseGPUPartitionTable(std::string_view value);
[[nodiscard]] std::string formatGPUPartitionTable(const GPUPartitionTable& table);

}  // namespace koord::api::extension
