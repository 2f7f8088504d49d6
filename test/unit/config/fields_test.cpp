// Strict-field checking and located errors for typed config loaders.
#include <gtest/gtest.h>

#include "koord/config/yaml.hpp"

namespace koord::config {
namespace {

YamlDocument load(const std::string& text) {
  auto docs = parseYamlDocuments(text, "policy.yaml");
  EXPECT_TRUE(docs.ok()) << docs.status();
  return docs.ok() && !docs->empty() ? (*docs)[0] : YamlDocument{};
}

TEST(CheckKnownFieldsTest, NamesTheLineOfAMisIndentedKey) {
  const YamlDocument doc = load(R"(apiVersion: v1
profiles:
  - name: default
    plugins:
      descheduler: {enabled: true}
    deschedule:
      enabled: false
)");
  const Status status =
      checkKnownFields(doc, "/profiles/0", {"name", "plugins", "pluginConfig", "descheduler"});
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "policy.yaml: line 6: profiles[0]: unknown field \"deschedule\" (did you mean "
            "\"descheduler\"?)");
}

TEST(CheckKnownFieldsTest, Table) {
  const YamlDocument doc = load(R"(kind: Config
spec:
  a: 1
  b: 2
  zzz: 3
  Enabled: true
list: [1, 2]
empty:
)");
  struct Case {
    std::string pointer;
    std::initializer_list<std::string_view> known;
    std::string error;  // "" when ok
  };
  const Case cases[] = {
      {"/spec", {"a", "b", "zzz", "Enabled"}, ""},
      {"/spec",
       {"a", "b", "enabled"},
       "policy.yaml: line 6: spec: unknown field \"Enabled\" (did you mean \"enabled\"?); "
       "policy.yaml: line 5: spec: unknown field \"zzz\""},
      {"", {"kind", "spec", "list"}, "policy.yaml: line 8: unknown field \"empty\""},
      {"/missing", {}, ""},
      {"/empty", {}, ""},
      {"/list", {}, "policy.yaml: line 7: list: expected a mapping, got array"},
      {"not-a-pointer", {}, "failed to check fields of 'not-a-pointer': invalid JSON pointer: "},
  };
  for (const Case& c : cases) {
    const Status status = checkKnownFields(doc, c.pointer, c.known);
    if (c.error.empty()) {
      EXPECT_TRUE(status.isOk()) << c.pointer << ": " << status;
    } else {
      EXPECT_EQ(status.message().substr(0, c.error.size()), c.error) << c.pointer;
    }
  }
}

TEST(ErrorAtTest, LocatesTheNode) {
  const YamlDocument doc = load("a:\n  b: -1\n");
  EXPECT_EQ(errorAt(doc, "/a/b", "must not be negative").message(),
            "policy.yaml: line 2: must not be negative");
  EXPECT_EQ(errorAt(doc, "/a/zz", "required").message(), "policy.yaml: required");
  EXPECT_EQ(errorAt(doc, "/a/b", "x").code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace koord::config
