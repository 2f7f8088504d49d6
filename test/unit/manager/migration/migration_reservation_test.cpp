#include "manager/descheduler/migration/migration_reservation.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using testing::FakeCluster;
using testing::JobOptions;
using testing::makeJob;
using testing::makePod;
using testing::PodSpecOptions;
using testing::t0;
namespace core = api::core;
namespace sched = api::scheduling;

core::Pod deploymentPod() {
  PodSpecOptions o;
  o.node = "node-a";
  o.controller_uid = "rs-uid";
  core::Pod pod = makePod("default", "web-0", o);
  pod.metadata.annotations["scheduling.koordinator.sh/reservation-allocated"] =
      R"({"name":"old","uid":"old-uid"})";
  pod.metadata.annotations["team"] = "payments";
  return pod;
}

core::NodeSelectorRequirement offNodeA() {
  return {"metadata.name", "NotIn", {"node-a"}, {}};
}

TEST(BuildReservationTest, FromThePodAsKoordinatorDoes) {
  JobOptions o;
  o.ttl = "5m";
  const sched::PodMigrationJob job = makeJob("j", "default", "web-0", o);
  const auto now = t0() + std::chrono::seconds(90);
  auto r = buildReservation(job, deploymentPod(), now);
  ASSERT_TRUE(r.ok()) << r.status().toString();

  EXPECT_EQ(r->apiVersion, "scheduling.koordinator.sh/v1alpha1");
  EXPECT_EQ(r->kind, "Reservation");
  EXPECT_EQ(r->metadata.name, "job-uid-j");
  EXPECT_TRUE(r->metadata.ownerReferences.empty());
  EXPECT_EQ(r->metadata.labels.at("app.kubernetes.io/created-by"), "koord-descheduler");
  EXPECT_EQ(
      r->metadata.labels.at("scheduling.koordinator.sh/reservation-order"),
      std::to_string(
          std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count()));
  EXPECT_EQ(r->spec.allocateOnce, true);
  EXPECT_EQ(r->spec.ttl, "5m");
  EXPECT_FALSE(r->spec.expires);

  ASSERT_TRUE(r->spec.template_);
  const core::PodTemplateSpec& t = *r->spec.template_;
  EXPECT_EQ(t.spec.nodeName, "");
  EXPECT_EQ(t.spec.containers.size(), 1U);
  EXPECT_EQ(t.metadata.labels.at("app"), "web");
  EXPECT_EQ(t.metadata.annotations.at("team"), "payments");
  EXPECT_EQ(t.metadata.annotations.count("scheduling.koordinator.sh/reservation-allocated"), 0U);
  EXPECT_EQ(t.metadata.uid, "");
  ASSERT_TRUE(t.spec.affinity.has_value());
  ASSERT_TRUE(t.spec.affinity->nodeAffinity);
  ASSERT_TRUE(t.spec.affinity->nodeAffinity->required);
  const auto& terms = t.spec.affinity->nodeAffinity->required->nodeSelectorTerms;
  ASSERT_EQ(terms.size(), 1U);
  ASSERT_EQ(terms[0].matchFields.size(), 1U);
  EXPECT_EQ(terms[0].matchFields[0], offNodeA());

  ASSERT_EQ(r->spec.owners.size(), 1U);
  ASSERT_TRUE(r->spec.owners[0].controller);
  EXPECT_EQ(r->spec.owners[0].controller->reference.uid, "rs-uid");
  EXPECT_EQ(r->spec.owners[0].controller->namespace_, "default");
  EXPECT_FALSE(r->spec.owners[0].object);
}

TEST(BuildReservationTest, APodWithoutControllerOwnsItself) {
  const core::Pod pod = makePod("default", "bare");
  const auto owners = reservationOwners(pod);
  ASSERT_EQ(owners.size(), 1U);
  ASSERT_TRUE(owners[0].object);
  EXPECT_EQ(owners[0].object->kind, "Pod");
  EXPECT_EQ(owners[0].object->namespace_, "default");
  EXPECT_EQ(owners[0].object->name, "bare");
  EXPECT_EQ(owners[0].object->uid, "uid-bare");
  EXPECT_FALSE(owners[0].controller);
}

TEST(BuildReservationTest, TheJobsTemplateWinsAndTheAffinityIsAddedToEveryTerm) {
  sched::PodMigrationJob job = makeJob("j", "default", "web-0");  // no ttl
  sched::ReservationTemplateSpec tmpl;
  tmpl.metadata.name = "my-reservation";
  tmpl.spec.expires = "2026-01-02T00:00:00Z";
  core::Pod pod = deploymentPod();
  core::NodeSelectorTerm zone;
  zone.matchExpressions.push_back({"zone", "In", {"z1"}, {}});
  core::NodeSelectorTerm gpu;
  gpu.matchExpressions.push_back({"gpu", "Exists", {}, {}});
  pod.spec.affinity.emplace();
  pod.spec.affinity->nodeAffinity.emplace();
  pod.spec.affinity->nodeAffinity->required.emplace();
  pod.spec.affinity->nodeAffinity->required->nodeSelectorTerms = {zone, gpu};
  job.spec.reservationOptions.emplace();
  job.spec.reservationOptions->template_ = tmpl;
  job.spec.ttl = "10m";

  auto r = buildReservation(job, pod, t0());
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->metadata.name, "my-reservation");
  EXPECT_FALSE(r->spec.ttl);  // the template has expires
  const auto& terms = r->spec.template_->spec.affinity->nodeAffinity->required->nodeSelectorTerms;
  ASSERT_EQ(terms.size(), 2U);
  for (const auto& term : terms) {
    ASSERT_EQ(term.matchExpressions.size(), 1U);
    ASSERT_EQ(term.matchFields.size(), 1U);
    EXPECT_EQ(term.matchFields[0], offNodeA());
  }
}

TEST(BuildReservationTest, NoNameWithoutAJobUID) {
  sched::PodMigrationJob job = makeJob("j", "default", "web-0");
  job.metadata.uid.clear();
  auto r = buildReservation(job, deploymentPod(), t0());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

sched::Reservation reservationNamed(const std::string& name) {
  sched::Reservation r;
  r.metadata.name = name;
  r.metadata.uid = "uid-" + name;
  return r;
}

TEST(ReservationStateTest, PhasesAndConditions) {
  sched::Reservation r = reservationNamed("r");
  EXPECT_TRUE(isReservationPending(r));
  r.status.phase = "Pending";
  r.status.conditions.push_back({"Scheduled", "False", "Unschedulable", "0/3 nodes", "", "", {}});
  EXPECT_TRUE(isReservationPending(r));
  ASSERT_NE(unschedulableCondition(r), nullptr);
  EXPECT_EQ(unschedulableCondition(r)->message, "0/3 nodes");

  r.status.phase = "Failed";
  EXPECT_FALSE(isReservationExpired(r));  // no Ready=False/Expired
  r.status.conditions.push_back({"Ready", "False", "Expired", "", "", "", {}});
  EXPECT_TRUE(isReservationExpired(r));
  r.status.phase = "Succeeded";
  EXPECT_TRUE(isReservationSucceeded(r));
  EXPECT_FALSE(isReservationExpired(r));
}

TEST(ReservationStateTest, BoundPodFromCurrentOwnersElseTheAllocatedAnnotation) {
  sched::Reservation r = reservationNamed("r");
  core::Pod other = makePod("default", "other");
  core::Pod fresh = makePod("default", "web-new");
  fresh.metadata.annotations["scheduling.koordinator.sh/reservation-allocated"] =
      R"({"name":"r","uid":"uid-r"})";
  const std::vector<std::shared_ptr<const core::Pod>> pods = {std::make_shared<core::Pod>(other),
                                                              std::make_shared<core::Pod>(fresh)};

  auto bound = boundPod(r, pods);
  ASSERT_TRUE(bound);
  EXPECT_EQ(bound->name, "web-new");
  EXPECT_EQ(bound->uid, "uid-web-new");

  core::ObjectReference owner;
  owner.namespace_ = "default";
  owner.name = "web-1";
  r.status.currentOwners.push_back(owner);
  EXPECT_EQ(boundPod(r, pods)->name, "web-1");
  EXPECT_FALSE(boundPod(reservationNamed("r2"), pods));
}

TEST(DeleteReservationTest, GoneIsFineOtherErrorsAreReturned) {
  FakeCluster cluster;
  sched::PodMigrationJob job = makeJob("j", "default", "web-0");
  EXPECT_TRUE(deleteReservation(cluster.client, job).isOk());  // no reference
  job.spec.reservationOptions.emplace();
  job.spec.reservationOptions->reservationRef.emplace();
  job.spec.reservationOptions->reservationRef->name = "r";
  EXPECT_TRUE(deleteReservation(cluster.client, job).isOk());  // NotFound
  EXPECT_CALL(cluster.client, remove(::testing::Eq(k8s::kReservations), "", "r", ::testing::_))
      .WillOnce(::testing::Return(Status::unavailable("Service Unavailable: down")));
  const Status status = deleteReservation(cluster.client, job);
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_NE(status.message().find("failed to delete Reservation 'r'"), std::string::npos);
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
