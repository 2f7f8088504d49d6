// The field-list mechanism (koord/api/fields.hpp): one list drives both decode and encode, with
// the ObjectDecoder / ObjectEncoder behaviour every model relied on before (field paths in errors,
// unknown keys kept in `extra`, omitempty unless a modifier says otherwise).
#include "koord/api/fields.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/core/pod.hpp"

namespace koord::api {
namespace {

using ::koord::api::fromJson;
using ::koord::api::toJson;

struct Item {
  std::string name;
  int32_t weight = 0;
  Json extra;

  bool operator==(const Item&) const = default;
};

constexpr auto kItemFields = std::tuple{
    field("name", &Item::name).required().always(),
    field("weight", &Item::weight).omitZero(),
};

Status fromJson(const Json& j, Item& out, const std::string& path) {
  return decodeFields(j, out, path, kItemFields);
}

Json toJson(const Item& v) {
  return encodeFields(v, kItemFields);
}

// A text member that travels upper-cased on the wire, for decodeWith/encodeWith.
Status fromShout(const Json& j, std::string& out, const std::string& path) {
  if (!j.is_string()) {
    return typeError(path, "string", j);
  }
  out = j.get<std::string>();
  for (char& c : out) {
    c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return Status::ok();
}

Json toShout(const std::string& v) {
  std::string s = v;
  for (char& c : s) {
    c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  }
  return s;
}

struct Model {
  std::string plain;                    // omitempty
  std::string fixed;                    // always
  int64_t count = 0;                    // omitZero
  bool flag = false;                    // omitZero
  std::optional<Item> pointer;          // ifSet
  std::string time;                     // nullIfEmpty
  std::vector<Item> items;              // omitempty
  std::map<std::string, int64_t> nums;  // nullIfEmpty
  std::string readOnly;                 // decodeOnly
  std::string writeOnly;                // encodeOnly
  std::string shout;                    // decodeWith / encodeWith
  Json extra;

  bool operator==(const Model&) const = default;
};

constexpr auto kModelFields = std::tuple{
    field("plain", &Model::plain),
    field("fixed", &Model::fixed).always(),
    field("count", &Model::count).omitZero(),
    field("flag", &Model::flag).omitZero(),
    field("pointer", &Model::pointer).ifSet(),
    field("time", &Model::time).nullIfEmpty(),
    field("items", &Model::items),
    field("nums", &Model::nums).nullIfEmpty(),
    field("readOnly", &Model::readOnly).decodeOnly(),
    field("writeOnly", &Model::writeOnly).encodeOnly(),
    field("shout", &Model::shout).decodeWith(&fromShout).encodeWith(&toShout),
};

Status fromJson(const Json& j, Model& out, const std::string& path) {
  return decodeFields(j, out, path, kModelFields);
}

Json toJson(const Model& v) {
  return encodeFields(v, kModelFields);
}

TEST(FieldsTest, EmptyModelWritesOnlyAlwaysAndNullFields) {
  EXPECT_EQ(toJson(Model{}), Json::parse(R"({"fixed":"","time":null,"nums":null})"));
}

TEST(FieldsTest, EveryModifierWritesItsShape) {
  Model m;
  m.plain = "p";
  m.fixed = "f";
  m.count = 3;
  m.flag = true;
  m.pointer = Item{};  // set but empty: still written
  m.time = "2024-01-01T00:00:00Z";
  m.items = {Item{"a", 0, nullptr}, Item{"b", 2, nullptr}};
  m.nums = {{"x", 0}};
  m.readOnly = "never written";
  m.writeOnly = "w";
  m.shout = "hi";
  EXPECT_EQ(toJson(m), Json::parse(R"({
    "plain":"p","fixed":"f","count":3,"flag":true,"pointer":{"name":""},
    "time":"2024-01-01T00:00:00Z","items":[{"name":"a"},{"name":"b","weight":2}],
    "nums":{"x":0},"writeOnly":"w","shout":"HI"})"));
}

TEST(FieldsTest, RoundTripKeepsUnknownFieldsAtEveryLevel) {
  const auto in = Json::parse(R"({
    "plain":"p","fixed":"","count":7,"pointer":{"name":"n","future":1},
    "time":"t","items":[{"name":"a","weight":1,"x":[1]}],"nums":{"a":1},
    "shout":"LOUD","newField":{"k":"v"}})");
  Model m;
  ASSERT_TRUE(fromJson(in, m, "spec").isOk());
  EXPECT_EQ(m.count, 7);
  EXPECT_EQ(m.shout, "loud");
  ASSERT_TRUE(m.pointer.has_value());
  EXPECT_EQ(m.pointer->extra, Json::parse(R"({"future":1})"));
  EXPECT_EQ(m.extra, Json::parse(R"({"newField":{"k":"v"}})"));
  EXPECT_EQ(toJson(m), in);
}

TEST(FieldsTest, DecodeOnlyIsReadAndEncodeOnlyStaysInExtra) {
  Model m;
  ASSERT_TRUE(fromJson(Json::parse(R"({"readOnly":"r","writeOnly":"w"})"), m, "").isOk());
  EXPECT_EQ(m.readOnly, "r");
  EXPECT_EQ(m.writeOnly, "");
  EXPECT_EQ(m.extra, Json::parse(R"({"writeOnly":"w"})"));
}

TEST(FieldsTest, AbsentAndNullLeaveDefaults) {
  Model m;
  ASSERT_TRUE(fromJson(Json::parse(R"({"pointer":null,"count":null})"), m, "").isOk());
  EXPECT_EQ(m, Model{});
  EXPECT_TRUE(fromJson(Json(nullptr), m, "").isOk());
}

TEST(FieldsTest, RequiredFieldErrorNamesThePath) {
  Model m;
  Status s = fromJson(Json::parse(R"({"items":[{"name":"a"},{"weight":1}]})"), m, "spec");
  EXPECT_FALSE(s.isOk());
  EXPECT_EQ(s.message(), "spec.items[1].name: required");

  s = fromJson(Json::parse(R"({"pointer":{"name":null}})"), m, "spec");
  EXPECT_EQ(s.message(), "spec.pointer.name: required");
}

TEST(FieldsTest, TypeErrorsNameThePathAndTheFirstErrorInListOrderWins) {
  Model m;
  Status s = fromJson(Json::parse(R"({"count":"x","plain":1})"), m, "spec");
  EXPECT_EQ(s.message(), "spec.plain: expected string, got number");
}

TEST(FieldsTest, CustomDecoderGetsTheFieldPath) {
  Model m;
  Status s = fromJson(Json::parse(R"({"shout":5})"), m, "spec");
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("spec.shout: expected string"), std::string::npos) << s.message();
}

TEST(FieldsTest, NonObjectIsATypeError) {
  Model m;
  Status s = fromJson(Json::array(), m, "spec");
  EXPECT_NE(s.message().find("spec: expected object"), std::string::npos) << s.message();
}

// A converted model: decode and encode of a Pod agree and keep what they do not know.
TEST(FieldsTest, PodRoundTripIsExact) {
  const auto in = Json::parse(R"({
    "apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"p","namespace":"ns","creationTimestamp":null,"managedFields":[{}]},
    "spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}},"ports":[1]}],
            "hostNetwork":true,"affinity":{},"dnsPolicy":"ClusterFirst"},
    "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True",
              "lastProbeTime":null,"lastTransitionTime":"2024-01-01T00:00:00Z"}]}})");
  core::Pod pod;
  ASSERT_TRUE(core::fromJson(in, pod, "").isOk());
  EXPECT_TRUE(pod.spec.hostNetwork);
  EXPECT_TRUE(pod.spec.affinity.has_value());
  EXPECT_EQ(core::toJson(pod), in);
}

}  // namespace
}  // namespace koord::api
