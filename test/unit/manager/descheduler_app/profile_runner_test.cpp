#include "manager/descheduler/app/profile_runner.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "manager/descheduler/app/migration_sink.hpp"
#include "manager/descheduler/plugins/node_rules/registry.hpp"
#include "test/unit/manager/descheduler_framework/builders.hpp"

namespace koord::manager::descheduler::app {
namespace {

using testing::buildNode;
using testing::buildPod;
using testing::snapshotOf;
namespace core = api::core;

// A plugin that logs each call ("<name>:deschedule") and evicts, node by node, every pod the
// evictor's filter lets through, with reason "fake <name>".
class FakePlugin : public framework::DeschedulePlugin, public framework::BalancePlugin {
 public:
  FakePlugin(std::string name, framework::Handle& handle, std::vector<std::string>& calls)
      : name_(std::move(name)), handle_(handle), calls_(calls) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  Status deschedule(const framework::NodeList& nodes) override { return run("deschedule", nodes); }
  Status balance(const framework::NodeList& nodes) override { return run("balance", nodes); }

 private:
  Status run(const std::string& phase, const framework::NodeList& nodes) {
    std::string seen;
    for (const auto& node : nodes) {
      seen += (seen.empty() ? "" : ",") + node->metadata.name;
    }
    calls_.push_back(name_ + ":" + phase + "[" + seen + "]");
    for (const auto& node : nodes) {
      for (const auto& pod : handle_.snapshot->podsOnNode(node->metadata.name)) {
        if (handle_.evictor->filter(*pod) && handle_.evictor->preEvictionFilter(*pod)) {
          (void)handle_.evictor->evict(*pod, {name_, "fake " + name_});
        }
      }
    }
    return Status::ok();
  }
  std::string name_;
  framework::Handle& handle_;
  std::vector<std::string>& calls_;
};

class BalanceOnly : public framework::BalancePlugin {
 public:
  [[nodiscard]] std::string_view name() const override { return "BalanceOnly"; }
  Status balance(const framework::NodeList&) override { return Status::ok(); }
};

struct RunnerTest : ::testing::Test {
  PluginRegistry registry() {
    std::vector<framework::RegisteredPlugin> plugins;
    for (const char* name : {"A", "B", "C", "D"}) {
      plugins.push_back(
          {name,
           [this, name](const nlohmann::json& args,
                        framework::Handle& handle) -> Result<std::unique_ptr<framework::Plugin>> {
             if (args.is_object() && args.contains("bad")) {
               return Status::invalidArgument(std::string(name) + "Args.bad: unknown field");
             }
             return std::unique_ptr<framework::Plugin>(
                 std::make_unique<FakePlugin>(name, handle, calls));
           }});
    }
    plugins.push_back({"BalanceOnly",
                       [](const nlohmann::json&,
                          framework::Handle&) -> Result<std::unique_ptr<framework::Plugin>> {
                         return std::unique_ptr<framework::Plugin>(std::make_unique<BalanceOnly>());
                       }});
    for (auto& plugin : plugins::node_rules::nodeRulesPlugins()) {
      plugins.push_back(std::move(plugin));
    }
    return PluginRegistry(std::move(plugins));
  }

  std::unique_ptr<ProfileRunner> runner(const std::string& yaml) {
    auto config = config::loadDeschedulerConfiguration(
        "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n" + yaml, "t.yaml");
    EXPECT_TRUE(config.ok()) << config.status().message();
    auto built = ProfileRunner::create(*config, registry());
    EXPECT_TRUE(built.ok()) << built.status().message();
    return built.ok() ? std::move(*built) : nullptr;
  }

  Status createError(const std::string& yaml) {
    auto config = config::loadDeschedulerConfiguration(
        "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n" + yaml, "t.yaml");
    EXPECT_TRUE(config.ok()) << config.status().message();
    auto built = ProfileRunner::create(*config, registry());
    return built.ok() ? Status::ok() : built.status();
  }

  static core::Pod ownedPod(const std::string& name, const std::string& node) {
    core::Pod pod = buildPod(name, 100, 0, node);
    testing::setNormalOwnerRef(pod);
    return pod;
  }

  // Two ready nodes with two evictable pods each.
  framework::ClusterSnapshot cluster() {
    core::Node n1 = buildNode("n1");
    n1.metadata.labels["pool"] = "a";
    core::Node n2 = buildNode("n2");
    n2.metadata.labels["pool"] = "b";
    return snapshotOf({n1, n2}, {ownedPod("p1", "n1"), ownedPod("p2", "n1"), ownedPod("p3", "n2"),
                                 ownedPod("p4", "n2")});
  }

  // `active`: pods with a job before the pass; a pod the sink took has one afterwards (as the
  // PodMigrationJob cache would show).
  PassResult pass(ProfileRunner& r, const framework::ClusterSnapshot& snapshot,
                  const PodPredicate& active = {}) {
    PodPredicate has_job = [this, active](const core::Pod& pod) {
      for (const std::string& entry : sunk) {
        if (entry.find(":" + pod.metadata.name + ":") != std::string::npos) {
          return true;
        }
      }
      return active && active(pod);
    };
    VictimSink sink = [this](const core::Pod& pod, const framework::EvictOptions& options,
                             const ProfileContext& context) {
      sunk.push_back(context.profile + ":" + pod.metadata.name + ":" + options.plugin);
      return true;
    };
    return r.runPass(snapshot, sink, has_job, std::chrono::system_clock::now());
  }

  static std::vector<std::string> victimNames(const PassResult& result) {
    std::vector<std::string> out;
    for (const auto& victim : result.victims) {
      out.push_back(victim.name);
    }
    return out;
  }

  std::vector<std::string> calls;
  std::vector<std::string> sunk;
};

constexpr char kTwoProfiles[] = R"(profiles:
- name: one
  plugins:
    deschedule:
      enabled:
      - name: A
      - name: B
    balance:
      enabled:
      - name: C
- name: two
  plugins:
    deschedule:
      enabled:
      - name: D
    balance:
      enabled:
      - name: A
)";

TEST_F(RunnerTest, EveryProfilesDeschedulePluginsRunBeforeAnyBalancePlugin) {
  auto r = runner(kTwoProfiles);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->pluginOrder(),
            (std::vector<std::string>{"one/A", "one/B", "two/D", "one/C", "two/A"}));
  const auto snapshot = cluster();
  const PassResult result = pass(*r, snapshot);
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(calls, (std::vector<std::string>{"A:deschedule[n1,n2]", "B:deschedule[n1,n2]",
                                             "D:deschedule[n1,n2]", "C:balance[n1,n2]",
                                             "A:balance[n1,n2]"}));
  // No limits: the first plugin takes every pod, in node order; later ones find them taken.
  EXPECT_EQ(victimNames(result), (std::vector<std::string>{"p1", "p2", "p3", "p4"}));
  EXPECT_EQ(sunk, (std::vector<std::string>{"one:p1:A", "one:p2:A", "one:p3:A", "one:p4:A"}));
}

TEST_F(RunnerTest, PerNodeLimitIsSharedByEveryPluginOfThePass) {
  auto r = runner(std::string("maxNoOfPodsToEvictPerNode: 1\n") + kTwoProfiles);
  ASSERT_NE(r, nullptr);
  const auto snapshot = cluster();
  const PassResult result = pass(*r, snapshot);
  EXPECT_EQ(victimNames(result), (std::vector<std::string>{"p1", "p3"}));
  EXPECT_EQ(sunk, (std::vector<std::string>{"one:p1:A", "one:p3:A"}));
}

TEST_F(RunnerTest, TotalLimitStopsLaterPluginsAndCountsStartAgainEachPass) {
  auto r = runner(std::string("maxNoOfPodsToEvictTotal: 3\n") + kTwoProfiles);
  ASSERT_NE(r, nullptr);
  const auto snapshot = cluster();
  EXPECT_EQ(victimNames(pass(*r, snapshot)), (std::vector<std::string>{"p1", "p2", "p3"}));
  // The next pass counts from zero again: the one pod left without a job goes.
  EXPECT_EQ(victimNames(pass(*r, snapshot)), (std::vector<std::string>{"p4"}));
}

TEST_F(RunnerTest, PerNamespaceLimit) {
  auto r = runner(std::string("maxNoOfPodsToEvictPerNamespace: 2\n") + kTwoProfiles);
  ASSERT_NE(r, nullptr);
  const auto snapshot = cluster();
  EXPECT_EQ(victimNames(pass(*r, snapshot)), (std::vector<std::string>{"p1", "p2"}));
}

TEST_F(RunnerTest, PodsWithAnActiveJobAreFilteredOut) {
  auto r = runner(kTwoProfiles);
  ASSERT_NE(r, nullptr);
  const auto snapshot = cluster();
  const PassResult result =
      pass(*r, snapshot, [](const core::Pod& pod) { return pod.metadata.name == "p2"; });
  EXPECT_EQ(victimNames(result), (std::vector<std::string>{"p1", "p3", "p4"}));
}

TEST_F(RunnerTest, MigrationControllerFiltersApply) {
  // Only pods labelled app=web may go (MigrationController's labelSelector).
  auto r = runner(R"(profiles:
- name: one
  plugins:
    deschedule:
      enabled:
      - name: A
  pluginConfig:
  - name: MigrationController
    args:
      labelSelector:
        matchLabels:
          app: web
)");
  ASSERT_NE(r, nullptr);
  core::Pod web = ownedPod("web", "n1");
  web.metadata.labels["app"] = "web";
  const auto snapshot =
      snapshotOf({buildNode("n1"), buildNode("n2")}, {ownedPod("other", "n1"), web});
  EXPECT_EQ(victimNames(pass(*r, snapshot)), (std::vector<std::string>{"web"}));
}

TEST_F(RunnerTest, NodeSelectorsNarrowTheNodes) {
  core::Node n3 = buildNode("n3");
  n3.metadata.labels["pool"] = "a";
  core::Node n1 = buildNode("n1");
  n1.metadata.labels["pool"] = "a";
  core::Node n2 = buildNode("n2");
  n2.metadata.labels["pool"] = "b";
  auto r = runner(R"(nodeSelector:
  matchExpressions:
  - key: pool
    operator: Exists
profiles:
- name: one
  nodeSelector:
    matchLabels:
      pool: a
  plugins:
    deschedule:
      enabled:
      - name: A
)");
  ASSERT_NE(r, nullptr);
  core::Node unlabelled = buildNode("n4");
  const auto snapshot = snapshotOf({n1, n2, n3, unlabelled}, {});
  const PassResult result = pass(*r, snapshot);
  EXPECT_EQ(result.nodes, 3U);
  EXPECT_EQ(calls, (std::vector<std::string>{"A:deschedule[n1,n3]"}));
}

TEST_F(RunnerTest, FewerThanTwoReadyNodesFailsThePassBeforeAnyPlugin) {
  auto r = runner(kTwoProfiles);
  ASSERT_NE(r, nullptr);
  core::Node not_ready = buildNode("n2");
  not_ready.status.conditions[0].status = "False";
  const auto snapshot = snapshotOf({buildNode("n1"), not_ready}, {ownedPod("p1", "n1")});
  const PassResult result = pass(*r, snapshot);
  EXPECT_FALSE(result.status.isOk());
  EXPECT_NE(result.status.message().find("the cluster size is 0 or 1"), std::string::npos);
  EXPECT_TRUE(calls.empty());
  EXPECT_TRUE(result.victims.empty());
}

TEST_F(RunnerTest, StartUpErrorsNameProfileAndPlugin) {
  Status wrong_point = createError(R"(profiles:
- name: p
  plugins:
    deschedule:
      enabled:
      - name: BalanceOnly
)");
  EXPECT_EQ(wrong_point.message(),
            "profile \"p\": plugin BalanceOnly does not extend deschedule plugin");
  Status bad_args = createError(R"(profiles:
- name: p
  plugins:
    deschedule:
      enabled:
      - name: A
  pluginConfig:
  - name: A
    args:
      bad: 1
)");
  EXPECT_EQ(bad_args.message(), "profile \"p\": AArgs.bad: unknown field");
  Status unknown = createError(R"(profiles:
- name: p
  plugins:
    balance:
      enabled:
      - name: Missing
)");
  EXPECT_NE(unknown.message().find("unknown plugin enabled: Missing"), std::string::npos);
}

TEST_F(RunnerTest, DryRunPrintsOneLinePerVictim) {
  auto r = runner(R"(dryRun: true
profiles:
- name: p
  plugins:
    deschedule:
      enabled:
      - name: A
      - name: RemovePodsViolatingNodeTaints
)");
  ASSERT_NE(r, nullptr);
  core::Node tainted = buildNode("n1");
  tainted.spec.taints = {testing::taint("dedicated", "x", "NoSchedule")};
  core::Pod kept = ownedPod("p2", "n2");
  kept.metadata.namespace_ = "prod";
  const auto snapshot = snapshotOf({tainted, buildNode("n2")}, {ownedPod("p1", "n1"), kept});
  std::ostringstream out;
  MigrationSinkOptions options;
  options.dry_run = true;
  options.dry_run_out = &out;
  MigrationSink sink(std::move(options));
  // A evicts everything first; without it the taint plugin's victim shows its own line.
  const PassResult result =
      r->runPass(snapshot, sink.asVictimSink(), {}, std::chrono::system_clock::now());
  ASSERT_TRUE(result.status.isOk());
  EXPECT_EQ(out.str(),
            "dry-run: would evict pod default/p1 from node n1 (plugin A, reason \"fake A\")\n"
            "dry-run: would evict pod prod/p2 from node n2 (plugin A, reason \"fake A\")\n"
            "dry-run: would evict pod default/p1 from node n1 (plugin "
            "RemovePodsViolatingNodeTaints, reason \"\")\n");
  EXPECT_EQ(sink.jobsCreated(), 0U);
}

}  // namespace
}  // namespace koord::manager::descheduler::app
