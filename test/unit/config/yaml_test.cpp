// Documents, nesting, line numbers, errors, duplicate keys, anchors and merge keys.
#include "koord/config/yaml.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace koord::config {
namespace {

using Json = nlohmann::json;

YamlDocument parseOne(const std::string& text) {
  auto docs = parseYamlDocuments(text, "test.yaml");
  EXPECT_TRUE(docs.ok()) << docs.status();
  if (!docs.ok() || docs->size() != 1) {
    ADD_FAILURE() << "expected exactly one document";
    return {};
  }
  return std::move((*docs)[0]);
}

std::string parseErrorOf(const std::string& text) {
  auto docs = parseYamlDocuments(text, "test.yaml");
  EXPECT_FALSE(docs.ok()) << "parsed without error: " << text;
  return docs.ok() ? "" : docs.status().message();
}

TEST(YamlTest, NestedMappingsAndSequencesBecomeJson) {
  const YamlDocument doc = parseOne(R"(apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web, tier: "1"}
spec:
  containers:
    - name: main
      resources:
        requests: {cpu: "4", memory: 1Gi}
        limits:
          cpu: 4
    - name: sidecar
      args: [--v, 2]
)");
  const Json expected = Json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "web", "labels": {"app": "web", "tier": "1"}},
    "spec": {"containers": [
      {"name": "main", "resources": {"requests": {"cpu": "4", "memory": "1Gi"},
                                     "limits": {"cpu": 4}}},
      {"name": "sidecar", "args": ["--v", 2]}]}})");
  EXPECT_EQ(doc.value, expected);
  EXPECT_TRUE(doc.value["spec"]["containers"][0]["resources"]["requests"]["cpu"].is_string());
  EXPECT_TRUE(doc.value["spec"]["containers"][0]["resources"]["limits"]["cpu"].is_number_integer());
  EXPECT_EQ(doc.source, "test.yaml");
}

TEST(YamlTest, LineMapPointsAtKeysAndItems) {
  const YamlDocument doc = parseOne(R"(# a comment
apiVersion: v1
metadata:
  name: web
  annotations:
    a/b: "1"
    c~d: x
spec:
  owners:
    - kind: Deployment
      name: web

    - {kind: Job, name: batch}
  flow: [1, 2,
         3]
  empty:
)");
  const std::pair<std::string, int> cases[] = {
      {"", 2},
      {"/apiVersion", 2},
      {"/metadata", 3},
      {"/metadata/name", 4},
      {"/metadata/annotations", 5},
      {"/metadata/annotations/a~1b", 6},
      {"/metadata/annotations/c~0d", 7},
      {"/spec", 8},
      {"/spec/owners", 9},
      {"/spec/owners/0", 10},
      {"/spec/owners/0/kind", 10},
      {"/spec/owners/0/name", 11},
      {"/spec/owners/1", 13},
      {"/spec/owners/1/name", 13},
      {"/spec/flow/2", 15},
      {"/spec/empty", 16},
      {"/spec/missing", 0},
      {"/nope/0", 0},
  };
  for (const auto& [pointer, line] : cases) {
    EXPECT_EQ(doc.lineOf(pointer), line) << pointer;
  }
  EXPECT_EQ(doc.lines.size(), 20u);
  EXPECT_TRUE(doc.value["spec"]["empty"].is_null());
}

TEST(YamlTest, MultipleDocumentsSkipEmptyOnesAndKeepFileLines) {
  auto docs = parseYamlDocuments(R"(---
kind: Node
metadata: {name: n1}
---
# only a comment
---
---
kind: Pod
metadata:
  name: p1
...
---
null
---
- 1
)",
                                 "cluster.yaml");
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 3u);
  EXPECT_EQ((*docs)[0].value["kind"], "Node");
  EXPECT_EQ((*docs)[0].lineOf("/metadata/name"), 3);
  EXPECT_EQ((*docs)[1].value["kind"], "Pod");
  EXPECT_EQ((*docs)[1].lineOf("/kind"), 8);
  EXPECT_EQ((*docs)[1].lineOf("/metadata/name"), 10);
  EXPECT_EQ((*docs)[2].value, Json::array({1}));
  EXPECT_EQ((*docs)[2].lineOf("/0"), 15);
}

TEST(YamlTest, EmptyInputsHaveNoDocuments) {
  for (const std::string text : {"", "\n\n", "# nothing\n", "---\n", "---\n...\n---\n~\n"}) {
    auto docs = parseYamlDocuments(text, "empty.yaml");
    ASSERT_TRUE(docs.ok()) << docs.status();
    EXPECT_TRUE(docs->empty()) << text;
  }
}

TEST(YamlTest, SyntaxErrorsNameSourceLineAndColumn) {
  struct Case {
    std::string text;
    std::string prefix;  // the message starts with this
  };
  const Case cases[] = {
      {"a: 1\nb: [1, 2\n", "failed to parse YAML 'test.yaml': line 3, column 1: "},
      {"a: 1\n  b: 2\n", "failed to parse YAML 'test.yaml': line 2, column 4: "},
      {"a:\n  - 1\n  b: 2\n", "failed to parse YAML 'test.yaml': line 3, column 3: "},
      {"a: 1\nb: c: d\n", "failed to parse YAML 'test.yaml': line 2, column 5: "},
      {"a: 1\n---\nb: *missing\n", "failed to parse YAML 'test.yaml': line 3, column 4: "},
      {"ok: 1\n---\nx: 1\n\tbad: 2\n", "failed to parse YAML 'test.yaml': line 4, column "},
  };
  for (const Case& c : cases) {
    const std::string message = parseErrorOf(c.text);
    EXPECT_EQ(message.substr(0, c.prefix.size()), c.prefix) << message;
    EXPECT_GT(message.size(), c.prefix.size()) << "the cause is missing: " << message;
  }
}

TEST(YamlTest, DuplicateKeysAreErrorsNamingBothLines) {
  const std::pair<std::string, std::string> cases[] = {
      {"a: 1\nb: 2\na: 3\n",
       "failed to parse YAML 'test.yaml': line 3, column 1: duplicate key \"a\" (first defined "
       "on line 1)"},
      {"spec:\n  x: 1\n  y:\n    z: 1\n  x: 2\n",
       "failed to parse YAML 'test.yaml': line 5, column 3: duplicate key \"x\" (first defined "
       "on line 2)"},
      {"m: {k: 1, k: 2}\n",
       "failed to parse YAML 'test.yaml': line 1, column 11: duplicate key \"k\" (first defined "
       "on line 1)"},
      {"1: a\n\"1\": b\n",
       "failed to parse YAML 'test.yaml': line 2, column 1: duplicate key \"1\" (first defined "
       "on line 1)"},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(parseErrorOf(text), expected);
  }
  // The same key in different mappings is fine.
  const YamlDocument doc = parseOne("a: {x: 1}\nb: {x: 2}\n");
  EXPECT_EQ(doc.value["b"]["x"], 2);
}

TEST(YamlTest, MapKeysMustBeScalarsAndScalarKeysBecomeTheirText) {
  const std::pair<std::string, std::string> errors[] = {
      {"[a, b]: 1\n", "a mapping key must be a string, found a sequence"},
      {"? {a: 1}\n: x\n", "a mapping key must be a string, found a mapping"},
      {"~: 1\n", "a mapping key must not be null"},
      {"x: 1\nnull: 2\n", "a mapping key must not be null"},
  };
  for (const auto& [text, cause] : errors) {
    const std::string message = parseErrorOf(text);
    EXPECT_NE(message.find(cause), std::string::npos) << message;
  }
  const YamlDocument doc = parseOne("1: one\ntrue: yes\n0x10: hex\n\"\": empty\n");
  EXPECT_EQ(doc.value, Json::parse(R"({"1": "one", "true": "yes", "0x10": "hex", "": "empty"})"));
}

TEST(YamlTest, AnchorsAndAliasesAreResolvedWithTheirLines) {
  const YamlDocument doc = parseOne(R"(defaults: &defaults
  cpu: 4
  labels: {a: b}
first: *defaults
list:
  - &item x
  - *item
)");
  EXPECT_EQ(doc.value["first"], Json::parse(R"({"cpu": 4, "labels": {"a": "b"}})"));
  EXPECT_EQ(doc.value["list"], Json::array({"x", "x"}));
  EXPECT_EQ(doc.lineOf("/first"), 4);
  // Nodes inside an alias point where they were written.
  EXPECT_EQ(doc.lineOf("/first/cpu"), 2);
  EXPECT_EQ(doc.lineOf("/first/labels/a"), 3);
  EXPECT_EQ(doc.lineOf("/list/1"), 7);
}

TEST(YamlTest, MergeKeysAddOnlyMissingKeys) {
  const YamlDocument doc = parseOne(R"(base: &base {cpu: 1, memory: 1Gi, zone: a}
extra: &extra {gpu: 1, zone: b}
node:
  cpu: 8
  <<: [*base, *extra]
  name: n1
single:
  <<: *extra
  gpu: 2
)");
  EXPECT_EQ(doc.value["node"],
            Json::parse(R"({"cpu": 8, "memory": "1Gi", "zone": "a", "gpu": 1, "name": "n1"})"));
  EXPECT_EQ(doc.value["single"], Json::parse(R"({"gpu": 2, "zone": "b"})"));
  EXPECT_EQ(doc.lineOf("/node/cpu"), 4);
  EXPECT_EQ(doc.lineOf("/node/memory"), 5);
  EXPECT_EQ(doc.lineOf("/node/name"), 6);
  for (const auto& [pointer, line] : doc.lines) {
    EXPECT_EQ(pointer.find('<'), std::string::npos) << "merge key leaked into lines: " << pointer;
  }
  EXPECT_NE(parseErrorOf("a:\n  <<: 1\n").find("a merge key (<<) must be a mapping"),
            std::string::npos);
  // A quoted "<<" is an ordinary key.
  EXPECT_EQ(parseOne("\"<<\": 1\n").value, Json::parse(R"({"<<": 1})"));
}

TEST(YamlTest, SelfReferenceAndAliasBombsAreErrors) {
  EXPECT_NE(parseErrorOf("a: &a [1, *a]\n").find("anchor whose node is not complete"),
            std::string::npos);
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) {
      bomb += (j ? ", " : "") + prev;
    }
    bomb += "]\n";
  }
  const std::string message = parseErrorOf(bomb);
  EXPECT_NE(message.find("aliases expand to more than 100000 nodes"), std::string::npos) << message;
  EXPECT_NE(message.find("line 5,"), std::string::npos) << message;
}

TEST(YamlTest, StrayFlowIndicatorsAreErrorsNotHangs) {
  const std::pair<std::string, std::string> cases[] = {
      {",", "failed to parse YAML 'test.yaml': line 1, column 1: unexpected ','"},
      {"a: 1\n---\n  ,\n", "failed to parse YAML 'test.yaml': line 3, column 3: unexpected ','"},
      {"a: 1\n---\n]\n", "failed to parse YAML 'test.yaml': line 3, column 1: illegal flow end"},
  };
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(parseErrorOf(text), message);
  }
}

TEST(YamlTest, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(10000, '[') + std::string(10000, ']');
  const std::string message = parseErrorOf(deep);
  EXPECT_EQ(message.rfind("failed to parse YAML 'test.yaml': line 1, column ", 0), 0u) << message;
}

TEST(YamlTest, NestingPastTheLimitIsAnErrorNamingIt) {
  const auto flow = [](std::size_t depth) {
    return "a: " + std::string(depth, '[') + std::string(depth, ']') + "\n";
  };
  // The document's root mapping is one level: 255 sequences inside it make 256.
  ASSERT_TRUE(parseYamlDocuments(flow(kMaxYamlNestingDepth - 1), "test.yaml").ok());
  const std::string message = parseErrorOf(flow(kMaxYamlNestingDepth));
  // Column 259 is the 256th '[' (after "a: ").
  EXPECT_NE(message.find("line 1, column 259: nesting deeper than 256 levels"), std::string::npos)
      << message;
  // Block style counts the same way.
  std::string block;
  for (std::size_t i = 0; i < kMaxYamlNestingDepth; ++i) {
    block += std::string(i, ' ') + "k:\n";
  }
  block += std::string(kMaxYamlNestingDepth, ' ') + "k: 1\n";
  EXPECT_NE(parseErrorOf(block).find("nesting deeper than 256 levels"), std::string::npos);
}

TEST(YamlTest, AnAliasCannotCarryNestingPastTheLimit) {
  // 200 levels under an anchor, aliased 100 levels deep: 300 in all.
  const std::string anchored = "a: &a " + std::string(200, '[') + std::string(200, ']') + "\n";
  ASSERT_TRUE(parseYamlDocuments(anchored, "test.yaml").ok());
  const std::string message =
      parseErrorOf(anchored + "b: " + std::string(100, '[') + "*a" + std::string(100, ']') + "\n");
  // Column 104 is the alias (after "b: " and 100 '[').
  EXPECT_NE(message.find("line 2, column 104: nesting deeper than 256 levels"), std::string::npos)
      << message;
}

TEST(YamlTest, TheAliasLimitHoldsForTheWholeInputNotEachDocument) {
  // Each document expands its aliases to 1,100 nodes, well within the limit on its own; 200 of them
  // (a 34 KB file) would build 220,000 nodes.
  std::string doc = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]\nb: [";
  for (int i = 0; i < 100; ++i) {
    doc += (i > 0 ? ", *a" : "*a");
  }
  doc += "]\n---\n";
  ASSERT_TRUE(parseYamlDocuments(doc, "test.yaml").ok());
  std::string many;
  for (int i = 0; i < 200; ++i) {
    many += doc;
  }
  const std::string message = parseErrorOf(many);
  EXPECT_NE(message.find("aliases expand to more than 100000 nodes"), std::string::npos) << message;
}

TEST(YamlTest, LoadYamlFileUsesThePathAsSource) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("koord-yaml-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string good = (dir / "good.yaml").string();
  const std::string bad = (dir / "bad.yaml").string();
  std::ofstream(good) << "a: 1\n---\nb: 2\n";
  std::ofstream(bad) << "a: 1\na: 2\n";

  auto docs = loadYamlFile(good);
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[1].source, good);
  EXPECT_EQ((*docs)[1].lineOf("/b"), 3);

  auto failed = loadYamlFile(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message().rfind("failed to parse YAML '" + bad + "': line 2,", 0), 0u)
      << failed.status();

  auto missing = loadYamlFile((dir / "missing.yaml").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("missing.yaml"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(YamlTest, JsonPointerChildEscapes) {
  EXPECT_EQ(jsonPointerChild("", "a"), "/a");
  EXPECT_EQ(jsonPointerChild("/a", "b/c~d"), "/a/b~1c~0d");
  EXPECT_EQ(jsonPointerChild("/a", ""), "/a/");
}

}  // namespace
}  // namespace koord::config
