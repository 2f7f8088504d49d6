#include "manager/descheduler/migration/scavenger.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using ::testing::_;
using ::testing::Eq;
using testing::FakeCluster;
using testing::JobOptions;
using testing::makeJob;
using ::testing::Return;
using testing::t0;
namespace sched = api::scheduling;
using JobPtr = std::shared_ptr<const sched::PodMigrationJob>;
using std::chrono::minutes;

JobPtr jobWithTTL(const std::string& name, std::optional<std::string> ttl,
                  const std::string& phase = "Running") {
  JobOptions o;
  o.ttl = std::move(ttl);
  o.phase = phase;
  sched::PodMigrationJob job = makeJob(name, "default", "pod-" + name, o);
  job.spec.reservationOptions.emplace();
  job.spec.reservationOptions->reservationRef.emplace();
  job.spec.reservationOptions->reservationRef->name = "r-" + name;
  return std::make_shared<const sched::PodMigrationJob>(job);
}

std::vector<std::string> names(const std::vector<JobPtr>& jobs) {
  std::vector<std::string> out;
  out.reserve(jobs.size());
  for (const JobPtr& j : jobs) {
    out.push_back(j->metadata.name);
  }
  return out;
}

TEST(ScavengerTest, TTLPlusFiveMinutesOrThirtyMinutesWithoutTTL) {
  const std::vector<JobPtr> jobs = {
      jobWithTTL("ttl-5m", "5m"),
      jobWithTTL("ttl-20m", "20m"),
      jobWithTTL("no-ttl", std::nullopt),
      jobWithTTL("zero-ttl", "0s"),
      jobWithTTL("succeeded-5m", "5m", "Succeeded"),
  };
  EXPECT_EQ(scavengeAge(*jobs[0]), minutes(10));
  EXPECT_EQ(scavengeAge(*jobs[1]), minutes(25));
  EXPECT_EQ(scavengeAge(*jobs[2]), minutes(30));
  EXPECT_EQ(scavengeAge(*jobs[3]), minutes(30));

  EXPECT_TRUE(jobsToScavenge(jobs, t0() + minutes(9)).empty());
  EXPECT_EQ(names(jobsToScavenge(jobs, t0() + minutes(10))),
            (std::vector<std::string>{"ttl-5m", "succeeded-5m"}));
  EXPECT_EQ(names(jobsToScavenge(jobs, t0() + minutes(30))),
            (std::vector<std::string>{"ttl-5m", "ttl-20m", "no-ttl", "zero-ttl", "succeeded-5m"}));
}

TEST(ScavengerTest, DeletesTheReservationThenTheJob) {
  FakeCluster cluster;
  const JobPtr old_job = jobWithTTL("old", "5m");
  const JobPtr young = jobWithTTL("young", "1h");
  cluster.add(*old_job);
  cluster.add(*young);
  sched::Reservation r;
  r.metadata.name = "r-old";
  cluster.add(r);
  {
    ::testing::InSequence in_order;
    EXPECT_CALL(cluster.client, remove(Eq(k8s::kReservations), "", "r-old", _));
    EXPECT_CALL(cluster.client, remove(Eq(k8s::kPodMigrationJobs), "", "old", _));
  }
  ASSERT_TRUE(scavenge(cluster.client, {old_job, young}, t0() + minutes(11), log::Logger()).isOk());
  EXPECT_FALSE(cluster.job("old"));
  EXPECT_FALSE(cluster.reservation("r-old"));
  EXPECT_TRUE(cluster.job("young"));
}

TEST(ScavengerTest, AReservationThatCannotBeDeletedStopsThePass) {
  FakeCluster cluster;
  const JobPtr a = jobWithTTL("a", "5m");
  const JobPtr b = jobWithTTL("b", "5m");
  cluster.add(*a);
  cluster.add(*b);
  EXPECT_CALL(cluster.client, remove(Eq(k8s::kReservations), "", "r-a", _))
      .WillOnce(Return(Status::unavailable("Service Unavailable: down")));
  EXPECT_CALL(cluster.client, remove(Eq(k8s::kPodMigrationJobs), _, _, _)).Times(0);
  const Status status = scavenge(cluster.client, {a, b}, t0() + minutes(11), log::Logger());
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_TRUE(cluster.job("a"));
  EXPECT_TRUE(cluster.job("b"));
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
