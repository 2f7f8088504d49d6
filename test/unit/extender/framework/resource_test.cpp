#include "extender/framework/resource.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace koord::extender::framework {
namespace {

using testing::q;

TEST(ResourceTest, FromListConvertsEachKindToItsIntegerUnit) {
  struct Case {
    std::string name;
    std::string quantity;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"cpu", "1500m", 1500},
      {"cpu", "2", 2000},
      {"cpu", "0.1", 100},
      {"memory", "1Gi", int64_t{1} << 30},
      {"memory", "1500", 1500},
      {"ephemeral-storage", "10Mi", 10 << 20},
      {"pods", "110", 110},
      {"kubernetes.io/batch-cpu", "1000", 1000},
      {"kubernetes.io/batch-memory", "2Gi", int64_t{2} << 30},
      {"koordinator.sh/gpu-core", "50", 50},
      {"example.com/foo", "1.5", 2},  // value() rounds up, as Go's Value()
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name + "=" + c.quantity);
    Resource r = Resource::fromList({{c.name, q(c.quantity)}});
    EXPECT_EQ(r.get(c.name), c.want);
  }
}

TEST(ResourceTest, ScalarsAreSortedWithoutZeros) {
  Resource r = Resource::fromList({{"z.io/x", q("3")}, {"a.io/y", q("0")}, {"m.io/z", q("1")}});
  ASSERT_EQ(r.scalar.size(), 2u);
  EXPECT_EQ(r.scalar[0].first, "m.io/z");
  EXPECT_EQ(r.scalar[1].first, "z.io/x");
}

TEST(ResourceTest, ToListRoundTripsAndOmitsZeros) {
  Resource r;
  r.milli_cpu = 1500;
  r.memory = int64_t{1} << 30;
  r.pods = 3;
  r.set("kubernetes.io/batch-cpu", 700);
  auto list = r.toList();
  EXPECT_EQ(list.at("cpu").toString(), "1500m");
  EXPECT_EQ(list.at("memory").toString(), "1Gi");
  EXPECT_EQ(list.at("pods").toString(), "3");
  EXPECT_EQ(list.at("kubernetes.io/batch-cpu").toString(), "700");
  EXPECT_EQ(list.count("ephemeral-storage"), 0u);
  EXPECT_EQ(Resource::fromList(list), r);
}

TEST(ResourceTest, SetGetAndRemoveScalar) {
  Resource r;
  r.set("b.io/x", 2);
  r.set("a.io/x", 1);
  r.set("cpu", 300);
  EXPECT_EQ(r.get("a.io/x"), 1);
  EXPECT_EQ(r.get("b.io/x"), 2);
  EXPECT_EQ(r.get("c.io/x"), 0);
  EXPECT_EQ(r.milli_cpu, 300);
  EXPECT_EQ(r.scalar.front().first, "a.io/x");
  r.set("a.io/x", 0);
  EXPECT_EQ(r.scalar.size(), 1u);
}

TEST(ResourceTest, AddAndSubtractMergeScalarsAndDropZeros) {
  struct Case {
    std::string name;
    Resource a;
    Resource b;
    bool subtract;
    Resource want;
  };
  auto res = [](int64_t cpu, int64_t mem, std::vector<std::pair<std::string, int64_t>> s) {
    Resource r;
    r.milli_cpu = cpu;
    r.memory = mem;
    r.scalar = std::move(s);
    return r;
  };
  const std::vector<Case> cases = {
      {"add disjoint", res(1, 2, {{"a", 1}}), res(3, 4, {{"b", 2}}), false,
       res(4, 6, {{"a", 1}, {"b", 2}})},
      {"add same", res(0, 0, {{"a", 1}}), res(0, 0, {{"a", 2}}), false, res(0, 0, {{"a", 3}})},
      {"subtract to zero drops", res(5, 5, {{"a", 1}, {"b", 1}}), res(5, 5, {{"a", 1}}), true,
       res(0, 0, {{"b", 1}})},
      {"subtract below zero", res(1, 0, {}), res(3, 0, {{"a", 2}}), true, res(-2, 0, {{"a", -2}})},
      {"add saturates", res(INT64_MAX, 0, {}), res(1, 0, {}), false, res(INT64_MAX, 0, {})},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Resource got = c.a;
    if (c.subtract) {
      got.subtract(c.b);
    } else {
      got.add(c.b);
    }
    EXPECT_EQ(got, c.want);
  }
}

}  // namespace
}  // namespace koord::extender::framework
