// createJsonPatch: the operations it writes, and that they turn `from` into `to`.
#include "manager/webhook/json_patch.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

using testing::json;

TEST(JsonPatchTest, Operations) {
  struct Case {
    std::string name;
    std::string from;
    std::string to;
    std::string patch;
  };
  const std::vector<Case> cases = {
      {"equal", R"({"a": [1, {"b": 2}]})", R"({"a": [1, {"b": 2}]})", "[]"},
      {"member added, removed, replaced", R"({"a": 1, "b": 2, "c": {"d": 3}})",
       R"({"a": 1, "c": {"d": 4}, "e": [5]})",
       R"([{"op": "remove", "path": "/b"}, {"op": "replace", "path": "/c/d", "value": 4},
           {"op": "add", "path": "/e", "value": [5]}])"},
      {"type change is a replace", R"({"a": {"b": 1}})", R"({"a": [1]})",
       R"([{"op": "replace", "path": "/a", "value": [1]}])"},
      {"array shrinks from the end", R"({"a": [1, 2, 3, 4]})", R"({"a": [1, 5]})",
       R"([{"op": "replace", "path": "/a/1", "value": 5}, {"op": "remove", "path": "/a/3"},
           {"op": "remove", "path": "/a/2"}])"},
      {"array grows", R"({"a": [1]})", R"({"a": [1, 2, {"x": 3}]})",
       R"([{"op": "add", "path": "/a/1", "value": 2}, {"op": "add", "path": "/a/2",
           "value": {"x": 3}}])"},
      {"pointer escaping", R"({"labels": {}})",
       R"({"labels": {"kubernetes.io/batch-cpu": "1k", "a~b": "c"}})",
       R"([{"op": "add", "path": "/labels/a~0b", "value": "c"},
           {"op": "add", "path": "/labels/kubernetes.io~1batch-cpu", "value": "1k"}])"},
      {"root replaced", "1", "\"x\"", R"([{"op": "replace", "path": "", "value": "x"}])"},
  };
  for (const auto& tc : cases) {
    const auto from = json(tc.from);
    const auto to = json(tc.to);
    const auto patch = createJsonPatch(from, to);
    EXPECT_EQ(patch, json(tc.patch)) << tc.name << ": " << patch.dump();
    EXPECT_EQ(from.patch(patch), to) << tc.name;
  }
}

}  // namespace
}  // namespace koord::manager::webhook
