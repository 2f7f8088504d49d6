// How single YAML scalars become JSON values (the sigs.k8s.io/yaml rules a Kubernetes user knows).
#include <gtest/gtest.h>

#include "koord/config/yaml.hpp"

namespace koord::config {
namespace {

struct ScalarCase {
  std::string yaml;  // the value after "v: "
  std::string json;  // the expected JSON text of the value (dump(), so 4 and 4.0 differ)
};

void PrintTo(const ScalarCase& c, std::ostream* os) {
  *os << "v: " << c.yaml;
}

class ScalarTest : public ::testing::TestWithParam<ScalarCase> {};

TEST_P(ScalarTest, ConvertsAsKubernetesDoes) {
  const ScalarCase& c = GetParam();
  auto docs = parseYamlDocuments("v: " + c.yaml + "\n", "scalar.yaml");
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 1u);
  EXPECT_EQ((*docs)[0].value.at("v").dump(), c.json) << "yaml: v: " << c.yaml;
}

INSTANTIATE_TEST_SUITE_P(
    Scalars, ScalarTest,
    ::testing::Values(
        // Numbers stay numbers; quoting makes a string.
        ScalarCase{"4", "4"}, ScalarCase{"\"4\"", "\"4\""}, ScalarCase{"'4'", "\"4\""},
        ScalarCase{"-7", "-7"}, ScalarCase{"+7", "7"}, ScalarCase{"0", "0"},
        ScalarCase{"4.5", "4.5"}, ScalarCase{"1e3", "1000.0"}, ScalarCase{".5", "0.5"},
        ScalarCase{"-2.5e-1", "-0.25"}, ScalarCase{"1_000", "1000"},
        // yaml.v2 integer bases: octal file modes are the Kubernetes idiom (defaultMode: 0644).
        ScalarCase{"0644", "420"}, ScalarCase{"0o17", "15"}, ScalarCase{"0x1F", "31"},
        ScalarCase{"0b101", "5"}, ScalarCase{"08", "8.0"},
        ScalarCase{"9223372036854775807", "9223372036854775807"},
        ScalarCase{"-9223372036854775808", "-9223372036854775808"},
        ScalarCase{"18446744073709551615", "18446744073709551615"},
        ScalarCase{"18446744073709551616", "1.8446744073709552e+19"},
        ScalarCase{"1e999", "\"1e999\""},
        // Booleans: only true/false spellings; YAML 1.1 yes/no/on/off stay strings.
        ScalarCase{"true", "true"}, ScalarCase{"True", "true"}, ScalarCase{"FALSE", "false"},
        ScalarCase{"yes", "\"yes\""}, ScalarCase{"off", "\"off\""}, ScalarCase{"NO", "\"NO\""},
        ScalarCase{"\"true\"", "\"true\""},
        // Nulls.
        ScalarCase{"null", "null"}, ScalarCase{"~", "null"}, ScalarCase{"", "null"},
        ScalarCase{"NULL", "null"}, ScalarCase{"'null'", "\"null\""},
        // Everything else is a string, quantities included.
        ScalarCase{"100m", "\"100m\""}, ScalarCase{"1Gi", "\"1Gi\""},
        ScalarCase{"2024-01-02", "\"2024-01-02\""}, ScalarCase{"1.2.3", "\"1.2.3\""},
        ScalarCase{"-x", "\"-x\""}, ScalarCase{"hello world", "\"hello world\""},
        ScalarCase{"\"a\\tb\"", "\"a\\tb\""}, ScalarCase{"|\n  line\n", "\"line\\n\""},
        ScalarCase{">-\n  folded\n  text\n", "\"folded text\""},
        // Explicit tags.
        ScalarCase{"!!str 4", "\"4\""}, ScalarCase{"!!int \"5\"", "5"},
        ScalarCase{"!!float 2", "2.0"}, ScalarCase{"!!bool \"true\"", "true"},
        ScalarCase{"!!null ''", "null"}, ScalarCase{"!custom 4", "\"4\""}));

TEST(ScalarErrorTest, UnrepresentableValuesAreErrorsWithTheirLine) {
  const std::pair<std::string, std::string> cases[] = {
      {"a: 1\nv: .inf\n", "line 2, column 4: unsupported value .inf"},
      {"a: 1\nb: 2\nv: -.Inf\n", "line 3, column 4: unsupported value -.Inf"},
      {"v: .nan\n", "line 1, column 4: unsupported value .nan"},
      {"v: !!int abc\n", "line 1, column 4: cannot decode \"abc\" as !!int"},
      {"v: !!bool yes\n", "line 1, column 4: cannot decode \"yes\" as !!bool"},
  };
  for (const auto& [yaml, expected] : cases) {
    auto docs = parseYamlDocuments(yaml, "bad.yaml");
    ASSERT_FALSE(docs.ok()) << yaml;
    EXPECT_EQ(docs.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(docs.status().message().find("failed to parse YAML 'bad.yaml': " + expected),
              std::string::npos)
        << docs.status();
  }
}

}  // namespace
}  // namespace koord::config
