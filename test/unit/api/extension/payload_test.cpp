// Parse/format round trips and error paths of every annotation payload.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "koord/api/extension/annotation.hpp"
#include "koord/api/extension/coscheduling.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/extension/device_share.hpp"
#include "koord/api/extension/elastic_quota.hpp"
#include "koord/api/extension/load_aware.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/extension/resource.hpp"
#include "koord/api/well_known.hpp"

namespace koord::api::extension {
namespace {

// parse + format of one payload type.
using RoundTrip = std::function<Result<std::string>(std::string_view)>;

template <typename T, typename Parse, typename Format>
RoundTrip roundTrip(Parse parse, Format format) {
  return [parse, format](std::string_view value) -> Result<std::string> {
    Result<T> parsed = parse(value);
    if (!parsed.ok()) {
      return parsed.status();
    }
    return format(*parsed);
  };
}

RoundTrip quotaResourceList(std::string_view key) {
  return [key](std::string_view value) -> Result<std::string> {
    KOORD_ASSIGN_OR_RETURN(auto list, parseResourceListAnnotation(key, value));
    return formatResourceList(list);
  };
}

struct PayloadCase {
  std::string name;
  RoundTrip round_trip;
  std::string input;
  // What format() writes back; "" means the input itself (compared as JSON, key order aside).
  std::string expected;
};

std::vector<PayloadCase> payloadCases() {
  return {
      {"resource-spec", roundTrip<ResourceSpec>(parseResourceSpec, formatResourceSpec),
       R"({"requiredCPUBindPolicy":"FullPCPUs","preferredCPUBindPolicy":"SpreadByPCPUs",
           "preferredCPUExclusivePolicy":"PCPULevel"})",
       ""},
      {"resource-spec empty policy is unset",
       roundTrip<ResourceSpec>(parseResourceSpec, formatResourceSpec),
       R"({"requiredCPUBindPolicy":"","preferredCPUBindPolicy":"ConstrainedBurst"})",
       R"({"preferredCPUBindPolicy":"ConstrainedBurst"})"},
      {"resource-spec keeps unknown keys",
       roundTrip<ResourceSpec>(parseResourceSpec, formatResourceSpec),
       R"({"preferredCPUBindPolicy":"Default","futureKnob":{"a":[1,2]}})", ""},
      {"resource-status", roundTrip<ResourceStatus>(parseResourceStatus, formatResourceStatus),
       R"({"cpuset":"0-3","numaNodeResources":[{"node":0,"resources":{"cpu":"4","memory":"8Gi"}},
           {"node":1}]})",
       ""},
      {"resource-status canonical quantities",
       roundTrip<ResourceStatus>(parseResourceStatus, formatResourceStatus),
       R"({"numaNodeResources":[{"node":1,"resources":{"cpu":1.5,"memory":"8192Mi"}}]})",
       R"({"numaNodeResources":[{"node":1,"resources":{"cpu":"1500m","memory":"8Gi"}}]})"},
      {"numa-topology-spec",
       roundTrip<NUMATopologySpec>(parseNUMATopologySpec, formatNUMATopologySpec),
       R"({"numaTopologyPolicy":"SingleNUMANode","singleNUMANodeExclusive":"Required"})", ""},
      {"numa-topology-spec none policy omitted",
       roundTrip<NUMATopologySpec>(parseNUMATopologySpec, formatNUMATopologySpec),
       R"({"numaTopologyPolicy":"","singleNUMANodeExclusive":"Preferred"})",
       R"({"singleNUMANodeExclusive":"Preferred"})"},
      {"device-allocated minor always written",
       roundTrip<DeviceAllocations>(parseDeviceAllocations, formatDeviceAllocations),
       R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100",
           "koordinator.sh/gpu-memory":"16Gi","koordinator.sh/gpu-memory-ratio":"100"},
           "id":"GPU-uuid","extension":{"vfs":[{"minor":1,"busID":"0000:1f:00.1"}],
           "gpuSharedResourceTemplate":"t1"}}],
           "rdma":[{"minor":1,"resources":{"koordinator.sh/rdma":"1"},
           "extension":{"vfs":[{"busID":"0000:1f:00.2"}]}}]})",
       ""},
      {"device-allocated numbers become quantity strings",
       roundTrip<DeviceAllocations>(parseDeviceAllocations, formatDeviceAllocations),
       R"({"gpu":[{"resources":{"koordinator.sh/gpu-core":100}}]})",
       R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100"}}]})"},
      {"device-allocate-hint",
       roundTrip<DeviceAllocateHints>(parseDeviceAllocateHints, formatDeviceAllocateHints),
       R"({"gpu":{"selector":{"matchLabels":{"model":"A100"}},"allocateStrategy":"ApplyForAll",
           "requiredTopologyScope":"PCIe","exclusivePolicy":"DeviceLevel"},
           "rdma":{"vfSelector":{},"allocateStrategy":"RequestsAsCount"}})",
       ""},
      {"device-joint-allocate",
       roundTrip<DeviceJointAllocate>(parseDeviceJointAllocate, formatDeviceJointAllocate),
       R"({"deviceTypes":["gpu","rdma"],"requiredScope":"SamePCIe"})", ""},
      {"gpu-partition-spec",
       roundTrip<GPUPartitionSpec>(parseGPUPartitionSpec, formatGPUPartitionSpec),
       R"({"allocatePolicy":"Restricted","ringBusBandwidth":"200Gi"})", ""},
      {"gpu-partitions",
       roundTrip<GPUPartitionTable>(parseGPUPartitionTable, formatGPUPartitionTable),
       R"({"2":[{"minors":[0,1],"gpuLinkType":"NVLink","ringBusBandwidth":"400Gi",
           "allocationScore":1}],"1":[{"minors":[3]}]})",
       ""},
      {"reservation-allocated",
       roundTrip<ReservationAllocated>(parseReservationAllocated, formatReservationAllocated),
       R"({"name":"r1","uid":"1234"})", ""},
      {"reservation-affinity",
       roundTrip<ReservationAffinity>(parseReservationAffinity, formatReservationAffinity),
       R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[
           {"matchExpressions":[{"key":"app","operator":"In","values":["web"]}]}]},
           "reservationSelector":{"tier":"gold"},
           "tolerations":[{"key":"dedicated","operator":"Exists","effect":"NoSchedule"}]})",
       ""},
      {"reservation-affinity empty value",
       roundTrip<ReservationAffinity>(parseReservationAffinity, formatReservationAffinity), "",
       "{}"},
      {"reservation-restricted-options",
       roundTrip<ReservationRestrictedOptions>(parseReservationRestrictedOptions,
                                               formatReservationRestrictedOptions),
       R"({"resources":["cpu"]})", ""},
      {"exact-match-reservation",
       roundTrip<ExactMatchReservationSpec>(parseExactMatchReservationSpec,
                                            formatExactMatchReservationSpec),
       R"({"resourceNames":["cpu","memory"]})", ""},
      {"node reservation", roundTrip<NodeReservation>(parseNodeReservation, formatNodeReservation),
       R"({"resources":{"cpu":"2","memory":"4Gi"},"reservedCPUs":"0-1",
           "applyPolicy":"ReservedCPUsOnly"})",
       ""},
      {"node reservation empty value",
       roundTrip<NodeReservation>(parseNodeReservation, formatNodeReservation), "", "{}"},
      {"system-qos-resource",
       roundTrip<SystemQOSResource>(parseSystemQOSResource, formatSystemQOSResource),
       R"({"cpuset":"0-1","cpusetExclusive":false})", ""},
      {"cpu-topology", roundTrip<CPUTopology>(parseCPUTopology, formatCPUTopology),
       R"({"detail":[{"id":0,"core":0,"socket":0,"node":0},{"id":1,"core":0,"socket":0,"node":0}]})",
       ""},
      {"cpu-shared-pools zeros written",
       roundTrip<std::vector<CPUSharedPool>>(parseCPUSharedPools, formatCPUSharedPools),
       R"([{"socket":0,"node":0,"cpuset":"0-25"},{"socket":1,"node":1}])", ""},
      {"be-cpu-shared-pools",
       roundTrip<std::vector<CPUSharedPool>>(parseBECPUSharedPools, formatCPUSharedPools),
       R"([{"socket":0,"node":0,"cpuset":"2-7"}])", ""},
      {"pod-cpu-allocs", roundTrip<std::vector<PodCPUAlloc>>(parsePodCPUAllocs, formatPodCPUAllocs),
       R"([{"namespace":"default","name":"web","uid":"u1","cpuset":"2-3",
           "managedByKubelet":true},{"name":"db","managedByKubelet":false}])",
       R"([{"namespace":"default","name":"web","uid":"u1","cpuset":"2-3",
           "managedByKubelet":true},{"name":"db"}])"},
      {"kubelet cpu-manager-policy",
       roundTrip<KubeletCPUManagerPolicy>(parseKubeletCPUManagerPolicy,
                                          formatKubeletCPUManagerPolicy),
       R"({"policy":"static","options":{"full-pcpus-only":"true"},"reservedCPUs":"0-1"})", ""},
      {"usage-thresholds",
       roundTrip<CustomUsageThresholds>(parseCustomUsageThresholds, formatCustomUsageThresholds),
       R"({"usageThresholds":{"cpu":65,"memory":80},"prodUsageThresholds":{"cpu":55},
           "aggregatedUsage":{"usageThresholds":{"cpu":70},"usageAggregationType":"p95",
           "usageAggregatedDuration":"5m"}})",
       ""},
      {"load-estimated-scaling-factors",
       roundTrip<ResourceThresholds>(parseEstimatedScalingFactors, formatEstimatedScalingFactors),
       R"({"cpu":80,"memory":70})", ""},
      {"extended-resource-spec",
       roundTrip<ExtendedResourceSpec>(parseExtendedResourceSpec, formatExtendedResourceSpec),
       R"({"containers":{"main":{"limits":{"kubernetes.io/batch-cpu":"1000"},
           "requests":{"kubernetes.io/batch-cpu":1000}},"sidecar":{}}})",
       // Quantities come back in canonical form.
       R"({"containers":{"main":{"limits":{"kubernetes.io/batch-cpu":"1k"},
           "requests":{"kubernetes.io/batch-cpu":"1k"}},"sidecar":{}}})"},
      {"soft-eviction", roundTrip<SoftEvictionSpec>(parseSoftEvictionSpec, formatSoftEvictionSpec),
       R"({"timestamp":"2024-05-01T10:00:00Z","deleteOptions":{"gracePeriodSeconds":30},
           "initiator":"descheduler","reason":"too hot"})",
       ""},
      {"gang groups", roundTrip<std::vector<std::string>>(parseGangGroups, formatGangGroups),
       R"(["ns/gangA","ns/gangB"])", ""},
      {"quota shared-weight", quotaResourceList(kAnnotationQuotaSharedWeight),
       R"({"cpu":"10","memory":"20Gi"})", ""},
      {"quota runtime", quotaResourceList(kAnnotationQuotaRuntime), R"({"cpu":"2500m"})", ""},
      {"quota non-preemptible-used",
       roundTrip<resource::ResourceList>(parseQuotaNonPreemptibleUsed, formatResourceList),
       R"({"cpu":"1","nvidia.com/gpu":"2"})", ""},
      {"quota namespaces",
       roundTrip<std::vector<std::string>>(parseQuotaNamespaces, formatStringList),
       R"(["team-a","team-b"])", ""},
  };
}

TEST(PayloadTest, FormatWritesWhatParseRead) {
  for (const auto& tc : payloadCases()) {
    SCOPED_TRACE(tc.name);
    Result<std::string> out = tc.round_trip(tc.input);
    ASSERT_TRUE(out.ok()) << out.status();
    std::string expected_text = tc.expected.empty() ? tc.input : tc.expected;
    Json expected = Json::parse(expected_text);
    Json actual = Json::parse(*out);
    EXPECT_EQ(actual, expected) << *out;
    // Formatting again gives the same text: the output is a fixed point.
    Result<std::string> again = tc.round_trip(*out);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(*again, *out);
  }
}

struct ErrorCase {
  std::string name;
  RoundTrip round_trip;
  std::string input;
  std::string message;
};

std::vector<ErrorCase> errorCases() {
  return {
      {"wrong type names the field", roundTrip<ResourceSpec>(parseResourceSpec, formatResourceSpec),
       R"({"requiredCPUBindPolicy":3})",
       "failed to parse annotation 'scheduling.koordinator.sh/resource-spec': "
       "requiredCPUBindPolicy: expected string, got number"},
      {"unknown enum lists the allowed values",
       roundTrip<ResourceSpec>(parseResourceSpec, formatResourceSpec),
       R"({"preferredCPUExclusivePolicy":"CoreLevel"})",
       "failed to parse annotation 'scheduling.koordinator.sh/resource-spec': "
       "preferredCPUExclusivePolicy: unsupported value \"CoreLevel\": supported values: "
       "\"None\", \"PCPULevel\", \"NUMANodeLevel\""},
      {"nested path", roundTrip<ResourceStatus>(parseResourceStatus, formatResourceStatus),
       R"({"numaNodeResources":[{"node":0},{"node":"one"}]})",
       "failed to parse annotation 'scheduling.koordinator.sh/resource-status': "
       "numaNodeResources[1].node: expected integer, got string"},
      {"not an object", roundTrip<NUMATopologySpec>(parseNUMATopologySpec, formatNUMATopologySpec),
       R"(["SingleNUMANode"])",
       "failed to parse annotation 'scheduling.koordinator.sh/numa-topology-spec': "
       "expected object, got array"},
      {"unknown numa policy",
       roundTrip<NUMATopologySpec>(parseNUMATopologySpec, formatNUMATopologySpec),
       R"({"numaTopologyPolicy":"Single"})",
       "failed to parse annotation 'scheduling.koordinator.sh/numa-topology-spec': "
       "numaTopologyPolicy: unsupported value \"Single\": supported values: \"\", "
       "\"BestEffort\", \"Restricted\", \"SingleNUMANode\""},
      {"device minor type",
       roundTrip<DeviceAllocations>(parseDeviceAllocations, formatDeviceAllocations),
       R"({"gpu":[{"minor":"0","resources":{}}]})",
       "failed to parse annotation 'scheduling.koordinator.sh/device-allocated': "
       "gpu[0].minor: expected integer, got string"},
      {"device hint scope",
       roundTrip<DeviceAllocateHints>(parseDeviceAllocateHints, formatDeviceAllocateHints),
       R"({"gpu":{"requiredTopologyScope":"Rack"}})",
       "failed to parse annotation 'scheduling.koordinator.sh/device-allocate-hint': "
       "gpu.requiredTopologyScope: unsupported value \"Rack\": supported values: \"Device\", "
       "\"PCIe\", \"NUMANode\", \"Node\""},
      {"joint allocate scope",
       roundTrip<DeviceJointAllocate>(parseDeviceJointAllocate, formatDeviceJointAllocate),
       R"({"requiredScope":"SameNUMA"})",
       "failed to parse annotation 'scheduling.koordinator.sh/device-joint-allocate': "
       "requiredScope: unsupported value \"SameNUMA\": supported values: \"SamePCIe\""},
      {"bad quantity", roundTrip<GPUPartitionSpec>(parseGPUPartitionSpec, formatGPUPartitionSpec),
       R"({"ringBusBandwidth":"fast"})",
       "failed to parse annotation 'scheduling.koordinator.sh/gpu-partition-spec': "
       "ringBusBandwidth: failed to parse quantity 'fast': quantities must match the regular "
       "expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"partition table key",
       roundTrip<GPUPartitionTable>(parseGPUPartitionTable, formatGPUPartitionTable),
       R"({"two":[]})",
       "failed to parse annotation 'scheduling.koordinator.sh/gpu-partitions': "
       "two: expected an integer key"},
      {"malformed JSON",
       roundTrip<ReservationAllocated>(parseReservationAllocated, formatReservationAllocated),
       R"({"name":)", ""},
      {"affinity tolerations type",
       roundTrip<ReservationAffinity>(parseReservationAffinity, formatReservationAffinity),
       R"({"tolerations":{"key":"a"}})",
       "failed to parse annotation 'scheduling.koordinator.sh/reservation-affinity': "
       "tolerations: expected array, got object"},
      {"apply policy", roundTrip<NodeReservation>(parseNodeReservation, formatNodeReservation),
       R"({"applyPolicy":"Strict"})",
       "failed to parse annotation 'node.koordinator.sh/reservation': applyPolicy: unsupported "
       "value \"Strict\": supported values: \"Default\", \"ReservedCPUsOnly\""},
      {"exclusive flag type",
       roundTrip<SystemQOSResource>(parseSystemQOSResource, formatSystemQOSResource),
       R"({"cpusetExclusive":"yes"})",
       "failed to parse annotation 'node.koordinator.sh/system-qos-resource': cpusetExclusive: "
       "expected boolean, got string"},
      {"cpu info", roundTrip<CPUTopology>(parseCPUTopology, formatCPUTopology),
       R"({"detail":[{"id":0,"core":"a"}]})",
       "failed to parse annotation 'node.koordinator.sh/cpu-topology': detail[0].core: "
       "expected integer, got string"},
      {"shared pools not a list",
       roundTrip<std::vector<CPUSharedPool>>(parseBECPUSharedPools, formatCPUSharedPools),
       R"({"socket":0})",
       "failed to parse annotation 'node.koordinator.sh/be-cpu-shared-pools': expected array, "
       "got object"},
      {"pod cpu alloc", roundTrip<std::vector<PodCPUAlloc>>(parsePodCPUAllocs, formatPodCPUAllocs),
       R"([{"managedByKubelet":"true"}])",
       "failed to parse annotation 'node.koordinator.sh/pod-cpu-allocs': [0].managedByKubelet: "
       "expected boolean, got string"},
      {"kubelet options",
       roundTrip<KubeletCPUManagerPolicy>(parseKubeletCPUManagerPolicy,
                                          formatKubeletCPUManagerPolicy),
       R"({"options":{"full-pcpus-only":true}})",
       "failed to parse annotation 'kubelet.koordinator.sh/cpu-manager-policy': "
       "options.full-pcpus-only: expected string, got boolean"},
      {"aggregation type",
       roundTrip<CustomUsageThresholds>(parseCustomUsageThresholds, formatCustomUsageThresholds),
       R"({"aggregatedUsage":{"usageAggregationType":"p42"}})",
       "failed to parse annotation 'scheduling.koordinator.sh/usage-thresholds': "
       "aggregatedUsage.usageAggregationType: unsupported value \"p42\": supported values: "
       "\"avg\", \"p50\", \"p90\", \"p95\", \"p99\""},
      {"aggregated duration",
       roundTrip<CustomUsageThresholds>(parseCustomUsageThresholds, formatCustomUsageThresholds),
       R"({"aggregatedUsage":{"usageAggregatedDuration":"5 minutes"}})",
       "failed to parse annotation 'scheduling.koordinator.sh/usage-thresholds': "
       "aggregatedUsage.usageAggregatedDuration: invalid duration \"5 minutes\": unknown unit "
       "\" minutes\""},
      {"threshold value",
       roundTrip<CustomUsageThresholds>(parseCustomUsageThresholds, formatCustomUsageThresholds),
       R"({"usageThresholds":{"cpu":"65%"}})",
       "failed to parse annotation 'scheduling.koordinator.sh/usage-thresholds': "
       "usageThresholds.cpu: expected integer, got string"},
      {"extended resource",
       roundTrip<ExtendedResourceSpec>(parseExtendedResourceSpec, formatExtendedResourceSpec),
       R"({"containers":{"main":{"limits":{"kubernetes.io/batch-cpu":true}}}})",
       "failed to parse annotation 'node.koordinator.sh/extended-resource-spec': "
       "containers.main.limits.kubernetes.io/batch-cpu: expected quantity (string or number), "
       "got boolean"},
      {"soft eviction options",
       roundTrip<SoftEvictionSpec>(parseSoftEvictionSpec, formatSoftEvictionSpec),
       R"({"deleteOptions":{"gracePeriodSeconds":"30"}})",
       "failed to parse annotation 'scheduling.koordinator.sh/soft-eviction': "
       "deleteOptions.gracePeriodSeconds: expected integer, got string"},
      {"gang groups entries",
       roundTrip<std::vector<std::string>>(parseGangGroups, formatGangGroups), R"(["ns/a",1])",
       "failed to parse annotation 'gang.scheduling.koordinator.sh/groups': [1]: expected "
       "string, got number"},
      {"quota list", quotaResourceList(kAnnotationQuotaGuaranteed), R"({"cpu":[]})",
       "failed to parse annotation 'quota.scheduling.koordinator.sh/guaranteed': cpu: expected "
       "quantity (string or number), got array"},
      {"quota admission",
       roundTrip<resource::ResourceList>(parseQuotaAdmission, formatResourceList), R"(["cpu"])",
       "failed to parse annotation 'quota.scheduling.koordinator.sh/admission': expected "
       "object, got array"},
  };
}

TEST(PayloadTest, ErrorsNameTheAnnotationAndTheField) {
  for (const auto& tc : errorCases()) {
    SCOPED_TRACE(tc.name);
    Result<std::string> out = tc.round_trip(tc.input);
    ASSERT_FALSE(out.ok()) << *out;
    EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
    if (tc.message.empty()) {
      EXPECT_EQ(out.status().message().rfind("failed to parse annotation '", 0), 0U)
          << out.status();
      EXPECT_NE(out.status().message().find("invalid JSON"), std::string::npos) << out.status();
    } else {
      EXPECT_EQ(out.status().message(), tc.message);
    }
  }
}

TEST(PayloadTest, FormatOmitsEmptyFields) {
  EXPECT_EQ(formatResourceSpec(ResourceSpec{}), "{}");
  EXPECT_EQ(formatNUMATopologySpec(NUMATopologySpec{}), "{}");
  EXPECT_EQ(formatReservationAllocated({"r1", "", {}}), R"({"name":"r1"})");
  DeviceAllocations allocations;
  allocations["gpu"].push_back(DeviceAllocation{});
  EXPECT_EQ(formatDeviceAllocations(allocations), R"({"gpu":[{"minor":0,"resources":{}}]})");
  SystemQOSResource system_qos;
  system_qos.cpuset = "0-1";
  EXPECT_EQ(formatSystemQOSResource(system_qos), R"({"cpuset":"0-1"})");
}

TEST(PayloadTest, PolicyDefaults) {
  EXPECT_TRUE(isCPUSetExclusive(SystemQOSResource{}));
  SystemQOSResource shared;
  shared.cpusetExclusive = false;
  EXPECT_FALSE(isCPUSetExclusive(shared));
  EXPECT_EQ(effectiveAllocatePolicy(GPUPartitionSpec{}), GPUPartitionAllocatePolicy::kBestEffort);
  auto restricted = parseGPUPartitionSpec(R"({"allocatePolicy":"Restricted"})");
  ASSERT_TRUE(restricted.ok());
  EXPECT_EQ(effectiveAllocatePolicy(*restricted), GPUPartitionAllocatePolicy::kRestricted);
}

TEST(PayloadTest, ReservedCPUCountRoundsUpAndYieldsToTheList) {
  struct Case {
    std::string annotation;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {R"({"resources":{"cpu":"2"}})", 2},
      {R"({"resources":{"cpu":"1500m"}})", 2},
      {R"({"resources":{"cpu":"100m","memory":"1Gi"}})", 1},
      {R"({"resources":{"memory":"1Gi"}})", 0},
      {R"({"resources":{"cpu":"4"},"reservedCPUs":"0-1"})", 0},
  };
  for (const auto& tc : cases) {
    auto reservation = parseNodeReservation(tc.annotation);
    ASSERT_TRUE(reservation.ok()) << reservation.status();
    EXPECT_EQ(reservedCPUCount(*reservation), tc.want) << tc.annotation;
  }
}

TEST(PayloadTest, NodeCPUBindPolicyFromLabelAndKubelet) {
  KubeletCPUManagerPolicy full_pcpus;
  full_pcpus.policy = "static";
  full_pcpus.options["full-pcpus-only"] = "true";
  KubeletCPUManagerPolicy none_policy;
  none_policy.policy = "none";
  none_policy.options["full-pcpus-only"] = "true";
  struct Case {
    std::string label;
    std::optional<KubeletCPUManagerPolicy> kubelet;
    NodeCPUBindPolicy want;
  };
  const std::vector<Case> cases = {
      {"", std::nullopt, NodeCPUBindPolicy::kNone},
      {"FullPCPUsOnly", std::nullopt, NodeCPUBindPolicy::kFullPCPUsOnly},
      {"SpreadByPCPUs", std::nullopt, NodeCPUBindPolicy::kSpreadByPCPUs},
      {"Bogus", std::nullopt, NodeCPUBindPolicy::kNone},
      {"", full_pcpus, NodeCPUBindPolicy::kFullPCPUsOnly},
      {"SpreadByPCPUs", full_pcpus, NodeCPUBindPolicy::kFullPCPUsOnly},
      {"", none_policy, NodeCPUBindPolicy::kNone},
  };
  for (const auto& tc : cases) {
    std::map<std::string, std::string> labels;
    if (!tc.label.empty()) {
      labels[std::string(kLabelNodeCPUBindPolicy)] = tc.label;
    }
    EXPECT_EQ(nodeCPUBindPolicyOf(labels, tc.kubelet), tc.want) << tc.label;
  }
}

TEST(PayloadTest, ExactMatchReservationChecksEveryListedName) {
  auto q = [](const char* text) { return *resource::Quantity::parse(text); };
  resource::ResourceList requests = {{"cpu", q("4")}, {"memory", q("8Gi")}};
  struct Case {
    std::string name;
    resource::ResourceList allocatable;
    std::vector<std::string> names;
    bool want;
  };
  const std::vector<Case> cases = {
      {"no names", {{"cpu", q("2")}}, {}, true},
      {"equal", {{"cpu", q("4000m")}, {"memory", q("8Gi")}}, {"cpu", "memory"}, true},
      {"differs", {{"cpu", q("2")}, {"memory", q("8Gi")}}, {"cpu", "memory"}, false},
      {"missing on one side", {{"memory", q("8Gi")}}, {"cpu"}, false},
      // Koordinator would stop at the GPU, absent on both sides, and answer true.
      {"absent on both sides does not end the check",
       {{"cpu", q("2")}},
       {"nvidia.com/gpu", "cpu"},
       false},
  };
  for (const auto& tc : cases) {
    ExactMatchReservationSpec spec;
    spec.resourceNames = tc.names;
    EXPECT_EQ(exactMatchReservation(requests, tc.allocatable, spec), tc.want) << tc.name;
  }
}

TEST(PayloadTest, EstimatedSeconds) {
  EXPECT_EQ(*parseEstimatedSeconds(kAnnotationCustomEstimatedSecondsAfterPodScheduled, "300"), 300);
  EXPECT_EQ(*parseEstimatedSeconds(kAnnotationCustomEstimatedSecondsAfterPodScheduled, "+5"), 5);
  for (const char* bad : {"", "5s", "+-5", "1e3"}) {
    auto r = parseEstimatedSeconds(kAnnotationCustomEstimatedSecondsAfterInitialized, bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().message(),
              std::string("failed to parse annotation "
                          "'scheduling.koordinator.sh/load-estimated-seconds-after-initialized': "
                          "expected an integer, got \"") +
                  bad + "\"");
  }
}

}  // namespace
}  // namespace koord::api::extension
