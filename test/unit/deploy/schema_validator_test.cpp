// koord::testing::schema::validate(), applyDefaults() and checkStructural() on small schemas.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/support/schema/validator.hpp"

namespace koord::testing::schema {
namespace {

const char* kQuantityPattern =
    R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)";

Json testSchema() {
  Json quantity = {{"anyOf", Json::array({{{"type", "integer"}}, {{"type", "string"}}})},
                   {"pattern", kQuantityPattern},
                   {"x-kubernetes-int-or-string", true}};
  return Json{
      {"type", "object"},
      {"required", {"name"}},
      {"properties",
       {{"name", {{"type", "string"}, {"maxLength", 8}}},
        {"mode", {{"type", "string"}, {"enum", {"A", "B"}}, {"default", "A"}}},
        {"count", {{"type", "integer"}, {"format", "int32"}, {"minimum", 0}, {"maximum", 10}}},
        {"big", {{"type", "integer"}, {"format", "int64"}}},
        {"ratio", {{"type", "number"}}},
        {"flag", {{"type", "boolean"}, {"default", true}}},
        {"when", {{"type", "string"}, {"format", "date-time"}, {"nullable", true}}},
        {"list",
         {{"type", "array"}, {"minItems", 1}, {"maxItems", 2}, {"items", {{"type", "string"}}}}},
        {"resources", {{"type", "object"}, {"additionalProperties", quantity}}},
        {"free", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}},
        {"size", {{"x-kubernetes-int-or-string", true}}},
        {"child",
         {{"type", "object"},
          {"required", {"id"}},
          {"properties",
           {{"id", {{"type", "string"}}}, {"weight", {{"type", "integer"}, {"default", 1}}}}}}}}}};
}

struct Case {
  std::string name;
  Json value;
  std::vector<std::string> errors;    // exact FieldError::toString() values, in order
  std::vector<std::string> warnings;  // exact warnings
};

TEST(SchemaValidateTest, Table) {
  const std::vector<Case> cases = {
      {"minimal valid", {{"name", "x"}}, {}, {}},
      {"missing required", Json::object(), {"name: Required value"}, {}},
      {"null counts as absent", {{"name", nullptr}}, {"name: Required value"}, {}},
      {"nullable null is fine", {{"name", "x"}, {"when", nullptr}}, {}, {}},
      {"wrong type", {{"name", 5}}, {"name: Invalid value: 5: must be of type string"}, {}},
      {"too long",
       {{"name", "abcdefghi"}},
       {"name: Invalid value: \"abcdefghi\": may not be longer than 8 characters"},
       {}},
      {"enum",
       {{"name", "x"}, {"mode", "C"}},
       {"mode: Unsupported value: \"C\": supported values: \"A\", \"B\""},
       {}},
      {"integer bounds",
       {{"name", "x"}, {"count", 11}},
       {"count: Invalid value: 11: should be less than or equal to 10"},
       {}},
      {"integer below minimum",
       {{"name", "x"}, {"count", -1}},
       {"count: Invalid value: -1: should be greater than or equal to 0"},
       {}},
      {"whole float is an integer", {{"name", "x"}, {"count", 4.0}}, {}, {}},
      {"fraction is not an integer",
       {{"name", "x"}, {"count", 4.5}},
       {"count: Invalid value: 4.5: must be of type integer"},
       {}},
      {"int32 overflow",
       {{"name", "x"}, {"big", 1}, {"count", 3000000000LL}},
       {"count: Invalid value: 3000000000: should be less than or equal to 10",
        "count: Invalid value: 3000000000: must be of format int32"},
       {}},
      {"int64 overflow",
       {{"name", "x"}, {"big", 18446744073709551615ULL}},
       {"big: Invalid value: 18446744073709551615: must be of format int64"},
       {}},
      {"number takes both", {{"name", "x"}, {"ratio", 1}}, {}, {}},
      {"boolean",
       {{"name", "x"}, {"flag", "yes"}},
       {"flag: Invalid value: \"yes\": must be of type boolean"},
       {}},
      {"date-time", {{"name", "x"}, {"when", "2024-05-01T08:00:00Z"}}, {}, {}},
      {"date-time with fraction and offset",
       {{"name", "x"}, {"when", "2024-05-01T08:00:00.123+08:00"}},
       {},
       {}},
      {"date-time with a bad offset",
       {{"name", "x"}, {"when", "2024-05-01T08:00:00+8"}},
       {"when: Invalid value: \"2024-05-01T08:00:00+8\": must be of format date-time (RFC 3339)"},
       {}},
      {"bad date-time",
       {{"name", "x"}, {"when", "2024-05-01"}},
       {"when: Invalid value: \"2024-05-01\": must be of format date-time (RFC 3339)"},
       {}},
      {"too few items",
       {{"name", "x"}, {"list", Json::array()}},
       {"list: Invalid value: 0: should have at least 1 items"},
       {}},
      {"too many items",
       {{"name", "x"}, {"list", {"a", "b", "c"}}},
       {"list: Invalid value: 3: should have at most 2 items"},
       {}},
      {"item type",
       {{"name", "x"}, {"list", {"a", 2}}},
       {"list[1]: Invalid value: 2: must be of type string"},
       {}},
      {"quantities",
       {{"name", "x"}, {"resources", {{"cpu", "100m"}, {"memory", 1024}, {"gpu", "1.5e3"}}}},
       {},
       {}},
      {"bad quantity",
       {{"name", "x"}, {"resources", {{"cpu", "1 core"}}}},
       {std::string("resources.cpu: Invalid value: \"1 core\": should match '") + kQuantityPattern +
        "'"},
       {}},
      {"quantity of the wrong type",
       {{"name", "x"}, {"resources", {{"cpu", true}}}},
       {"resources.cpu: Invalid value: true: must be of type integer or string"},
       {}},
      {"int-or-string", {{"name", "x"}, {"size", "50%"}}, {}, {}},
      {"int-or-string rejects objects",
       {{"name", "x"}, {"size", Json::object()}},
       {"size: Invalid value: {}: must be of type integer or string"},
       {}},
      {"preserve-unknown keeps anything", {{"name", "x"}, {"free", {{"a", {{"b", 1}}}}}}, {}, {}},
      {"unknown fields are warnings",
       {{"name", "x"}, {"nmae", "y"}, {"child", {{"id", "1"}, {"x", 1}}}},
       {},
       {"unknown field \"child.x\"", "unknown field \"nmae\""}},
      {"nested required",
       {{"name", "x"}, {"child", Json::object()}},
       {"child.id: Required value"},
       {}},
  };
  const Json schema = testSchema();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ValidationResult result = validate(schema, c.value);
    std::vector<std::string> errors;
    for (const FieldError& error : result.errors) {
      errors.push_back(error.toString());
    }
    EXPECT_EQ(errors, c.errors);
    std::vector<std::string> warnings = result.warnings;
    std::sort(warnings.begin(), warnings.end());
    EXPECT_EQ(warnings, c.warnings);
    EXPECT_EQ(result.ok(), c.errors.empty());
  }
}

TEST(SchemaValidateTest, ToStatusJoinsErrorsAndIgnoresWarnings) {
  ValidationResult result = validate(testSchema(), Json{{"mode", "C"}, {"unknown", 1}});
  Status status = result.toStatus("Thing/t");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "failed to validate 'Thing/t': name: Required value; mode: Unsupported value: \"C\": "
            "supported values: \"A\", \"B\"");
  EXPECT_TRUE(validate(testSchema(), Json{{"name", "x"}, {"unknown", 1}}).toStatus("t").isOk());
}

TEST(SchemaValidateTest, ValidateObjectChecksObjectMetaAndTypeMeta) {
  const Json schema = {{"type", "object"},
                       {"properties",
                        {{"apiVersion", {{"type", "string"}}},
                         {"kind", {{"type", "string"}}},
                         {"metadata", {{"type", "object"}}}}}};
  ValidationResult ok = validateObject(
      schema, Json{{"apiVersion", "a/v1"}, {"kind", "K"}, {"metadata", {{"generateName", "x-"}}}});
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.warnings.empty()) << "metadata fields are not pruned";
  ValidationResult bad = validateObject(schema, Json{{"metadata", {{"labels", {{"a", 1}}}}}});
  std::vector<std::string> errors;
  for (const FieldError& error : bad.errors) {
    errors.push_back(error.toString());
  }
  EXPECT_EQ(errors, (std::vector<std::string>{
                        "apiVersion: Required value", "kind: Required value",
                        "metadata.name: Required value: name or generateName is required",
                        "metadata.labels.a: Invalid value: 1: must be of type string"}));
}

TEST(SchemaDefaultsTest, FillsAbsentFieldsOfExistingObjectsOnly) {
  const Json schema = testSchema();
  const Json out = applyDefaults(
      schema, Json{{"name", "x"}, {"flag", nullptr}, {"child", {{"id", "1"}}}, {"mode", "B"}});
  EXPECT_EQ(out.at("mode"), "B") << "a set field keeps its value";
  EXPECT_EQ(out.at("flag"), true) << "null is defaulted where not nullable";
  EXPECT_EQ(out.at("child").at("weight"), 1);
  EXPECT_FALSE(applyDefaults(schema, Json{{"name", "x"}}).contains("child"));
  EXPECT_EQ(applyDefaults(schema, Json{{"name", "x"}}).at("mode"), "A");
}

TEST(SchemaValidateTest, DefaultsSatisfyRequired) {
  const Json schema = {{"type", "object"},
                       {"required", {"ttl"}},
                       {"properties", {{"ttl", {{"type", "string"}, {"default", "24h"}}}}}};
  EXPECT_TRUE(validate(schema, Json::object()).ok());
}

struct StructuralCase {
  std::string name;
  Json schema;
  std::string violation;  // a substring of one violation; "" when the schema is structural
};

Json objectWith(const Json& property) {
  return Json{{"type", "object"}, {"properties", {{"f", property}}}};
}

TEST(StructuralTest, Table) {
  const Json int_or_string_pair = Json::array({{{"type", "integer"}}, {{"type", "string"}}});
  const std::vector<StructuralCase> cases = {
      {"structural", testSchema(), ""},
      {"root must be an object", Json{{"type", "string"}},
       "openAPIV3Schema.type: Unsupported value"},
      {"missing type", objectWith({{"description", "x"}}),
       "openAPIV3Schema.properties[f].type: Required value: must not be empty for specified object "
       "fields"},
      {"preserve-unknown needs no type",
       objectWith({{"x-kubernetes-preserve-unknown-fields", true}}), ""},
      {"preserve-unknown false",
       objectWith({{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", false}}),
       "x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"},
      {"unknown type", objectWith({{"type", "map"}}),
       "properties[f].type: Unsupported value: \"map\""},
      {"array without items", objectWith({{"type", "array"}}),
       "properties[f].items: Required value"},
      {"properties with additionalProperties",
       objectWith({{"type", "object"},
                   {"properties", Json::object()},
                   {"additionalProperties", {{"type", "string"}}}}),
       "additionalProperties and properties are mutually exclusive"},
      {"enum on integer", objectWith({{"type", "integer"}, {"enum", {1, 2}}}),
       "properties[f].enum: Forbidden: enum is only allowed with type string"},
      {"int-or-string with a type",
       objectWith({{"type", "string"}, {"x-kubernetes-int-or-string", true}}),
       "properties[f].type: Forbidden: must be empty when x-kubernetes-int-or-string is true"},
      {"int-or-string with its anyOf pair",
       objectWith({{"x-kubernetes-int-or-string", true}, {"anyOf", int_or_string_pair}}), ""},
      {"int-or-string with another anyOf",
       objectWith({{"x-kubernetes-int-or-string", true},
                   {"anyOf", Json::array({{{"type", "number"}}, {{"type", "string"}}})}}),
       "properties[f].anyOf: Forbidden"},
      {"type inside anyOf",
       objectWith(
           {{"type", "string"}, {"anyOf", Json::array({{{"type", "string"}, {"pattern", "a"}}})}}),
       "properties[f].anyOf[0].type: Forbidden: must not be used inside anyOf"},
      {"root metadata with labels",
       Json{{"type", "object"},
            {"properties",
             {{"metadata",
               {{"type", "object"}, {"properties", {{"labels", {{"type", "object"}}}}}}}}}},
       "properties[metadata].properties[labels]: Forbidden: only name and generateName"},
      {"root metadata name constrained",
       Json{{"type", "object"},
            {"properties",
             {{"metadata",
               {{"type", "object"},
                {"properties", {{"name", {{"type", "string"}, {"maxLength", 5}}}}}}}}}},
       "metadata.name may only be {type: string}"},
      {"nested metadata is free",
       objectWith(
           {{"type", "object"},
            {"properties",
             {{"metadata",
               {{"type", "object"},
                {"properties",
                 {{"labels",
                   {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}}}}}}}}}),
       ""},
      {"default of the wrong type", objectWith({{"type", "integer"}, {"default", "1"}}),
       "properties[f].default: Invalid value: \"1\""},
      {"default outside the enum",
       objectWith({{"type", "string"}, {"enum", {"A"}}, {"default", "B"}}),
       "Unsupported value: \"B\""},
      {"default with a field to prune",
       objectWith({{"type", "object"},
                   {"properties", {{"a", {{"type", "string"}}}}},
                   {"default", {{"b", "x"}}}}),
       "must not have unknown field"},
      {"required names a property",
       objectWith({{"type", "object"}, {"properties", Json::object()}, {"required", {"x"}}}),
       "properties[f].required: Invalid value: \"x\": is not a declared property"},
      {"pattern must compile", objectWith({{"type", "string"}, {"pattern", "(a"}}),
       "properties[f].pattern: Invalid value: \"(a\": does not compile"},
      {"format for the type", objectWith({{"type", "string"}, {"format", "int32"}}),
       "properties[f].format: Unsupported value: \"int32\""},
      {"minimum on a string", objectWith({{"type", "string"}, {"minimum", 1}}),
       "properties[f].minimum: Forbidden"},
      {"unknown keyword", objectWith({{"type", "string"}, {"requried", true}}),
       "properties[f].requried: Forbidden: unknown schema keyword"},
      {"bad map type", objectWith({{"type", "object"}, {"x-kubernetes-map-type", "loose"}}),
       "x-kubernetes-map-type: Unsupported value"},
  };
  for (const StructuralCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> violations = checkStructural(c.schema);
    std::string all;
    for (const std::string& v : violations) {
      all += v + "\n";
    }
    if (c.violation.empty()) {
      EXPECT_TRUE(violations.empty()) << all;
    } else {
      EXPECT_NE(all.find(c.violation), std::string::npos) << all;
    }
  }
}

}  // namespace
}  // namespace koord::testing::schema
