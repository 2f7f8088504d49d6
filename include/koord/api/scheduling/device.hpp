// Device (scheduling.koordinator.sh/v1alpha1, cluster-scoped, name = node name): the devices of
// one node as koordlet reports them, and what the scheduler allocated from them. DeviceInfo is
// also used by NodeMetric usages. Device types ("gpu", "rdma", "fpga", "xpu", ...) stay strings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/scheduling/register.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::scheduling {

inline constexpr std::string_view kDeviceKind = "Device";
inline constexpr std::string_view kDeviceListKind = "DeviceList";
inline constexpr std::string_view kDevicePlural = "devices";

// Every field is written (the CRD requires them); socketID -1 means unknown.
struct DeviceTopology {
  int32_t socketID = 0;
  int32_t nodeID = 0;
  std::string pcieID;
  std::string busID;
  Json extra;

  bool operator==(const DeviceTopology&) const = default;
};

struct VirtualFunction {
  int32_t minor = 0;  // always written
  std::string busID;
  Json extra;

  bool operator==(const VirtualFunction&) const = default;
};

struct VirtualFunctionGroup {
  std::map<std::string, std::string> labels;
  std::vector<VirtualFunction> vfs;
  Json extra;

  bool operator==(const VirtualFunctionGroup&) const = default;
};

struct DeviceInfo {
  std::string type;
  std::map<std::string, std::string> labels;
  std::string id;  // JSON "id": the GPU UUID
  std::optional<int32_t> minor;
  std::optional<int32_t> moduleID;
  bool health = false;  // always written
  resource::ResourceList resources;
  std::optional<DeviceTopology> topology;
  std::vector<VirtualFunctionGroup> vfGroups;
  std::vector<core::Condition> conditions;
  Json extra;

  bool operator==(const DeviceInfo&) const = default;
};

struct DeviceSpec {
  std::vector<DeviceInfo> devices;
  Json extra;

  bool operator==(const DeviceSpec&) const = default;
};

struct DeviceAllocationItem {
  std::string name;
  std::string namespace_;  // JSON "namespace"
  std::string uuid;
  std::vector<int32_t> minors;
  Json extra;

  bool operator==(const DeviceAllocationItem&) const = default;
};

struct DeviceAllocation {
  std::string type;
  std::vector<DeviceAllocationItem> entries;
  Json extra;

  bool operator==(const DeviceAllocation&) const = default;
};

struct DeviceStatus {
  std::vector<DeviceAllocation> allocations;
  Json extra;

  bool operator==(const DeviceStatus&) const = default;
};

struct Device {
  std::string apiVersion;
  std::string kind;
  core::ObjectMeta metadata;
  DeviceSpec spec;
  DeviceStatus status;
  Json extra;

  bool operator==(const Device&) const = default;
};

using DeviceList = core::List<Device>;

Status fromJson(const Json& j, DeviceTopology& out, const std::string& path);
Status fromJson(const Json& j, VirtualFunction& out, const std::string& path);
Status fromJson(const Json& j, VirtualFunctionGroup& out, const std::string& path);
Status fromJson(const Json& j, DeviceInfo& out, const std::string& path);
Status fromJson(const Json& j, DeviceSpec& out, const std::string& path);
Status fromJson(const Json& j, DeviceAllocationItem& out, const std::string& path);
Status fromJson(const Json& j, DeviceAllocation& out, const std::string& path);
Status fromJson(const Json& j, DeviceStatus& out, const std::string& path);
Status fromJson(const Json& j, Device& out, const std::string& path);
Json toJson(const DeviceTopology& v);
Json toJson(const VirtualFunction& v);
Json toJson(const VirtualFunctionGroup& v);
Json toJson(const DeviceInfo& v);
Json toJson(const DeviceSpec& v);
Json toJson(const DeviceAllocationItem& v);
Json toJson(const DeviceAllocation& v);
Json toJson(const DeviceStatus& v);
Json toJson(const Device& v);

}  // namespace koord::api::scheduling
