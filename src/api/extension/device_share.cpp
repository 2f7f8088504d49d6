#include "koord/api/extension/device_share.hpp"

#include <charconv>

#include "encode_util.hpp"
#include "koord/api/extension/annotation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {
namespace {

using internal::ifPresent;

}  // namespace

GPUPartitionAllocatePolicy effectiveAllocatePolicy(const GPUPartitionSpec& spec) {
  return spec.allocatePolicy.value_or(GPUPartitionAllocatePolicy::kBestEffort);
}

Status fromJson(const Json& j, VirtualFunction& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("minor", out.minor).field("busID", out.busID);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const VirtualFunction& v) {
  ObjectEncoder e;
  if (v.minor != 0) {
    e.always("minor", v.minor);
  }
  return e.field("busID", v.busID).finish(v.extra);
}

Status fromJson(const Json& j, DeviceAllocationExtension& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("vfs", out.vfs).field("gpuSharedResourceTemplate", out.gpuSharedResourceTemplate);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceAllocationExtension& v) {
  return ObjectEncoder()
      .field("vfs", v.vfs)
      .field("gpuSharedResourceTemplate", v.gpuSharedResourceTemplate)
      .finish(v.extra);
}

Status fromJson(const Json& j, DeviceAllocation& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("minor", out.minor)
      .field("resources", out.resources)
      .field("id", out.id)
      .field("extension", out.extension);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceAllocation& v) {
  return ObjectEncoder()
      .always("minor", v.minor)
      .always("resources", v.resources)
      .field("id", v.id)
      .field("extension", v.extension)
      .finish(v.extra);
}

Status fromJson(const Json& j, DeviceHint& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("selector", out.selector)
      .field("vfSelector", out.vfSelector)
      .field("allocateStrategy", out.allocateStrategy)
      .field("requiredTopologyScope", out.requiredTopologyScope)
      .field("exclusivePolicy", out.exclusivePolicy);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceHint& v) {
  ObjectEncoder e;
  ifPresent(e, "selector", v.selector);
  ifPresent(e, "vfSelector", v.vfSelector);
  return e.field("allocateStrategy", v.allocateStrategy)
      .field("requiredTopologyScope", v.requiredTopologyScope)
      .field("exclusivePolicy", v.exclusivePolicy)
      .finish(v.extra);
}

Status fromJson(const Json& j, DeviceJointAllocate& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("deviceTypes", out.deviceTypes).field("requiredScope", out.requiredScope);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const DeviceJointAllocate& v) {
  return ObjectEncoder()
      .field("deviceTypes", v.deviceTypes)
      .field("requiredScope", v.requiredScope)
      .finish(v.extra);
}

Status fromJson(const Json& j, GPUPartitionSpec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("allocatePolicy", out.allocatePolicy).field("ringBusBandwidth", out.ringBusBandwidth);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const GPUPartitionSpec& v) {
  return ObjectEncoder()
      .field("allocatePolicy", v.allocatePolicy)
      .field("ringBusBandwidth", v.ringBusBandwidth)
      .finish(v.extra);
}

Status fromJson(const Json& j, GPUPartition& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("minors", out.minors)
      .field("gpuLinkType", out.gpuLinkType)
      .field("ringBusBandwidth", out.ringBusBandwidth)
      .field("allocationScore", out.allocationScore);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const GPUPartition& v) {
  ObjectEncoder e;
  e.always("minors", v.minors)
      .field("gpuLinkType", v.gpuLinkType)
      .field("ringBusBandwidth", v.ringBusBandwidth);
  if (v.allocationScore != 0) {
    e.always("allocationScore", v.allocationScore);
  }
  return e.finish(v.extra);
}

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
