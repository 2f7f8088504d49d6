// v1.6: the NUMA resources a Reservation holds (the numaNodeResources of its resource-status) go
// to its owners: other pods see them as taken, an owner may use them, and its bind goes on the
// NUMA nodes the reservation holds (only there, and within them, when it is Restricted).
#include <gtest/gtest.h>

#include "extender/plugins/node_numa_resource/node_numa_resource.hpp"
#include "test/unit/extender/plugins/node_numa_resource/numa_test_cluster.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

using framework::Code;

// The NUMA nodes of a written resource-status, as "node:milli-cpu" pairs.
std::string numaOf(const std::string& written) {
  auto status = api::extension::parseResourceStatus(written);
  if (!status.ok())
    return written;
  std::string out;
  for (const auto& share : status->numaNodeResources) {
    auto cpu = share.resources.find("cpu");
    out += (out.empty() ? "" : ",") + std::to_string(share.node) + ":" +
           std::to_string(cpu == share.resources.end() ? 0 : cpu->second.milliValue());
  }
  return out;
}

std::shared_ptr<api::core::Pod> labelled(std::shared_ptr<api::core::Pod> pod,
                                         const std::string& app) {
  pod->metadata.labels["app"] = app;
  return pod;
}

// A Reservation on `node` holding `numa_status` (its resource-status) for pods labelled app=web.
std::shared_ptr<api::scheduling::Reservation> holding(
    const std::string& name, const std::string& node, const std::string& numa_status,
    api::scheduling::ReservationAllocatePolicy policy =
        api::scheduling::ReservationAllocatePolicy::kDefault,
    bool allocate_once = true) {
  auto r = makeReservation({.name = name,
                            .requests = {{"cpu", "12"}, {"memory", "8Gi"}},
                            .node = node,
                            .allocate_once = allocate_once,
                            .policy = policy});
  r->metadata.annotations[std::string(api::kAnnotationResourceStatus)] = numa_status;
  return r;
}

// 2 NUMA nodes of 16 CPUs and 64 GiB; every pod on the node has the SingleNUMANode policy.
class ReservationNUMATest : public ::testing::Test {
 protected:
  explicit ReservationNUMATest(const api::Json& args = api::Json::object()) : cluster_(args) {
    cluster_.addNode("n1", {}, {{"node.koordinator.sh/numa-topology-policy", "SingleNUMANode"}});
  }
  NUMACluster cluster_;
};

TEST_F(ReservationNUMATest, HeldNUMAResourcesGoToTheOwnerOnly) {
  ASSERT_TRUE(cluster_.reservations()
                  .upsert(holding("r1", "n1",
                                  R"({"numaNodeResources":[{"node":1,"resources":)"
                                  R"({"cpu":"12","memory":"8Gi"}}]})"))
                  .isOk());
  // NUMA node 0: 16 CPUs free; NUMA node 1: 4 free to others, 16 to an owner.
  EXPECT_EQ(numaOf(cluster_.bind(lsPod("filler", "10"), "n1")), "0:10000")
      << "NUMA node 1 has only 4 CPUs left for a pod that does not own r1";
  auto filler = lsPod("filler", "10");
  filler->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"10","memory":"1Gi"}}]})";
  cluster_.addBoundPod(filler, "n1");
  auto other = cluster_.filter(lsPod("other", "8"), "n1");
  EXPECT_TRUE(other.isRejected()) << "6 CPUs left on NUMA node 0, 4 on node 1 for a non-owner";
  EXPECT_TRUE(cluster_.filter(labelled(lsPod("owner", "8"), "web"), "n1").isSuccess())
      << "r1's 12 CPUs on NUMA node 1 are the owner's";
  EXPECT_EQ(numaOf(cluster_.bind(labelled(lsPod("owner", "8"), "web"), "n1", "uid-r1")), "1:8000");
}

TEST_F(ReservationNUMATest, WhatOwnersUseIsNotCountedTwice) {
  ASSERT_TRUE(cluster_.reservations()
                  .upsert(holding("r1", "n1",
                                  R"({"numaNodeResources":[{"node":1,"resources":)"
                                  R"({"cpu":"12","memory":"8Gi"}}]})",
                                  api::scheduling::ReservationAllocatePolicy::kDefault, false))
                  .isOk());
  // An owner bound into r1 uses 8 of its 12 CPUs on NUMA node 1: r1 still holds 4 there, so
  // NUMA node 1 has 16 - 8 - 4 = 4 free for others (not 16 - 8 - 12).
  auto owner = ownerPod("owner", {{"cpu", "8"}, {"memory", "1Gi"}}, "web", "r1");
  owner->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"numaNodeResources":[{"node":1,"resources":{"cpu":"8","memory":"1Gi"}}]})";
  cluster_.addBoundPod(owner, "n1");
  auto filler = lsPod("filler", "16");
  filler->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"16","memory":"1Gi"}}]})";
  cluster_.addBoundPod(filler, "n1");
  EXPECT_TRUE(cluster_.filter(lsPod("four", "4"), "n1").isSuccess());
  EXPECT_TRUE(cluster_.filter(lsPod("five", "5"), "n1").isRejected());
  EXPECT_TRUE(cluster_.filter(labelled(lsPod("second-owner", "8"), "web"), "n1").isSuccess())
      << "a second owner has r1's 4 plus the 4 free";
}

TEST_F(ReservationNUMATest, AnAllocateOnceReservationItsOwnerTookHoldsNothingMore) {
  ASSERT_TRUE(cluster_.reservations()
                  .upsert(holding("r1", "n1",
                                  R"({"cpuset":"8-13","numaNodeResources":[{"node":1,)"
                                  R"("resources":{"cpu":"6","memory":"8Gi"}}]})"))
                  .isOk());
  auto owner = ownerPod("owner", {{"cpu", "2"}, {"memory", "1Gi"}}, "web", "r1");
  owner->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"cpuset":"8-9","numaNodeResources":[{"node":1,"resources":{"cpu":"2","memory":"1Gi"}}]})";
  cluster_.addBoundPod(owner, "n1");
  auto filler = lsPod("filler", "16");
  filler->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
      R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"16","memory":"1Gi"}}]})";
  cluster_.addBoundPod(filler, "n1");
  EXPECT_TRUE(cluster_.filter(lsPod("fourteen", "14"), "n1").isSuccess())
      << "r1 was taken once: its other 4 CPUs on NUMA node 1 are free again";
  EXPECT_EQ(cluster_.bindCPUs(lsrPod("pinned", "4"), "n1"), "10-11,26-27")
      << "and so are the CPUs it held";
}

TEST_F(ReservationNUMATest, AnUnreadableResourceStatusHoldsNoNUMAResources) {
  ASSERT_TRUE(cluster_.reservations().upsert(holding("r1", "n1", "{not json")).isOk())
      << "the reservation still holds its capacity";
  EXPECT_EQ(numaOf(cluster_.bind(lsPod("a", "16"), "n1")), "0:16000");
}

class MostAllocatedReservationNUMATest : public ReservationNUMATest {
 protected:
  MostAllocatedReservationNUMATest()
      : ReservationNUMATest(
            api::Json::parse(R"({"numaScoringStrategy":{"type":"MostAllocated"}})")) {
    auto filler = lsPod("filler", "8");
    filler->metadata.annotations[std::string(api::kAnnotationResourceStatus)] =
        R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"8","memory":"1Gi"}}]})";
    cluster_.addBoundPod(filler, "n1");
  }
};

TEST_F(MostAllocatedReservationNUMATest, TheOwnerGoesOnTheReservationsNUMANode) {
  ASSERT_TRUE(cluster_.reservations()
                  .upsert(holding("r1", "n1",
                                  R"({"numaNodeResources":[{"node":1,"resources":)"
                                  R"({"cpu":"2","memory":"1Gi"}}]})"))
                  .isOk());
  EXPECT_EQ(numaOf(cluster_.bind(lsPod("packed", "2"), "n1")), "0:2000")
      << "MostAllocated packs NUMA node 0";
  EXPECT_EQ(numaOf(cluster_.bind(labelled(lsPod("owner", "2"), "web"), "n1", "uid-r1")), "1:2000")
      << "the owner takes what r1 holds on NUMA node 1";
  EXPECT_EQ(numaOf(cluster_.bind(labelled(lsPod("owner", "6"), "web"), "n1", "uid-r1")), "1:6000")
      << "more than r1 holds: still on its NUMA node while that node admits the pod";
}

TEST_F(MostAllocatedReservationNUMATest, ARestrictedOwnerStaysWithinWhatItsReservationHolds) {
  ASSERT_TRUE(cluster_.reservations()
                  .upsert(holding("r1", "n1",
                                  R"({"numaNodeResources":[{"node":1,"resources":)"
                                  R"({"cpu":"2","memory":"1Gi"}}]})",
                                  api::scheduling::ReservationAllocatePolicy::kRestricted))
                  .isOk());
  EXPECT_EQ(numaOf(cluster_.bind(labelled(lsPod("owner", "2"), "web"), "n1", "uid-r1", true)),
            "1:2000");
  const std::string refused =
      cluster_.bind(labelled(lsPod("owner", "4"), "web"), "n1", "uid-r1", true);
  EXPECT_EQ(refused.rfind("error: Reservation(s) ", 0), 0U) << refused;
}

}  // namespace
}  // namespace koord::extender::testing
