// loadDeschedulerConfiguration(): the shipped v1.2.0 example loads with Koordinator's defaults;
// the mis-indented original of the release notes, and keys out of place, fail naming the line.
#include "manager/descheduler/config/descheduler_config.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "koord/config/file.hpp"

namespace koord::manager::descheduler::config {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

std::string source(const std::string& relative) {
  return std::string(KOORD_SOURCE_DIR) + "/" + relative;
}

TEST(DeschedulerConfigTest, ShippedV120ExampleLoads) {
  auto config =
      loadDeschedulerConfigurationFile(source("deploy/examples/descheduler-config-v1.2.0.yaml"));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->warnings.empty());
  EXPECT_EQ(config->descheduling_interval, seconds(10));
  EXPECT_TRUE(config->dry_run);
  EXPECT_FALSE(config->leader_election.leader_elect);
  EXPECT_EQ(config->leader_election.resource_name, "test-descheduler");
  EXPECT_EQ(config->leader_election.resource_namespace, "kube-system");
  EXPECT_EQ(config->leader_election.resource_lock, "leases");
  EXPECT_EQ(config->client_connection.kubeconfig, "/Users/joseph/asi/koord-2/admin.kubeconfig");
  EXPECT_EQ(config->client_connection.qps, 50);
  EXPECT_EQ(config->client_connection.burst, 100);
  EXPECT_EQ(config->healthz_bind_address, "0.0.0.0:10251");
  ASSERT_EQ(config->profiles.size(), 1u);
  const DeschedulerProfile& profile = config->profiles[0];
  EXPECT_EQ(profile.name, "koord-descheduler");
  EXPECT_EQ(profile.plugins.deschedule.enabled,
            std::vector<std::string>{"RemovePodsHavingTooManyRestarts"});
  EXPECT_EQ(profile.plugins.evict.enabled, std::vector<std::string>{"MigrationController"});
  const PluginConfig* restarts = profile.pluginConfig("RemovePodsHavingTooManyRestarts");
  ASSERT_NE(restarts, nullptr);
  EXPECT_EQ(restarts->args.at("podRestartThreshold"), 10) << "other plugins' args kept as written";
  const PluginConfig* migration = profile.pluginConfig("MigrationController");
  ASSERT_NE(migration, nullptr) << "enabled without config: defaulted args are appended";
  ASSERT_TRUE(migration->migration_controller.has_value());
  EXPECT_EQ(migration->migration_controller->max_migrating_per_node, 2);
}

TEST(DeschedulerConfigTest, MisIndentedV120OriginalFailsNamingTheLine) {
  const std::string path =
      source("test/unit/deploy/testdata/descheduler-config-v1.2.0-original.yaml");
  auto config = loadDeschedulerConfigurationFile(path);
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
  const std::string& message = config.status().message();
  EXPECT_EQ(message.rfind("failed to load DeschedulerConfiguration '" + path + "': ", 0), 0u)
      << message;
  EXPECT_NE(message.find("line 17"), std::string::npos)
      << "line 17 holds \"   deschedule:\"; " << message;
  auto text = koord::config::readFile(path);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("\n   deschedule:\n"), std::string::npos)
      << "testdata is the verbatim original";
}

struct BadCase {
  std::string name;
  std::string yaml;
  std::string error;  // a substring of the error
};

const char kHead[] =
    "apiVersion: descheduler/v1alpha2\n"      // line 1
    "kind: DeschedulerConfiguration\n"        // line 2
    "profiles:\n"                             // line 3
    "- name: p\n"                             // line 4
    "  plugins:\n"                            // line 5
    "    evict:\n"                            // line 6
    "      enabled:\n"                        // line 7
    "        - name: MigrationController\n";  // line 8

TEST(DeschedulerConfigTest, KeysOutOfPlaceAreErrorsWithTheirLine) {
  const std::vector<BadCase> cases = {
      {"deschedule at profile level",
       std::string(kHead) + "  deschedule:\n    enabled:\n      - name: PodLifeTime\n",
       "'x.yaml': line 9: profiles[0]: unknown field \"deschedule\""},
      {"deschedule inside a plugin config",
       std::string(kHead) +
           "  pluginConfig:\n    - name: PodLifeTime\n      deschedule:\n        enabled: []\n",
       "line 11: profiles[0].pluginConfig[0]: unknown field \"deschedule\""},
      {"deschedule inside evict", std::string(kHead) + "      deschedule:\n        enabled: []\n",
       "line 9: profiles[0].plugins.evict: unknown field \"deschedule\""},
      {"plugin entry with a typo", std::string(kHead) + "          nmae: x\n",
       "line 9: profiles[0].plugins.evict.enabled[0]: unknown field \"nmae\" (did you mean "
       "\"name\"?)"},
      {"unknown top-level key", std::string(kHead) + "deschedulingIntervall: 10s\n",
       "line 9: unknown field \"deschedulingIntervall\" (did you mean "
       "\"deschedulingInterval\"?)"},
      {"unknown leader election key",
       std::string(kHead) + "leaderElection:\n  leaderElection: true\n",
       "line 10: leaderElection: unknown field \"leaderElection\""},
      {"wrong apiVersion", "apiVersion: descheduler/v1alpha1\nkind: DeschedulerConfiguration\n",
       "line 1: apiVersion: Unsupported value: \"descheduler/v1alpha1\""},
      {"wrong kind", "apiVersion: descheduler/v1alpha2\nkind: KubeSchedulerConfiguration\n",
       "line 2: kind: Unsupported value: \"KubeSchedulerConfiguration\""},
      {"bad interval",
       "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n"
       "deschedulingInterval: ten\n",
       "line 3: deschedulingInterval: invalid duration"},
      {"duplicate plugin config",
       std::string(kHead) + "  pluginConfig:\n  - name: A\n  - name: A\n",
       "line 11: profiles[0].pluginConfig[1].name: Duplicate value: \"A\""},
      {"two unnamed profiles",
       "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\nprofiles:\n- {}\n- {}\n",
       "profiles[0].name: Required value"},
      {"migration args of the wrong type",
       std::string(kHead) + "  pluginConfig:\n  - name: MigrationController\n    args:\n"
                            "      maxMigratingPerNode: two\n",
       "line 12: profiles[0].pluginConfig[0].args.maxMigratingPerNode: expected an integer, "
       "got string"},
      {"migration eviction policy",
       std::string(kHead) + "  pluginConfig:\n  - name: MigrationController\n    args:\n      "
                            "evictionPolicy: Kill\n",
       "args.evictionPolicy: Unsupported value: \"Kill\": supported values: \"Eviction\", "
       "\"Delete\", \"SoftEviction\""},
      {"migration args of another kind",
       std::string(kHead) + "  pluginConfig:\n  - name: MigrationController\n    args:\n      "
                            "kind: LowNodeLoadArgs\n",
       "args.kind: Unsupported value: \"LowNodeLoadArgs\""},
      {"low node load above 100",
       std::string(kHead) +
           "  pluginConfig:\n  - name: LowNodeLoad\n    args:\n      highThresholds: {cpu: 120}\n",
       "line 12: profiles[0].pluginConfig[0].args.highThresholds.cpu: must be between 0 and 100"},
      {"low node load low above high",
       std::string(kHead) +
           "  pluginConfig:\n  - name: LowNodeLoad\n    args:\n      highThresholds: {cpu: 50}\n"
           "      lowThresholds: {cpu: 60}\n",
       "args.lowThresholds.cpu: low threshold 60.0 is above the high threshold 50.0"},
      {"low node load enabled without thresholds",
       std::string(kHead) + "    balance:\n      enabled:\n        - name: LowNodeLoad\n",
       "profiles[0].pluginConfig: LowNodeLoad needs highThresholds"},
      {"yaml syntax error", "apiVersion: descheduler/v1alpha2\nkind: [\n",
       "'x.yaml': invalid YAML: line"},
      {"two documents",
       "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n---\na: b\n",
       "expected one document, found 2"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto config = loadDeschedulerConfiguration(c.yaml, "x.yaml");
    ASSERT_FALSE(config.ok()) << "loaded:\n" << c.yaml;
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(config.status().message().find(c.error), std::string::npos)
        << config.status().message();
    EXPECT_EQ(
        config.status().message().rfind("failed to load DeschedulerConfiguration 'x.yaml': ", 0),
        0u);
  }
}

TEST(DeschedulerConfigTest, EmptyConfigGetsKoordinatorDefaults) {
  auto config = loadDeschedulerConfiguration(
      "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n", "empty.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->leader_election.leader_elect);
  EXPECT_EQ(config->leader_election.lease_duration, seconds(15));
  EXPECT_EQ(config->leader_election.renew_deadline, seconds(10));
  EXPECT_EQ(config->leader_election.retry_period, seconds(2));
  EXPECT_EQ(config->leader_election.resource_name, "koord-descheduler");
  EXPECT_EQ(config->leader_election.resource_namespace, "koordinator-system");
  EXPECT_EQ(config->client_connection.content_type, "application/vnd.kubernetes.protobuf");
  EXPECT_TRUE(config->enable_profiling);
  EXPECT_TRUE(config->enable_contention_profiling);
  EXPECT_EQ(config->metrics_bind_address, "0.0.0.0:10251");
  EXPECT_EQ(config->descheduling_interval.count(), 0);
  ASSERT_EQ(config->profiles.size(), 1u);
  EXPECT_EQ(config->profiles[0].name, "koord-descheduler");
  EXPECT_EQ(config->profiles[0].plugins.evict.enabled,
            std::vector<std::string>{"MigrationController"});

  const PluginConfig* migration = config->profiles[0].pluginConfig("MigrationController");
  ASSERT_NE(migration, nullptr);
  ASSERT_TRUE(migration->migration_controller.has_value());
  const MigrationControllerArgs& args = *migration->migration_controller;
  EXPECT_EQ(args.max_concurrent_reconciles, 1);
  EXPECT_EQ(args.max_migrating_per_node, 2);
  EXPECT_FALSE(args.max_migrating_per_namespace.has_value());
  EXPECT_FALSE(args.max_migrating_per_workload.has_value());
  EXPECT_FALSE(args.max_unavailable_per_workload.has_value());
  EXPECT_FALSE(args.max_migrating_globally.has_value());
  EXPECT_FALSE(args.skip_check_expected_replicas);
  EXPECT_EQ(args.default_job_mode, "ReservationFirst");
  EXPECT_EQ(args.default_job_ttl, minutes(5));
  EXPECT_EQ(args.eviction_policy, "Eviction");
  EXPECT_EQ(args.evict_qps, 10);
  EXPECT_EQ(args.evict_burst, 1);
  EXPECT_EQ(args.scheduler_names, std::vector<std::string>{"koord-scheduler"});
  ASSERT_EQ(args.object_limiters.count("workload"), 1u);
  EXPECT_EQ(args.object_limiters.at("workload").duration, minutes(5));
  EXPECT_TRUE(args.arbitration_args.enabled);
  EXPECT_EQ(args.arbitration_args.interval, milliseconds(500));
}

TEST(DeschedulerConfigTest, PluginArgsAreDecodedAndDefaulted) {
  const std::string yaml =
      "apiVersion: descheduler/v1alpha2\n"
      "kind: DeschedulerConfiguration\n"
      "healthzBindAddress: :10300\n"
      "metricsBindAddress: 127.0.0.1\n"
      "profiles:\n"
      "- name: koord-descheduler\n"
      "  plugins:\n"
      "    evict:\n"
      "      disabled:\n"
      "        - name: \"*\"\n"
      "      enabled:\n"
      "        - name: MigrationController\n"
      "    balance:\n"
      "      enabled:\n"
      "        - name: LowNodeLoad\n"
      "  pluginConfig:\n"
      "  - name: MigrationController\n"
      "    args:\n"
      "      apiVersion: descheduler/v1alpha2\n"
      "      kind: MigrationControllerArgs\n"
      "      evictionPolicy: Delete\n"
      "      maxMigratingPerWorkload: 10%\n"
      "      maxUnavailablePerWorkload: 2\n"
      "      evictQPS: \"2.5\"\n"
      "      namespaces:\n"
      "        exclude: [kube-system, koordinator-system]\n"
      "      arbitrationArgs:\n"
      "        interval: 1s\n"
      "      flowControlQPS: \"5\"\n"  // line 29: not modelled, kept with a warning
      "  - name: LowNodeLoad\n"
      "    args:\n"
      "      apiVersion: descheduler/v1alpha2\n"
      "      kind: LowNodeLoadArgs\n"
      "      lowThresholds: {cpu: 45, memory: 55}\n"
      "      highThresholds: {cpu: 75, memory: 80, nvidia.com/gpu: \"90\"}\n"
      "      resourceWeights: {cpu: 2, memory: 0}\n"
      "      anomalyCondition: {consecutiveAbnormalities: 0}\n"
      "      evictableNamespaces:\n"
      "        exclude: [kube-system]\n";
  auto config = loadDeschedulerConfiguration(yaml, "args.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->healthz_bind_address, "0.0.0.0:10300");
  EXPECT_EQ(config->metrics_bind_address, "127.0.0.1:10251");
  ASSERT_EQ(config->warnings.size(), 1u);
  EXPECT_EQ(config->warnings[0],
            "line 29: profiles[0].pluginConfig[0].args: unknown field \"flowControlQPS\" "
            "(ignored)");

  const DeschedulerProfile& profile = config->profiles[0];
  EXPECT_EQ(profile.plugins.evict.enabled, std::vector<std::string>{"MigrationController"});
  EXPECT_EQ(profile.plugins.balance.enabled, std::vector<std::string>{"LowNodeLoad"});
  const MigrationControllerArgs& migration =
      *profile.pluginConfig("MigrationController")->migration_controller;
  EXPECT_EQ(migration.eviction_policy, "Delete");
  ASSERT_TRUE(migration.max_migrating_per_workload.has_value());
  EXPECT_TRUE(migration.max_migrating_per_workload->is_percent);
  EXPECT_EQ(migration.max_migrating_per_workload->value, 10);
  ASSERT_TRUE(migration.max_unavailable_per_workload.has_value());
  EXPECT_FALSE(migration.max_unavailable_per_workload->is_percent);
  EXPECT_EQ(migration.max_unavailable_per_workload->value, 2);
  EXPECT_EQ(migration.evict_qps, 2.5);
  ASSERT_TRUE(migration.namespaces.has_value());
  EXPECT_EQ(migration.namespaces->exclude,
            (std::vector<std::string>{"kube-system", "koordinator-system"}));
  EXPECT_FALSE(migration.arbitration_args.enabled)
      << "as in Koordinator, arbitrationArgs written without enabled is off";
  EXPECT_EQ(migration.arbitration_args.interval, seconds(1));
  EXPECT_EQ(migration.extra.at("flowControlQPS"), "5");

  const LowNodeLoadArgs& load = *profile.pluginConfig("LowNodeLoad")->low_node_load;
  EXPECT_TRUE(load.node_fit);
  EXPECT_EQ(load.node_metric_expiration_seconds, 180);
  EXPECT_EQ(load.low_thresholds.at("cpu"), 45);
  EXPECT_EQ(load.high_thresholds.at("nvidia.com/gpu"), 90);
  EXPECT_EQ(load.resource_weights,
            (std::map<std::string, int64_t>{{"cpu", 2}, {"memory", 1}, {"nvidia.com/gpu", 1}}));
  EXPECT_EQ(load.anomaly_condition.consecutive_abnormalities, 5u);
  EXPECT_EQ(load.anomaly_condition.consecutive_normalities, 3u);
  EXPECT_EQ(load.anomaly_condition.timeout, minutes(1));
  EXPECT_EQ(load.detector_cache_timeout, minutes(5));
}

}  // namespace
}  // namespace koord::manager::descheduler::config
