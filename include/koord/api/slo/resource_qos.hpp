// Per-QoS-class resource isolation settings of a NodeSLO (apis/slo/v1alpha1/nodeslo_types.go):
// ResourceQOSStrategy = policies + one ResourceQOS per class (lsrClass, lsClass, beClass,
// systemClass, cgroupRoot); ResourceQOS = {cpuQOS, memoryQOS, blkioQOS, resctrlQOS, networkQOS}.
// Go embeds each *QOS struct inline into its *Cfg next to `enable`; the models flatten that.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/extension/enum_codec.hpp"

namespace koord::api::slo {

using extension::EnumName;

enum class CPUQOSPolicy { kGroupIdentity, kCoreSched };
constexpr std::array<EnumName<CPUQOSPolicy>, 2> enumNames(CPUQOSPolicy) {
  return {
      {{CPUQOSPolicy::kGroupIdentity, "groupIdentity"}, {CPUQOSPolicy::kCoreSched, "coreSched"}}};
}
KOORD_API_ENUM_CODEC(CPUQOSPolicy)

enum class NETQOSPolicy { kTC, kTerwayQos };
constexpr std::array<EnumName<NETQOSPolicy>, 2> enumNames(NETQOSPolicy) {
  return {{{NETQOSPolicy::kTC, "tc"}, {NETQOSPolicy::kTerwayQos, "terway-qos"}}};
}
KOORD_API_ENUM_CODEC(NETQOSPolicy)

enum class BlockType { kDevice, kVolumeGroup, kPodVolume };
constexpr std::array<EnumName<BlockType>, 3> enumNames(BlockType) {
  return {{{BlockType::kDevice, "device"},
           {BlockType::kVolumeGroup, "volumegroup"},
           {BlockType::kPodVolume, "podvolume"}}};
}
KOORD_API_ENUM_CODEC(BlockType)

struct CPUQOSCfg {
  std::optional<bool> enable;
  std::optional<int64_t> groupIdentity;  // bvt value, -1..2
  std::optional<int64_t> schedIdle;      // 0 or 1
  std::optional<bool> coreExpeller;
  Json extra;

  bool operator==(const CPUQOSCfg&) const = default;
};

// pageCacheEnable, pageCacheLimitPercent, ... (newer kernels' page cache limits) stay in `extra`.
struct MemoryQOSCfg {
  std::optional<bool> enable;
  std::optional<int64_t> minLimitPercent;
  std::optional<int64_t> lowLimitPercent;
  std::optional<int64_t> throttlingPercent;
  std::optional<int64_t> wmarkRatio;
  std::optional<int64_t> wmarkScalePermill;
  std::optional<int64_t> wmarkMinAdj;
  std::optional<int64_t> priorityEnable;
  std::optional<int64_t> priority;
  std::optional<int64_t> oomKillGroup;
  Json extra;

  bool operator==(const MemoryQOSCfg&) const = default;
};

struct IOCfg {
  std::optional<int64_t> readIOPS;
  std::optional<int64_t> writeIOPS;
  std::optional<int64_t> readBPS;
  std::optional<int64_t> writeBPS;
  std::optional<int64_t> ioWeightPercent;
  std::optional<int64_t> readLatency;
  std::optional<int64_t> writeLatency;
  std::optional<int64_t> readLatencyPercent;
  std::optional<int64_t> writeLatencyPercent;
  std::optional<bool> enableUserModel;
  std::optional<int64_t> modelReadBPS;
  std::optional<int64_t> modelWriteBPS;
  std::optional<int64_t> modelReadSeqIOPS;
  std::optional<int64_t> modelWriteSeqIOPS;
  std::optional<int64_t> modelReadRandIOPS;
  std::optional<int64_t> modelWriteRandIOPS;
  Json extra;

  bool operator==(const IOCfg&) const = default;
};

struct BlockCfg {
  std::string name;
  std::optional<BlockType> type;
  IOCfg ioCfg;  // always written
  Json extra;

  bool operator==(const BlockCfg&) const = default;
};

struct BlkIOQOSCfg {
  std::optional<bool> enable;
  std::vector<BlockCfg> blocks;
  Json extra;

  bool operator==(const BlkIOQOSCfg&) const = default;
};

struct ResctrlQOSCfg {
  std::optional<bool> enable;
  std::optional<int64_t> catRangeStartPercent;
  std::optional<int64_t> catRangeEndPercent;
  std::optional<int64_t> mbaPercent;
  Json extra;

  bool operator==(const ResctrlQOSCfg&) const = default;
};

// Bandwidths are IntOrString: an integer percent of the total bandwidth or a quantity string
// ("50M"). Kept as raw JSON (null when absent) until core offers an IntOrString model.
struct NetworkQOSCfg {
  std::optional<bool> enable;
  Json ingressRequest;
  Json ingressLimit;
  Json egressRequest;
  Json egressLimit;
  Json extra;

  bool operator==(const NetworkQOSCfg&) const = default;
};

struct ResourceQOS {
  std::optional<CPUQOSCfg> cpuQOS;
  std::optional<MemoryQOSCfg> memoryQOS;
  std::optional<BlkIOQOSCfg> blkioQOS;
  std::optional<ResctrlQOSCfg> resctrlQOS;
  std::optional<NetworkQOSCfg> networkQOS;
  Json extra;

  bool operator==(const ResourceQOS&) const = default;
};

struct ResourceQOSPolicies {
  std::optional<CPUQOSPolicy> cpuPolicy;     // unset reads as groupIdentity
  std::optional<NETQOSPolicy> netQOSPolicy;  // unset reads as tc
  Json extra;

  bool operator==(const ResourceQOSPolicies&) const = default;
};

struct ResourceQOSStrategy {
  std::optional<ResourceQOSPolicies> policies;
  std::optional<ResourceQOS> lsrClass;
  std::optional<ResourceQOS> lsClass;
  std::optional<ResourceQOS> beClass;
  std::optional<ResourceQOS> systemClass;
  std::optional<ResourceQOS> cgroupRoot;
  Json extra;

  bool operator==(const ResourceQOSStrategy&) const = default;
};

Status fromJson(const Json& j, CPUQOSCfg& out, const std::string& path);
Status fromJson(const Json& j, MemoryQOSCfg& out, const std::string& path);
Status fromJson(const Json& j, IOCfg& out, const std::string& path);
Status fromJson(const Json& j, BlockCfg& out, const std::string& path);
Status fromJson(const Json& j, BlkIOQOSCfg& out, const std::string& path);
Status fromJson(const Json& j, ResctrlQOSCfg& out, const std::string& path);
Status fromJson(const Json& j, NetworkQOSCfg& out, const std::string& path);
Status fromJson(const Json& j, ResourceQOS& out, const std::string& path);
Status fromJson(const Json& j, ResourceQOSPolicies& out, const std::string& path);
Status fromJson(const Json& j, ResourceQOSStrategy& out, const std::string& path);
Json toJson(const CPUQOSCfg& v);
Json toJson(const MemoryQOSCfg& v);
Json toJson(const IOCfg& v);
Json toJson(const BlockCfg& v);
Json toJson(const BlkIOQOSCfg& v);
Json toJson(const ResctrlQOSCfg& v);
Json toJson(const NetworkQOSCfg& v);
Json toJson(const ResourceQOS& v);
Json toJson(const ResourceQOSPolicies& v);
Json toJson(const ResourceQOSStrategy& v);

}  // namespace koord::api::slo
