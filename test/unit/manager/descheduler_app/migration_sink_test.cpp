#include "manager/descheduler/app/migration_sink.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "koord/k8s/resource.hpp"
#include "test/unit/manager/descheduler_framework/builders.hpp"
#include "test/unit/manager/support/fake_api_client.hpp"

namespace koord::manager::descheduler::app {
namespace {

namespace core = api::core;

core::Pod victim() {
  core::Pod pod = testing::buildPod("web-1", 100, 0, "node-a");
  pod.metadata.namespace_ = "shop";
  pod.metadata.uid = "0b1c";
  return pod;
}

const framework::EvictOptions kOptions{"RemovePodsViolatingNodeTaints",
                                       "pod does not tolerate taint"};

TEST(MakeMigrationJobTest, FieldsAreKoordinatorsDefaults) {
  const config::MigrationControllerArgs args;
  const auto job = makeMigrationJob(victim(), kOptions, args, "job-1");
  const api::Json json = api::scheduling::toJson(job);
  EXPECT_EQ(json["apiVersion"], "scheduling.koordinator.sh/v1alpha1");
  EXPECT_EQ(json["kind"], "PodMigrationJob");
  EXPECT_EQ(json["metadata"]["name"], "job-1");
  EXPECT_FALSE(json["metadata"].contains("namespace"));
  EXPECT_FALSE(json["metadata"].contains("labels"));
  EXPECT_EQ(json["metadata"]["annotations"],
            (api::Json{{"koordinator.sh/evict-reason", "pod does not tolerate taint"},
                       {"koordinator.sh/evict-trigger", "RemovePodsViolatingNodeTaints"}}));
  EXPECT_EQ(json["spec"]["podRef"],
            (api::Json{{"namespace", "shop"}, {"name", "web-1"}, {"uid", "0b1c"}}));
  EXPECT_EQ(json["spec"]["mode"], "ReservationFirst");
  EXPECT_EQ(json["spec"]["ttl"], "5m0s");
  EXPECT_FALSE(json["spec"].contains("deleteOptions"));
  EXPECT_EQ(json["status"]["phase"], "Pending");
}

TEST(MakeMigrationJobTest, ArgsSetModeTtlAndDeleteOptions) {
  config::MigrationControllerArgs args;
  args.default_job_mode = "EvictDirectly";
  args.default_job_ttl = std::chrono::minutes(90);
  args.default_delete_options = api::Json{{"gracePeriodSeconds", 30}};
  const api::Json json =
      api::scheduling::toJson(makeMigrationJob(victim(), kOptions, args, "job-2"));
  EXPECT_EQ(json["spec"]["mode"], "EvictDirectly");
  EXPECT_EQ(json["spec"]["ttl"], "1h30m0s");
  EXPECT_EQ(json["spec"]["deleteOptions"]["gracePeriodSeconds"], 30);
}

TEST(DryRunLineTest, ExactText) {
  EXPECT_EQ(dryRunLine(victim(), kOptions),
            "dry-run: would evict pod shop/web-1 from node node-a (plugin "
            "RemovePodsViolatingNodeTaints, reason \"pod does not tolerate taint\")");
}

struct SinkTest : ::testing::Test {
  MigrationSink sink(bool dry_run, PodPredicate active = {}) {
    MigrationSinkOptions options;
    options.client = &client;
    options.dry_run = dry_run;
    options.dry_run_out = &out;
    options.has_active_job = std::move(active);
    return MigrationSink(std::move(options));
  }
  koord::testing::FakeApiClient client;
  std::ostringstream out;
  config::MigrationControllerArgs args;
  std::string profile = "p";
};

TEST_F(SinkTest, CreatesOneJobNamedByAUuid) {
  MigrationSink s = sink(false);
  ASSERT_TRUE(s.evict(victim(), kOptions, {profile, args}));
  const auto writes = client.writes();
  ASSERT_EQ(writes.size(), 1U);
  EXPECT_EQ(writes[0].verb, "create");
  EXPECT_EQ(writes[0].resource, "podmigrationjobs");
  EXPECT_TRUE(std::regex_match(
      writes[0].name,
      std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << writes[0].name;
  EXPECT_EQ(writes[0].body["spec"]["podRef"]["uid"], "0b1c");
  EXPECT_EQ(s.jobsCreated(), 1U);
  EXPECT_TRUE(out.str().empty());
  // A second victim gets a job of its own.
  core::Pod other = victim();
  other.metadata.name = "web-2";
  other.metadata.uid = "77";
  ASSERT_TRUE(s.evict(other, kOptions, {profile, args}));
  ASSERT_EQ(client.writes().size(), 2U);
  EXPECT_NE(client.writes()[1].name, writes[0].name);
}

TEST_F(SinkTest, PodWithAnActiveJobIsSkipped) {
  MigrationSink s = sink(false, [](const core::Pod& pod) { return pod.metadata.uid == "0b1c"; });
  EXPECT_FALSE(s.evict(victim(), kOptions, {profile, args}));
  EXPECT_EQ(client.writeCount(), 0U);
  EXPECT_EQ(s.jobsCreated(), 0U);
}

TEST_F(SinkTest, APodGetsOneJobPerPassEvenBeforeTheCacheShowsIt) {
  MigrationSink s = sink(false);
  ASSERT_TRUE(s.evict(victim(), kOptions, {profile, args}));
  EXPECT_FALSE(s.evict(victim(), {"RemoveDuplicates", "dup"}, {profile, args}));
  EXPECT_EQ(client.writeCount(), 1U);
  s.beginPass();
  EXPECT_TRUE(s.evict(victim(), kOptions, {profile, args}));
  EXPECT_EQ(client.writeCount(), 2U);
}

TEST_F(SinkTest, RefusedCreateIsNotAVictim) {
  MigrationSink s = sink(false);
  client.failNext("create", "podmigrationjobs", Status::permissionDenied("forbidden"));
  EXPECT_FALSE(s.evict(victim(), kOptions, {profile, args}));
  EXPECT_EQ(s.jobsCreated(), 0U);
}

TEST_F(SinkTest, DryRunCreatesNothingAndPrintsTheLine) {
  MigrationSink s = sink(true);
  EXPECT_TRUE(s.evict(victim(), kOptions, {profile, args}));
  EXPECT_EQ(client.writeCount(), 0U);
  EXPECT_EQ(out.str(), dryRunLine(victim(), kOptions) + "\n");
}

TEST_F(SinkTest, MigrationControllerDryRunArgIsADryRunToo) {
  MigrationSink s = sink(false);
  args.dry_run = true;
  EXPECT_TRUE(s.evict(victim(), kOptions, {profile, args}));
  EXPECT_EQ(client.writeCount(), 0U);
  EXPECT_EQ(out.str(), dryRunLine(victim(), kOptions) + "\n");
}

}  // namespace
}  // namespace koord::manager::descheduler::app
