// The Reservation lifecycle's pure rules: times, expiry, status transitions, owners, collection.
#include "extender/reservation/lifecycle.hpp"

#include <gtest/gtest.h>

#include "extender/plugins/common/reservation_state.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

using reservation::WallTime;

WallTime at(const std::string& text) {
  auto t = reservation::parseTime(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : WallTime();
}

TEST(ReservationTimeTest, ParsesApiServerTimes) {
  EXPECT_EQ(at("1970-01-01T00:00:10Z").time_since_epoch(), std::chrono::seconds(10));
  EXPECT_EQ(at("1970-01-01T01:00:00+01:00").time_since_epoch(), std::chrono::seconds(0));
  EXPECT_EQ(at("1970-01-01T00:00:01.500000Z").time_since_epoch(), std::chrono::milliseconds(1500));
  for (const char* bad : {"", "2026-11-26", "2026-11-26T10:00:00", "2026-13-01T00:00:00Z",
                          "2026-11-26T10:00:00Zjunk", "2026-11-26T10:00:00."}) {
    auto t = reservation::parseTime(bad);
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(ReservationExpiryTest, TtlCountsFromCreationAndExpiresWins) {
  auto r = makeReservation({.name = "r", .requests = {{"cpu", "1"}}});
  auto expiry = reservation::expiryTime(*r);
  ASSERT_TRUE(expiry.ok());
  EXPECT_EQ(**expiry, at("2026-11-27T10:00:00Z")) << "24h by default";
  r->spec.ttl = "30m";
  EXPECT_EQ(**reservation::expiryTime(*r), at("2026-11-26T10:30:00Z"));
  r->spec.expires = "2026-11-26T10:05:00Z";
  EXPECT_EQ(**reservation::expiryTime(*r), at("2026-11-26T10:05:00Z"));
  r->spec.expires.reset();
  r->spec.ttl = "0s";
  EXPECT_FALSE(reservation::expiryTime(*r)->has_value()) << "ttl 0s disables expiry";
  r->spec.ttl = "soon";
  EXPECT_EQ(reservation::expiryTime(*r).status().code(), StatusCode::kInvalidArgument);
}

TEST(ReservationStatusTest, AvailableThenUnschedulableConditions) {
  auto r = makeReservation({.name = "r", .requests = {{"cpu", "1"}}});
  const WallTime now = at("2026-11-26T10:01:00Z");
  auto pending = reservation::unschedulableStatus(*r, "0/1 nodes are available: x.", now);
  EXPECT_EQ(pending.phase, "Pending");
  ASSERT_EQ(pending.conditions.size(), 1u);
  EXPECT_EQ(pending.conditions[0].type, "Scheduled");
  EXPECT_EQ(pending.conditions[0].status, "False");
  EXPECT_EQ(pending.conditions[0].reason, "Unschedulable");
  EXPECT_EQ(pending.conditions[0].message, "0/1 nodes are available: x.");
  r->status = pending;
  auto available = reservation::availableStatus(*r, "n1", resourceList({{"cpu", "1"}}),
                                                at("2026-11-26T10:02:00Z"));
  EXPECT_EQ(available.phase, "Available");
  EXPECT_EQ(available.nodeName, "n1");
  ASSERT_EQ(available.conditions.size(), 2u);
  EXPECT_EQ(available.conditions[0].status, "True");
  EXPECT_EQ(available.conditions[0].reason, "Scheduled");
  EXPECT_EQ(available.conditions[0].lastTransitionTime, "2026-11-26T10:02:00Z");
  EXPECT_EQ(available.conditions[1].type, "Ready");
  EXPECT_EQ(available.conditions[1].reason, "Available");
  auto expired = reservation::expiredStatus(*r, "expired", now);
  EXPECT_EQ(expired.phase, "Failed");
  EXPECT_EQ(expired.conditions.back().reason, "Expired");
}

TEST(ReservationOwnersTest, AllocateOnceSucceedsWithItsFirstOwner) {
  FakeClock clock;
  framework::ClusterState state(clock);
  state.upsertNode(makeNode("n1", {{"cpu", "8"}, {"memory", "16Gi"}}));
  auto r = makeReservation({.name = "r", .requests = {{"cpu", "4"}}, .node = "n1"});
  ASSERT_TRUE(plugins::common::ReservationState::install(state).upsert(r).isOk());
  const WallTime now = at("2026-11-26T10:03:00Z");
  EXPECT_FALSE(reservation::ownersStatus(*r, *state.nodeInfo("n1"), now).has_value());
  ASSERT_TRUE(
      state.upsertPod(ownerPod("a", {{"cpu", "3"}, {"memory", "1Gi"}}, "web", "r", "n1")).isOk());
  auto status = reservation::ownersStatus(*r, *state.nodeInfo("n1"), now);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->phase, "Succeeded");
  ASSERT_EQ(status->currentOwners.size(), 1u);
  EXPECT_EQ(status->currentOwners[0].name, "a");
  EXPECT_EQ(status->currentOwners[0].uid, "uid-a");
  EXPECT_EQ(status->allocated, resourceList({{"cpu", "3"}})) << "only what it holds is counted";
}

TEST(ReservationOwnersTest, ReusableReservationTracksOwnersComingAndGoing) {
  FakeClock clock;
  framework::ClusterState state(clock);
  state.upsertNode(makeNode("n1", {{"cpu", "8"}}));
  auto r = makeReservation(
      {.name = "r", .requests = {{"cpu", "4"}}, .node = "n1", .allocate_once = false});
  ASSERT_TRUE(state.upsertPod(ownerPod("a", {{"cpu", "1"}}, "web", "r", "n1")).isOk());
  ASSERT_TRUE(plugins::common::ReservationState::install(state).upsert(r).isOk());
  const WallTime now = at("2026-11-26T10:03:00Z");
  auto status = reservation::ownersStatus(*r, *state.nodeInfo("n1"), now);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->phase, "Available");
  EXPECT_EQ(status->allocated, resourceList({{"cpu", "1"}}));
  r->status = *status;
  state.removePod("default/a");
  status = reservation::ownersStatus(*r, *state.nodeInfo("n1"), now);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->currentOwners.empty());
  EXPECT_TRUE(status->allocated.empty()) << "capacity returns when owners go away";
}

TEST(ReservationCollectTest, TerminalReservationsGoAfterRetention) {
  auto r = makeReservation({.name = "r", .requests = {{"cpu", "1"}}});
  const auto day = std::chrono::hours(24);
  EXPECT_FALSE(reservation::collectible(*r, at("2026-12-01T00:00:00Z"), day)) << "not terminal";
  r->status = reservation::expiredStatus(*r, "expired", at("2026-11-26T11:00:00Z"));
  EXPECT_FALSE(reservation::collectible(*r, at("2026-11-27T10:59:59Z"), day));
  EXPECT_TRUE(reservation::collectible(*r, at("2026-11-27T11:00:00Z"), day));
}

}  // namespace
}  // namespace koord::extender::testing
