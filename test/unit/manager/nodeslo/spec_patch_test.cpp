#include "manager/nodeslo/spec_patch.hpp"

#include <gtest/gtest.h>

namespace koord::manager::nodeslo {
namespace {

using api::Json;

TEST(SpecPatchTest, EqualSpecsNeedNoWrite) {
  const Json spec = {{"a", 1}, {"b", {{"c", true}}}};
  EXPECT_FALSE(specPatchBody(spec, spec, "7").has_value());
}

TEST(SpecPatchTest, DiffSetsChangedKeysAndNullsRemovedOnes) {
  const Json from = {{"keep", 1}, {"change", {{"x", 1}, {"y", 2}}}, {"gone", "v"}};
  const Json to = {{"keep", 1}, {"change", {{"x", 1}, {"y", 3}}}, {"new", {1, 2}}};
  EXPECT_EQ(mergePatchDiff(from, to),
            (Json{{"change", {{"y", 3}}}, {"gone", nullptr}, {"new", {1, 2}}}));
}

TEST(SpecPatchTest, ArraysAndTypeChangesAreReplacedWhole) {
  EXPECT_EQ(mergePatchDiff(Json{{"l", {1, 2}}}, Json{{"l", {1}}}), (Json{{"l", {1}}}));
  EXPECT_EQ(mergePatchDiff(Json{{"o", {{"a", 1}}}}, Json{{"o", 5}}), (Json{{"o", 5}}));
  EXPECT_EQ(mergePatchDiff(Json(), Json{{"a", 1}}), (Json{{"a", 1}}));
}

TEST(SpecPatchTest, ApplyingTheDiffGivesTheDesiredSpec) {
  const Json from = {{"a", {{"b", 1}, {"c", 2}}}, {"d", "x"}, {"hand", {{"e", 1}}}};
  const Json to = {{"a", {{"b", 5}}}, {"d", "x"}, {"f", {{"g", {1}}}}};
  Json applied = from;
  applied.merge_patch(mergePatchDiff(from, to));
  EXPECT_EQ(applied, to);
}

TEST(SpecPatchTest, BodyCarriesResourceVersionAndSpecOnly) {
  const auto body = specPatchBody(Json{{"a", 1}}, Json{{"a", 2}}, "42");
  ASSERT_TRUE(body.has_value());
  EXPECT_EQ(Json::parse(*body),
            (Json{{"metadata", {{"resourceVersion", "42"}}}, {"spec", {{"a", 2}}}}));
  const auto without_rv = specPatchBody(Json{{"a", 1}}, Json{{"a", 2}}, "");
  ASSERT_TRUE(without_rv.has_value());
  EXPECT_EQ(Json::parse(*without_rv), (Json{{"spec", {{"a", 2}}}}));
}

TEST(SpecPatchTest, NullMembersAreDroppedEverywhere) {
  const Json j = {{"a", nullptr}, {"b", {{"c", nullptr}, {"d", 1}}}, {"l", {{{"e", nullptr}}}}};
  EXPECT_EQ(withoutNulls(j), (Json{{"b", {{"d", 1}}}, {"l", {Json::object()}}}));
}

}  // namespace
}  // namespace koord::manager::nodeslo
