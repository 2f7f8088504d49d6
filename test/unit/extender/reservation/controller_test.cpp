// The reservation loop against a gmock Client: what it writes for pending, unplaceable, expired,
// owned and old reservations, and that its writes reach the Reservation helper at once.
#include "extender/reservation/controller.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "extender/plugins/builtin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "test/mocks/k8s/mock_client.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

using ::testing::_;
using ::testing::Invoke;
using ::testing::Return;

class ReservationControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    state_.upsertNode(makeNode("n1", {{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "110"}}));
    framework::RuntimeOptions options;
    options.parallelism = 1;
    options.plugins = plugins::simulatorDefaultConfigs();
    auto runtime = framework::Runtime::create(plugins::placementRegistry(), handle_, options);
    ASSERT_TRUE(runtime.ok()) << runtime.status();
    runtime_ = std::move(*runtime);
    reservation::ControllerOptions controller_options;
    controller_ = std::make_unique<reservation::ReservationController>(
        client_, state_, *runtime_, nullptr, [this] { return now_; },
        std::move(controller_options));
    // The API server answers a status update with the object, one resourceVersion later.
    ON_CALL(client_, updateStatus(_, _, _)).WillByDefault(Invoke([this](auto, auto, auto& json) {
      written_.push_back(json);
      api::Json out = json;
      out["metadata"]["resourceVersion"] = std::to_string(++version_);
      return Result<api::Json>(out);
    }));
  }

  api::scheduling::Reservation lastWritten() {
    api::scheduling::Reservation r;
    EXPECT_FALSE(written_.empty());
    if (!written_.empty()) {
      EXPECT_TRUE(api::scheduling::fromJson(written_.back(), r, "").isOk());
    }
    return r;
  }

  ::testing::NiceMock<k8s::testing::MockClient> client_;
  FakeClock clock_;
  framework::ClusterState state_{clock_};
  plugins::common::ReservationState& rs_ = plugins::common::ReservationState::install(state_);
  framework::BasicHandle handle_{state_, clock_};
  std::unique_ptr<framework::Runtime> runtime_;
  std::unique_ptr<reservation::ReservationController> controller_;
  std::chrono::system_clock::time_point now_ = *reservation::parseTime("2026-11-26T10:05:00Z");
  std::vector<api::Json> written_;
  int version_ = 100;
};

TEST_F(ReservationControllerTest, PlacesPendingReservationAndHoldsItsCapacityAtOnce) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "4"}, {"memory", "8Gi"}}}))
          .isOk());
  auto report = controller_->syncAll();
  EXPECT_EQ(report.placed, 1);
  auto r = lastWritten();
  EXPECT_EQ(r.status.phase, "Available");
  EXPECT_EQ(r.status.nodeName, "n1");
  EXPECT_EQ(r.status.allocatable, resourceList({{"cpu", "4"}, {"memory", "8Gi"}}));
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 4000)
      << "the written object is in the cache before the informer brings it";
}

TEST_F(ReservationControllerTest, SecondReservationDoesNotTakeTheFirstOnesCapacity) {
  ASSERT_TRUE(rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "6"}}})).isOk());
  ASSERT_TRUE(
      rs_.upsert(makeReservation(
                     {.name = "r2", .requests = {{"cpu", "4"}}, .created = "2026-11-26T10:01:00Z"}))
          .isOk());
  auto report = controller_->syncAll();
  EXPECT_EQ(report.placed, 1);
  EXPECT_EQ(report.unschedulable, 1);
  auto r2 = lastWritten();
  EXPECT_EQ(r2.metadata.name, "r2");
  EXPECT_EQ(r2.status.phase, "Pending");
  ASSERT_EQ(r2.status.conditions.size(), 1u);
  EXPECT_EQ(r2.status.conditions[0].reason, "Unschedulable");
  EXPECT_EQ(r2.status.conditions[0].message,
            "0/1 nodes are available: 1 Insufficient cpu (held by reservations).");
  // Nothing changed: no new attempt, no new write.
  written_.clear();
  controller_->syncAll();
  EXPECT_TRUE(written_.empty());
  // r1 goes away: r2 fits now.
  rs_.remove("r1");
  EXPECT_EQ(controller_->syncAll().placed, 1);
  EXPECT_EQ(lastWritten().status.nodeName, "n1");
}

TEST_F(ReservationControllerTest, PinnedNodeThatDoesNotExistKeepsItPending) {
  auto r = makeReservation({.name = "r1", .requests = {{"cpu", "1"}}});
  r->spec.template_->spec.nodeName = "gone";
  ASSERT_TRUE(rs_.upsert(r).isOk());
  controller_->syncAll();
  EXPECT_EQ(lastWritten().status.conditions.at(0).message,
            "0/1 nodes are available: 1 node(s) didn't match Pod's node name.");
}

TEST_F(ReservationControllerTest, ExpiresDueReservationsPlacedOrNot) {
  ASSERT_TRUE(rs_.upsert(makeReservation(
                             {.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1", .ttl = "1m"}))
                  .isOk());
  auto report = controller_->syncAll();
  EXPECT_EQ(report.expired, 1);
  auto r = lastWritten();
  EXPECT_EQ(r.status.phase, "Failed");
  EXPECT_EQ(r.status.conditions.back().reason, "Expired");
  EXPECT_EQ(r.status.conditions.back().message, "Reservation expired at 2026-11-26T10:01:00Z");
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 0) << "expiry frees the capacity";
}

TEST_F(ReservationControllerTest, OwnerMakesAllocateOnceReservationSucceeded) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "4"}}, .node = "n1"})).isOk());
  ASSERT_TRUE(state_.upsertPod(ownerPod("web-0", {{"cpu", "2"}}, "web", "r1", "n1")).isOk());
  auto report = controller_->syncAll();
  EXPECT_EQ(report.succeeded, 1);
  auto r = lastWritten();
  EXPECT_EQ(r.status.phase, "Succeeded");
  ASSERT_EQ(r.status.currentOwners.size(), 1u);
  EXPECT_EQ(r.status.currentOwners[0].name, "web-0");
  EXPECT_EQ(r.status.allocated, resourceList({{"cpu", "2"}}));
}

TEST_F(ReservationControllerTest, DeletesTerminalReservationsAfterRetention) {
  auto r = makeReservation({.name = "old", .requests = {{"cpu", "1"}}});
  r->status =
      reservation::expiredStatus(*r, "expired", *reservation::parseTime("2026-11-25T09:00:00Z"));
  ASSERT_TRUE(rs_.upsert(r).isOk());
  EXPECT_CALL(client_, remove(_, _, "old", _)).WillOnce(Return(Status::ok()));
  EXPECT_EQ(controller_->syncAll().deleted, 1);
  EXPECT_TRUE(rs_.reservations().empty());
}

TEST_F(ReservationControllerTest, FailedWriteIsRetriedOnTheNextPass) {
  ASSERT_TRUE(rs_.upsert(makeReservation({.name = "r1", .requests = {{"cpu", "1"}}})).isOk());
  EXPECT_CALL(client_, updateStatus(_, _, _))
      .WillOnce(Return(Result<api::Json>(Status::conflict("the object has been modified"))))
      .WillOnce(Invoke([](auto, auto, auto& json) { return Result<api::Json>(json); }));
  EXPECT_EQ(controller_->syncAll().failed_writes, 1);
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 0);
  EXPECT_EQ(controller_->syncAll().placed, 1);
  EXPECT_EQ(rs_.reserved(*state_.nodeInfo("n1")).milli_cpu, 1000);
}

TEST_F(ReservationControllerTest, InvalidReservationStaysPendingWithTheValidationError) {
  auto r = makeReservation({.name = "r1", .requests = {{"cpu", "1"}}, .owner_app = ""});
  ASSERT_TRUE(rs_.upsert(r).isOk());
  controller_->syncAll();
  auto written = lastWritten();
  EXPECT_EQ(written.status.phase, "Pending");
  EXPECT_NE(written.status.conditions.at(0).message.find("owners"), std::string::npos)
      << written.status.conditions.at(0).message;
}

}  // namespace
}  // namespace koord::extender::testing

namespace koord::extender::testing {
namespace {

TEST_F(ReservationControllerTest, PreAllocationIsPlacedOverRunningPods) {
  auto running = makePod("running", {{"cpu", "7"}}, {});
  running->spec.nodeName = "n1";
  ASSERT_TRUE(state_.upsertPod(running).isOk());
  auto plain = makeReservation({.name = "plain", .requests = {{"cpu", "4"}}});
  ASSERT_TRUE(rs_.upsert(plain).isOk());
  auto pre = makeReservation({.name = "pre", .requests = {{"cpu", "4"}}});
  pre->spec.preAllocation = true;
  ASSERT_TRUE(rs_.upsert(pre).isOk());
  auto report = controller_->syncAll();
  EXPECT_EQ(report.placed, 1);
  EXPECT_EQ(report.unschedulable, 1);
  EXPECT_EQ(rs_.reservation("pre")->status.phase, "Available");
  EXPECT_EQ(rs_.reservation("plain")->status.phase, "Pending");
}

}  // namespace
}  // namespace koord::extender::testing

namespace koord::extender::testing {
namespace {

TEST_F(ReservationControllerTest, DefaultPolicyDoesNotShareANodeWithAlignedOrRestricted) {
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "legacy", .requests = {{"cpu", "1"}}, .node = "n1"}))
          .isOk());
  ASSERT_TRUE(
      rs_.upsert(makeReservation({.name = "aligned",
                                  .requests = {{"cpu", "1"}},
                                  .policy = api::scheduling::ReservationAllocatePolicy::kAligned}))
          .isOk());
  ASSERT_TRUE(rs_.upsert(makeReservation({.name = "another-legacy",
                                          .requests = {{"cpu", "1"}},
                                          .created = "2026-11-26T10:00:01Z"}))
                  .isOk());
  auto report = controller_->syncAll();
  EXPECT_EQ(report.placed, 1);
  EXPECT_EQ(rs_.reservation("another-legacy")->status.nodeName, "n1");
  const auto& aligned = rs_.reservation("aligned")->status;
  EXPECT_EQ(aligned.phase, "Pending");
  EXPECT_EQ(aligned.conditions.at(0).message,
            "0/1 nodes are available: 1 node(s) reservation allocate policy conflict.");
}

}  // namespace
}  // namespace koord::extender::testing
