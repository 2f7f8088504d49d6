#include "manager/app/calculate_command.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"

namespace koord::manager::app {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome calculate(std::vector<std::string> args) {
  std::vector<const char*> argv = {"calculate"};
  for (const std::string& a : args) {
    argv.push_back(a.c_str());
  }
  std::ostringstream out, err;
  const int code = runCalculate(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

const std::string kExample =
    std::string(KOORD_SOURCE_DIR) + "/deploy/examples/calculate/cluster.yaml";

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CalculateCommandTest, TheWorkedExampleGivesTheDocumentedNumbersAndExplainsThem) {
  Outcome o = calculate({"-f", kExample});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  // Judged at the newest NodeMetric updateTime of the input.
  EXPECT_THAT(o.out, HasSubstr("Calculated at 2026-01-01T12:00:00Z for 2 nodes."));
  EXPECT_THAT(o.out, HasSubstr("node-a  7400       42496Mi"));
  EXPECT_THAT(o.out,
              HasSubstr("batch-cpu = capacity 32000m - safety margin 12800m - system used 2000m - "
                        "high-priority used 9800m = 7400m (policy usage)"));
  EXPECT_THAT(o.out, HasSubstr("=> kubernetes.io/batch-memory: 42496Mi"));
  // node-b's NodeMetric is 20 minutes older: degraded, every resource removed.
  EXPECT_THAT(o.out, HasSubstr("degraded"));
  EXPECT_THAT(o.out, HasSubstr("NodeMetric stale: updated 20m ago, degradeTimeMinutes 15"));
}

TEST(CalculateCommandTest, JsonOutputCarriesResourcesAndDegradeReasons) {
  Outcome o = calculate({"-f", kExample, "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const api::Json j = api::Json::parse(o.out);
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["name"], "node-a");
  EXPECT_EQ(j["nodes"][0]["resources"]["kubernetes.io/batch-cpu"], "7400");
  EXPECT_EQ(j["nodes"][0]["resources"]["kubernetes.io/batch-memory"], "42496Mi");
  EXPECT_FALSE(j["nodes"][0].contains("degradeReason"));
  EXPECT_EQ(j["nodes"][1]["name"], "node-b");
  EXPECT_EQ(j["nodes"][1]["resources"], api::Json::object());
  EXPECT_THAT(j["nodes"][1]["degradeReason"].get<std::string>(), HasSubstr("NodeMetric stale"));
}

TEST(CalculateCommandTest, NowMovesTheStalenessJudgement) {
  // Judged 10 minutes after node-b's report: both fresh.
  Outcome o = calculate({"-f", kExample, "--now", "2026-01-01T11:50:00Z", "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const api::Json j = api::Json::parse(o.out);
  EXPECT_FALSE(j["nodes"][1].contains("degradeReason"));
  EXPECT_TRUE(j["nodes"][1]["resources"].contains("kubernetes.io/batch-cpu"));
  Outcome bad = calculate({"-f", kExample, "--now", "yesterday"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("flag --now must be an RFC 3339 time"));
}

TEST(CalculateCommandTest, ColocationOffRemovesEverything) {
  const std::string path = writeTemp("calc-off.yaml", R"(apiVersion: v1
kind: Node
metadata: {name: n}
status: {capacity: {cpu: "8", memory: 16Gi}, allocatable: {cpu: "8", memory: 16Gi}}
)");
  Outcome o = calculate({"-f", path, "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const api::Json j = api::Json::parse(o.out);
  EXPECT_EQ(j["nodes"][0]["degradeReason"], "colocation disabled");
}

TEST(CalculateCommandTest, ListsAndTypedListsAreRead) {
  const std::string path = writeTemp("calc-list.yaml", R"(apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Node
    metadata: {name: a}
---
apiVersion: v1
kind: NodeList
items:
  - apiVersion: v1
    kind: Node
    metadata: {name: b}
)");
  Outcome o = calculate({"-f", path, "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const api::Json j = api::Json::parse(o.out);
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["name"], "a");
  EXPECT_EQ(j["nodes"][1]["name"], "b");
}

TEST(CalculateCommandTest, ANodeWithoutCapacityGetsNothingAndSaysWhy) {
  const std::string path = writeTemp("calc-nocap.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: slo-controller-config, namespace: koordinator-system}
data:
  colocation-config: '{"enable": true}'
---
apiVersion: v1
kind: Node
metadata: {name: bare}
---
apiVersion: slo.koordinator.sh/v1alpha1
kind: NodeMetric
metadata: {name: bare}
status:
  updateTime: "2026-01-01T12:00:00Z"
  nodeMetric:
    systemUsage: {resources: {cpu: "1"}}
)");
  Outcome o = calculate({"-f", path, "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const api::Json j = api::Json::parse(o.out);
  EXPECT_EQ(j["nodes"][0]["resources"]["kubernetes.io/batch-cpu"], "0");
  EXPECT_THAT(j["nodes"][0]["explanation"].dump(), HasSubstr("capacity 0m - safety margin 0m"));
  EXPECT_THAT(j["nodes"][0]["explanation"].dump(), HasSubstr("below zero: 0m"));
}

TEST(CalculateCommandTest, BadInputIsAnErrorNamingFileAndLineWithNothingPrinted) {
  const std::string typo = writeTemp("calc-typo.yaml", R"(apiVersion: v1
kind: Node
metadata:
  name: n
  lables: {a: b}
)");
  Outcome o = calculate({"-f", typo});
  EXPECT_EQ(o.code, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_THAT(o.err, HasSubstr("calc-typo.yaml: line 5"));
  EXPECT_THAT(o.err, HasSubstr("unknown field \"lables\" (did you mean \"labels\"?)"));

  const std::string config = writeTemp("calc-config.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: slo-controller-config, namespace: koordinator-system}
data:
  colocation-config: '{"enable": true, "cpuReclaimThresholdPercent": -5}'
)");
  o = calculate({"-f", config});
  EXPECT_EQ(o.code, 1);
  EXPECT_THAT(o.err, HasSubstr("calc-config.yaml: line 1"));
  EXPECT_THAT(o.err, HasSubstr("colocation-config"));
  EXPECT_THAT(o.err, HasSubstr("cpuReclaimThresholdPercent"));

  const std::string twice = writeTemp("calc-twice.yaml", R"(apiVersion: v1
kind: Node
metadata: {name: n}
---
apiVersion: v1
kind: Node
metadata: {name: n}
)");
  o = calculate({"-f", twice});
  EXPECT_EQ(o.code, 1);
  EXPECT_THAT(o.err, HasSubstr("Node/n is defined twice"));

  const std::string unknown = writeTemp("calc-unknown.yaml", "apiVersion: x/v1\nkind: Gadget\n");
  o = calculate({"-f", unknown});
  EXPECT_EQ(o.code, 1);
  EXPECT_THAT(o.err, HasSubstr("unknown kind 'Gadget'"));

  o = calculate({"-f", ::testing::TempDir() + "does-not-exist.yaml"});
  EXPECT_EQ(o.code, 1);
  EXPECT_THAT(o.err, HasSubstr("does-not-exist.yaml"));
}

TEST(CalculateCommandTest, UsageErrors) {
  EXPECT_EQ(calculate({}).code, 2);
  Outcome o = calculate({"-f", kExample, "-o", "yaml"});
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("flag --output must be text or json"));
  o = calculate({"--bogus"});
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("unknown argument '--bogus'"));
  o = calculate({"--help"});
  EXPECT_EQ(o.code, 0);
  EXPECT_THAT(o.out, HasSubstr("Usage: koord-manager calculate -f <cluster.yaml>"));
  EXPECT_THAT(o.out, Not(HasSubstr("not built")));
}

}  // namespace
}  // namespace koord::manager::app
