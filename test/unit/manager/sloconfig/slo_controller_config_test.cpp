#include "manager/sloconfig/slo_controller_config.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace koord::manager::sloconfig {
namespace {

using Data = std::map<std::string, std::string>;
namespace slo = api::slo;

api::core::Node node(const std::string& name, api::core::StringMap labels,
                     api::core::StringMap annotations = {}) {
  api::core::Node n;
  n.metadata.name = name;
  n.metadata.labels = std::move(labels);
  n.metadata.annotations = std::move(annotations);
  return n;
}

SloControllerConfig parseOk(const Data& data) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig(data);
  EXPECT_TRUE(parsed.ok()) << parsed.status().toString();
  return parsed.ok() ? *parsed : SloControllerConfig{};
}

std::string parseError(const Data& data) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig(data);
  EXPECT_FALSE(parsed.ok());
  return parsed.ok() ? "" : parsed.status().message();
}

TEST(SloControllerConfigTest, MissingKeysMeanKoordinatorDefaults) {
  const SloControllerConfig config = parseOk({{"unrelated", "x"}, {"cpu-burst-config", "  "}});
  EXPECT_EQ(config, SloControllerConfig{});

  const slo::ResourceThresholdStrategy& threshold = config.resourceThreshold.cluster;
  EXPECT_EQ(threshold.enable, false);
  EXPECT_EQ(threshold.cpuSuppressThresholdPercent, 65);
  EXPECT_EQ(threshold.cpuSuppressPolicy, slo::CPUSuppressPolicy::kCPUSet);
  EXPECT_EQ(threshold.memoryEvictThresholdPercent, 70);
  EXPECT_EQ(threshold.cpuEvictPolicy, slo::CPUEvictPolicy::kEvictByRealLimit);
  EXPECT_FALSE(threshold.memoryEvictLowerPercent.has_value());

  const slo::CPUBurstStrategy& burst = config.cpuBurst.cluster;
  EXPECT_EQ(burst.policy, slo::CPUBurstPolicy::kNone);
  EXPECT_EQ(burst.cpuBurstPercent, 1000);
  EXPECT_EQ(burst.cfsQuotaBurstPercent, 300);
  EXPECT_EQ(burst.cfsQuotaBurstPeriodSeconds, -1);
  EXPECT_EQ(burst.sharePoolThresholdPercent, 50);

  ASSERT_TRUE(config.system.cluster.totalNetworkBandwidth.has_value());
  EXPECT_EQ(config.system.cluster.totalNetworkBandwidth->toString(), "0");

  const slo::ResourceQOSStrategy& qos = config.resourceQOS.cluster;
  ASSERT_TRUE(qos.policies.has_value());
  EXPECT_EQ(qos.policies->cpuPolicy, slo::CPUQOSPolicy::kGroupIdentity);
  EXPECT_EQ(qos.policies->netQOSPolicy, slo::NETQOSPolicy::kTC);
  ASSERT_TRUE(qos.lsrClass && qos.beClass && qos.systemClass && qos.lsClass);
  EXPECT_EQ(qos.lsrClass->cpuQOS->groupIdentity, 2);
  EXPECT_EQ(qos.lsrClass->cpuQOS->coreExpeller, true);
  EXPECT_EQ(qos.beClass->cpuQOS->groupIdentity, -1);
  EXPECT_EQ(qos.beClass->resctrlQOS->catRangeEndPercent, 30);
  EXPECT_EQ(qos.lsClass->resctrlQOS->catRangeEndPercent, 100);
  EXPECT_EQ(qos.beClass->memoryQOS->wmarkMinAdj, 50);
  EXPECT_EQ(qos.lsClass->memoryQOS->wmarkMinAdj, -25);
  EXPECT_EQ(qos.systemClass->memoryQOS->wmarkScalePermill, 50);
  EXPECT_EQ(qos.beClass->blkioQOS->enable, false);
  EXPECT_EQ(qos.beClass->networkQOS->enable, false);

  const ColocationStrategy& colocation = config.colocation.cluster;
  EXPECT_EQ(colocation, defaultColocationStrategy());
  EXPECT_EQ(colocation.enable, false);
  EXPECT_EQ(colocation.metricAggregateDurationSeconds, 300);
  EXPECT_EQ(colocation.metricReportIntervalSeconds, 60);
  EXPECT_EQ(colocation.cpuReclaimThresholdPercent, 60);
  EXPECT_EQ(colocation.memoryReclaimThresholdPercent, 65);
  EXPECT_EQ(colocation.resourceDiffThreshold, 0.1);
  EXPECT_FALSE(colocation.batchCPUThresholdPercent.has_value());
  EXPECT_TRUE(config.hostApplication.applications.empty());
}

TEST(SloControllerConfigTest, ShippedConfigMapOnlyEnables) {
  const SloControllerConfig config =
      parseOk({{"colocation-config", R"({"enable": true})"},
               {"resource-threshold-config", R"({"clusterStrategy": {"enable": true}})"}});
  EXPECT_EQ(config.colocation.cluster.enable, true);
  EXPECT_EQ(config.colocation.cluster.cpuReclaimThresholdPercent, 60);
  EXPECT_EQ(config.resourceThreshold.cluster.enable, true);
  EXPECT_EQ(config.resourceThreshold.cluster.cpuSuppressThresholdPercent, 65);
}

Data everyKey() {
  return {
      {"colocation-config", R"({
  "enable": true,
  "metricAggregateDurationSeconds": 120,
  "metricReportIntervalSeconds": 30,
  "metricAggregatePolicy": {"durations": ["5m", "15m"]},
  "metricMemoryCollectPolicy": "usageWithPageCache",
  "cpuReclaimThresholdPercent": 70,
  "cpuCalculatePolicy": "maxUsageRequest",
  "memoryReclaimThresholdPercent": 80,
  "memoryCalculatePolicy": "request",
  "degradeTimeMinutes": 10,
  "updateTimeThresholdSeconds": 120,
  "resourceDiffThreshold": 0.2,
  "midCPUThresholdPercent": 50,
  "midMemoryThresholdPercent": 40,
  "midUnallocatedPercent": 10,
  "midStaticCPUReservedPercent": 5,
  "midStaticMemoryReservedPercent": 6,
  "midReclaimMode": "static",
  "batchCPUThresholdPercent": 90,
  "batchMemoryThresholdPercent": 95,
  "nodeConfigs": [{"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
                   "cpuReclaimThresholdPercent": 40, "metricReportIntervalSeconds": 90}]
})"},
      {"resource-threshold-config", R"({
  "clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 60,
                      "cpuSuppressPolicy": "cfsQuota", "memoryEvictThresholdPercent": 75,
                      "cpuEvictBEUsageThresholdPercent": 85, "cpuEvictPolicy": "evictByAllocatable"},
  "nodeStrategies": [
    {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
     "cpuSuppressThresholdPercent": 50}
  ]
})"},
      {"resource-qos-config", R"({
  "clusterStrategy": {
    "policies": {"cpuPolicy": "coreSched", "netQOSPolicy": "terway-qos"},
    "lsrClass": {"cpuQOS": {"enable": true}},
    "beClass": {"cpuQOS": {"enable": true, "groupIdentity": -1},
                "resctrlQOS": {"enable": true, "catRangeEndPercent": 20, "mbaPercent": 50},
                "memoryQOS": {"enable": true, "pageCacheEnable": true},
                "blkioQOS": {"enable": true, "blocks": [{"name": "/dev/vda", "type": "device",
                                                         "ioCfg": {"readIOPS": 100}}]},
                "networkQOS": {"enable": true, "ingressLimit": "50M", "egressRequest": 10}}
  },
  "nodeStrategies": [
    {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
     "beClass": {"resctrlQOS": {"catRangeEndPercent": 10}}}
  ]
})"},
      {"cpu-burst-config", R"({
  "clusterStrategy": {"policy": "auto", "cpuBurstPercent": 500, "cfsQuotaBurstPercent": 200,
                      "cfsQuotaBurstPeriodSeconds": 60, "sharePoolThresholdPercent": 40},
  "nodeStrategies": [
    {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}}, "policy": "cpuBurstOnly"}
  ]
})"},
      {"system-config", R"({
  "clusterStrategy": {"minFreeKbytesFactor": 100, "watermarkScaleFactor": 150,
                      "memcgReapBackGround": 1, "schedGroupIdentityEnabled": 1,
                      "schedIdleSaverWmark": 2, "schedFeatures": {"ID_ABSOLUTE_EXPEL": true},
                      "pageCacheLimitEnabled": true, "totalNetworkBandwidth": "10G"},
  "nodeStrategies": [
    {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}}, "watermarkScaleFactor": 200}
  ]
})"},
      {"host-application-config", R"({
  "applications": [{"name": "nginx", "priority": "koord-prod", "qos": "LS",
                    "cgroupPath": {"base": "CgroupRoot", "parentDir": "host-latency-sensitive",
                                   "relativePath": "nginx"}}],
  "nodeConfigs": [
    {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}},
     "applications": [{"name": "dcgm", "qos": "LSE"}]}
  ]
})"},
  };
}

TEST(SloControllerConfigTest, EveryKeyIsParsed) {
  const SloControllerConfig config = parseOk(everyKey());

  const ColocationStrategy& co = config.colocation.cluster;
  EXPECT_EQ(co.enable, true);
  EXPECT_EQ(co.metricAggregateDurationSeconds, 120);
  EXPECT_EQ(co.metricReportIntervalSeconds, 30);
  ASSERT_TRUE(co.metricAggregatePolicy.has_value());
  EXPECT_EQ(co.metricAggregatePolicy->durations, (std::vector<std::string>{"5m", "15m"}));
  EXPECT_EQ(co.metricMemoryCollectPolicy, slo::NodeMemoryCollectPolicy::kUsageWithPageCache);
  EXPECT_EQ(co.cpuReclaimThresholdPercent, 70);
  EXPECT_EQ(co.cpuCalculatePolicy, "maxUsageRequest");
  EXPECT_EQ(co.memoryReclaimThresholdPercent, 80);
  EXPECT_EQ(co.memoryCalculatePolicy, "request");
  EXPECT_EQ(co.degradeTimeMinutes, 10);
  EXPECT_EQ(co.updateTimeThresholdSeconds, 120);
  EXPECT_EQ(co.resourceDiffThreshold, 0.2);
  EXPECT_EQ(co.midCPUThresholdPercent, 50);
  EXPECT_EQ(co.midMemoryThresholdPercent, 40);
  EXPECT_EQ(co.midUnallocatedPercent, 10);
  EXPECT_EQ(co.midStaticCPUReservedPercent, 5);
  EXPECT_EQ(co.midStaticMemoryReservedPercent, 6);
  EXPECT_EQ(co.midReclaimMode, "static");
  EXPECT_EQ(co.batchCPUThresholdPercent, 90);
  EXPECT_EQ(co.batchMemoryThresholdPercent, 95);
  ASSERT_EQ(config.colocation.nodeConfigs.size(), 1U);
  EXPECT_EQ(config.colocation.nodeConfigs[0].name, "gpu");
  EXPECT_EQ(config.colocation.nodeConfigs[0].strategy.cpuReclaimThresholdPercent, 40);
  EXPECT_FALSE(config.colocation.nodeConfigs[0].strategy.enable.has_value());

  const slo::ResourceThresholdStrategy& th = config.resourceThreshold.cluster;
  EXPECT_EQ(th.enable, true);
  EXPECT_EQ(th.cpuSuppressThresholdPercent, 60);
  EXPECT_EQ(th.cpuSuppressPolicy, slo::CPUSuppressPolicy::kCFSQuota);
  EXPECT_EQ(th.memoryEvictThresholdPercent, 75);
  EXPECT_EQ(th.cpuEvictBEUsageThresholdPercent, 85);
  EXPECT_EQ(th.cpuEvictPolicy, slo::CPUEvictPolicy::kEvictByAllocatable);
  ASSERT_EQ(config.resourceThreshold.nodeStrategies.size(), 1U);
  EXPECT_EQ(config.resourceThreshold.nodeStrategies[0].name, "gpu");
  EXPECT_TRUE(config.resourceThreshold.nodeStrategies[0].strategy.extra.is_null() ||
              config.resourceThreshold.nodeStrategies[0].strategy.extra.empty());

  const slo::ResourceQOSStrategy& qos = config.resourceQOS.cluster;
  EXPECT_EQ(qos.policies->cpuPolicy, slo::CPUQOSPolicy::kCoreSched);
  EXPECT_EQ(qos.policies->netQOSPolicy, slo::NETQOSPolicy::kTerwayQos);
  EXPECT_EQ(qos.lsrClass->cpuQOS->enable, true);
  EXPECT_EQ(qos.lsrClass->cpuQOS->groupIdentity, 2);  // default kept
  EXPECT_EQ(qos.beClass->resctrlQOS->catRangeEndPercent, 20);
  EXPECT_EQ(qos.beClass->resctrlQOS->mbaPercent, 50);
  EXPECT_EQ(qos.beClass->memoryQOS->wmarkMinAdj, 50);  // default kept
  EXPECT_EQ(qos.beClass->memoryQOS->extra.value("pageCacheEnable", false), true);
  ASSERT_EQ(qos.beClass->blkioQOS->blocks.size(), 1U);
  EXPECT_EQ(qos.beClass->blkioQOS->blocks[0].ioCfg.readIOPS, 100);
  EXPECT_EQ(qos.beClass->networkQOS->ingressLimit, "50M");
  EXPECT_EQ(qos.beClass->networkQOS->egressRequest, 10);

  const slo::CPUBurstStrategy& burst = config.cpuBurst.cluster;
  EXPECT_EQ(burst.policy, slo::CPUBurstPolicy::kAuto);
  EXPECT_EQ(burst.cpuBurstPercent, 500);
  EXPECT_EQ(burst.cfsQuotaBurstPercent, 200);
  EXPECT_EQ(burst.cfsQuotaBurstPeriodSeconds, 60);
  EXPECT_EQ(burst.sharePoolThresholdPercent, 40);

  const slo::SystemStrategy& sys = config.system.cluster;
  EXPECT_EQ(sys.minFreeKbytesFactor, 100);
  EXPECT_EQ(sys.watermarkScaleFactor, 150);
  EXPECT_EQ(sys.memcgReapBackGround, 1);
  EXPECT_EQ(sys.schedGroupIdentityEnabled, 1);
  EXPECT_EQ(sys.schedIdleSaverWmark, 2);
  EXPECT_EQ(sys.schedFeatures, (std::map<std::string, bool>{{"ID_ABSOLUTE_EXPEL", true}}));
  EXPECT_EQ(sys.extra.value("pageCacheLimitEnabled", false), true);
  EXPECT_EQ(sys.totalNetworkBandwidth->toString(), "10G");

  ASSERT_EQ(config.hostApplication.applications.size(), 1U);
  const slo::HostApplicationSpec& app = config.hostApplication.applications[0];
  EXPECT_EQ(app.name, "nginx");
  EXPECT_EQ(app.priority, "koord-prod");
  EXPECT_EQ(app.qos, "LS");
  ASSERT_TRUE(app.cgroupPath.has_value());
  EXPECT_EQ(app.cgroupPath->base, slo::CgroupBaseType::kCgroupRoot);
  EXPECT_EQ(app.cgroupPath->parentDir, "host-latency-sensitive");
  EXPECT_EQ(app.cgroupPath->relativePath, "nginx");
  ASSERT_EQ(config.hostApplication.nodeConfigs.size(), 1U);
}

TEST(SloControllerConfigTest, UnknownFieldNamesKeyLineAndSuggestion) {
  const std::string message = parseError({{"resource-threshold-config", R"({
  "clusterStrategy": {
    "enabel": true
  }
})"}});
  EXPECT_EQ(message,
            "invalid slo-controller-config: resource-threshold-config: line 3: clusterStrategy: "
            "unknown field \"enabel\" (did you mean \"enable\"?)");
}

TEST(SloControllerConfigTest, UnknownFieldsDeepAndInNodeStrategies) {
  const std::string message = parseError({
      {"resource-qos-config", R"({
  "clusterStrategy": {
    "beClass": {
      "blkioQOS": {"blocks": [{"name": "a", "ioCfg": {"readIOP": 1}}]}
    }
  },
  "nodeStrategies": [
    {"name": "a", "nodeSelector": {}},
    {"name": "b", "nodeSelector": {}, "lsClas": {}}
  ]
})"},
      {"colocation-config", R"({
  "enable": true,
  "nodeConfigs": [
    {"name": "x", "nodeSelector": {}, "cpuReclaimThresholdPercnt": 1}
  ],
  "degradeTimeMinute": 3
})"},
  });
  EXPECT_NE(message.find("colocation-config: line 4: nodeConfigs[0]: unknown field "
                         "\"cpuReclaimThresholdPercnt\" (did you mean "
                         "\"cpuReclaimThresholdPercent\"?)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("colocation-config: line 6: unknown field \"degradeTimeMinute\" (did "
                         "you mean \"degradeTimeMinutes\"?)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("resource-qos-config: line 4: "
                         "clusterStrategy.beClass.blkioQOS.blocks[0].ioCfg: unknown field "
                         "\"readIOP\" (did you mean \"readIOPS\"?)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("resource-qos-config: line 9: nodeStrategies[1]: unknown field "
                         "\"lsClas\" (did you mean \"lsClass\"?)"),
            std::string::npos)
      << message;
  // Colocation first, in the order of the keys.
  EXPECT_LT(message.find("colocation-config"), message.find("resource-qos-config"));
}

TEST(SloControllerConfigTest, AllErrorsOfAllKeysAtOnce) {
  const std::string message = parseError({
      {"colocation-config", R"({"resourceDiffThreshold": 2, "cpuCalculatePolicy": "request",
"metricReportIntervalSeconds": 0})"},
      {"cpu-burst-config", R"({"clusterStrategy": {"policy": "sometimes"}})"},
      {"system-config", R"({"clusterStrategy": {"minFreeKbytesFactor": "many"}})"},
      {"host-application-config", R"({"applications": [{"qos": "LS"}]})"},
      {"resource-threshold-config", "{\"clusterStrategy\": "},
      {"resource-qos-config",
       R"({"nodeStrategies": [{"nodeSelector": {"matchExpressions": [{"key": "a", "operator": "Near"}]}}]})"},
  });
  EXPECT_NE(message.find("colocation-config: line 1: resourceDiffThreshold: must be greater than "
                         "0 and at most 1"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("colocation-config: line 1: cpuCalculatePolicy: unsupported value "
                         "\"request\""),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(
                "colocation-config: line 2: metricReportIntervalSeconds: must be greater than 0"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("cpu-burst-config: line 1: clusterStrategy"), std::string::npos)
      << message;
  EXPECT_NE(message.find("sometimes"), std::string::npos) << message;
  EXPECT_NE(message.find("system-config: line 1: clusterStrategy"), std::string::npos) << message;
  EXPECT_NE(message.find("host-application-config: line 1: applications[0].name: Required value"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("resource-threshold-config: invalid JSON: parse error at line 1, column "
                         "21: syntax error"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("resource-qos-config: line 1: nodeStrategies[0].nodeSelector"),
            std::string::npos)
      << message;
}

TEST(SloControllerConfigTest, ValuesMustBeJson) {
  const std::string message =
      parseError({{"system-config", "clusterStrategy:\n  minFreeKbytesFactor: 1\n"}});
  EXPECT_EQ(message.rfind("invalid slo-controller-config: system-config: invalid JSON: ", 0), 0U)
      << message;
}

TEST(SloControllerConfigTest, FirstMatchingNodeStrategyWins) {
  const SloControllerConfig config = parseOk({{"cpu-burst-config", R"({
  "clusterStrategy": {"policy": "auto"},
  "nodeStrategies": [
    {"name": "none-selector", "cpuBurstPercent": 1},
    {"name": "gpu", "nodeSelector": {"matchLabels": {"pool": "gpu"}}, "cpuBurstPercent": 200},
    {"name": "all", "nodeSelector": {}, "cpuBurstPercent": 300},
    {"name": "gpu-again", "nodeSelector": {"matchExpressions": [
      {"key": "pool", "operator": "In", "values": ["gpu"]}]}, "cpuBurstPercent": 400}
  ]
})"}});
  const slo::CPUBurstStrategy gpu = config.cpuBurst.forNode({{"pool", "gpu"}});
  EXPECT_EQ(gpu.cpuBurstPercent, 200);
  ASSERT_NE(config.cpuBurst.match({{"pool", "gpu"}}), nullptr);
  EXPECT_EQ(config.cpuBurst.match({{"pool", "gpu"}})->name, "gpu");
  EXPECT_EQ(config.cpuBurst.forNode({{"pool", "cpu"}}).cpuBurstPercent, 300);
  EXPECT_EQ(config.cpuBurst.match({})->name, "all");
}

TEST(SloControllerConfigTest, NodeStrategyMergesFieldByField) {
  const SloControllerConfig config = parseOk({{"resource-threshold-config", R"({
  "clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 60,
                      "memoryEvictThresholdPercent": 80},
  "nodeStrategies": [
    {"name": "big", "nodeSelector": {"matchLabels": {"size": "big"}},
     "cpuSuppressThresholdPercent": 40, "memoryEvictLowerPercent": 72}
  ]
})"}});
  const slo::ResourceThresholdStrategy big = config.resourceThreshold.forNode({{"size", "big"}});
  EXPECT_EQ(big.enable, true);                                        // cluster
  EXPECT_EQ(big.cpuSuppressThresholdPercent, 40);                     // node
  EXPECT_EQ(big.memoryEvictThresholdPercent, 80);                     // cluster
  EXPECT_EQ(big.memoryEvictLowerPercent, 72);                         // node
  EXPECT_EQ(big.cpuSuppressPolicy, slo::CPUSuppressPolicy::kCPUSet);  // default
  EXPECT_TRUE(big.extra.is_null() || big.extra.empty());  // name/nodeSelector not leaked
  const slo::ResourceThresholdStrategy small = config.resourceThreshold.forNode({});
  EXPECT_EQ(small.cpuSuppressThresholdPercent, 60);
  EXPECT_FALSE(small.memoryEvictLowerPercent.has_value());
}

TEST(SloControllerConfigTest, NodeSLOSpecForTwoDifferentlyLabelledNodes) {
  const SloControllerConfig config = parseOk(everyKey());
  const slo::NodeSLOSpec gpu = nodeSLOSpecFor(config, node("gpu-1", {{"pool", "gpu"}}));
  const slo::NodeSLOSpec cpu = nodeSLOSpecFor(config, node("cpu-1", {{"pool", "cpu"}}));

  EXPECT_EQ(gpu.resourceUsedThresholdWithBE->cpuSuppressThresholdPercent, 50);
  EXPECT_EQ(cpu.resourceUsedThresholdWithBE->cpuSuppressThresholdPercent, 60);
  EXPECT_EQ(gpu.resourceUsedThresholdWithBE->memoryEvictThresholdPercent, 75);

  EXPECT_EQ(gpu.resourceQOSStrategy->beClass->resctrlQOS->catRangeEndPercent, 10);
  EXPECT_EQ(gpu.resourceQOSStrategy->beClass->resctrlQOS->mbaPercent, 50);
  EXPECT_EQ(cpu.resourceQOSStrategy->beClass->resctrlQOS->catRangeEndPercent, 20);

  EXPECT_EQ(gpu.cpuBurstStrategy->policy, slo::CPUBurstPolicy::kCPUBurstOnly);
  EXPECT_EQ(gpu.cpuBurstStrategy->cpuBurstPercent, 500);
  EXPECT_EQ(cpu.cpuBurstStrategy->policy, slo::CPUBurstPolicy::kAuto);

  EXPECT_EQ(gpu.systemStrategy->watermarkScaleFactor, 200);
  EXPECT_EQ(gpu.systemStrategy->minFreeKbytesFactor, 100);
  EXPECT_EQ(cpu.systemStrategy->watermarkScaleFactor, 150);

  ASSERT_EQ(gpu.hostApplications.size(), 1U);
  EXPECT_EQ(gpu.hostApplications[0].name, "dcgm");
  ASSERT_EQ(cpu.hostApplications.size(), 1U);
  EXPECT_EQ(cpu.hostApplications[0].name, "nginx");
  EXPECT_TRUE(cpu.extensions.is_null());

  // The spec encodes as a NodeSLO spec and decodes back unchanged.
  slo::NodeSLOSpec decoded;
  ASSERT_TRUE(slo::fromJson(slo::toJson(gpu), decoded, "spec").isOk());
  EXPECT_EQ(decoded, gpu);
}

TEST(SloControllerConfigTest, DefaultNodeSLOSpec) {
  const slo::NodeSLOSpec spec = nodeSLOSpecFor(SloControllerConfig{}, node("n", {}));
  EXPECT_EQ(spec.resourceUsedThresholdWithBE, defaultResourceThresholdStrategy());
  EXPECT_EQ(spec.resourceQOSStrategy, defaultResourceQOSStrategy());
  EXPECT_EQ(spec.cpuBurstStrategy, defaultCPUBurstStrategy());
  EXPECT_EQ(spec.systemStrategy, defaultSystemStrategy());
  EXPECT_TRUE(spec.hostApplications.empty());
}

TEST(SloControllerConfigTest, ColocationForNodeMergesConfigAnnotationAndRatioLabels) {
  const SloControllerConfig config = parseOk(everyKey());
  // nodeConfigs[0] for pool=gpu: cpu 40 %, report interval 90 s.
  const ColocationStrategy gpu = config.colocation.forNode(node("g", {{"pool", "gpu"}}));
  EXPECT_EQ(gpu.cpuReclaimThresholdPercent, 40);
  EXPECT_EQ(gpu.metricReportIntervalSeconds, 90);
  EXPECT_EQ(gpu.memoryReclaimThresholdPercent, 80);

  const ColocationStrategy annotated = config.colocation.forNode(
      node("g", {{"pool", "gpu"}, {"node.koordinator.sh/memory-reclaim-ratio", "0.55"}},
           {{"node.koordinator.sh/colocation-strategy",
             R"({"cpuReclaimThresholdPercent": 30, "memoryReclaimThresholdPercent": 20,
                 "someNewField": 1})"}}));
  EXPECT_EQ(annotated.cpuReclaimThresholdPercent, 30);     // annotation over nodeConfigs
  EXPECT_EQ(annotated.memoryReclaimThresholdPercent, 55);  // label over annotation
  EXPECT_EQ(annotated.metricReportIntervalSeconds, 90);

  const ColocationStrategy badInputs = config.colocation.forNode(node(
      "c", {{"node.koordinator.sh/cpu-reclaim-ratio", "lots"}},
      {{"node.koordinator.sh/colocation-strategy", R"({"cpuReclaimThresholdPercent": "x"})"}}));
  EXPECT_EQ(badInputs.cpuReclaimThresholdPercent, 70);  // both ignored: cluster value
}

TEST(SloControllerConfigTest, NodeMetricSpecFromColocation) {
  const SloControllerConfig config = parseOk(everyKey());
  const slo::NodeMetricSpec gpu = nodeMetricSpecFor(config, node("g", {{"pool", "gpu"}}));
  ASSERT_TRUE(gpu.metricCollectPolicy.has_value());
  EXPECT_EQ(gpu.metricCollectPolicy->aggregateDurationSeconds, 120);
  EXPECT_EQ(gpu.metricCollectPolicy->reportIntervalSeconds, 90);
  EXPECT_EQ(gpu.metricCollectPolicy->nodeAggregatePolicy->durations,
            (std::vector<std::string>{"5m", "15m"}));
  EXPECT_EQ(gpu.metricCollectPolicy->nodeMemoryCollectPolicy,
            slo::NodeMemoryCollectPolicy::kUsageWithPageCache);

  const slo::NodeMetricSpec defaults = nodeMetricSpecFor(SloControllerConfig{}, node("n", {}));
  EXPECT_EQ(defaults.metricCollectPolicy->aggregateDurationSeconds, 300);
  EXPECT_EQ(defaults.metricCollectPolicy->reportIntervalSeconds, 60);
  EXPECT_EQ(defaults.metricCollectPolicy->nodeAggregatePolicy->durations,
            (std::vector<std::string>{"5m", "10m", "30m"}));
  EXPECT_EQ(defaults.metricCollectPolicy->nodeMemoryCollectPolicy,
            slo::NodeMemoryCollectPolicy::kUsageWithoutPageCache);
}

TEST(SloConfigHolderTest, KeepsTheLastGoodConfigOnABadUpdate) {
  SloConfigHolder holder;
  EXPECT_EQ(holder.current(), SloControllerConfig{});
  EXPECT_TRUE(holder.lastError().isOk());

  ASSERT_TRUE(
      holder.apply({{"cpu-burst-config", R"({"clusterStrategy": {"policy": "auto"}})"}}).isOk());
  EXPECT_EQ(holder.current().cpuBurst.cluster.policy, slo::CPUBurstPolicy::kAuto);

  const Status bad =
      holder.apply({{"cpu-burst-config", R"({"clusterStrategy": {"polcy": "none"}})"}});
  EXPECT_FALSE(bad.isOk());
  EXPECT_NE(bad.message().find("unknown field \"polcy\""), std::string::npos) << bad.message();
  EXPECT_EQ(holder.current().cpuBurst.cluster.policy, slo::CPUBurstPolicy::kAuto);
  EXPECT_EQ(holder.lastError().message(), bad.message());

  ASSERT_TRUE(holder.apply({}).isOk());
  EXPECT_EQ(holder.current(), SloControllerConfig{});
  EXPECT_TRUE(holder.lastError().isOk());
}

}  // namespace
}  // namespace koord::manager::sloconfig
