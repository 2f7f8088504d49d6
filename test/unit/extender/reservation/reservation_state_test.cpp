// ClusterState and NodeInfo keep the capacity Reservations hold on their nodes, and what their
// owners already use of it.
#include <gtest/gtest.h>

#include "extender/framework/cluster_state.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

class ReservationStateTest : public ::testing::Test {
 protected:
  void SetUp() override { state_.upsertNode(makeNode("n1", {{"cpu", "8"}, {"memory", "16Gi"}})); }

  FakeClock clock_;
  framework::ClusterState state_{clock_};
};

TEST_F(ReservationStateTest, AvailableReservationHoldsItsRequestsOnItsNode) {
  ASSERT_TRUE(state_
                  .upsertReservation(makeReservation(
                      {.name = "r1", .requests = {{"cpu", "4"}, {"memory", "8Gi"}}, .node = "n1"}))
                  .isOk());
  auto node = state_.nodeInfo("n1");
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->reservations().size(), 1u);
  EXPECT_EQ(node->reservations()[0]->name, "r1");
  EXPECT_EQ(node->reserved().milli_cpu, 4000);
  EXPECT_EQ(node->reserved().memory, int64_t{8} << 30);
  EXPECT_EQ(node->requested().milli_cpu, 0) << "a reservation is not a pod";
}

TEST_F(ReservationStateTest, PendingReservationIsListedButHoldsNothing) {
  ASSERT_TRUE(
      state_.upsertReservation(makeReservation({.name = "r1", .requests = {{"cpu", "4"}}})).isOk());
  EXPECT_TRUE(state_.nodeInfo("n1")->reservations().empty());
  ASSERT_EQ(state_.reservations().size(), 1u);
  EXPECT_NE(state_.reservation("r1"), nullptr);
}

TEST_F(ReservationStateTest, OwnersOnTheNodeUseTheReservationFirst) {
  ASSERT_TRUE(
      state_
          .upsertReservation(makeReservation(
              {.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1", .allocate_once = false}))
          .isOk());
  ASSERT_TRUE(state_.upsertPod(ownerPod("a", {{"cpu", "1"}}, "web", "r1", "n1")).isOk());
  auto node = state_.nodeInfo("n1");
  const auto& r = *node->reservations()[0];
  EXPECT_EQ(r.allocated.milli_cpu, 1000);
  EXPECT_EQ(r.owners, std::vector<std::string>{"default/a"});
  EXPECT_EQ(node->reserved().milli_cpu, 3000) << "only what is left stays held";
  EXPECT_EQ(node->requested().milli_cpu, 1000);
}

TEST_F(ReservationStateTest, AllocateOnceReservationReleasesTheRestOnceTaken) {
  ASSERT_TRUE(state_
                  .upsertReservation(
                      makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"}))
                  .isOk());
  ASSERT_TRUE(state_.upsertPod(ownerPod("a", {{"cpu", "1"}}, "web", "r1", "n1")).isOk());
  auto node = state_.nodeInfo("n1");
  EXPECT_TRUE(node->reservations()[0]->consumed());
  EXPECT_EQ(node->reserved().milli_cpu, 0);
}

TEST_F(ReservationStateTest, TerminalOrRemovedReservationFreesItsNode) {
  auto r = makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"});
  ASSERT_TRUE(state_.upsertReservation(r).isOk());
  const int64_t before = state_.generation();
  auto failed = std::make_shared<api::scheduling::Reservation>(*r);
  failed->status.phase = "Failed";
  ASSERT_TRUE(state_.upsertReservation(failed).isOk());
  EXPECT_GT(state_.generation(), before);
  EXPECT_EQ(state_.nodeInfo("n1")->reserved().milli_cpu, 0);
  ASSERT_TRUE(state_.upsertReservation(r).isOk());
  EXPECT_EQ(state_.nodeInfo("n1")->reserved().milli_cpu, 4000);
  state_.removeReservation("r1");
  EXPECT_EQ(state_.nodeInfo("n1")->reserved().milli_cpu, 0);
  EXPECT_TRUE(state_.reservations().empty());
}

TEST_F(ReservationStateTest, ReservationOutlivesItsNodeUntilTheNodeReturns) {
  ASSERT_TRUE(state_
                  .upsertReservation(
                      makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"}))
                  .isOk());
  state_.removeNode("n1");
  EXPECT_EQ(state_.nodeInfo("n1"), nullptr);
  state_.upsertNode(makeNode("n1", {{"cpu", "8"}}));
  EXPECT_EQ(state_.nodeInfo("n1")->reserved().milli_cpu, 4000);
}

TEST_F(ReservationStateTest, ReservationWithoutTemplateIsRejectedButListed) {
  auto r = makeReservation({.name = "bad", .requests = {{"cpu", "1"}}, .node = "n1"});
  r->spec.template_.reset();
  r->status.allocatable.clear();
  const Status status = state_.upsertReservation(r);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("neither spec.template nor spec.resources"), std::string::npos);
  EXPECT_EQ(state_.reservations().size(), 1u);
  EXPECT_TRUE(state_.nodeInfo("n1")->reservations().empty());
}

}  // namespace
}  // namespace koord::extender::testing

namespace koord::extender::testing {
namespace {

TEST_F(ReservationStateTest, OwnerIndexTellsPodsThatOwnNothing) {
  auto web = makePod("a", {{"cpu", "1"}}, {{"app", "web"}, {"tier", "front"}});
  auto batch = makePod("b", {{"cpu", "1"}}, {{"app", "batch"}});
  EXPECT_FALSE(state_.mayOwnReservation(*web)) << "no reservation holds capacity";
  ASSERT_TRUE(
      state_.upsertReservation(makeReservation({.name = "r1", .requests = {{"cpu", "1"}}})).isOk());
  EXPECT_FALSE(state_.mayOwnReservation(*web)) << "a pending reservation does not count";
  ASSERT_TRUE(state_
                  .upsertReservation(
                      makeReservation({.name = "r1", .requests = {{"cpu", "1"}}, .node = "n1"}))
                  .isOk());
  EXPECT_TRUE(state_.mayOwnReservation(*web));
  EXPECT_FALSE(state_.mayOwnReservation(*batch));
  // An owner of another shape (an object reference) makes every pod a maybe.
  auto by_object = makeReservation({.name = "r2", .requests = {{"cpu", "1"}}, .node = "n1"});
  by_object->spec.owners[0].labelSelector.reset();
  by_object->spec.owners[0].object.emplace();
  by_object->spec.owners[0].object->name = "b";
  ASSERT_TRUE(state_.upsertReservation(by_object).isOk());
  EXPECT_TRUE(state_.mayOwnReservation(*batch));
  state_.removeReservation("r2");
  state_.removeReservation("r1");
  EXPECT_FALSE(state_.mayOwnReservation(*web));
  EXPECT_FALSE(state_.mayOwnReservation(*batch));
}

}  // namespace
}  // namespace koord::extender::testing

namespace koord::extender::testing {
namespace {

TEST_F(ReservationStateTest, PreAllocationHoldsWhatRunningPodsFreeAsTheyLeave) {
  auto running = makePod("running", {{"cpu", "6"}}, {});
  running->spec.nodeName = "n1";
  ASSERT_TRUE(state_.upsertPod(running).isOk());
  auto r = makeReservation({.name = "pre", .requests = {{"cpu", "4"}}, .node = "n1"});
  r->spec.preAllocation = true;
  ASSERT_TRUE(state_.upsertReservation(r).isOk());
  EXPECT_EQ(state_.nodeInfo("n1")->reserved().milli_cpu, 2000)
      << "only the 2 CPUs the running pod leaves free are held now";
  state_.removePod("default/running");
  EXPECT_EQ(state_.nodeInfo("n1")->reserved().milli_cpu, 4000) << "all of it once the pod is gone";
}

}  // namespace
}  // namespace koord::extender::testing
