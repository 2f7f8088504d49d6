#include "extender/framework/runtime.hpp"

#include <gtest/gtest.h>

#include <atomic>

#include "runtime_fixture.hpp"

namespace koord::extender::framework {
namespace {

using testing::makeNode;
using testing::makePodInfo;
using testing::RuntimeFixture;
using testing::ScriptedPlugin;

class RuntimeTest : public RuntimeFixture {};

TEST_F(RuntimeTest, FilterRunsPluginsInOrderAndKeepsTheFirstRejection) {
  add("A", [](ScriptedPlugin& p) {
    p.on_filter = [](const PodInfo&, const NodeInfo& n) {
      return n.name() == "n2" ? PluginStatus::unschedulable("A says no") : PluginStatus::success();
    };
  });
  add("B", [](ScriptedPlugin& p) {
    p.on_filter = [](const PodInfo&, const NodeInfo& n) {
      return n.name() == "n2" || n.name() == "n3" ? PluginStatus::unresolvable("B says no")
                                                  : PluginStatus::success();
    };
  });
  struct Case {
    std::string name;
    int parallelism;
    int64_t min_parallel_work;
  };
  for (const Case& c : {Case{"inline", 1, 0}, Case{"pool", 2, 1}}) {
    SCOPED_TRACE(c.name);
    auto runtime = make({{"A", {}, 1}, {"B", {}, 1}}, c.parallelism, c.min_parallel_work);
    ASSERT_NE(runtime, nullptr);
    auto result = runtime->filter(*makePodInfo("p"), nodes({"n1", "n2", "n3", "n4"}));
    EXPECT_TRUE(result.error.isSuccess());
    EXPECT_EQ(result.feasible, (std::vector<std::string>{"n1", "n4"}));
    ASSERT_EQ(result.failed.size(), 2u);
    EXPECT_EQ(result.failed.at("n2").code(), Code::kUnschedulable);
    EXPECT_EQ(result.failed.at("n2").message(), "A says no");
    EXPECT_EQ(result.failed.at("n2").plugin(), "A");
    EXPECT_EQ(result.failed.at("n3").code(), Code::kUnschedulableAndUnresolvable);
    EXPECT_EQ(result.failed.at("n3").plugin(), "B");
  }
}

TEST_F(RuntimeTest, ParallelFilterMatchesSequentialOnManyNodes) {
  add("A", [](ScriptedPlugin& p) {
    p.on_filter = [](const PodInfo&, const NodeInfo& n) {
      return n.name().back() == '7' ? PluginStatus::unschedulable("seven")
                                    : PluginStatus::success();
    };
  });
  std::vector<std::string> names;
  for (int i = 0; i < 500; ++i)
    names.push_back("node-" + std::to_string(i));
  auto all = nodes(names);
  auto sequential = make({{"A", {}, 1}}, 1)->filter(*makePodInfo("p"), all);
  auto parallel = make({{"A", {}, 1}}, 2, 1)->filter(*makePodInfo("p"), all);
  EXPECT_EQ(sequential.feasible.size(), 450u);
  EXPECT_EQ(parallel.feasible, sequential.feasible);
  EXPECT_EQ(parallel.failed.size(), 50u);
}

TEST_F(RuntimeTest, PreFilterSkipSkipsFilterAndScore) {
  std::atomic<int> filter_calls{0};
  add("A", [&](ScriptedPlugin& p) {
    p.on_pre_filter = [](const PodInfo&) { return PluginStatus::skip(); };
    p.on_filter = [&](const PodInfo&, const NodeInfo&) {
      ++filter_calls;
      return PluginStatus::unschedulable("never");
    };
    p.on_score = [](const NodeInfo&) { return 0; };
  });
  add("B", [](ScriptedPlugin& p) { p.on_score = [](const NodeInfo&) { return 80; }; });
  auto runtime = make({{"A", {}, 5}, {"B", {}, 1}});
  auto result = runtime->filter(*makePodInfo("p"), nodes({"n1", "n2"}));
  EXPECT_EQ(result.feasible, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(filter_calls.load(), 0);
  // A's weight does not count when A is skipped: 80, not (5*0 + 80) / 6.
  EXPECT_EQ(runtime->score(*makePodInfo("p"), nodes({"n1", "n2"})), (std::vector<int64_t>{80, 80}));
}

TEST_F(RuntimeTest, EveryFilterSkippedPassesEveryNodeInOrder) {
  std::atomic<int> filter_calls{0};
  for (const char* name : {"A", "B"}) {
    add(name, [&](ScriptedPlugin& p) {
      p.on_pre_filter = [](const PodInfo&) { return PluginStatus::skip(); };
      p.on_filter = [&](const PodInfo&, const NodeInfo&) {
        ++filter_calls;
        return PluginStatus::unschedulable("never");
      };
    });
  }
  auto result = make({{"A", {}, 1}, {"B", {}, 1}}, 2, 1)
                    ->filter(*makePodInfo("p"), nodes({"n3", "n1", "n2"}));
  EXPECT_EQ(result.feasible, (std::vector<std::string>{"n3", "n1", "n2"}));
  EXPECT_TRUE(result.failed.empty());
  EXPECT_TRUE(result.error.isSuccess());
  EXPECT_EQ(filter_calls.load(), 0);
}

TEST_F(RuntimeTest, PreFilterRejectionFailsEveryNode) {
  std::atomic<int> filter_calls{0};
  add("A", [](ScriptedPlugin& p) {
    p.on_pre_filter = [](const PodInfo&) { return PluginStatus::unresolvable("quota exceeded"); };
  });
  add("B", [&](ScriptedPlugin& p) {
    p.on_filter = [&](const PodInfo&, const NodeInfo&) {
      ++filter_calls;
      return PluginStatus::success();
    };
  });
  auto result = make({{"A", {}, 1}, {"B", {}, 1}})->filter(*makePodInfo("p"), nodes({"n1", "n2"}));
  EXPECT_TRUE(result.feasible.empty());
  ASSERT_EQ(result.failed.size(), 2u);
  for (const auto& [node, status] : result.failed) {
    EXPECT_EQ(status.code(), Code::kUnschedulableAndUnresolvable);
    EXPECT_EQ(status.message(), "quota exceeded");
    EXPECT_EQ(status.plugin(), "A");
  }
  EXPECT_EQ(filter_calls.load(), 0);
}

TEST_F(RuntimeTest, FilterErrorFailsTheCall) {
  add("A", [](ScriptedPlugin& p) {
    p.on_filter = [](const PodInfo&, const NodeInfo& n) {
      return n.name() == "n2" ? PluginStatus::error("cache broken") : PluginStatus::success();
    };
  });
  auto result = make({{"A", {}, 1}})->filter(*makePodInfo("p"), nodes({"n1", "n2"}));
  EXPECT_EQ(result.error.code(), Code::kError);
  EXPECT_EQ(result.error.message(), "cache broken");
  EXPECT_EQ(result.error.plugin(), "A");
  EXPECT_TRUE(result.feasible.empty());
}

TEST_F(RuntimeTest, ThrowingPluginBecomesAnError) {
  add("A", [](ScriptedPlugin& p) {
    p.on_filter = [](const PodInfo&, const NodeInfo&) -> PluginStatus {
      throw std::runtime_error("boom");
    };
  });
  auto result = make({{"A", {}, 1}})->filter(*makePodInfo("p"), nodes({"n1"}));
  EXPECT_EQ(result.error.code(), Code::kError);
  EXPECT_EQ(result.error.message(), "filter threw: boom");
  EXPECT_EQ(result.error.plugin(), "A");
}

TEST_F(RuntimeTest, ScoreWeightsNormalizesAndClamps) {
  struct Case {
    std::string name;
    std::vector<int64_t> a_raw;
    std::vector<int64_t> b_raw;  // B normalizes by *25
    int64_t a_weight;
    int64_t b_weight;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"weighted", {10, 50, 100}, {1, 2, 4}, 1, 3, {(10 + 75) / 4, (50 + 150) / 4, 100}},
      {"equal weights", {0, 100, 40}, {4, 0, 2}, 1, 1, {50, 50, 45}},
      {"clamped", {150, -5, 100}, {8, -1, 4}, 1, 1, {100, 0, 100}},
      // A scores every node 0: no preference, so it does not halve B's scores.
      {"no preference", {0, 0, 0}, {1, 2, 4}, 1, 3, {25, 50, 100}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    registry_ = Registry();
    auto index = [](const NodeInfo& n) { return static_cast<size_t>(n.name()[1] - '0'); };
    add("A", [&](ScriptedPlugin& p) {
      p.on_score = [&, index](const NodeInfo& n) { return c.a_raw[index(n)]; };
    });
    add("B", [&](ScriptedPlugin& p) {
      p.on_score = [&, index](const NodeInfo& n) { return c.b_raw[index(n)]; };
      p.on_normalize = [](std::vector<int64_t>& scores) {
        for (auto& s : scores)
          s *= 25;
      };
    });
    auto runtime = make({{"A", {}, c.a_weight}, {"B", {}, c.b_weight}});
    EXPECT_EQ(runtime->score(*makePodInfo("p"), nodes({"n0", "n1", "n2"})), c.want);
  }
}

TEST_F(RuntimeTest, ScorePluginThatDeclinesThePodIsNeitherCalledNorAveraged) {
  ScriptedPlugin* declining = nullptr;
  add("A", [&](ScriptedPlugin& p) {
    declining = &p;
    p.on_scores = [] { return false; };
    p.on_score = [](const NodeInfo&) { return 100; };
  });
  add("B", [](ScriptedPlugin& p) {
    p.on_score = [](const NodeInfo& n) { return n.name() == "n1" ? 40 : 80; };
  });
  auto runtime = make({{"A", {}, 5}, {"B", {}, 1}});
  EXPECT_EQ(runtime->score(*makePodInfo("p"), nodes({"n1", "n2"})), (std::vector<int64_t>{40, 80}));
  ASSERT_NE(declining, nullptr);
  EXPECT_EQ(declining->score_calls.load(), 0);
}

TEST_F(RuntimeTest, ScoreWithoutScorePluginsIsZero) {
  ASSERT_TRUE(registry_
                  .add("F",
                       [](const api::Json&, const Handle&) -> Result<std::unique_ptr<Plugin>> {
                         return std::unique_ptr<Plugin>(
                             std::make_unique<testing::FilterOnlyPlugin>("F"));
                       })
                  .isOk());
  auto runtime = make({{"F", {}, 1}});
  EXPECT_EQ(runtime->score(*makePodInfo("p"), nodes({"n1", "n2"})), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(runtime->pluginNames(), std::vector<std::string>{"F"});
}

TEST_F(RuntimeTest, CreateListsEveryConfigError) {
  add("A");
  add("B");
  ASSERT_TRUE(registry_
                  .add("Bad",
                       [](const api::Json&, const Handle&) -> Result<std::unique_ptr<Plugin>> {
                         return Status::invalidArgument("x: must be positive\ny: unknown field");
                       })
                  .isOk());
  RuntimeOptions options;
  options.plugins = {{"A", {}, 1}, {"Nope", {}, 1}, {"A", {}, 1}, {"B", {}, 0}, {"Bad", {}, 1}};
  auto runtime = Runtime::create(registry_, handle_, options);
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.status().code(), StatusCode::kInvalidArgument);
  const std::string& message = runtime.status().message();
  for (const std::string want :
       {"plugins[1].name: unknown plugin 'Nope' (known: A, B, Bad)",
        "plugins[2].name: plugin 'A' is configured twice", "plugins[3].weight: must be positive",
        "plugins[4] (Bad).args: x: must be positive", "plugins[4] (Bad).args: y: unknown field"}) {
    EXPECT_NE(message.find(want), std::string::npos) << want << "\nin:\n" << message;
  }
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 4);
}

TEST_F(RuntimeTest, PreemptTrimsAndVetoes) {
  for (const std::string name : {"n1", "n2", "n3", "n4"})
    cluster_.upsertNode(makeNode(name));
  auto low = makePodInfo("low");
  auto keep = makePodInfo("keep");
  auto vip = makePodInfo("vip");
  auto foreign = makePodInfo("foreign");
  add("Trim", [&](ScriptedPlugin& p) {
    p.on_select = [&](std::vector<std::shared_ptr<const PodInfo>>& victims) {
      std::erase_if(victims, [](const auto& v) { return v->key == "default/keep"; });
      victims.push_back(foreign);  // not among the proposed victims: ignored
      return PluginStatus::success();
    };
  });
  add("Veto", [](ScriptedPlugin& p) {
    p.on_select = [](std::vector<std::shared_ptr<const PodInfo>>& victims) {
      for (const auto& v : victims) {
        if (v->key == "default/vip")
          return PluginStatus::unschedulable("non-preemptible");
      }
      return PluginStatus::success();
    };
  });
  auto runtime = make({{"Trim", {}, 1}, {"Veto", {}, 1}});
  auto result = runtime->preempt(
      *makePodInfo("preemptor"),
      {{"n1", {low, keep}}, {"n2", {keep}}, {"n3", {low, vip}}, {"n4", {}}, {"unknown", {low}}});
  struct Case {
    std::string node;
    bool kept;
    std::vector<std::string> victims;
  };
  const std::vector<Case> cases = {
      {"n1", true, {"default/low"}},  // keep trimmed away, foreign ignored
      {"n2", false, {}},              // trimmed to no victims: dropped
      {"n3", false, {}},              // vetoed
      {"n4", true, {}},               // no victims proposed: kept as is
      {"unknown", false, {}},         // not in the cluster view
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.node);
    ASSERT_EQ(result.count(c.node), c.kept ? 1u : 0u);
    if (!c.kept)
      continue;
    std::vector<std::string> keys;
    for (const auto& v : result.at(c.node))
      keys.push_back(v->key);
    EXPECT_EQ(keys, c.victims);
  }
}

TEST_F(RuntimeTest, RecordsPluginAndVerbMetrics) {
  add("A");
  auto runtime = make({{"A", {}, 1}});
  (void)runtime->filter(*makePodInfo("p"), nodes({"n1", "n2"}));
  (void)runtime->score(*makePodInfo("p"), nodes({"n1"}));
  const std::string text = metrics_.serialize();
  for (const std::string want :
       {"koord_extender_verb_duration_seconds_count{verb=\"filter\"} 1",
        "koord_extender_verb_duration_seconds_count{verb=\"prioritize\"} 1",
        "koord_extender_plugin_duration_seconds_count{extension_point=\"filter\",plugin=\"A\"} 1",
        "koord_extender_plugin_duration_seconds_count{extension_point=\"pre_filter\",plugin=\"A\"} "
        "2",
        "koord_extender_plugin_duration_seconds_count{extension_point=\"score\",plugin=\"A\"} 1"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want;
  }
}

// How many observations `series` (a full series name with its labels) has in `text`.
int64_t countOf(const std::string& text, const std::string& series) {
  const std::string key = series + " ";
  const auto at = text.find(key);
  return at == std::string::npos ? -1 : std::stoll(text.substr(at + key.size()));
}

TEST_F(RuntimeTest, TimesPluginsPerNodeInOneCallOfTenByDefault) {
  add("A");
  auto runtime = make({{"A", {}, 1}});
  for (int i = 0; i < 25; ++i) {
    (void)runtime->filter(*makePodInfo("p"), nodes({"n1", "n2"}));
    (void)runtime->score(*makePodInfo("p"), nodes({"n1"}));
  }
  const std::string text = metrics_.serialize();
  // Every call is counted by its verb; the plugins are timed in calls 0, 10 and 20 of each verb.
  EXPECT_EQ(countOf(text, "koord_extender_verb_duration_seconds_count{verb=\"filter\"}"), 25);
  EXPECT_EQ(countOf(text,
                    "koord_extender_plugin_duration_seconds_count{extension_point="
                    "\"filter\",plugin=\"A\"}"),
            3);
  EXPECT_EQ(countOf(text,
                    "koord_extender_plugin_duration_seconds_count{extension_point="
                    "\"score\",plugin=\"A\"}"),
            3);
}

TEST_F(RuntimeTest, TimesEveryCallWhenTheSampleIsAHundredPercent) {
  add("A");
  RuntimeOptions options;
  options.plugins = {{"A", {}, 1}};
  options.parallelism = 1;
  options.plugin_metrics_sample_percent = 100;
  auto runtime = Runtime::create(registry_, handle_, options, &metrics_);
  ASSERT_TRUE(runtime.ok()) << runtime.status();
  for (int i = 0; i < 7; ++i)
    (void)(*runtime)->filter(*makePodInfo("p"), nodes({"n1", "n2"}));
  EXPECT_EQ(countOf(metrics_.serialize(),
                    "koord_extender_plugin_duration_seconds_count{"
                    "extension_point=\"filter\",plugin=\"A\"}"),
            7);
}

TEST_F(RuntimeTest, RejectsASamplePercentOutsideZeroToAHundred) {
  add("A");
  for (int percent : {-1, 101}) {
    RuntimeOptions options;
    options.plugins = {{"A", {}, 1}};
    options.plugin_metrics_sample_percent = percent;
    auto runtime = Runtime::create(registry_, handle_, options);
    ASSERT_FALSE(runtime.ok()) << percent;
    EXPECT_NE(
        runtime.status().message().find("plugin_metrics_sample_percent: must be within 0..100"),
        std::string::npos)
        << runtime.status();
  }
}

}  // namespace
}  // namespace koord::extender::framework
