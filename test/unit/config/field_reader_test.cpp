// FieldReader: every problem of a file at once, "line <n>: <path>: <message>", unknown keys with a
// did-you-mean, as errors or as warnings.
#include "koord/config/field_reader.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/meta.hpp"

namespace koord::config {
namespace {

YamlDocument parse(const std::string& text) {
  auto docs = parseYamlDocuments(text, "f.yaml");
  EXPECT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ(docs->size(), 1u);
  return docs->front();
}

TEST(FieldReaderTest, UnknownKeysNameTheirLineThePathAndAClosestKey) {
  const YamlDocument doc = parse(
      "server:\n"             // line 1
      "  adress: x\n"         // line 2
      "plugins:\n"            // line 3
      "- name: a\n"           // line 4
      "  wieght: 2\n"         // line 5
      "paralelism: 2\n"       // line 6
      "somethingElse: 1\n");  // line 7
  FieldReader r(doc);
  const Field root = r.root();
  EXPECT_TRUE(r.checkObject(root, {"server", "plugins", "parallelism"}));
  EXPECT_TRUE(r.checkObject(root.child("server"), {"address"}));
  EXPECT_TRUE(r.checkObject(root.child("plugins").item(0), {"name", "weight"}));
  const std::vector<std::string> expected = {
      "line 6: unknown field \"paralelism\" (did you mean \"parallelism\"?)",
      "line 7: unknown field \"somethingElse\"",
      "line 2: server: unknown field \"adress\" (did you mean \"address\"?)",
      "line 5: plugins[0]: unknown field \"wieght\" (did you mean \"weight\"?)",
  };
  EXPECT_EQ(r.errors(), expected);
  EXPECT_TRUE(r.warnings().empty());
}

TEST(FieldReaderTest, UnknownKeysCanBeWarnings) {
  const YamlDocument doc = parse("args:\n  flowControlQPS: 5\n");
  FieldReader r(doc);
  EXPECT_TRUE(r.checkObject(r.root().child("args"), {"evictQPS"}, UnknownFields::kWarn));
  EXPECT_TRUE(r.errors().empty());
  EXPECT_EQ(r.warnings(),
            std::vector<std::string>{"line 2: args: unknown field \"flowControlQPS\" (ignored)"});
}

TEST(FieldReaderTest, NotAMappingIsAnError) {
  const YamlDocument doc = parse("server: [1]\n");
  FieldReader r(doc);
  EXPECT_FALSE(r.checkObject(r.root().child("server"), {"address"}));
  EXPECT_TRUE(r.checkObject(r.root().child("absent"), {"address"}));
  EXPECT_EQ(r.errors(), std::vector<std::string>{"line 1: server: expected a mapping, got array"});
}

TEST(FieldReaderTest, AnAbsentFieldIsReportedOnItsParentsLine) {
  const YamlDocument doc = parse("a: 1\nplugins:\n- weight: 2\n");
  FieldReader r(doc);
  r.error(r.root().child("plugins").item(0).child("name"), "is required");
  r.error(r.root().child("missing"), "is required");
  const std::vector<std::string> expected = {"line 3: plugins[0].name: is required",
                                             "missing: is required"};
  EXPECT_EQ(r.errors(), expected);
}

TEST(FieldReaderTest, TypedReads) {
  const YamlDocument doc = parse(
      "s: text\n"                       // 1
      "b: true\n"                       // 2
      "i: 2.0\n"                        // 3
      "big: 3000000000\n"               // 4
      "neg: -1\n"                       // 5
      "d: 1.5\n"                        // 6
      "t: 1m30s\n"                      // 7
      "list: [a, b]\n"                  // 8
      "ints: {cpu: 2}\n"                // 9
      "pct: {cpu: \"90\"}\n"            // 10
      "sel: {matchLabels: {app: x}}\n"  // 11
      "nil: null\n");                   // 12
  FieldReader r(doc);
  const Field root = r.root();
  std::string s;
  bool b = false;
  int32_t i = 0;
  uint32_t big = 0;
  int64_t big64 = 0;
  double d = 0;
  std::chrono::nanoseconds t{0};
  std::vector<std::string> list;
  std::map<std::string, int64_t> ints;
  std::map<std::string, double> pct;
  std::optional<api::core::LabelSelector> sel;
  std::optional<int32_t> nil;
  r.read(root.child("s"), s);
  r.read(root.child("b"), b);
  r.read(root.child("i"), i);
  r.read(root.child("big"), big);
  r.read(root.child("big"), big64);
  r.read(root.child("d"), d);
  r.read(root.child("t"), t);
  r.read(root.child("list"), list);
  r.read(root.child("ints"), ints);
  r.read(root.child("pct"), pct);
  r.read(root.child("sel"), sel);
  r.read(root.child("nil"), nil);
  EXPECT_TRUE(r.errors().empty()) << r.errors().front();
  EXPECT_EQ(s, "text");
  EXPECT_TRUE(b);
  EXPECT_EQ(i, 2);
  EXPECT_EQ(big, 3000000000u);
  EXPECT_EQ(big64, 3000000000);
  EXPECT_EQ(d, 1.5);
  EXPECT_EQ(t, std::chrono::seconds(90));
  EXPECT_EQ(list, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ints, (std::map<std::string, int64_t>{{"cpu", 2}}));
  EXPECT_EQ(pct, (std::map<std::string, double>{{"cpu", 90}}));
  ASSERT_TRUE(sel.has_value());
  EXPECT_EQ(sel->matchLabels.at("app"), "x");
  EXPECT_FALSE(nil.has_value());
}

TEST(FieldReaderTest, WrongTypesAreErrorsAndLeaveTheTargetUnchanged) {
  const YamlDocument doc = parse(
      "s: 1\n"                       // 1
      "b: no\n"                      // 2
      "i: 1.5\n"                     // 3
      "wide: 3000000000\n"           // 4
      "neg: -1\n"                    // 5
      "t: 5\n"                       // 6
      "list: [a, 1]\n"               // 7
      "pct: {cpu: ninety}\n"         // 8
      "sel: {matchLabels: [1]}\n");  // 9
  FieldReader r(doc);
  const Field root = r.root();
  std::string s = "kept";
  bool b = true;
  int32_t i = 7;
  int32_t wide = 7;
  uint32_t neg = 7;
  std::chrono::nanoseconds t{7};
  std::vector<std::string> list = {"kept"};
  std::map<std::string, double> pct;
  std::optional<api::core::LabelSelector> sel;
  r.read(root.child("s"), s);
  r.read(root.child("b"), b);
  r.read(root.child("i"), i);
  r.read(root.child("wide"), wide);
  r.read(root.child("neg"), neg);
  r.read(root.child("t"), t);
  r.read(root.child("list"), list);
  r.read(root.child("pct"), pct);
  r.read(root.child("sel"), sel);
  ASSERT_EQ(r.errors().size(), 9u);
  EXPECT_EQ(r.errors()[0], "line 1: s: expected a string, got number");
  EXPECT_EQ(r.errors()[1], "line 2: b: expected true or false, got string");
  EXPECT_EQ(r.errors()[2], "line 3: i: expected an integer, got 1.5");
  EXPECT_EQ(r.errors()[3], "line 4: wide: value 3000000000 is out of the 32-bit integer range");
  EXPECT_EQ(r.errors()[4], "line 5: neg: must be between 0 and 4294967295");
  EXPECT_EQ(r.errors()[5], "line 6: t: expected a duration such as \"15s\", got number");
  EXPECT_EQ(r.errors()[6], "line 7: list[1]: expected a string, got number");
  EXPECT_EQ(r.errors()[7], "line 8: pct.cpu: expected a number, got \"ninety\"");
  EXPECT_EQ(r.errors()[8].rfind("line 9: sel.matchLabels: expected", 0), 0u) << r.errors()[8];
  EXPECT_EQ(s, "kept");
  EXPECT_TRUE(b);
  EXPECT_EQ(i, 7);
  EXPECT_EQ(wide, 7);
  EXPECT_EQ(neg, 7u);
  EXPECT_EQ(t, std::chrono::nanoseconds(7));
  EXPECT_EQ(list, std::vector<std::string>{"kept"});
  EXPECT_FALSE(sel.has_value());
}

}  // namespace
}  // namespace koord::config
