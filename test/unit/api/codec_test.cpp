#include "koord/api/codec.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace koord::api {
namespace {

// The test's own fromJson/toJson overloads below would hide the codec's for unqualified calls.
using ::koord::api::fromJson;
using ::koord::api::toJson;

// A small model written the way every real model is: typed fields plus `extra`.
struct Owner {
  std::string name;
  std::optional<bool> controller;
  Json extra;
};

Status fromJson(const Json& j, Owner& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.required("name", out.name).field("controller", out.controller);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const Owner& o) {
  return ObjectEncoder().field("name", o.name).field("controller", o.controller).finish(o.extra);
}

struct Spec {
  std::vector<Owner> owners;
  std::map<std::string, std::string> labels;
  int64_t replicas = 0;
  Json extra;
};

Status fromJson(const Json& j, Spec& out, const std::string& path) {
  ObjectDecoder d(j, path);
  d.field("owners", out.owners).field("labels", out.labels).field("replicas", out.replicas);
  out.extra = d.rest();
  return d.status();
}

Json toJson(const Spec& s) {
  return ObjectEncoder()
      .field("owners", s.owners)
      .field("labels", s.labels)
      .always("replicas", s.replicas)
      .finish(s.extra);
}

TEST(CodecTest, RoundTripKeepsUnknownFieldsAtEveryLevel) {
  const char* text = R"({"owners":[{"name":"a","controller":true,"future":{"x":1}}],
                         "labels":{"k":"v"},"replicas":3,"newField":[1,2]})";
  auto spec = decode<Spec>(text, "spec");
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->owners.size(), 1U);
  EXPECT_EQ(spec->owners[0].name, "a");
  EXPECT_EQ(spec->owners[0].controller, true);
  EXPECT_EQ(spec->labels.at("k"), "v");
  EXPECT_EQ(toJson(*spec), Json::parse(text));
}

TEST(CodecTest, ErrorsNameTheFieldPath) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {R"({"owners":[{"name":"a"},{"name":5}]})",
       "spec.owners[1].name: expected string, got number"},
      {R"({"owners":[{"controller":true}]})", "spec.owners[0].name: required"},
      {R"({"owners":{"name":"a"}})", "spec.owners: expected array, got object"},
      {R"({"owners":[[]]})", "spec.owners[0]: expected object, got array"},
      {R"({"labels":{"k":1}})", "spec.labels.k: expected string, got number"},
      {R"({"replicas":1.5})", "spec.replicas: expected integer, got number"},
      {R"({"replicas":99999999999999999999})", "spec.replicas: expected integer, got number"},
      {R"([])", "spec: expected object, got array"},
  };
  for (const auto& c : cases) {
    auto spec = decode<Spec>(c.text, "spec");
    ASSERT_FALSE(spec.ok()) << c.text;
    EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(spec.status().message(), c.message) << c.text;
  }
}

TEST(CodecTest, NullAndAbsentLeaveDefaults) {
  auto spec = decode<Spec>(R"({"owners":null,"replicas":null})");
  ASSERT_TRUE(spec.ok());
  EXPECT_TRUE(spec->owners.empty());
  EXPECT_EQ(spec->replicas, 0);
  // Empty collections are omitted on output; always() fields are written.
  EXPECT_EQ(toJson(*spec), Json::parse(R"({"replicas":0})"));
}

TEST(CodecTest, MalformedJsonIsAnErrorWithOffset) {
  for (const char* text : {"{", "{\"a\":}", "", "[1,2", "nul"}) {
    auto r = parseJson(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.status().message().find("failed to parse JSON"), std::string::npos);
  }
}

// `depth` objects nested under key "a", around `inner`.
std::string nestedObjects(std::size_t depth, const std::string& inner = "1") {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) {
    out += "{\"a\":";
  }
  return out + inner + std::string(depth, '}');
}

TEST(CodecTest, NestingPastTheLimitIsRefusedNamingItAndWhere) {
  // At the limit the value parses, and the recursive code that copies, writes and compares it
  // runs.
  auto at_limit = parseJson(nestedObjects(kMaxJsonNestingDepth));
  ASSERT_TRUE(at_limit.ok()) << at_limit.status();
  const Json copy = *at_limit;
  EXPECT_EQ(copy, *at_limit);
  EXPECT_EQ(copy.dump(), nestedObjects(kMaxJsonNestingDepth));

  // One more level, a deep array inside a string-laden object, and the 100,000 levels that used
  // to overflow a thread's stack: refused, naming the limit and the byte where it was passed.
  struct Case {
    std::string text;
    std::size_t offset;
  };
  const std::string strings = R"({"s":"{[{[\"","a":)";
  const std::vector<Case> cases = {
      {nestedObjects(kMaxJsonNestingDepth + 1), 5 * kMaxJsonNestingDepth},
      {strings + std::string(300000, '[') + std::string(300000, ']') + "}",
       strings.size() + kMaxJsonNestingDepth - 1},
      {nestedObjects(100000), 5 * kMaxJsonNestingDepth},
  };
  for (const Case& c : cases) {
    auto r = parseJson(c.text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(),
              "failed to parse JSON: nesting deeper than 256 levels (at byte " +
                  std::to_string(c.offset) + ")");
    EXPECT_EQ(checkJsonNesting(c.text).message(), r.status().message());
  }
  EXPECT_TRUE(checkJsonNesting(nestedObjects(kMaxJsonNestingDepth)).isOk());
}

TEST(CodecTest, IntegersAreRangeChecked) {
  int32_t small = 0;
  EXPECT_TRUE(fromJson(Json(2147483647), small, "x").isOk());
  EXPECT_EQ(small, 2147483647);
  EXPECT_EQ(fromJson(Json(2147483648LL), small, "x").message(), "x: integer out of range");
  EXPECT_EQ(fromJson(Json(-2147483649LL), small, "x").message(), "x: integer out of range");
  int64_t big = 0;
  EXPECT_EQ(fromJson(Json(18446744073709551615ULL), big, "x").message(), "x: integer out of range");
  EXPECT_TRUE(fromJson(Json(3.0), big, "x").isOk());
  EXPECT_EQ(big, 3);
}

TEST(CodecTest, QuantitiesAcceptStringsAndNumbers) {
  resource::Quantity q;
  ASSERT_TRUE(fromJson(Json("1500m"), q, "cpu").isOk());
  EXPECT_EQ(q.milliValue(), 1500);
  ASSERT_TRUE(fromJson(Json(4), q, "cpu").isOk());
  EXPECT_EQ(q.value(), 4);
  EXPECT_EQ(toJson(q), Json("4"));
  Status bad = fromJson(Json("4 cores"), q, "spec.requests.cpu");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.message().rfind("spec.requests.cpu: ", 0), 0U) << bad.message();
  EXPECT_EQ(fromJson(Json::array(), q, "cpu").message(),
            "cpu: expected quantity (string or number), got array");
}

}  // namespace
}  // namespace koord::api
