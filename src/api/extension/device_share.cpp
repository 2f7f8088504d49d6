#include "koord/api/extension/device_share.hpp"

#include <charconv>

#include "koord/api/extension/annotation.hpp"
#include "koord/api/fields.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {
GPUPartitionAllocatePolicy effectiveAllocatePolicy(const GPUPartitionSpec& spec) {
  return spec.allocatePolicy.value_or(GPUPartitionAllocatePolicy::kBestEffort);
}

constexpr auto kVirtualFunctionFields = std::tuple{
    field("minor", &VirtualFunction::minor).omitZero(),
    field("busID", &VirtualFunction::busID),
};

Status fromJson(const Json& j, VirtualFunction& out, const std::string& path) {
  return decodeFields(j, out, path, kVirtualFunctionFields);
}

Json toJson(const VirtualFunction& v) {
  return encodeFields(v, kVirtualFunctionFields);
}

constexpr auto kDeviceAllocationExtensionFields = std::tuple{
    field("vfs", &DeviceAllocationExtension::vfs),
    field("gpuSharedResourceTemplate", &DeviceAllocationExtension::gpuSharedResourceTemplate),
};

Status fromJson(const Json& j, DeviceAllocationExtension& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceAllocationExtensionFields);
}

Json toJson(const DeviceAllocationExtension& v) {
  return encodeFields(v, kDeviceAllocationExtensionFields);
}

constexpr auto kDeviceAllocationFields = std::tuple{
    field("minor", &DeviceAllocation::minor).always(),
    field("resources", &DeviceAllocation::resources).always(),
    field("id", &DeviceAllocation::id),
    field("extension", &DeviceAllocation::extension),
};

Status fromJson(const Json& j, DeviceAllocation& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceAllocationFields);
}

Json toJson(const DeviceAllocation& v) {
  return encodeFields(v, kDeviceAllocationFields);
}

constexpr auto kDeviceHintFields = std::tuple{
    field("selector", &DeviceHint::selector).ifSet(),
    field("vfSelector", &DeviceHint::vfSelector).ifSet(),
    field("allocateStrategy", &DeviceHint::allocateStrategy),
    field("requiredTopologyScope", &DeviceHint::requiredTopologyScope),
    field("exclusivePolicy", &DeviceHint::exclusivePolicy),
};

Status fromJson(const Json& j, DeviceHint& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceHintFields);
}

Json toJson(const DeviceHint& v) {
  return encodeFields(v, kDeviceHintFields);
}

constexpr auto kDeviceJointAllocateFields = std::tuple{
    field("deviceTypes", &DeviceJointAllocate::deviceTypes),
    field("requiredScope", &DeviceJointAllocate::requiredScope),
};

Status fromJson(const Json& j, DeviceJointAllocate& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceJointAllocateFields);
}

Json toJson(const DeviceJointAllocate& v) {
  return encodeFields(v, kDeviceJointAllocateFields);
}

constexpr auto kGPUPartitionSpecFields = std::tuple{
    field("allocatePolicy", &GPUPartitionSpec::allocatePolicy),
    field("ringBusBandwidth", &GPUPartitionSpec::ringBusBandwidth),
};

Status fromJson(const Json& j, GPUPartitionSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kGPUPartitionSpecFields);
}

Json toJson(const GPUPartitionSpec& v) {
  return encodeFields(v, kGPUPartitionSpecFields);
}

constexpr auto kGPUPartitionFields = std::tuple{
    field("minors", &GPUPartition::minors).always(),
    field("gpuLinkType", &GPUPartition::gpuLinkType),
    field("ringBusBandwidth", &GPUPartition::ringBusBandwidth),
    field("allocationScore", &GPUPartition::allocationScore).omitZero(),
};

Status fromJson(const Json& j, GPUPartition& out, const std::string& path) {
  return decodeFields(j, out, path, kGPUPartitionFields);
}

Json toJson(const GPUPartition& v) {
  return encodeFields(v, kGPUPartitionFields);
}

// Hand-written: the table is a JSON object keyed by the partition size (an integer in text), not a
// struct with fields, so it has no field list.
Status fromJson(const Json& j, GPUPartitionTable& out, const std::string& path) {
  using koord::api::fromJson;
  out.partitions.clear();
  if (j.is_null()) {
    return Status::ok();
  }
  if (!j.is_object()) {
    return typeError(path, "object", j);
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    int32_t count = 0;
    auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), count);
    if (ec != std::errc() || end != key.data() + key.size()) {
      return Status::invalidArgument(childPath(path, key) + ": expected an integer key");
    }
    std::vector<GPUPartition> partitions;
    KOORD_RETURN_IF_ERROR(fromJson(it.value(), partitions, childPath(path, key)));
    out.partitions.emplace(count, std::move(partitions));
  }
  return Status::ok();
}

Json toJson(const GPUPartitionTable& v) {
  using koord::api::toJson;
  Json obj = Json::object();
  for (const auto& [count, partitions] : v.partitions) {
    obj[std::to_string(count)] = toJson(partitions);
  }
  return obj;
}

Result<DeviceAllocations> parseDeviceAllocations(std::string_view value) {
  return parseAnnotationJson<DeviceAllocations>(kAnnotationDeviceAllocated, value);
}
std::string formatDeviceAllocations(const DeviceAllocations& allocations) {
  return formatAnnotationJson(allocations);
}

Result<DeviceAllocateHints> parseDeviceAllocateHints(std::string_view value) {
  return parseAnnotationJson<DeviceAllocateHints>(kAnnotationDeviceAllocateHint, value);
}
std::string formatDeviceAllocateHints(const DeviceAllocateHints& hints) {
  return formatAnnotationJson(hints);
}

Result<DeviceJointAllocate> parseDeviceJointAllocate(std::string_view value) {
  return parseAnnotationJson<DeviceJointAllocate>(kAnnotationDeviceJointAllocate, value);
}
std::string formatDeviceJointAllocate(const DeviceJointAllocate& joint) {
  return formatAnnotationJson(joint);
}

Result<GPUPartitionSpec> parseGPUPartitionSpec(std::string_view value) {
  return parseAnnotationJson<GPUPartitionSpec>(kAnnotationGPUPartitionSpec, value);
}
std::string formatGPUPartitionSpec(const GPUPartitionSpec& spec) {
  return formatAnnotationJson(spec);
}

Result<GPUPartitionTable> parseGPUPartitionTable(std::string_view value) {
  return parseAnnotationJson<GPUPartitionTable>(kAnnotationGPUPartitions, value);
}
std::string formatGPUPartitionTable(const GPUPartitionTable& table) {
  return formatAnnotationJson(table);
}

}  // namespace koord::api::extension
