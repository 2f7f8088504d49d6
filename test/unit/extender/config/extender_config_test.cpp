// KoordExtenderConfiguration loading: defaults, every field, strictness and the shipped example.
#include "extender/config/extender_config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace koord::extender::config {
namespace {

using ::testing::HasSubstr;

constexpr char kHeader[] =
    "apiVersion: config.koordinator.sh/v1alpha1\n"
    "kind: KoordExtenderConfiguration\n";

TEST(ExtenderConfigTest, HeaderOnlyGivesEveryDefault) {
  auto config = parseExtenderConfiguration(kHeader, "c.yaml");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->client_connection.kubeconfig, "");
  EXPECT_EQ(config->client_connection.qps, 50);
  EXPECT_EQ(config->client_connection.burst, 100);
  EXPECT_EQ(config->server.address, "127.0.0.1:10262");
  EXPECT_EQ(config->server.host(), "127.0.0.1");
  EXPECT_EQ(config->server.port(), 10262);
  EXPECT_EQ(config->server.url_prefix, "/scheduler");
  EXPECT_EQ(config->server.max_request_bytes, 1048576);
  EXPECT_EQ(config->server.max_buffered_bytes, 4194304);
  EXPECT_TRUE(config->server.tls_cert_file.empty());
  EXPECT_EQ(config->parallelism, 0);
  EXPECT_EQ(config->bind_timeout, std::chrono::seconds(4));
  EXPECT_TRUE(config->leader_election.leader_elect);
  EXPECT_EQ(config->leader_election.lease_duration, std::chrono::seconds(15));
  EXPECT_EQ(config->leader_election.renew_deadline, std::chrono::seconds(10));
  EXPECT_EQ(config->leader_election.retry_period, std::chrono::seconds(2));
  EXPECT_EQ(config->leader_election.resource_namespace, "koordinator-system");
  EXPECT_EQ(config->leader_election.resource_name, "koord-extender");
  std::vector<std::string> names;
  for (const PluginConfiguration& p : config->plugins) {
    names.push_back(p.name);
    EXPECT_EQ(p.weight, 1);
    // The default profile: LoadAwareScheduling with Koordinator's chart args, the others with
    // their own defaults.
    if (p.name == "LoadAwareScheduling") {
      EXPECT_EQ(p.args["usageThresholds"], (api::Json{{"cpu", 0}, {"memory", 0}}));
      EXPECT_EQ(p.args["filterExpiredNodeMetrics"], false);
    } else {
      EXPECT_TRUE(p.args.is_null());
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"NodeReservation", "PriorityQoS", "BatchResources",
                                             "LoadAwareScheduling", "DeviceResources",
                                             "Reservation", "NodeNUMAResource"}));
}

TEST(ExtenderConfigTest, ReadsEveryField) {
  const std::string text = std::string(kHeader) +
                           "clientConnection: {kubeconfig: /etc/k.conf, qps: 20.5, burst: 40}\n"
                           "server:\n"
                           "  address: 0.0.0.0:8443\n"
                           "  urlPrefix: /koord\n"
                           "  tlsCertFile: /tls/tls.crt\n"
                           "  tlsKeyFile: /tls/tls.key\n"
                           "  maxRequestBytes: 1048576\n"
                           "  maxBufferedBytes: 2097152\n"
                           "parallelism: 4\n"
                           "bindTimeout: 2500ms\n"
                           "leaderElection:\n"
                           "  leaderElect: false\n"
                           "  leaseDuration: 1m\n"
                           "  renewDeadline: 30s\n"
                           "  retryPeriod: 500ms\n"
                           "  resourceNamespace: kube-system\n"
                           "  resourceName: ext\n"
                           "plugins:\n"
                           "- name: BatchResources\n"
                           "  weight: 3\n"
                           "  args: {overcommit: {cpu: 2}}\n"
                           "- name: PriorityQoS\n";
  auto config = parseExtenderConfiguration(text, "c.yaml");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->client_connection.kubeconfig, "/etc/k.conf");
  EXPECT_EQ(config->client_connection.qps, 20.5);
  EXPECT_EQ(config->client_connection.burst, 40);
  EXPECT_EQ(config->server.host(), "0.0.0.0");
  EXPECT_EQ(config->server.port(), 8443);
  EXPECT_EQ(config->server.url_prefix, "/koord");
  EXPECT_EQ(config->server.tls_cert_file, "/tls/tls.crt");
  EXPECT_EQ(config->server.tls_key_file, "/tls/tls.key");
  EXPECT_EQ(config->server.max_request_bytes, 1048576);
  EXPECT_EQ(config->server.max_buffered_bytes, 2097152);
  EXPECT_EQ(config->parallelism, 4);
  EXPECT_EQ(config->bind_timeout, std::chrono::milliseconds(2500));
  EXPECT_FALSE(config->leader_election.leader_elect);
  EXPECT_EQ(config->leader_election.lease_duration, std::chrono::minutes(1));
  EXPECT_EQ(config->leader_election.renew_deadline, std::chrono::seconds(30));
  EXPECT_EQ(config->leader_election.retry_period, std::chrono::milliseconds(500));
  EXPECT_EQ(config->leader_election.resource_namespace, "kube-system");
  EXPECT_EQ(config->leader_election.resource_name, "ext");
  ASSERT_EQ(config->plugins.size(), 2u);
  EXPECT_EQ(config->plugins[0],
            (PluginConfiguration{"BatchResources", 3, api::Json{{"overcommit", {{"cpu", 2}}}}}));
  EXPECT_EQ(config->plugins[1], (PluginConfiguration{"PriorityQoS", 1, nullptr}));
}

TEST(ExtenderConfigTest, LeaderElectionOffSkipsTheTimingChecks) {
  auto config = parseExtenderConfiguration(
      std::string(kHeader) + "leaderElection: {leaderElect: false, leaseDuration: 1s}\n", "c.yaml");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_FALSE(config->leader_election.leader_elect);
}

TEST(ExtenderConfigTest, AnEmptyPluginListDisablesEveryPlugin) {
  auto config = parseExtenderConfiguration(std::string(kHeader) + "plugins: []\n", "c.yaml");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_TRUE(config->plugins.empty());
}

struct BadCase {
  std::string name;
  std::string text;
  // Every problem expected, each a fragment of one line of the message, in order.
  std::vector<std::string> problems;
};

class BadConfigTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadConfigTest, ListsEveryProblemOnItsOwnLine) {
  const BadCase& c = GetParam();
  auto config = parseExtenderConfiguration(c.text, "bad.yaml");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(config.status().message());
  while (std::getline(in, line)) {
    lines.push_back(line);
  }
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "failed to load KoordExtenderConfiguration 'bad.yaml':");
  ASSERT_EQ(lines.size(), c.problems.size() + 1) << config.status().message();
  for (size_t i = 0; i < c.problems.size(); ++i) {
    EXPECT_THAT(lines[i + 1], HasSubstr(c.problems[i])) << config.status().message();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, BadConfigTest,
    ::testing::Values(
        BadCase{"Empty", "", {"expected exactly one YAML document, found 0"}},
        BadCase{"TwoDocuments",
                std::string(kHeader) + "---\n" + kHeader,
                {"expected exactly one YAML document, found 2"}},
        BadCase{"YamlSyntax", std::string(kHeader) + "server: [\n", {"failed to parse YAML"}},
        BadCase{"NotAMapping", "- a\n", {"expected a mapping, got array"}},
        BadCase{"WrongApiVersionAndKind",
                "apiVersion: v1\nkind: KubeSchedulerConfiguration\n",
                {"line 1: apiVersion: must be \"config.koordinator.sh/v1alpha1\", got \"v1\"",
                 "line 2: kind: must be \"KoordExtenderConfiguration\""}},
        BadCase{"MissingHeader", "parallelism: 2\n", {"apiVersion: must be", "kind: must be"}},
        BadCase{"UnknownFieldsAtEveryLevel",
                std::string(kHeader) + "server:\n"
                                       "  adress: 0.0.0.0:1\n"
                                       "clientConnection: {kubeConfig: x}\n"
                                       "leaderElection: {leaseDurationSeconds: 15}\n"
                                       "plugins:\n"
                                       "- name: PriorityQoS\n"
                                       "  wieght: 2\n"
                                       "paralelism: 2\n",
                // In the order of the file, whatever the level.
                {"line 4: server: unknown field \"adress\" (did you mean \"address\"?)",
                 "line 5: clientConnection: unknown field \"kubeConfig\" (did you mean "
                 "\"kubeconfig\"?)",
                 "line 6: leaderElection: unknown field \"leaseDurationSeconds\"",
                 "line 9: plugins[0]: unknown field \"wieght\" (did you mean \"weight\"?)",
                 "line 10: unknown field \"paralelism\" (did you mean \"parallelism\"?)"}},
        BadCase{"MisIndentedServerKeysAtTopLevel",
                std::string(kHeader) + "server:\naddress: 0.0.0.0:1\n",
                {"line 4: unknown field \"address\""}},
        BadCase{"WrongTypesAndRanges",
                std::string(kHeader) +
                    "clientConnection: {qps: fast, burst: 0}\n"
                    "server: {address: 10262, urlPrefix: /a b, maxRequestBytes: 10}\n"
                    "parallelism: -1\n",
                {"line 3: clientConnection.qps: expected a number, got string",
                 "line 3: clientConnection.burst: must be at least 1",
                 "line 4: server.address: expected a string, got number",
                 "line 4: server.urlPrefix: \"/a b\" is not a URL path",
                 "line 4: server.maxRequestBytes: must be at least 1024",
                 "line 5: parallelism: must be between 0 (one per CPU the container may use) and "
                 "1024"}},
        BadCase{"BufferedBelowTheRequestCap",
                std::string(kHeader) +
                    "server: {maxRequestBytes: 8388608, maxBufferedBytes: 4194304}\n",
                {"line 3: server.maxBufferedBytes: must be at least maxRequestBytes (8388608)"}},
        BadCase{"BindTimeoutOutOfRange",
                std::string(kHeader) + "bindTimeout: 50ms\n",
                {"line 3: bindTimeout: must be between 100ms and 10m (keep it under "
                 "kube-scheduler's httpTimeout for this extender), got 50ms"}},
        BadCase{"BindTimeoutNotADuration",
                std::string(kHeader) + "bindTimeout: 5\n",
                {"line 3: bindTimeout: expected a duration such as \"15s\", got "}},
        BadCase{"BadAddresses",
                std::string(kHeader) + "server: {address: \"localhost\"}\n",
                {"line 3: server.address: \"localhost\" is not host:port: missing ':<port>'"}},
        BadCase{"PortOutOfRange",
                std::string(kHeader) + "server: {address: \"127.0.0.1:70000\"}\n",
                {"server.address: \"127.0.0.1:70000\" is not host:port: the port must be"}},
        BadCase{"TlsHalfConfigured",
                std::string(kHeader) + "server: {tlsCertFile: /tls/tls.crt}\n",
                {"line 3: server.tlsCertFile: tlsCertFile and tlsKeyFile must be set together"}},
        BadCase{"LeaderElectionTimings",
                std::string(kHeader) + "leaderElection:\n"
                                       "  leaseDuration: 5s\n"
                                       "  renewDeadline: 10s\n"
                                       "  retryPeriod: soon\n"
                                       "  resourceName: \"\"\n",
                {"line 4: leaderElection.leaseDuration: must be longer than renewDeadline (10s)",
                 "line 6: leaderElection.retryPeriod: invalid duration \"soon\"",
                 "line 7: leaderElection.resourceName: must not be empty"}},
        BadCase{"LeaderElectNotABoolean",
                std::string(kHeader) + "leaderElection: {leaderElect: no}\n",
                {"line 3: leaderElection.leaderElect: expected true or false, got string"}},
        BadCase{"Plugins",
                std::string(kHeader) + "plugins:\n"
                                       "- name: PriorityQoS\n"
                                       "  weight: 0\n"
                                       "- weight: 2\n"
                                       "- name: PriorityQoS\n"
                                       "  args: [1]\n"
                                       "- null\n",
                {"line 5: plugins[0].weight: must be at least 1",
                 "line 6: plugins[1].name: is required",
                 "line 7: plugins[2].name: plugin \"PriorityQoS\" is listed twice",
                 "line 8: plugins[2].args: expected a mapping, got array",
                 "line 9: plugins[3]: expected {name, weight, args}, got null"}},
        BadCase{"PluginsNotAList",
                std::string(kHeader) + "plugins: {name: PriorityQoS}\n",
                {"line 3: plugins: expected a list of {name, weight, args}, got object"}}),
    [](const ::testing::TestParamInfo<BadCase>& param_info) { return param_info.param.name; });

TEST(ExtenderConfigTest, SplitHostPort) {
  struct Case {
    std::string in;
    bool ok;
    std::string host;
    uint16_t port;
  };
  const std::vector<Case> cases = {{"127.0.0.1:10262", true, "127.0.0.1", 10262},
                                   {"0.0.0.0:1", true, "0.0.0.0", 1},
                                   {"extender.local:65535", true, "extender.local", 65535},
                                   {":10262", false, "", 0},
                                   {"127.0.0.1:", false, "", 0},
                                   {"127.0.0.1:0", false, "", 0},
                                   {"127.0.0.1:x1", false, "", 0},
                                   {"[::1]:10262", false, "", 0},
                                   {"a b:1", false, "", 0}};
  for (const Case& c : cases) {
    auto split = splitHostPort(c.in);
    ASSERT_EQ(split.ok(), c.ok) << c.in;
    if (c.ok) {
      EXPECT_EQ(split->host, c.host) << c.in;
      EXPECT_EQ(split->port, c.port) << c.in;
    }
  }
}

TEST(ExtenderConfigTest, LoadsFromAFileAndNamesAMissingOne) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("koord-extender-config-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "c.yaml").string();
  {
    std::ofstream out(path);
    out << kHeader << "parallelism: 3\n";
  }
  auto config = loadExtenderConfiguration(path);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->parallelism, 3);
  auto missing = loadExtenderConfiguration((dir / "missing.yaml").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("missing.yaml"));
  std::filesystem::remove_all(dir);
}

// The shipped example loads and spells out exactly the defaults.
TEST(ExtenderConfigTest, ShippedExampleLoadsAndMatchesTheDefaults) {
  auto config = loadExtenderConfiguration(std::string(KOORD_SOURCE_DIR) +
                                          "/deploy/extender-config/koord-extender-config.yaml");
  ASSERT_TRUE(config.ok()) << config.status().message();
  const KoordExtenderConfiguration defaults = defaultConfiguration();
  EXPECT_EQ(config->server.address, defaults.server.address);
  EXPECT_EQ(config->server.url_prefix, defaults.server.url_prefix);
  EXPECT_EQ(config->server.max_request_bytes, defaults.server.max_request_bytes);
  EXPECT_EQ(config->client_connection.qps, defaults.client_connection.qps);
  EXPECT_EQ(config->client_connection.burst, defaults.client_connection.burst);
  EXPECT_EQ(config->parallelism, defaults.parallelism);
  EXPECT_EQ(config->leader_election.lease_duration, defaults.leader_election.lease_duration);
  EXPECT_EQ(config->leader_election.renew_deadline, defaults.leader_election.renew_deadline);
  EXPECT_EQ(config->leader_election.retry_period, defaults.leader_election.retry_period);
  EXPECT_EQ(config->leader_election.resource_name, defaults.leader_election.resource_name);
  EXPECT_EQ(config->plugins, defaults.plugins);
}

}  // namespace
}  // namespace koord::extender::config
