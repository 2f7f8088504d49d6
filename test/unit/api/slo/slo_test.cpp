#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"

namespace koord::api::slo {
namespace {

constexpr const char* kNodeMetric = R"({
  "apiVersion": "slo.koordinator.sh/v1alpha1",
  "kind": "NodeMetric",
  "metadata": {"name": "node-1"},
  "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 300, "reportIntervalSeconds": 60,
           "nodeAggregatePolicy": {"durations": ["5m0s", "10m0s", "30m0s"]},
           "nodeMemoryCollectPolicy": "usageWithoutPageCache"}},
  "status": {
    "updateTime": "2024-05-01T10:00:00Z",
    "nodeMetric": {
      "nodeUsage": {"resources": {"cpu": "7320m", "memory": "36Gi"},
                    "devices": [{"type": "gpu", "minor": 0, "health": true,
                                 "resources": {"koordinator.sh/gpu-core": "20"}}]},
      "aggregatedNodeUsages": [{"usage": {"p50": {"resources": {"cpu": "6"}},
                                          "p95": {"resources": {"cpu": "8"}}},
                                "duration": "5m0s"}],
      "systemUsage": {"resources": {"cpu": "500m", "memory": "2Gi"}},
      "numaUsages": [{"numaNodeID": 1, "nodeUsage": {"resources": {"cpu": "3"}},
                      "systemUsage": {}}]
    },
    "podsMetric": [{"name": "web-0", "namespace": "default",
                    "podUsage": {"resources": {"cpu": "1", "memory": "1Gi"}},
                    "priority": "koord-prod", "qos": "LS", "extensions": {"k": "v"}},
                   {"name": "job-0", "namespace": "batch", "podUsage": {},
                    "priority": "koord-unknown", "qos": "WHATEVER"}],
    "hostApplicationMetric": [{"name": "nginx", "usage": {"resources": {"cpu": "100m"}},
                               "priority": "koord-prod", "qos": "LS"}],
    "prodReclaimableMetric": {"resource": {"resources": {"cpu": "2"}}},
    "prodPeakMetric": {"resource": {"resources": {"cpu": "5"}}}
  }
})";

TEST(NodeMetricTest, RoundTrip) {
  auto m = decode<NodeMetric>(kNodeMetric);
  ASSERT_TRUE(m.ok()) << m.status();
  const auto& policy = *m->spec.metricCollectPolicy;
  EXPECT_EQ(policy.reportIntervalSeconds, 60);
  EXPECT_EQ(policy.nodeMemoryCollectPolicy, NodeMemoryCollectPolicy::kUsageWithoutPageCache);
  EXPECT_EQ(policy.nodeAggregatePolicy->durations.size(), 3U);
  const auto& info = *m->status.nodeMetric;
  EXPECT_EQ(info.nodeUsage.resources.at("cpu").milliValue(), 7320);
  EXPECT_EQ(info.nodeUsage.devices[0].type, "gpu");
  EXPECT_EQ(info.aggregatedNodeUsages[0].usage.at("p95").resources.at("cpu").value(), 8);
  EXPECT_EQ(info.numaUsages[0].numaNodeID, 1);
  ASSERT_EQ(m->status.podsMetric.size(), 2U);
  // Unknown priority and QoS spellings are kept, as Koordinator keeps them.
  EXPECT_EQ(m->status.podsMetric[1].priority, "koord-unknown");
  EXPECT_EQ(m->status.podsMetric[1].qos, "WHATEVER");
  EXPECT_EQ(m->status.hostApplicationMetric[0].name, "nginx");
  EXPECT_EQ(m->status.prodPeakMetric->resource.resources.at("cpu").value(), 5);

  Json out = toJson(*m);
  Json in = Json::parse(kNodeMetric);
  EXPECT_EQ(out["spec"], in["spec"]);
  EXPECT_EQ(out["status"]["nodeMetric"]["aggregatedNodeUsages"],
            in["status"]["nodeMetric"]["aggregatedNodeUsages"]);
  EXPECT_EQ(out["status"]["podsMetric"][0], in["status"]["podsMetric"][0]);
  EXPECT_EQ(out["status"]["hostApplicationMetric"], in["status"]["hostApplicationMetric"]);
  NodeMetric again;
  ASSERT_TRUE(fromJson(out, again, "").isOk());
  EXPECT_EQ(again, *m);
}

TEST(NodeMetricTest, Errors) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"spec":{"metricCollectPolicy":{"nodeMemoryCollectPolicy":"usage"}}})",
       "spec.metricCollectPolicy.nodeMemoryCollectPolicy: unsupported value \"usage\": "
       "supported values: \"usageWithoutPageCache\", \"usageWithHotPageCache\", "
       "\"usageWithPageCache\""},
      {R"({"status":{"podsMetric":[{"podUsage":{"resources":{"cpu":{}}}}]}})",
       "status.podsMetric[0].podUsage.resources.cpu: expected quantity (string or number), got "
       "object"},
      {R"({"spec":{"metricCollectPolicy":{"reportIntervalSeconds":"60"}}})",
       "spec.metricCollectPolicy.reportIntervalSeconds: expected integer, got string"},
  };
  for (const auto& tc : cases) {
    auto m = decode<NodeMetric>(tc.text);
    ASSERT_FALSE(m.ok()) << tc.text;
    EXPECT_EQ(m.status().message(), tc.message);
  }
}

constexpr const char* kNodeSLO = R"({
  "apiVersion": "slo.koordinator.sh/v1alpha1",
  "kind": "NodeSLO",
  "metadata": {"name": "node-1"},
  "spec": {
    "resourceUsedThresholdWithBE": {"enable": true, "cpuSuppressThresholdPercent": 65,
      "cpuSuppressPolicy": "cpuset", "memoryEvictThresholdPercent": 70,
      "cpuEvictPolicy": "evictByAllocatable", "evictEnabledPriorityThreshold": 5999,
      "cpuEvictBESatisfactionLowerPercent": 60, "cpuEvictTimeWindowSeconds": 300},
    "resourceQOSStrategy": {
      "policies": {"cpuPolicy": "coreSched", "netQOSPolicy": "terway-qos"},
      "lsrClass": {"cpuQOS": {"enable": true, "groupIdentity": 2},
                   "resctrlQOS": {"enable": true, "catRangeStartPercent": 0,
                                  "catRangeEndPercent": 100, "mbaPercent": 100}},
      "beClass": {"cpuQOS": {"enable": true, "groupIdentity": -1, "schedIdle": 1},
                  "memoryQOS": {"enable": true, "wmarkRatio": 95, "wmarkMinAdj": 50,
                                "pageCacheLimitPercent": 30},
                  "blkioQOS": {"enable": true, "blocks": [{"name": "/dev/vdb", "type": "device",
                               "ioCfg": {"readIOPS": 1000, "ioWeightPercent": 60,
                                         "enableUserModel": false}}]},
                  "networkQOS": {"enable": true, "ingressRequest": "50M", "ingressLimit": 100,
                                 "egressRequest": 0, "egressLimit": "100M"}},
      "cgroupRoot": {}
    },
    "cpuBurstStrategy": {"policy": "auto", "cpuBurstPercent": 1000, "cfsQuotaBurstPercent": 300,
                         "cfsQuotaBurstPeriodSeconds": -1, "sharePoolThresholdPercent": 50},
    "systemStrategy": {"minFreeKbytesFactor": 100, "watermarkScaleFactor": 150,
                       "schedFeatures": {"ID_ABSOLUTE_EXPEL": true},
                       "totalNetworkBandwidth": "10G"},
    "extensions": {"someVendor": {"enable": true}},
    "hostApplications": [{"name": "nginx", "priority": "koord-prod", "qos": "LS",
                          "cgroupPath": {"base": "CgroupRoot", "parentDir": "host-latency-sensitive/",
                                         "relativePath": "nginx/"}, "strategy": {}}],
    "psiStrategy": {"psiExport": {"enable": true}}
  },
  "status": {}
})";

TEST(NodeSLOTest, RoundTrip) {
  auto slo = decode<NodeSLO>(kNodeSLO);
  ASSERT_TRUE(slo.ok()) << slo.status();
  const NodeSLOSpec& spec = slo->spec;
  EXPECT_EQ(spec.resourceUsedThresholdWithBE->cpuSuppressPolicy, CPUSuppressPolicy::kCPUSet);
  EXPECT_EQ(spec.resourceUsedThresholdWithBE->cpuEvictPolicy, CPUEvictPolicy::kEvictByAllocatable);
  EXPECT_EQ(spec.resourceUsedThresholdWithBE->evictEnabledPriorityThreshold, 5999);
  const ResourceQOSStrategy& qos = *spec.resourceQOSStrategy;
  EXPECT_EQ(qos.policies->cpuPolicy, CPUQOSPolicy::kCoreSched);
  EXPECT_EQ(qos.policies->netQOSPolicy, NETQOSPolicy::kTerwayQos);
  EXPECT_EQ(qos.lsrClass->cpuQOS->groupIdentity, 2);
  EXPECT_EQ(qos.beClass->cpuQOS->schedIdle, 1);
  EXPECT_EQ(qos.beClass->memoryQOS->wmarkRatio, 95);
  EXPECT_EQ(qos.beClass->memoryQOS->extra["pageCacheLimitPercent"], 30);
  EXPECT_EQ(qos.beClass->blkioQOS->blocks[0].type, BlockType::kDevice);
  EXPECT_EQ(qos.beClass->blkioQOS->blocks[0].ioCfg.readIOPS, 1000);
  EXPECT_EQ(qos.beClass->networkQOS->ingressRequest, "50M");
  EXPECT_EQ(qos.beClass->networkQOS->ingressLimit, 100);
  EXPECT_TRUE(qos.cgroupRoot.has_value());
  EXPECT_FALSE(qos.lsClass.has_value());
  EXPECT_EQ(spec.cpuBurstStrategy->policy, CPUBurstPolicy::kAuto);
  EXPECT_EQ(spec.cpuBurstStrategy->cfsQuotaBurstPeriodSeconds, -1);
  EXPECT_EQ(spec.systemStrategy->totalNetworkBandwidth->toString(), "10G");
  EXPECT_TRUE(spec.systemStrategy->schedFeatures.at("ID_ABSOLUTE_EXPEL"));
  EXPECT_EQ(spec.hostApplications[0].cgroupPath->base, CgroupBaseType::kCgroupRoot);

  Json out = toJson(*slo);
  Json in = Json::parse(kNodeSLO);
  // Everything comes back, the unknown psiStrategy and pageCacheLimitPercent included.
  EXPECT_EQ(out["spec"], in["spec"]);
  EXPECT_EQ(out["status"], in["status"]);
  EXPECT_EQ(out["metadata"]["name"], "node-1");
}

TEST(NodeSLOTest, Errors) {
  struct Case {
    std::string spec;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"cpuBurstStrategy":{"policy":"always"}})",
       "spec.cpuBurstStrategy.policy: unsupported value \"always\": supported values: \"none\", "
       "\"cpuBurstOnly\", \"cfsQuotaBurstOnly\", \"auto\""},
      {R"({"resourceQOSStrategy":{"beClass":{"networkQOS":{"ingressLimit":1.5}}}})",
       "spec.resourceQOSStrategy.beClass.networkQOS.ingressLimit: expected integer or string, "
       "got number"},
      {R"({"resourceQOSStrategy":{"beClass":{"blkioQOS":{"blocks":[{"type":"disk"}]}}}})",
       "spec.resourceQOSStrategy.beClass.blkioQOS.blocks[0].type: unsupported value \"disk\": "
       "supported values: \"device\", \"volumegroup\", \"podvolume\""},
      {R"({"hostApplications":[{"cgroupPath":{"base":"Root"}}]})",
       "spec.hostApplications[0].cgroupPath.base: unsupported value \"Root\": supported values: "
       "\"CgroupRoot\", \"Kubepods\", \"KubepodsBurstable\", \"KubepodsBesteffort\""},
      {R"({"resourceUsedThresholdWithBE":{"cpuSuppressPolicy":"quota"}})",
       "spec.resourceUsedThresholdWithBE.cpuSuppressPolicy: unsupported value \"quota\": "
       "supported values: \"cpuset\", \"cfsQuota\""},
      {R"({"resourceQOSStrategy":{"policies":{"cpuPolicy":"bvt"}}})",
       "spec.resourceQOSStrategy.policies.cpuPolicy: unsupported value \"bvt\": supported "
       "values: \"groupIdentity\", \"coreSched\""},
  };
  for (const auto& tc : cases) {
    auto slo = decode<NodeSLO>(R"({"spec":)" + tc.spec + "}");
    ASSERT_FALSE(slo.ok()) << tc.spec;
    EXPECT_EQ(slo.status().message(), tc.message);
  }
}

}  // namespace
}  // namespace koord::api::slo
