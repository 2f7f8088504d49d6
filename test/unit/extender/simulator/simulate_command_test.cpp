#include "extender/simulator/simulate_command.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/config/yaml.hpp"

namespace koord::extender::simulator {
namespace {

const std::string kSourceDir = KOORD_SOURCE_DIR;
const std::string kSimulateExample = kSourceDir + "/deploy/examples/simulator/cluster.yaml";
const std::string kGolden =
    kSourceDir + "/test/unit/extender/simulator/testdata/cluster.golden.txt";

struct CommandRun {
  int code;
  std::string out;
  std::string err;
};

CommandRun simulateWith(std::vector<std::string> args) {
  args.insert(args.begin(), "simulate");
  std::vector<const char*> argv;
  for (const auto& a : args) {
    argv.push_back(a.c_str());
  }
  std::ostringstream out;
  std::ostringstream err;
  int code = runSimulate(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

std::string relativize(std::string text) {
  const std::string prefix = kSourceDir + "/";
  for (size_t pos = text.find(prefix); pos != std::string::npos; pos = text.find(prefix, pos)) {
    text.erase(pos, prefix.size());
  }
  return text;
}

TEST(SimulateCommandTest, ExampleMatchesGolden) {
  CommandRun run = simulateWith({"-f", kSimulateExample});
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string got = relativize(run.out);
  if (std::getenv("KOORD_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(kGolden) << got;
  }
  std::ifstream in(kGolden);
  ASSERT_TRUE(in.good()) << "missing " << kGolden << " (run with KOORD_UPDATE_GOLDEN=1)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(got, want.str());
}

TEST(SimulateCommandTest, StructuredOutputsCarryTheSameResult) {
  CommandRun json_run = simulateWith({"--filename=" + kSimulateExample, "-o", "json"});
  ASSERT_EQ(json_run.code, 0) << json_run.err;
  auto json = api::parseJson(json_run.out);
  ASSERT_TRUE(json.ok()) << json.status();
  CommandRun yaml_run = simulateWith({"-f", kSimulateExample, "--output=yaml"});
  ASSERT_EQ(yaml_run.code, 0) << yaml_run.err;
  auto docs = config::parseYamlDocuments(yaml_run.out, "out.yaml");
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 1u);
  EXPECT_EQ((*docs)[0].value, *json);
  const api::Json& summary = (*json)["summary"];
  EXPECT_EQ(summary["nodes"], 4);
  EXPECT_EQ(summary["boundPods"], 1);
  EXPECT_GT(summary["unschedulable"].get<int>(), 0);
  bool found_reservation = false;
  bool found_cpuset = false;
  for (const auto& pod : (*json)["pods"]) {
    ASSERT_TRUE(pod.contains("pod"));
    if (pod["pod"] == "shop/db") {
      // The example's LSR pod gets 4 CPUs on node-a (the node reserves 0-1).
      EXPECT_EQ(pod["node"], "node-a");
      EXPECT_EQ(pod["cpuset"], "4-7");
      found_cpuset = true;
    } else {
      EXPECT_FALSE(pod.contains("cpuset")) << pod["pod"];
    }
    if (pod["scheduled"] == false) {
      EXPECT_TRUE(pod["node"].is_null());
      EXPECT_EQ(pod["message"].get<std::string>().rfind("0/4 nodes are available: ", 0), 0u);
    }
  }
  for (const auto& node : (*json)["nodes"]) {
    if (node["name"] == "node-a") {
      EXPECT_EQ(node["resources"]["cpu"]["reserved"], "2");
      EXPECT_EQ(node["resources"]["cpu"]["allocatable"], "8");
      EXPECT_EQ(node["cpus"]["reserved"]["cpuset"], "0-1");
      EXPECT_EQ(node["cpus"]["exclusive"]["pods"][0]["pod"], "shop/db");
      EXPECT_EQ(node["cpus"]["free"]["count"], 2);
      found_reservation = true;
    } else {
      EXPECT_FALSE(node.contains("cpus")) << node["name"];  // no NodeResourceTopology
    }
  }
  EXPECT_TRUE(found_reservation);
  EXPECT_TRUE(found_cpuset);
}

TEST(SimulateCommandTest, Errors) {
  const std::string dir = ::testing::TempDir() + "koord-simulate-test";
  std::filesystem::create_directories(dir);
  const std::string bad = dir + "/bad.yaml";
  std::ofstream(bad) << "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  bogus: 1\n";
  struct Case {
    std::vector<std::string> args;
    int want_code;
    std::string want_err;
  };
  const std::vector<Case> cases = {
      {{}, 2, "no input: give at least one -f <file>"},
      {{"-f"}, 2, "flag -f needs a value"},
      {{"-f", kSimulateExample, "-o", "xml"},
       2,
       "flag --output must be table, json or yaml, got 'xml'"},
      {{"--frobnicate"}, 2, "unknown argument '--frobnicate'"},
      {{"-f", kSimulateExample, "--extender-weight", "0"},
       2,
       "flag --extender-weight must be a whole number from 1 to 1000, got '0'"},
      {{"-f", kSimulateExample, "--extender-weight=ten"},
       2,
       "flag --extender-weight must be a whole number from 1 to 1000, got 'ten'"},
      {{"-f", dir + "/missing.yaml"}, 1, dir + "/missing.yaml"},
      {{"-f", kSimulateExample, "-f", bad}, 1, bad + ": line 5: spec: unknown field \"bogus\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.want_err);
    CommandRun run = simulateWith(c.args);
    EXPECT_EQ(run.code, c.want_code);
    EXPECT_NE(run.err.find(c.want_err), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
  CommandRun help = simulateWith({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("Usage: koord-extender simulate"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace koord::extender::simulator
