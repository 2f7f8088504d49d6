// The Reservation plugin: non-owners kept off reserved capacity, owners given it, steered to it
// and recorded on it at bind.
#include "extender/plugins/reservation/reservation_plugin.hpp"

#include <gtest/gtest.h>

#include "extender/plugins/common/reservation_state.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

using framework::Code;
using framework::CycleState;
using plugins::reservation::ReservationPlugin;

class ReservationPluginTest : public ::testing::Test {
 protected:
  // An 8-CPU node; r1 holds 4 CPUs and 8Gi of it for pods labelled app=web.
  void SetUp() override {
    state_.upsertNode(makeNode("n1", {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}}));
    state_.upsertNode(makeNode("n2", {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}}));
    place({.name = "r1", .requests = {{"cpu", "4"}, {"memory", "8Gi"}}, .node = "n1"});
  }
  void place(const ReservationInput& in) { ASSERT_TRUE(rs_.upsert(makeReservation(in)).isOk()); }

  framework::PluginStatus filter(const std::shared_ptr<api::core::Pod>& pod,
                                 const std::string& node = "n1") {
    CycleState cycle;
    auto info = podInfo(pod);
    auto pre = plugin_.preFilter(cycle, *info);
    if (!pre.isSuccess())
      return pre;
    return plugin_.filter(cycle, *info, *state_.nodeInfo(node));
  }

  // Scores on n1 and n2, normalized.
  std::vector<int64_t> scores(const std::shared_ptr<api::core::Pod>& pod) {
    CycleState cycle;
    auto info = podInfo(pod);
    EXPECT_TRUE(plugin_.preFilter(cycle, *info).isSuccess());
    auto n1 = state_.nodeInfo("n1");
    auto n2 = state_.nodeInfo("n2");
    std::vector<int64_t> out = {plugin_.score(cycle, *info, *n1), plugin_.score(cycle, *info, *n2)};
    plugin_.normalizeScores(cycle, *info, {n1.get(), n2.get()}, out);
    return out;
  }

  // reserve + preBind on n1; the annotation written (empty when none).
  std::string bind(const std::shared_ptr<api::core::Pod>& pod, CycleState& cycle,
                   framework::PluginStatus* status = nullptr) {
    auto info = podInfo(pod);
    const auto pre = plugin_.preFilter(cycle, *info);
    EXPECT_TRUE(pre.isSuccess() || pre.isSkip()) << pre.message();
    auto reserved = plugin_.reserve(cycle, *info, *state_.nodeInfo("n1"));
    if (status != nullptr)
      *status = reserved;
    framework::BindPatch patch;
    (void)plugin_.preBind(cycle, *info, *state_.nodeInfo("n1"), patch);
    auto it = patch.annotations.find(std::string(api::kAnnotationReservationAllocated));
    return it == patch.annotations.end() ? "" : it->second;
  }

  FakeClock clock_;
  framework::AllocationCache allocations_{clock_};
  framework::ClusterState state_{clock_, std::chrono::seconds(30), &allocations_};
  plugins::common::ReservationState& rs_ = plugins::common::ReservationState::install(state_);
  framework::BasicHandle handle_{state_, clock_, log::Logger{}, nullptr, &allocations_};
  ReservationPlugin plugin_{handle_};
};

TEST_F(ReservationPluginTest, NonOwnerIsRefusedWhatTheReservationHolds) {
  auto status = filter(makePod("batch", {{"cpu", "5"}}, {{"app", "batch"}}));
  EXPECT_EQ(status.code(), Code::kUnschedulable);
  EXPECT_EQ(status.message(), "Insufficient cpu (held by reservations)");
  EXPECT_TRUE(filter(makePod("small", {{"cpu", "4"}}, {{"app", "batch"}})).isSuccess())
      << "the unreserved half stays usable";
  EXPECT_TRUE(filter(makePod("big", {{"cpu", "5"}}, {{"app", "batch"}}), "n2").isSuccess())
      << "a node without reservations is not this plugin's business";
}

TEST_F(ReservationPluginTest, SkipsPerNodeWorkOnlyWhileNoReservationHoldsCapacity) {
  auto batch = makePod("batch", {{"cpu", "5"}}, {{"app", "batch"}});
  EXPECT_EQ(filter(batch).code(), Code::kUnschedulable) << "r1 holds 4 of n1's 8 CPUs";
  rs_.remove("r1");
  EXPECT_EQ(filter(batch).code(), Code::kSkip) << "no reservation anywhere: nothing to check";
  auto required = makePod("p", {{"cpu", "1"}}, {{"app", "web"}});
  required->metadata.annotations[std::string(api::kAnnotationReservationAffinity)] =
      R"({"name":"r1"})";
  EXPECT_EQ(filter(required).code(), Code::kUnschedulableAndUnresolvable)
      << "a pod that requires a reservation is still refused everywhere";
  CycleState cycle;
  EXPECT_EQ(bind(batch, cycle), "") << "reserve and preBind still run after a skip";
  place({.name = "r1", .requests = {{"cpu", "4"}, {"memory", "8Gi"}}, .node = "n1"});
  EXPECT_EQ(filter(batch).code(), Code::kUnschedulable) << "a new reservation is checked again";
}

TEST_F(ReservationPluginTest, OwnerMayUseTheReservationAndTheFreeCapacity) {
  EXPECT_TRUE(filter(ownerPod("web-0", {{"cpu", "6"}}, "web")).isSuccess());
  auto status = filter(ownerPod("web-1", {{"cpu", "9"}}, "web"));
  EXPECT_FALSE(status.isSuccess());
}

TEST_F(ReservationPluginTest, IgnoredLabelMakesAnOwnerANonOwner) {
  auto pod = ownerPod("web-0", {{"cpu", "6"}}, "web");
  pod->metadata.labels[std::string(api::kLabelReservationIgnored)] = "true";
  EXPECT_EQ(filter(pod).code(), Code::kUnschedulable);
}

TEST_F(ReservationPluginTest, RestrictedReservationLimitsOwnersToWhatItHolds) {
  place({.name = "r1",
         .requests = {{"cpu", "4"}, {"memory", "8Gi"}},
         .node = "n1",
         .policy = api::scheduling::ReservationAllocatePolicy::kRestricted});
  EXPECT_TRUE(filter(ownerPod("web-0", {{"cpu", "3"}}, "web")).isSuccess());
  // 6 CPUs do not fit in the 4 it holds; without it only 4 are free for anyone.
  EXPECT_EQ(filter(ownerPod("web-1", {{"cpu", "6"}}, "web")).code(), Code::kUnschedulable);
}

TEST_F(ReservationPluginTest, AffinityByNameRequiresThatReservation) {
  auto pod = makePod("p", {{"cpu", "1"}}, {{"app", "web"}});
  pod->metadata.annotations[std::string(api::kAnnotationReservationAffinity)] =
      R"({"name":"missing"})";
  auto status = filter(pod);
  EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.message(), "node(s) no reservations match reservation affinity");
  EXPECT_EQ(filter(pod, "n2").code(), Code::kUnschedulableAndUnresolvable);
  pod->metadata.annotations[std::string(api::kAnnotationReservationAffinity)] = R"({"name":"r1"})";
  EXPECT_TRUE(filter(pod).isSuccess());
}

TEST_F(ReservationPluginTest, MalformedAnnotationFailsWithItsName) {
  auto pod = ownerPod("web-0", {{"cpu", "1"}}, "web");
  pod->metadata.annotations[std::string(api::kAnnotationReservationAffinity)] = "{not json";
  auto status = filter(pod);
  EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_NE(status.message().find("reservation-affinity"), std::string::npos) << status.message();
}

TEST_F(ReservationPluginTest, OwnersPreferTheNodeHoldingTheirReservation) {
  EXPECT_EQ(scores(ownerPod("web-0", {{"cpu", "2"}}, "web")), (std::vector<int64_t>{100, 0}));
  EXPECT_EQ(scores(makePod("batch", {{"cpu", "2"}}, {{"app", "batch"}})),
            (std::vector<int64_t>{0, 0}));
}

TEST_F(ReservationPluginTest, DeclinesToScorePodsThatOwnNothing) {
  auto declines = [&](const std::shared_ptr<api::core::Pod>& pod) {
    CycleState cycle;
    auto info = podInfo(pod);
    EXPECT_TRUE(plugin_.preFilter(cycle, *info).isSuccess());
    return !plugin_.scores(cycle, *info);
  };
  EXPECT_TRUE(declines(makePod("batch", {{"cpu", "1"}}, {{"app", "batch"}})));
  EXPECT_FALSE(declines(ownerPod("web-0", {{"cpu", "1"}}, "web")));
  auto ignoring = ownerPod("web-1", {{"cpu", "1"}}, "web");
  ignoring->metadata.labels[std::string(api::kLabelReservationIgnored)] = "true";
  EXPECT_TRUE(declines(ignoring));
}

TEST_F(ReservationPluginTest, SmallestReservationOrderWins) {
  auto ordered = makeReservation({.name = "r2", .requests = {{"cpu", "8"}}, .node = "n2"});
  ASSERT_TRUE(rs_.upsert(ordered).isOk());
  auto pod = ownerPod("web-0", {{"cpu", "1"}, {"memory", "8Gi"}}, "web");
  // MostAllocated: r1 (25% of its cpu, 100% of its memory) 62, r2 (1 of 8 cpus) 12.
  EXPECT_EQ(scores(pod), (std::vector<int64_t>{100, 12 * 100 / 62}));
  ordered->metadata.labels[std::string(api::kLabelReservationOrder)] = "5";
  ASSERT_TRUE(rs_.upsert(ordered).isOk());
  // r2 carries an order: its node scores 1000 before normalizing, r1's node 62.
  EXPECT_EQ(scores(pod), (std::vector<int64_t>{6, 100}));
}

TEST_F(ReservationPluginTest, BindRecordsTheReservationOnThePod) {
  CycleState cycle;
  EXPECT_EQ(bind(ownerPod("web-0", {{"cpu", "2"}}, "web"), cycle),
            R"({"name":"r1","uid":"uid-r1"})");
  CycleState other;
  EXPECT_EQ(bind(makePod("batch", {{"cpu", "2"}}, {{"app", "batch"}}), other), "");
}

TEST_F(ReservationPluginTest, ConcurrentOwnersCannotBothTakeAnAllocateOnceReservation) {
  CycleState first;
  ASSERT_NE(bind(ownerPod("web-0", {{"cpu", "2"}}, "web"), first), "");
  CycleState second;
  EXPECT_EQ(bind(ownerPod("web-1", {{"cpu", "2"}}, "web"), second), "")
      << "the first bind's hold makes r1 taken";
  // The first bind fails: r1 is free again.
  plugin_.unreserve(first, *podInfo(ownerPod("web-0", {{"cpu", "2"}}, "web")), "n1");
  CycleState third;
  EXPECT_NE(bind(ownerPod("web-1", {{"cpu", "2"}}, "web"), third), "");
}

TEST_F(ReservationPluginTest, RequiredReservationFailsBindWhenTaken) {
  CycleState first;
  ASSERT_NE(bind(ownerPod("web-0", {{"cpu", "2"}}, "web"), first), "");
  auto pod = ownerPod("web-1", {{"cpu", "2"}}, "web");
  pod->metadata.annotations[std::string(api::kAnnotationReservationAffinity)] = R"({"name":"r1"})";
  CycleState second;
  framework::PluginStatus status;
  EXPECT_EQ(bind(pod, second, &status), "");
  EXPECT_EQ(status.code(), Code::kUnschedulable);
  EXPECT_EQ(status.message(),
            "reservation has allocateOnce enabled and has already been allocated");
}

TEST_F(ReservationPluginTest, ArgsRejectUnknownFields) {
  auto made = plugins::reservation::create(api::Json{{"bogus", 1}}, handle_);
  EXPECT_FALSE(made.ok());
  EXPECT_TRUE(plugins::reservation::create(nullptr, handle_).ok());
}

}  // namespace
}  // namespace koord::extender::testing
