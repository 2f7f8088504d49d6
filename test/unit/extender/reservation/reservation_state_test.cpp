// The Reservation helper (plugins/common/reservation_state.hpp) keeps the capacity Reservations
// hold on their nodes in each NodeInfo, and what their owners already use of it.
#include "extender/plugins/common/reservation_state.hpp"

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
  plugins::common::ReservationState& rs_ = plugins::common::ReservationState::install(state_);
};

TEST_F(ReservationStateTest, AvailableReservationHoldsItsRequestsOnItsNode) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation(
                     {.name = "r1", .requests = {{"cpu", "4"}, {"memory", "8Gi"}}, .node = "n1"}))
          .isOk());
  auto node = state_.nodeInfo("n1");
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(rs_.on(*node).size(), 1u);
  EXPECT_EQ(rs_.on(*node)[0]->name, "r1");
  EXPECT_EQ(rs_.reserved(*node).milli_cpu, 4000);
  EXPECT_EQ(rs_.reserved(*node).memory, int64_t{8} << 30);
  EXPECT_EQ(node->requested().milli_cpu, 0) << "a reservation is not a pod";
}

TEST_F(ReservationStateTest, PendingReservationIsListedButHoldsNothing) {
  ASSERT_TRUE(rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "4"}}})).isOk());
  EXPECT_TRUE(rs_.on(*state_.nodeInfo("n1")).empty());
  ASSERT_EQ(rs_.reservations().size(), 1u);
  EXPECT_NE(rs_.reservation("r1"), nullptr);
}

TEST_F(ReservationStateTest, OwnersOnTheNodeUseTheReservationFirst) {
  ASSERT_TRUE(
      rs_
          .upsert(makeReservation(
              {.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1", .allocate_once = false}))
          .isOk());
  ASSERT_TRUE(state_.upsertPod(ownerPod("a", {{"cpu", "1"}}, "web", "r1", "n1")).isOk());
  auto node = state_.nodeInfo("n1");
  const auto& r = *rs_.on(*node)[0];
  EXPECT_EQ(r.allocated.milli_cpu, 1000);
  EXPECT_EQ(r.owners, std::vector<std::string>{"default/a"});
  EXPECT_EQ(rs_.reserved(*node).milli_cpu, 3000) << "only what is left stays held";
  EXPECT_EQ(node->requested().milli_cpu, 1000);
}

TEST_F(ReservationStateTest, AllocateOnceReservationReleasesTheRestOnceTaken) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"})).isOk());
  ASSERT_TRUE(state_.upsertPod(ownerPod("a", {{"cpu", "1"}}, "web", "r1", "n1")).isOk());
  auto node = state_.nodeInfo("n1");
  EXPECT_TRUE(rs_.on(*node)[0]->consumed());
  EXPECT_EQ(rs_.reserved(*node).milli_cpu, 0);
}

TEST_F(ReservationStateTest, TerminalOrRemovedReservationFreesItsNode) {
  auto r = makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"});
  ASSERT_TRUE(rs_.upsert(r).isOk());
  const int64_t before = state_.generation();
  auto failed = std::make_shared<api::scheduling::Reservation>(*r);
  failed->status.phase = "Failed";
  ASSERT_TRUE(rs_.upsert(failed).isOk());
  EXPECT_GT(state_.generation(), before);
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 0);
  ASSERT_TRUE(rs_.upsert(r).isOk());
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 4000);
  rs_.remove("r1");
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 0);
  EXPECT_TRUE(rs_.reservations().empty());
}

TEST_F(ReservationStateTest, ReservationOutlivesItsNodeUntilTheNodeReturns) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"})).isOk());
  state_.removeNode("n1");
  EXPECT_EQ(state_.nodeInfo("n1"), nullptr);
  state_.upsertNode(makeNode("n1", {{"cpu", "8"}}));
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 4000);
}

TEST_F(ReservationStateTest, ReservationWithoutTemplateIsRejectedButListed) {
  auto r = makeReservation({.name = "bad", .requests = {{"cpu", "1"}}, .node = "n1"});
  r->spec.template_.reset();
  r->status.allocatable.clear();
  const Status status = rs_.upsert(r);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("neither spec.template nor spec.resources"), std::string::npos);
  EXPECT_EQ(rs_.reservations().size(), 1u);
  EXPECT_TRUE(rs_.on(*state_.nodeInfo("n1")).empty());
}

}  // namespace
}  // namespace koord::extender::testing

namespace koord::extender::testing {
namespace {

TEST_F(ReservationStateTest, OwnerIndexTellsPodsThatOwnNothing) {
  auto web = makePod("a", {{"cpu", "1"}}, {{"app", "web"}, {"tier", "front"}});
  auto batch = makePod("b", {{"cpu", "1"}}, {{"app", "batch"}});
  EXPECT_FALSE(rs_.mayOwn(*web)) << "no reservation holds capacity";
  ASSERT_TRUE(rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "1"}}})).isOk());
  EXPECT_FALSE(rs_.mayOwn(*web)) << "a pending reservation does not count";
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "1"}}, .node = "n1"})).isOk());
  EXPECT_TRUE(rs_.mayOwn(*web));
  EXPECT_FALSE(rs_.mayOwn(*batch));
  // An owner of another shape (an object reference) makes every pod a maybe.
  auto by_object = makeReservation({.name = "r2", .requests = {{"cpu", "1"}}, .node = "n1"});
  by_object->spec.owners[0].labelSelector.reset();
  by_object->spec.owners[0].object.emplace();
  by_object->spec.owners[0].object->name = "b";
  ASSERT_TRUE(rs_.upsert(by_object).isOk());
  EXPECT_TRUE(rs_.mayOwn(*batch));
  rs_.remove("r2");
  rs_.remove("r1");
  EXPECT_FALSE(rs_.mayOwn(*web));
  EXPECT_FALSE(rs_.mayOwn(*batch));
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
  ASSERT_TRUE(rs_.upsert(r).isOk());
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 2000)
      << "only the 2 CPUs the running pod leaves free are held now";
  state_.removePod("default/running");
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 4000)
      << "all of it once the pod is gone";
}

}  // namespace
}  // namespace koord::extender::testing

namespace koord::extender::testing {
namespace {

// Reservation restore: what a pod may take back on a node is what the reservations there that it
// owns still hold; an allocateOnce one already taken, another owner's, or any for a pod that
// ignores reservations give nothing back.
TEST_F(ReservationStateTest, RestorableListsTheReservationsAPodMayUseOnTheNode) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "web-r", .requests = {{"cpu", "4"}}, .node = "n1"}))
          .isOk());
  ASSERT_TRUE(
      rs_.upsert(makeReservation(
                     {.name = "db-r", .requests = {{"cpu", "2"}}, .node = "n1", .owner_app = "db"}))
          .isOk());
  auto web = makePod("w", {{"cpu", "1"}}, {{"app", "web"}});
  auto restorable = rs_.restorable(*web, *state_.nodeInfo("n1"));
  ASSERT_TRUE(restorable.ok()) << restorable.status();
  ASSERT_EQ(restorable->size(), 1u);
  EXPECT_EQ((*restorable)[0]->name, "web-r");
  EXPECT_EQ((*restorable)[0]->held.milli_cpu, 4000);

  auto ignoring = makePod("i", {{"cpu", "1"}}, {{"app", "web"}});
  ignoring->metadata.labels["scheduling.koordinator.sh/reservation-ignored"] = "true";
  EXPECT_TRUE(rs_.restorable(*ignoring, *state_.nodeInfo("n1"))->empty());

  // Once an owner took the allocateOnce reservation, nothing is left to restore for the next one.
  ASSERT_TRUE(state_.upsertPod(ownerPod("a", {{"cpu", "1"}}, "web", "web-r", "n1")).isOk());
  EXPECT_TRUE(rs_.restorable(*web, *state_.nodeInfo("n1"))->empty());

  auto bad = makePod("b", {{"cpu", "1"}}, {{"app", "web"}});
  bad->metadata.annotations["scheduling.koordinator.sh/reservation-affinity"] = "{";
  EXPECT_EQ(rs_.restorable(*bad, *state_.nodeInfo("n1")).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::extender::testing
