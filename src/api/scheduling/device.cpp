#include "koord/api/scheduling/device.hpp"

#include "koord/api/fields.hpp"

namespace koord::api::scheduling {

constexpr auto kDeviceTopologyFields = std::tuple{
    field("socketID", &DeviceTopology::socketID).always(),
    field("nodeID", &DeviceTopology::nodeID).always(),
    field("pcieID", &DeviceTopology::pcieID).always(),
    field("busID", &DeviceTopology::busID),
};

Status fromJson(const Json& j, DeviceTopology& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceTopologyFields);
}

Json toJson(const DeviceTopology& v) {
  return encodeFields(v, kDeviceTopologyFields);
}

constexpr auto kVirtualFunctionFields = std::tuple{
    field("minor", &VirtualFunction::minor).always(),
    field("busID", &VirtualFunction::busID),
};

Status fromJson(const Json& j, VirtualFunction& out, const std::string& path) {
  return decodeFields(j, out, path, kVirtualFunctionFields);
}

Json toJson(const VirtualFunction& v) {
  return encodeFields(v, kVirtualFunctionFields);
}

constexpr auto kVirtualFunctionGroupFields = std::tuple{
    field("labels", &VirtualFunctionGroup::labels),
    field("vfs", &VirtualFunctionGroup::vfs),
};

Status fromJson(const Json& j, VirtualFunctionGroup& out, const std::string& path) {
  return decodeFields(j, out, path, kVirtualFunctionGroupFields);
}

Json toJson(const VirtualFunctionGroup& v) {
  return encodeFields(v, kVirtualFunctionGroupFields);
}

constexpr auto kDeviceInfoFields = std::tuple{
    field("type", &DeviceInfo::type),
    field("labels", &DeviceInfo::labels),
    field("id", &DeviceInfo::id),
    field("minor", &DeviceInfo::minor),
    field("moduleID", &DeviceInfo::moduleID),
    field("health", &DeviceInfo::health).always(),
    field("resources", &DeviceInfo::resources),
    field("topology", &DeviceInfo::topology),
    field("vfGroups", &DeviceInfo::vfGroups),
    field("conditions", &DeviceInfo::conditions),
};

Status fromJson(const Json& j, DeviceInfo& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceInfoFields);
}

Json toJson(const DeviceInfo& v) {
  return encodeFields(v, kDeviceInfoFields);
}

constexpr auto kDeviceSpecFields = std::tuple{
    field("devices", &DeviceSpec::devices),
};

Status fromJson(const Json& j, DeviceSpec& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceSpecFields);
}

Json toJson(const DeviceSpec& v) {
  return encodeFields(v, kDeviceSpecFields);
}

constexpr auto kDeviceAllocationItemFields = std::tuple{
    field("name", &DeviceAllocationItem::name),
    field("namespace", &DeviceAllocationItem::namespace_),
    field("uuid", &DeviceAllocationItem::uuid),
    field("minors", &DeviceAllocationItem::minors),
};

Status fromJson(const Json& j, DeviceAllocationItem& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceAllocationItemFields);
}

Json toJson(const DeviceAllocationItem& v) {
  return encodeFields(v, kDeviceAllocationItemFields);
}

constexpr auto kDeviceAllocationFields = std::tuple{
    field("type", &DeviceAllocation::type),
    field("entries", &DeviceAllocation::entries),
};

Status fromJson(const Json& j, DeviceAllocation& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceAllocationFields);
}

Json toJson(const DeviceAllocation& v) {
  return encodeFields(v, kDeviceAllocationFields);
}

constexpr auto kDeviceStatusFields = std::tuple{
    field("allocations", &DeviceStatus::allocations),
};

Status fromJson(const Json& j, DeviceStatus& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceStatusFields);
}

Json toJson(const DeviceStatus& v) {
  return encodeFields(v, kDeviceStatusFields);
}

constexpr auto kDeviceFields = std::tuple{
    field("apiVersion", &Device::apiVersion),      field("kind", &Device::kind),
    field("metadata", &Device::metadata).always(), field("spec", &Device::spec).always(),
    field("status", &Device::status).always(),
};

Status fromJson(const Json& j, Device& out, const std::string& path) {
  return decodeFields(j, out, path, kDeviceFields);
}

Json toJson(const Device& v) {
  return encodeFields(v, kDeviceFields);
}

}  // namespace koord::api::scheduling
