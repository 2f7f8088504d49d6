// A Reservation whose template gets a cpuset (v1.2): the reservation loop runs its reserve pod
// through NodeNUMAResource, writes the cpuset onto the Reservation before it becomes Available,
// and from then on the Reservation holds those CPUs for its owners only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "extender/plugins/builtin.hpp"
#include "extender/plugins/common/reservation_state.hpp"
#include "extender/reservation/controller.hpp"
#include "test/mocks/k8s/mock_client.hpp"
#include "test/unit/extender/plugins/node_numa_resource/numa_test_cluster.hpp"
#include "test/unit/extender/reservation/reservation_test_util.hpp"

namespace koord::extender::testing {
namespace {

using ::testing::_;
using ::testing::Invoke;

class ReservationCpusetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    objects_.set<api::topology::NodeResourceTopology>(nrts_);
    plugins::installNodeData(plugins::defaultPluginNames(), state_);
    auto node = makeNode("n1", {{"cpu", "32"}, {"memory", "128Gi"}, {"pods", "110"}});
    state_.upsertNode(node);
    nrts_->set(makeNRT("n1"));
    framework::RuntimeOptions options;
    options.parallelism = 1;
    options.plugins = plugins::simulatorDefaultConfigs();
    auto runtime = framework::Runtime::create(plugins::placementRegistry(), handle_, options);
    ASSERT_TRUE(runtime.ok()) << runtime.status();
    runtime_ = std::move(*runtime);
    controller_ = std::make_unique<reservation::ReservationController>(
        client_, state_, *runtime_, nullptr, [this] { return now_; },
        reservation::ControllerOptions{});
    // The API server answers with the object one resourceVersion later; a merge patch of
    // annotations lands on the object it last stored.
    ON_CALL(client_, patch(_, _, _, _, _, _))
        .WillByDefault(Invoke(
            [this](auto, auto, const std::string& name, auto, const std::string& body, auto) {
              auto r = rs_.reservation(name);
              api::Json out = api::scheduling::toJson(*r);
              const api::Json merge = api::Json::parse(body);
              for (const auto& [k, v] : merge["metadata"]["annotations"].items())
                out["metadata"]["annotations"][k] = v;
              out["metadata"]["resourceVersion"] = std::to_string(++version_);
              patches_.push_back(api::Json::parse(body));
              return Result<api::Json>(out);
            }));
    ON_CALL(client_, updateStatus(_, _, _)).WillByDefault(Invoke([this](auto, auto, auto& json) {
      api::Json out = json;
      out["metadata"]["resourceVersion"] = std::to_string(++version_);
      return Result<api::Json>(out);
    }));
  }

  // An LSR koord-prod reservation of `cpu` CPUs owned by app=web.
  std::shared_ptr<api::scheduling::Reservation> lsrReservation(const std::string& name,
                                                               const std::string& cpu) {
    auto r = makeReservation({.name = name, .requests = {{"cpu", cpu}, {"memory", "1Gi"}}});
    r->spec.template_->metadata.labels = {{"koordinator.sh/qosClass", "LSR"},
                                          {"koordinator.sh/priority-class", "koord-prod"}};
    return r;
  }

  ::testing::NiceMock<k8s::testing::MockClient> client_;
  FakeClock clock_;
  framework::AllocationCache allocations_{clock_};
  framework::ClusterState state_{clock_, std::chrono::seconds(30), &allocations_};
  plugins::common::ReservationState& rs_ = plugins::common::ReservationState::install(state_);
  std::shared_ptr<NRTLister> nrts_ = std::make_shared<NRTLister>();
  framework::ObjectStore objects_;
  framework::BasicHandle handle_{state_, clock_, log::Logger{}, &objects_, &allocations_};
  std::unique_ptr<framework::Runtime> runtime_;
  std::unique_ptr<reservation::ReservationController> controller_;
  std::chrono::system_clock::time_point now_ = *reservation::parseTime("2026-11-26T10:05:00Z");
  std::vector<api::Json> patches_;
  int version_ = 100;
};

TEST_F(ReservationCpusetTest, PlacedLSRReservationCarriesItsCpusetAndHoldsIt) {
  ASSERT_TRUE(rs_.upsert(lsrReservation("r1", "4")).isOk());
  EXPECT_EQ(controller_->syncAll().placed, 1);
  ASSERT_EQ(patches_.size(), 1U);
  auto r1 = rs_.reservation("r1");
  ASSERT_NE(r1, nullptr);
  EXPECT_EQ(r1->status.phase, "Available");
  ASSERT_EQ(r1->metadata.annotations.count(std::string(api::kAnnotationResourceStatus)), 1U);
  const std::string status =
      r1->metadata.annotations.at(std::string(api::kAnnotationResourceStatus));
  EXPECT_EQ(status, R"({"cpuset":"0-1,16-17"})") << "two whole cores, as a pod would get";
  EXPECT_TRUE(allocations_.empty()) << "the in-flight record is released once r1 holds them";

  // A second LSR reservation goes around r1's CPUs.
  ASSERT_TRUE(rs_.upsert(lsrReservation("r2", "4")).isOk());
  controller_->syncAll();
  EXPECT_EQ(
      rs_.reservation("r2")->metadata.annotations.at(std::string(api::kAnnotationResourceStatus)),
      R"({"cpuset":"8-9,24-25"})");
}

// v1.6: a reservation with a NUMA policy holds NUMA resources: the split is written with the
// cpuset, and a second one goes to the other NUMA node.
TEST_F(ReservationCpusetTest, ReservationWithANUMAPolicyCarriesItsNUMAResources) {
  auto numa = [this](const std::string& name) {
    auto r = lsrReservation(name, "12");
    r->spec.template_->metadata.annotations[std::string(api::kAnnotationNUMATopologySpec)] =
        R"({"numaTopologyPolicy":"SingleNUMANode"})";
    return r;
  };
  ASSERT_TRUE(rs_.upsert(numa("r1")).isOk());
  controller_->syncAll();
  auto first = api::extension::parseResourceStatus(
      rs_.reservation("r1")->metadata.annotations.at(std::string(api::kAnnotationResourceStatus)));
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->numaNodeResources.size(), 1U);
  EXPECT_EQ(first->numaNodeResources[0].resources.at("cpu").milliValue(), 12000);
  EXPECT_EQ(first->numaNodeResources[0].resources.at("memory").value(), int64_t{1} << 30);
  EXPECT_EQ(cpuset::CpuSet::parse(first->cpuset)->size(), 12U);

  ASSERT_TRUE(rs_.upsert(numa("r2")).isOk());
  controller_->syncAll();
  auto second = api::extension::parseResourceStatus(
      rs_.reservation("r2")->metadata.annotations.at(std::string(api::kAnnotationResourceStatus)));
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->numaNodeResources.size(), 1U);
  EXPECT_NE(second->numaNodeResources[0].node, first->numaNodeResources[0].node)
      << "r1 holds 12 of its NUMA node's 16 CPUs";
}

TEST_F(ReservationCpusetTest, PlainReservationWritesNoAnnotation) {
  ASSERT_TRUE(rs_.upsert(makeReservation({.name = "plain", .requests = {{"cpu", "4"}}})).isOk());
  EXPECT_EQ(controller_->syncAll().placed, 1);
  EXPECT_TRUE(patches_.empty());
  EXPECT_EQ(rs_.reservation("plain")->status.phase, "Available");
}

}  // namespace
}  // namespace koord::extender::testing
