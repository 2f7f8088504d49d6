#include "manager/noderesource/numa_batch.hpp"

#include <gtest/gtest.h>

#include "fixture.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {
namespace {

using fixture::kGi;
using fixture::q;

api::topology::ResourceInfo info(const std::string& name, const std::string& amount) {
  return {name, q(amount), q(amount), q(amount), {}};
}

// Two NUMA zones of 16 cores / 40Gi each.
api::topology::NodeResourceTopology twoZones() {
  api::topology::NodeResourceTopology nrt;
  nrt.metadata.name = "node-1";
  for (const char* name : {"node-0", "node-1"}) {
    api::topology::Zone zone;
    zone.name = name;
    zone.type = "Node";
    zone.resources = {info("cpu", "16"), info("memory", "40Gi")};
    nrt.zones.push_back(zone);
  }
  return nrt;
}

TEST(ZoneBatch, SplitsAsKoordinator) {
  // Kubelet reserves 1000m / 4Gi (500m / 2Gi per zone); system usage 2000m / 6Gi (1000m / 3Gi).
  api::core::Node node = fixture::baseNode();
  api::core::Pod bound = fixture::makePod("bound", "Running", 9500, "4", "8Gi");
  bound.metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"4","memory":"8Gi"}}]})";
  api::core::Pod spread = fixture::makePod("spread", "Running", 9500, "2", "2Gi");
  api::core::Pod batch = fixture::makePod("batch", "Running", 5500, "", "");
  std::vector<api::core::Pod> pods = {bound, spread, batch};
  api::slo::NodeMetric metric = fixture::baseMetric();
  metric.status.podsMetric = {fixture::podMetric("bound", "koord-prod", "2", "4Gi"),
                              fixture::podMetric("batch", "koord-batch", "6", "10Gi")};
  auto zones = calculateZoneBatch(node, podRefs(pods), metric, fixture::enabled(), twoZones());
  ASSERT_TRUE(zones.has_value());
  ASSERT_EQ(zones->size(), 2U);
  // cpu: 16000 - 40% margin 6400 - max(system 1000, reserved 500) - HP used
  //   node-0: bound 2000 (usage) + spread 1000 (request / 2) -> 5600
  //   node-1: spread 1000 -> 7600
  // memory: 40Gi - 35% margin 14Gi - max(3Gi, 2Gi) - HP used: node-0 4Gi + 1Gi, node-1 1Gi
  EXPECT_EQ((*zones)[0].zone, "node-0");
  EXPECT_EQ((*zones)[0].cpu, 5600);
  EXPECT_EQ((*zones)[0].memory, 18 * kGi);
  EXPECT_EQ((*zones)[1].cpu, 7600);
  EXPECT_EQ((*zones)[1].memory, 22 * kGi);
}

TEST(ZoneBatch, NothingWithoutCPUOrMemoryZoneResources) {
  api::topology::NodeResourceTopology nrt;
  api::topology::Zone zone;
  zone.name = "node-0";
  zone.resources = {info("nvidia.com/gpu", "1")};
  nrt.zones.push_back(zone);
  std::vector<api::core::Pod> pods;
  EXPECT_FALSE(calculateZoneBatch(fixture::baseNode(), podRefs(pods), fixture::baseMetric(),
                                  fixture::enabled(), nrt)
                   .has_value());
}

TEST(ZoneBatch, ApplyKeepsWhatOthersOwn) {
  api::topology::NodeResourceTopology nrt = twoZones();
  nrt.zones[0].resources.push_back(info("nvidia.com/gpu", "2"));
  nrt.zones[0].resources.push_back(info("kubernetes.io/batch-cpu", "5000"));
  api::topology::Zone extra;
  extra.name = "node-2";
  extra.resources = {info("cpu", "8"), info("kubernetes.io/batch-cpu", "100")};
  nrt.zones.push_back(extra);
  const std::vector<ZoneBatch> zones = {{"node-0", 16000, 40 * kGi, 5600, 18 * kGi},
                                        {"node-1", 16000, 40 * kGi, 7600, 22 * kGi}};
  ASSERT_TRUE(applyZoneBatch(nrt, zones, 1.0, 0.1));
  std::vector<std::string> names;
  for (const auto& r : nrt.zones[0].resources) {
    names.push_back(r.name);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"cpu", "kubernetes.io/batch-cpu",
                                      "kubernetes.io/batch-memory", "memory", "nvidia.com/gpu"}));
  EXPECT_EQ(nrt.zones[0].resources[1].allocatable.toString(), "5600");
  EXPECT_EQ(nrt.zones[0].resources[2].available.toString(), "18Gi");
  EXPECT_EQ(nrt.zones[0].resources[4].allocatable.toString(), "2");
  EXPECT_EQ(nrt.zones[2].resources[1].allocatable.toString(), "0");  // reset, not deleted
  EXPECT_EQ(nrt.zones[2].resources[0].allocatable.toString(), "8");

  // Within the diff threshold nothing moves; CPU normalization multiplies batch-cpu.
  const std::vector<ZoneBatch> close = {{"node-0", 16000, 40 * kGi, 5800, 18 * kGi},
                                        {"node-1", 16000, 40 * kGi, 7600, 22 * kGi}};
  EXPECT_FALSE(applyZoneBatch(nrt, close, 1.0, 0.1));
  EXPECT_EQ(nrt.zones[0].resources[1].allocatable.toString(), "5600");
  EXPECT_TRUE(applyZoneBatch(nrt, close, 1.25, 0.1));
  EXPECT_EQ(nrt.zones[0].resources[1].allocatable.toString(), "7250");
}

}  // namespace
}  // namespace koord::manager::noderesource
