#include "koord/api/json_prune.hpp"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace koord::api {
namespace {

std::string readTestdata(const std::string& name) {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/" + name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// What parseJson gives with every metadata.managedFields erased by hand: the reference result.
Json withoutManagedFields(Json j) {
  if (j.is_object()) {
    if (j.contains("metadata") && j["metadata"].is_object()) {
      j["metadata"].erase("managedFields");
    }
    for (auto& [key, value] : j.items()) {
      value = withoutManagedFields(value);
    }
  } else if (j.is_array()) {
    for (auto& element : j) {
      element = withoutManagedFields(element);
    }
  }
  return j;
}

TEST(JsonPruneTest, AWatchEventLosesOnlyItsObjectsManagedFields) {
  const std::string pod = readTestdata("typical-pod.json");
  const std::string event = R"({"type":"MODIFIED","object":)" + pod + "}";
  auto pruned = parseJsonPruned(event, managedFieldsOfWatchEvent());
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  auto full = parseJson(event);
  ASSERT_TRUE(full.ok());
  ASSERT_TRUE((*full)["object"]["metadata"].contains("managedFields"));
  EXPECT_FALSE((*pruned)["object"]["metadata"].contains("managedFields"));
  EXPECT_EQ(*pruned, withoutManagedFields(*full));
}

TEST(JsonPruneTest, AListLosesTheManagedFieldsOfEveryItemAndNothingElse) {
  const std::string pod = readTestdata("typical-pod.json");
  const std::string list =
      R"({"kind":"PodList","metadata":{"resourceVersion":"7"},"items":[)" + pod + "," + pod + "]}";
  auto pruned = parseJsonPruned(list, managedFieldsOfObjectOrList());
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  ASSERT_EQ((*pruned)["items"].size(), 2u);
  for (const Json& item : (*pruned)["items"]) {
    EXPECT_FALSE(item["metadata"].contains("managedFields"));
    EXPECT_EQ(item["metadata"]["name"], Json::parse(pod)["metadata"]["name"]);
  }
  EXPECT_EQ((*pruned)["metadata"]["resourceVersion"], "7");
  EXPECT_EQ(*pruned, withoutManagedFields(*parseJson(list)));
}

TEST(JsonPruneTest, AMemberOfTheSameNameElsewhereIsKept) {
  // Only metadata.managedFields is pruned: a label, an annotation or a spec field of that name is
  // data, and a managedFields under another key is not at the path.
  const std::string text =
      R"({"metadata":{"labels":{"managedFields":"x"}},"spec":{"managedFields":[1,2]},)"
      R"("status":{"metadata":{"managedFields":3}}})";
  auto pruned = parseJsonPruned(text, managedFieldsOfObjectOrList());
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, *parseJson(text));
}

TEST(JsonPruneTest, APathThatDoesNotFitTheDocumentPrunesNothing) {
  // "items" is an object here, not an array: "[]" does not match it.
  const std::string text =
      R"({"items":{"a":{"metadata":{"managedFields":[]}}},"object":[{"metadata":{}}]})";
  auto pruned = parseJsonPruned(text, managedFieldsOfObjectOrList());
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, *parseJson(text));
  auto scalars = parseJsonPruned("[1,\"two\",null,true,2.5]", managedFieldsOfWatchEvent());
  ASSERT_TRUE(scalars.ok());
  EXPECT_EQ(*scalars, Json::parse("[1,\"two\",null,true,2.5]"));
}

TEST(JsonPruneTest, DuplicateKeysKeepTheLastAsTheDomParserDoes) {
  const std::string text = R"({"a":1,"a":{"b":2},"metadata":{"managedFields":1,"name":"n"}})";
  auto pruned = parseJsonPruned(text, managedFieldsOfObjectOrList());
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, Json::parse(R"({"a":{"b":2},"metadata":{"name":"n"}})"));
}

TEST(JsonPruneTest, MalformedTextIsTheSameErrorAsParseJson) {
  for (std::string_view bad : {R"({"object":{"metadata":{"managedFields":[}}})",
                               R"({"type":"ADDED"} trailing)", "", R"({"a":)", "[1,,2]"}) {
    auto pruned = parseJsonPruned(bad, managedFieldsOfWatchEvent());
    auto plain = parseJson(bad);
    ASSERT_FALSE(pruned.ok()) << bad;
    ASSERT_FALSE(plain.ok()) << bad;
    EXPECT_EQ(pruned.status().message(), plain.status().message()) << bad;
  }
}

TEST(JsonPruneTest, DeepNestingInsideAPrunedMemberIsSkipped) {
  std::string deep;
  for (int i = 0; i < 10000; ++i) {
    deep += "[";
  }
  for (int i = 0; i < 10000; ++i) {
    deep += "]";
  }
  const std::string text =
      R"({"object":{"metadata":{"managedFields":)" + deep + R"(,"name":"p"}}})";
  auto pruned = parseJsonPruned(text, managedFieldsOfWatchEvent());
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, Json::parse(R"({"object":{"metadata":{"name":"p"}}})"));
}

}  // namespace
}  // namespace koord::api
