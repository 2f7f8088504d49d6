// Every Koordinator label, annotation, resource name, domain prefix, priority class and QoS
// class (koordinator-reference.md §2), with the helpers that interpret them. Strings are exact:
// a user's Koordinator YAML must apply unchanged. The JSON payloads of the annotations are
// parsed and formatted by the headers under koord/api/extension/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace koord::api {

// Domain prefixes (apis/extension/constants.go). kDomainPrefix carries its trailing slash.
inline constexpr std::string_view kDomainPrefix = "koordinator.sh/";
inline constexpr std::string_view kResourceDomainPrefix = "kubernetes.io/";
inline constexpr std::string_view kSchedulingDomainPrefix = "scheduling.koordinator.sh";
inline constexpr std::string_view kNodeDomainPrefix = "node.koordinator.sh";
inline constexpr std::string_view kPodDomainPrefix = "pod.koordinator.sh";
inline constexpr std::string_view kQuotaDomainPrefix = "quota.scheduling.koordinator.sh";
inline constexpr std::string_view kGangDomainPrefix = "gang.scheduling.koordinator.sh";
inline constexpr std::string_view kDeschedulerDomainPrefix = "descheduler.koordinator.sh";
inline constexpr std::string_view kInternalSchedulingDomainPrefix =
    "internal.scheduling.koordinator.sh";
inline constexpr std::string_view kConfigDomainPrefix = "config.koordinator.sh";
inline constexpr std::string_view kKubeletDomainPrefix = "kubelet.koordinator.sh";

inline constexpr std::string_view kSystemNamespace = "koordinator-system";
inline constexpr std::string_view kLabelManagedBy = "app.kubernetes.io/managed-by";
inline constexpr std::string_view kLabelCreatedBy = "app.kubernetes.io/created-by";

// §2.1 Pod QoS and priority.
inline constexpr std::string_view kLabelPodQoS = "koordinator.sh/qosClass";
inline constexpr std::string_view kLabelPodNetQoS = "koordinator.sh/netQoSClass";
inline constexpr std::string_view kLabelPodPriority = "koordinator.sh/priority";
inline constexpr std::string_view kLabelPodPriorityClass = "koordinator.sh/priority-class";
inline constexpr std::string_view kLabelEvictionEnabled = "koordinator.sh/eviction-enabled";
inline constexpr std::string_view kAnnotationEvictionPolicy = "koordinator.sh/eviction-policy";
inline constexpr std::string_view kAnnotationEvictionPriority = "koordinator.sh/eviction-priority";
inline constexpr std::string_view kAnnotationOOMScoreAdj = "koordinator.sh/oom-score-adj";
inline constexpr std::string_view kAnnotationOOMScoreAdjSpec = "koordinator.sh/oom-score-adj-spec";
inline constexpr std::string_view kAnnotationNetworkQOS = "koordinator.sh/networkQOS";
inline constexpr std::string_view kAnnotationCPUBurst = "koordinator.sh/cpuBurst";
inline constexpr std::string_view kAnnotationCPUQOS = "koordinator.sh/cpuQOS";
inline constexpr std::string_view kAnnotationMemoryQOS = "koordinator.sh/memoryQOS";
inline constexpr std::string_view kAnnotationBlkioQOS = "koordinator.sh/blkioQOS";
inline constexpr std::string_view kAnnotationCoreSchedGroupID =
    "koordinator.sh/core-sched-group-id";
inline constexpr std::string_view kAnnotationCoreSchedPolicy = "koordinator.sh/core-sched-policy";
inline constexpr std::string_view kLabelPodMutatingUpdate = "pod.koordinator.sh/mutating-update";
inline constexpr std::string_view kSkipEnhancedValidation =
    "pod.koordinator.sh/skip-enhanced-validation";
inline constexpr std::string_view kLabelPodIsPreAllocatable =
    "pod.koordinator.sh/is-pre-allocatable";
inline constexpr std::string_view kAnnotationPreAllocatablePriority =
    "pod.koordinator.sh/pre-allocatable-priority";
// "a:b,c:d,e:": replace resource a by b and c by d, erase e.
inline constexpr std::string_view kAnnotationReplaceResources =
    "pod.koordinator.sh/replace-resources";

// QoS classes (label values of kLabelPodQoS). kQoSNone is the empty string, as Koordinator's
// QoSNone; an absent or unknown label reads as it.
inline constexpr std::string_view kQoSLSE = "LSE";
inline constexpr std::string_view kQoSLSR = "LSR";
inline constexpr std::string_view kQoSLS = "LS";
inline constexpr std::string_view kQoSBE = "BE";
inline constexpr std::string_view kQoSSystem = "SYSTEM";
inline constexpr std::string_view kQoSNone = "";

// Priority classes and their bands of pod.spec.priority (inclusive), the default value inside
// each band, and the value of the PriorityClass object deployed for it.
inline constexpr std::string_view kPriorityProd = "koord-prod";
inline constexpr std::string_view kPriorityMid = "koord-mid";
inline constexpr std::string_view kPriorityBatch = "koord-batch";
inline constexpr std::string_view kPriorityFree = "koord-free";
inline constexpr std::string_view kPriorityNone = "";
inline constexpr int32_t kPriorityProdValueMin = 9000;
inline constexpr int32_t kPriorityProdValueMax = 9999;
inline constexpr int32_t kPriorityProdValueDefault = 9500;
inline constexpr int32_t kPriorityProdObjectValue = 9000;
inline constexpr int32_t kPriorityMidValueMin = 7000;
inline constexpr int32_t kPriorityMidValueMax = 7999;
inline constexpr int32_t kPriorityMidValueDefault = 7500;
inline constexpr int32_t kPriorityMidObjectValue = 7000;
inline constexpr int32_t kPriorityBatchValueMin = 5000;
inline constexpr int32_t kPriorityBatchValueMax = 5999;
inline constexpr int32_t kPriorityBatchValueDefault = 5500;
inline constexpr int32_t kPriorityBatchObjectValue = 5000;
inline constexpr int32_t kPriorityFreeValueMin = 3000;
inline constexpr int32_t kPriorityFreeValueMax = 3999;
inline constexpr int32_t kPriorityFreeValueDefault = 3500;
inline constexpr int32_t kPriorityFreeObjectValue = 3000;

// §2.2 Resource names. batch/mid CPU is in integer milli-cores; memory in bytes; the GPU, RDMA and
// FPGA shares are percent of one device (100 per device).
inline constexpr std::string_view kResourceCPU = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceBatchCPU = "kubernetes.io/batch-cpu";
inline constexpr std::string_view kResourceBatchMemory = "kubernetes.io/batch-memory";
inline constexpr std::string_view kResourceMidCPU = "kubernetes.io/mid-cpu";
inline constexpr std::string_view kResourceMidMemory = "kubernetes.io/mid-memory";
inline constexpr std::string_view kResourceGPU = "koordinator.sh/gpu";
inline constexpr std::string_view kResourceGPUShared = "koordinator.sh/gpu.shared";
inline constexpr std::string_view kResourceGPUCore = "koordinator.sh/gpu-core";
inline constexpr std::string_view kResourceGPUMemory = "koordinator.sh/gpu-memory";
inline constexpr std::string_view kResourceGPUMemoryRatio = "koordinator.sh/gpu-memory-ratio";
inline constexpr std::string_view kResourceRDMA = "koordinator.sh/rdma";
inline constexpr std::string_view kResourceFPGA = "koordinator.sh/fpga";
inline constexpr std::string_view kResourceNvidiaGPU = "nvidia.com/gpu";
inline constexpr std::string_view kResourceAMDGPU = "amd.com/gpu";
inline constexpr std::string_view kResourceHygonDCU = "dcu.com/gpu";
inline constexpr std::string_view kResourceHuaweiNPUCore = "huawei.com/npu-core";
inline constexpr std::string_view kResourceHuaweiNPUCPU = "huawei.com/npu-cpu";
inline constexpr std::string_view kResourceHuaweiNPUDVPP = "huawei.com/npu-dvpp";
inline constexpr std::string_view kDeprecatedResourceGPUCore = "kubernetes.io/gpu-core";
inline constexpr std::string_view kDeprecatedResourceGPUMemory = "kubernetes.io/gpu-memory";
inline constexpr std::string_view kDeprecatedResourceGPUMemoryRatio =
    "kubernetes.io/gpu-memory-ratio";
inline constexpr std::string_view kDeprecatedResourceBatchCPU = "koordinator.sh/batch-cpu";
inline constexpr std::string_view kDeprecatedResourceBatchMemory = "koordinator.sh/batch-memory";
inline constexpr std::string_view kAnnotationExtendedResourceSpec =
    "node.koordinator.sh/extended-resource-spec";

// §2.3 Scheduling annotations and labels on pods and reservations.
inline constexpr std::string_view kAnnotationResourceSpec =
    "scheduling.koordinator.sh/resource-spec";
inline constexpr std::string_view kAnnotationResourceStatus =
    "scheduling.koordinator.sh/resource-status";
inline constexpr std::string_view kAnnotationNUMATopologySpec =
    "scheduling.koordinator.sh/numa-topology-spec";
inline constexpr std::string_view kAnnotationReservationAllocated =
    "scheduling.koordinator.sh/reservation-allocated";
inline constexpr std::string_view kAnnotationReservationAffinity =
    "scheduling.koordinator.sh/reservation-affinity";
inline constexpr std::string_view kAnnotationReservationRestrictedOptions =
    "scheduling.koordinator.sh/reservation-restricted-options";
inline constexpr std::string_view kAnnotationExactMatchReservation =
    "scheduling.koordinator.sh/exact-match-reservation";
inline constexpr std::string_view kLabelReservationIgnored =
    "scheduling.koordinator.sh/reservation-ignored";
inline constexpr std::string_view kLabelPreAllocationRequired =
    "scheduling.koordinator.sh/pre-allocation-required";
inline constexpr std::string_view kLabelReservationOrder =
    "scheduling.koordinator.sh/reservation-order";
inline constexpr std::string_view kAnnotationReservePod = "scheduling.koordinator.sh/reserve-pod";
inline constexpr std::string_view kAnnotationReservationName =
    "scheduling.koordinator.sh/reservation-name";
inline constexpr std::string_view kAnnotationReservationNode =
    "scheduling.koordinator.sh/reservation-node";
inline constexpr std::string_view kAnnotationReservationResizeAllocatable =
    "scheduling.koordinator.sh/reservation-resize-allocatable";
inline constexpr std::string_view kAnnotationIsPreAllocation =
    "scheduling.koordinator.sh/is-pre-allocation";
inline constexpr std::string_view kAnnotationDeviceAllocated =
    "scheduling.koordinator.sh/device-allocated";
inline constexpr std::string_view kAnnotationDeviceAllocateHint =
    "scheduling.koordinator.sh/device-allocate-hint";
inline constexpr std::string_view kAnnotationDeviceJointAllocate =
    "scheduling.koordinator.sh/device-joint-allocate";
inline constexpr std::string_view kAnnotationGPUPartitionSpec =
    "scheduling.koordinator.sh/gpu-partition-spec";
inline constexpr std::string_view kAnnotationGPUPartitions =
    "scheduling.koordinator.sh/gpu-partitions";
inline constexpr std::string_view kAnnotationCustomUsageThresholds =
    "scheduling.koordinator.sh/usage-thresholds";
inline constexpr std::string_view kAnnotationCustomEstimatedScalingFactors =
    "scheduling.koordinator.sh/load-estimated-scaling-factors";
inline constexpr std::string_view kAnnotationCustomEstimatedSecondsAfterPodScheduled =
    "scheduling.koordinator.sh/load-estimated-seconds-after-pod-scheduled";
inline constexpr std::string_view kAnnotationCustomEstimatedSecondsAfterInitialized =
    "scheduling.koordinator.sh/load-estimated-seconds-after-initialized";
// int32; math.MaxInt32 means never evict.
inline constexpr std::string_view kAnnotationEvictionCost =
    "scheduling.koordinator.sh/eviction-cost";
inline constexpr std::string_view kAnnotationSoftEviction =
    "scheduling.koordinator.sh/soft-eviction";
inline constexpr std::string_view kAnnotationDeschedulerEvict =
    "descheduler.alpha.kubernetes.io/evict";
inline constexpr std::string_view kAnnotationPassedArbitration =
    "descheduler.koordinator.sh/passed-arbitration";
inline constexpr std::string_view kAnnotationPodArbitrating =
    "descheduler.koordinator.sh/pod-arbitrating";
inline constexpr std::string_view kAnnotationEvictReason = "koordinator.sh/evict-reason";
inline constexpr std::string_view kAnnotationEvictTrigger = "koordinator.sh/evict-trigger";
inline constexpr std::string_view kLabelOperatingMode = "scheduling.koordinator.sh/operating-mode";
inline constexpr std::string_view kOperatingModeRunnable = "Runnable";
inline constexpr std::string_view kOperatingModeReservation = "Reservation";
inline constexpr std::string_view kAnnotationReservationOwners =
    "scheduling.koordinator.sh/reservation-owners";
inline constexpr std::string_view kAnnotationReservationCurrentOwner =
    "scheduling.koordinator.sh/reservation-current-owner";
inline constexpr std::string_view kLabelSchedulerName = "scheduling.koordinator.sh/scheduler-name";
inline constexpr std::string_view kLabelPreemptionPolicy =
    "scheduling.koordinator.sh/preemption-policy";
inline constexpr std::string_view kLabelDisablePreemptible =
    "scheduling.koordinator.sh/disable-preemptible";
inline constexpr std::string_view kAnnotationSchedulingHint =
    "internal.scheduling.koordinator.sh/scheduling-hint";
inline constexpr std::string_view kAnnotationBindGangGroupID =
    "internal.scheduling.koordinator.sh/bind-gang-group-id";
inline constexpr std::string_view kAnnotationBindGangMemberCount =
    "internal.scheduling.koordinator.sh/bind-gang-member-count";
inline constexpr std::string_view kDeprecatedAnnotationBindGangGroupID =
    "scheduling.koordinator.sh/bind-gang-group-id";
inline constexpr std::string_view kDeprecatedAnnotationBindGangMemberCount =
    "scheduling.koordinator.sh/bind-gang-member-count";

// §2.4 and §1.6 Node and NodeResourceTopology labels and annotations.
inline constexpr std::string_view kLabelNodeCPUBindPolicy = "node.koordinator.sh/cpu-bind-policy";
inline constexpr std::string_view kNodeCPUBindPolicyNone = "None";
inline constexpr std::string_view kNodeCPUBindPolicyFullPCPUsOnly = "FullPCPUsOnly";
inline constexpr std::string_view kNodeCPUBindPolicySpreadByPCPUs = "SpreadByPCPUs";
inline constexpr std::string_view kLabelNodeNUMAAllocateStrategy =
    "node.koordinator.sh/numa-allocate-strategy";
inline constexpr std::string_view kNUMAMostAllocated = "MostAllocated";
inline constexpr std::string_view kNUMALeastAllocated = "LeastAllocated";
inline constexpr std::string_view kNUMADistributeEvenly = "DistributeEvenly";
inline constexpr std::string_view kLabelNUMATopologyPolicy =
    "node.koordinator.sh/numa-topology-policy";
inline constexpr std::string_view kAnnotationNodeReservation = "node.koordinator.sh/reservation";
inline constexpr std::string_view kAnnotationNodeSystemQOSResource =
    "node.koordinator.sh/system-qos-resource";
inline constexpr std::string_view kAnnotationNodeColocationStrategy =
    "node.koordinator.sh/colocation-strategy";
inline constexpr std::string_view kLabelCPUReclaimRatio = "node.koordinator.sh/cpu-reclaim-ratio";
inline constexpr std::string_view kLabelMemoryReclaimRatio =
    "node.koordinator.sh/memory-reclaim-ratio";
inline constexpr std::string_view kLabelMidCPUStaticReservedRatio =
    "node.koordinator.sh/mid-static-cpu-reserved-ratio";
inline constexpr std::string_view kLabelMidMemoryStaticReservedRatio =
    "node.koordinator.sh/mid-static-memory-reserved-ratio";
inline constexpr std::string_view kAnnotationCPUNormalizationRatio =
    "node.koordinator.sh/cpu-normalization-ratio";
inline constexpr std::string_view kLabelCPUNormalizationEnabled =
    "node.koordinator.sh/cpu-normalization-enabled";
inline constexpr std::string_view kAnnotationNodeResourceAmplificationRatio =
    "node.koordinator.sh/resource-amplification-ratio";
inline constexpr std::string_view kAnnotationNodeRawAllocatable =
    "node.koordinator.sh/raw-allocatable";
inline constexpr std::string_view kNodeNetworkBandwidth = "node.koordinator.sh/network-bandwidth";
inline constexpr std::string_view kLabelGPUPartitionPolicy =
    "node.koordinator.sh/gpu-partition-policy";
inline constexpr std::string_view kGPUPartitionPolicyHonor = "Honor";
inline constexpr std::string_view kGPUPartitionPolicyPrefer = "Prefer";
inline constexpr std::string_view kLabelGPUVendor = "node.koordinator.sh/gpu-vendor";
inline constexpr std::string_view kLabelGPUModel = "node.koordinator.sh/gpu-model";
inline constexpr std::string_view kLabelGPUDriverVersion = "node.koordinator.sh/gpu-driver-version";
inline constexpr std::string_view kLabelSecondaryDeviceWellPlanned =
    "node.koordinator.sh/secondary-device-well-planned";
inline constexpr std::string_view kLabelGPUIsolationProvider =
    "koordinator.sh/gpu-isolation-provider";
inline constexpr std::string_view kGPUIsolationProviderHAMiCore = "HAMi-core";
inline constexpr std::string_view kAnnotationResctrl = "node.koordinator.sh/resctrl";
inline constexpr std::string_view kAnnotationNodeOriginExtendedAllocatable =
    "node.koordinator.sh/originExtendedAllocatable";
inline constexpr std::string_view kAnnotationNodeThirdPartyAllocations =
    "node.koordinator.sh/thirdPartyAllocations";
inline constexpr std::string_view kAnnotationNodeCPUBasicInfo =
    "node.koordinator.sh/cpu-basic-info";
inline constexpr std::string_view kAnnotationNodeCPUTopology = "node.koordinator.sh/cpu-topology";
inline constexpr std::string_view kAnnotationNodeCPUSharedPools =
    "node.koordinator.sh/cpu-shared-pools";
inline constexpr std::string_view kAnnotationNodeBECPUSharedPools =
    "node.koordinator.sh/be-cpu-shared-pools";
inline constexpr std::string_view kAnnotationNodeCPUAllocs = "node.koordinator.sh/pod-cpu-allocs";
inline constexpr std::string_view kAnnotationKubeletCPUManagerPolicy =
    "kubelet.koordinator.sh/cpu-manager-policy";
inline constexpr std::string_view kKubeletCPUManagerPolicyStatic = "static";
inline constexpr std::string_view kKubeletCPUManagerPolicyNone = "none";
inline constexpr std::string_view kKubeletCPUManagerPolicyFullPCPUsOnlyOption = "full-pcpus-only";
inline constexpr std::string_view kKubeletCPUManagerPolicyDistributeCPUsAcrossNUMAOption =
    "distribute-cpus-across-numa";
inline constexpr std::string_view kLabelEnableNUMAReservation =
    "node.koordinator.sh/enable-numa-reservation";
inline constexpr std::string_view kManagedByKoordinator = "Koordinator";

// §1.3 ClusterColocationProfile.
inline constexpr std::string_view kAnnotationSkipUpdateResources =
    "config.koordinator.sh/skip-update-resources";
inline constexpr std::string_view kLabelControllerManaged =
    "config.koordinator.sh/controller-managed";

// §2.5 Elastic quota. Labels on an ElasticQuota, then pod labels, then ElasticQuota annotations
// (JSON ResourceLists unless noted).
inline constexpr std::string_view kLabelQuotaIsParent = "quota.scheduling.koordinator.sh/is-parent";
inline constexpr std::string_view kLabelQuotaParent = "quota.scheduling.koordinator.sh/parent";
inline constexpr std::string_view kLabelAllowLentResource =
    "quota.scheduling.koordinator.sh/allow-lent-resource";
inline constexpr std::string_view kLabelQuotaProfile = "quota.scheduling.koordinator.sh/profile";
inline constexpr std::string_view kLabelQuotaIsRoot = "quota.scheduling.koordinator.sh/is-root";
inline constexpr std::string_view kLabelQuotaTreeID = "quota.scheduling.koordinator.sh/tree-id";
inline constexpr std::string_view kLabelQuotaIgnoreDefaultTree =
    "quota.scheduling.koordinator.sh/ignore-default-tree";
inline constexpr std::string_view kLabelAllowForceUpdate =
    "quota.scheduling.koordinator.sh/allow-force-update";
inline constexpr std::string_view kLabelQuotaName = "quota.scheduling.koordinator.sh/name";
inline constexpr std::string_view kLabelPreemptible = "quota.scheduling.koordinator.sh/preemptible";
inline constexpr std::string_view kAnnotationQuotaSharedWeight =
    "quota.scheduling.koordinator.sh/shared-weight";
inline constexpr std::string_view kAnnotationQuotaRuntime =
    "quota.scheduling.koordinator.sh/runtime";
inline constexpr std::string_view kAnnotationQuotaRequest =
    "quota.scheduling.koordinator.sh/request";
inline constexpr std::string_view kAnnotationQuotaChildRequest =
    "quota.scheduling.koordinator.sh/child-request";
inline constexpr std::string_view kAnnotationQuotaGuaranteed =
    "quota.scheduling.koordinator.sh/guaranteed";
inline constexpr std::string_view kAnnotationQuotaAllocated =
    "quota.scheduling.koordinator.sh/allocated";
inline constexpr std::string_view kAnnotationQuotaNonPreemptibleRequest =
    "quota.scheduling.koordinator.sh/non-preemptible-request";
inline constexpr std::string_view kAnnotationQuotaNonPreemptibleUsed =
    "quota.scheduling.koordinator.sh/non-preemptible-used";
inline constexpr std::string_view kAnnotationQuotaTotalResource =
    "quota.scheduling.koordinator.sh/total-resource";
inline constexpr std::string_view kAnnotationQuotaUnschedulableResource =
    "quota.scheduling.koordinator.sh/unschedulable-resource";
inline constexpr std::string_view kAnnotationQuotaAdmission =
    "quota.scheduling.koordinator.sh/admission";
// JSON string lists.
inline constexpr std::string_view kAnnotationQuotaResourceKeys =
    "quota.scheduling.koordinator.sh/resource-keys";
inline constexpr std::string_view kAnnotationQuotaNamespaces =
    "quota.scheduling.koordinator.sh/namespaces";
inline constexpr std::string_view kAnnotationQuotaMaxStrictCheckResourceKeys =
    "quota.scheduling.koordinator.sh/max-strict-check-resource-keys";
inline constexpr std::string_view kRootQuotaName = "koordinator-root-quota";
inline constexpr std::string_view kSystemQuotaName = "koordinator-system-quota";
inline constexpr std::string_view kDefaultQuotaName = "koordinator-default-quota";

// §2.6 Gang scheduling.
inline constexpr std::string_view kAnnotationGangName = "gang.scheduling.koordinator.sh/name";
inline constexpr std::string_view kAnnotationGangMinNum =
    "gang.scheduling.koordinator.sh/min-available";
inline constexpr std::string_view kAnnotationGangWaitTime =
    "gang.scheduling.koordinator.sh/waiting-time";
inline constexpr std::string_view kAnnotationGangTotalNum =
    "gang.scheduling.koordinator.sh/total-number";
inline constexpr std::string_view kAnnotationGangMode = "gang.scheduling.koordinator.sh/mode";
inline constexpr std::string_view kAnnotationGangGroups = "gang.scheduling.koordinator.sh/groups";
inline constexpr std::string_view kAnnotationGangTimeout = "gang.scheduling.koordinator.sh/timeout";
inline constexpr std::string_view kAnnotationGangMatchPolicy =
    "gang.scheduling.koordinator.sh/match-policy";
inline constexpr std::string_view kAnnotationAliasGangMatchPolicy =
    "pod-group.scheduling.sigs.k8s.io/match-policy";
inline constexpr std::string_view kGangModeStrict = "Strict";
inline constexpr std::string_view kGangModeNonStrict = "NonStrict";
inline constexpr std::string_view kGangMatchPolicyOnlyWaiting = "only-waiting";
inline constexpr std::string_view kGangMatchPolicyWaitingAndRunning = "waiting-and-running";
inline constexpr std::string_view kGangMatchPolicyOnceSatisfied = "once-satisfied";
inline constexpr std::string_view kLabelPodGroup = "pod-group.scheduling.sigs.k8s.io";
inline constexpr std::string_view kLabelLightweightCoschedulingPodGroupName =
    "pod-group.scheduling.sigs.k8s.io/name";
inline constexpr std::string_view kLabelLightweightCoschedulingPodGroupMinAvailable =
    "pod-group.scheduling.sigs.k8s.io/min-available";

// §2.7 Descheduler and migration.
inline constexpr std::string_view kCreatedByDescheduler = "koord-descheduler";

enum class QoSClass { kNone, kLSE, kLSR, kLS, kBE, kSystem };
enum class PriorityClass { kNone, kProd, kMid, kBatch, kFree };

// The label spelling: "LSE", ..., "" for kNone.
[[nodiscard]] std::string_view toString(QoSClass qos);
// "koord-prod", ..., "" for kNone.
[[nodiscard]] std::string_view toString(PriorityClass priority);

// An exact spelling; anything else (including "") is kNone, as Koordinator reads the label.
[[nodiscard]] QoSClass parseQoSClass(std::string_view text);
[[nodiscard]] PriorityClass parsePriorityClass(std::string_view text);

// The pod's QoS class from the koordinator.sh/qosClass label; absent or unknown is kNone.
[[nodiscard]] QoSClass qosClassOf(const std::map<std::string, std::string>& labels);
// The default QoS for a pod that only has a Kubernetes QoS class (status.qosClass, read by
// core::parseQosClass): Guaranteed → LSR, Burstable → LS, BestEffort → BE, anything else → kNone.
[[nodiscard]] QoSClass qosClassFromKubeQoS(std::string_view kube_qos_class);
// Koordinator's GetPodQoSClassWithDefault: the koordinator.sh/qosClass label's class, or, when
// it names none, qosClassFromKubeQoS(kube_qos_class).
[[nodiscard]] QoSClass qosClassWithDefault(const std::map<std::string, std::string>& labels,
                                           std::string_view kube_qos_class);

// The band of a pod.spec.priority value; no value, or one outside every band, is kNone.
[[nodiscard]] PriorityClass priorityClassOfValue(std::optional<int32_t> priority);
// The pod's priority class: a non-empty koordinator.sh/priority-class label wins (an unknown
// spelling there is kNone, whatever the priority), otherwise the band of `priority`.
[[nodiscard]] PriorityClass priorityClassOf(std::optional<int32_t> priority,
                                            const std::map<std::string, std::string>& labels);

// Koordinator's TranslateResourceNameByPriorityClass: prod and none keep `name`; batch maps cpu
// and memory to kubernetes.io/batch-{cpu,memory}, mid to kubernetes.io/mid-{cpu,memory}.
// Reproduced quirk: every other pair yields "" — koord-free has no mapping at all, and batch or
// mid translate any resource other than cpu and memory to "" as well. Callers that only want the
// mapped names should check for "".
[[nodiscard]] std::string translateResourceName(PriorityClass priority, std::string_view name);

// The pod's gang name, in Koordinator's order: the label pod-group.scheduling.sigs.k8s.io (a
// PodGroup CR), then the deprecated label pod-group.scheduling.sigs.k8s.io/name, then the
// annotation gang.scheduling.koordinator.sh/name. "" when the pod is in no gang.
[[nodiscard]] std::string gangNameOf(const std::map<std::string, std::string>& labels,
                                     const std::map<std::string, std::string>& annotations);

}  // namespace koord::api
