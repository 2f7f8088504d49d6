// ResourceList arithmetic; a missing key counts as zero.
#include "koord/resource/resource_list.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "quantity_test_util.hpp"

namespace koord::resource {
namespace {

ResourceList list(std::initializer_list<std::pair<std::string, std::string_view>> entries) {
  ResourceList out;
  for (const auto& [name, text] : entries) {
    out.emplace(name, mustParse(text));
  }
  return out;
}

// name -> text, for readable comparisons.
std::map<std::string, std::string> texts(const ResourceList& l) {
  std::map<std::string, std::string> out;
  for (const auto& [name, q] : l) {
    out.emplace(name, q.toString());
  }
  return out;
}

using Texts = std::map<std::string, std::string>;

TEST(ResourceListTest, AddTakesTheUnionOfKeys) {
  struct Case {
    ResourceList a;
    ResourceList b;
    Texts expect;
  };
  const Case cases[] = {
      {{}, {}, {}},
      {list({{"cpu", "1"}}), {}, {{"cpu", "1"}}},
      {{}, list({{"memory", "1Gi"}}), {{"memory", "1Gi"}}},
      {list({{"cpu", "500m"}, {"memory", "1Gi"}}),
       list({{"cpu", "1500m"}, {"pods", "1"}}),
       {{"cpu", "2"}, {"memory", "1Gi"}, {"pods", "1"}}},
      {list({{"memory", "512Mi"}}), list({{"memory", "512Mi"}}), {{"memory", "1Gi"}}},
  };
  for (const Case& c : cases) {
    Result<ResourceList> sum = add(c.a, c.b);
    ASSERT_TRUE(sum.ok()) << sum.status();
    EXPECT_EQ(texts(*sum), c.expect);
  }
}

TEST(ResourceListTest, SubtractMayGoNegative) {
  struct Case {
    ResourceList a;
    ResourceList b;
    Texts expect;
  };
  const Case cases[] = {
      {list({{"cpu", "4"}}), list({{"cpu", "1500m"}}), {{"cpu", "2500m"}}},
      {list({{"cpu", "1"}}), list({{"memory", "1Gi"}}), {{"cpu", "1"}, {"memory", "-1Gi"}}},
      {{}, list({{"cpu", "100m"}}), {{"cpu", "-100m"}}},
      {list({{"memory", "1Gi"}}), list({{"memory", "1Gi"}}), {{"memory", "0"}}},
  };
  for (const Case& c : cases) {
    Result<ResourceList> difference = subtract(c.a, c.b);
    ASSERT_TRUE(difference.ok()) << difference.status();
    EXPECT_EQ(texts(*difference), c.expect);
  }
}

TEST(ResourceListTest, OverflowNamesTheResource) {
  ResourceList big = list({{"cpu", "170141183460469231731687303715884105727"}});
  Result<ResourceList> sum = add(big, list({{"cpu", "1"}}));
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.status().code(), StatusCode::kOutOfRange);
  EXPECT_NE(sum.status().message().find("'cpu'"), std::string::npos) << sum.status();
  ResourceList most_negative{{"cpu", get(big, "cpu").negated()}};
  EXPECT_EQ(subtract(most_negative, list({{"cpu", "1"}})).status().code(), StatusCode::kOutOfRange);
}

TEST(ResourceListTest, MaxKeyByKey) {
  ResourceList a = list({{"cpu", "2"}, {"memory", "1Gi"}, {"gpu", "-1"}});
  ResourceList b = list({{"cpu", "2500m"}, {"memory", "512Mi"}, {"pods", "3"}});
  EXPECT_EQ(texts(max(a, b)),
            (Texts{{"cpu", "2500m"}, {"gpu", "0"}, {"memory", "1Gi"}, {"pods", "3"}}));
  EXPECT_EQ(texts(max({}, {})), Texts{});
}

TEST(ResourceListTest, FitsAndInsufficient) {
  ResourceList available = list({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "0"}});
  struct Case {
    ResourceList request;
    bool fits;
    std::vector<std::string> insufficient;
  };
  const Case cases[] = {
      {{}, true, {}},
      {list({{"cpu", "4"}, {"memory", "8Gi"}}), true, {}},
      {list({{"cpu", "4001m"}}), false, {"cpu"}},
      {list({{"cpu", "5"}, {"memory", "9Gi"}}), false, {"cpu", "memory"}},
      // A resource the node does not have counts as zero available.
      {list({{"nvidia.com/gpu", "1"}}), false, {"nvidia.com/gpu"}},
      // Zero and negative requests always fit.
      {list({{"nvidia.com/gpu", "0"}, {"pods", "0"}}), true, {}},
      {list({{"ephemeral-storage", "-1"}}), true, {}},
      {list({{"pods", "1"}}), false, {"pods"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(fits(c.request, available), c.fits);
    EXPECT_EQ(insufficient(c.request, available), c.insufficient);
  }
}

TEST(ResourceListTest, GetIsZeroAndFilter) {
  ResourceList l = list({{"cpu", "100m"}, {"memory", "0"}});
  EXPECT_EQ(get(l, "cpu").toString(), "100m");
  EXPECT_TRUE(get(l, "gpu").isZero());
  EXPECT_TRUE(isZero({}));
  EXPECT_TRUE(isZero(list({{"cpu", "0"}, {"memory", "0Gi"}})));
  EXPECT_FALSE(isZero(l));
  EXPECT_EQ(texts(filter(l, {"cpu", "gpu"})), (Texts{{"cpu", "100m"}}));
  EXPECT_EQ(texts(filter(l, {})), Texts{});
}

}  // namespace
}  // namespace koord::resource
