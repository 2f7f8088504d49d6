// CpuSet: the kernel's cpuset.cpus list format (lib/bitmap.c), set operations.
#include "koord/cpuset/cpu_set.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

namespace koord::cpuset {
namespace {

struct ParseCase {
  std::string_view input;
  std::set<int> cpus;
  std::string_view printed;  // what the kernel prints when cpuset.cpus is read back
};

// What cpuset_write_resmask (strstrip + bitmap_parselist) accepts.
const ParseCase kAccepted[] = {
    {"", {}, ""},
    {"\n", {}, ""},
    {"  \t\n", {}, ""},
    {"0", {0}, "0"},
    {"5", {5}, "5"},
    {"0-3", {0, 1, 2, 3}, "0-3"},
    {"0-3,8-11", {0, 1, 2, 3, 8, 9, 10, 11}, "0-3,8-11"},
    {"0,2", {0, 2}, "0,2"},
    {"0,1", {0, 1}, "0-1"},
    {"0-0", {0}, "0"},
    {"3,1,2", {1, 2, 3}, "1-3"},
    {"0-3,2-5", {0, 1, 2, 3, 4, 5}, "0-5"},
    {"0-3\n", {0, 1, 2, 3}, "0-3"},
    {" 0-3 , 8 ", {0, 1, 2, 3, 8}, "0-3,8"},
    {"0 2\t4", {0, 2, 4}, "0,2,4"},
    {",0,,1,", {0, 1}, "0-1"},
    {",,", {}, ""},
    {"007", {7}, "7"},
    {"0-7:2/4", {0, 1, 4, 5}, "0-1,4-5"},
    {"0-8:1/3", {0, 3, 6}, "0,3,6"},
    {"0-3:0/2", {}, ""},
    {"0-3:4/4", {0, 1, 2, 3}, "0-3"},
    {"1\n5", {1}, "1"},  // a newline right after a region ends the list, as in the kernel
    {"1,\n5", {1, 5}, "1,5"},
    {"8191", {8191}, "8191"},
};

class CpuSetParseTest : public ::testing::TestWithParam<ParseCase> {};

TEST_P(CpuSetParseTest, ParsesAndPrintsLikeTheKernel) {
  const ParseCase& c = GetParam();
  Result<CpuSet> set = CpuSet::parse(c.input);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->cpus(), c.cpus);
  EXPECT_EQ(set->toString(), c.printed);
  Result<CpuSet> again = CpuSet::parse(set->toString());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *set);
}

INSTANTIATE_TEST_SUITE_P(Kernel, CpuSetParseTest, ::testing::ValuesIn(kAccepted));

TEST(CpuSetTest, RejectsWhatTheKernelRejects) {
  struct Case {
    std::string_view input;
    StatusCode code;
    std::string_view region;
  };
  const Case cases[] = {
      {"3-1", StatusCode::kInvalidArgument, "3-1"},
      {"a", StatusCode::kInvalidArgument, "a"},
      {"0-a", StatusCode::kInvalidArgument, "0-a"},
      {"-1", StatusCode::kInvalidArgument, "-1"},
      {"1-", StatusCode::kInvalidArgument, "1-"},
      {"0 - 3", StatusCode::kInvalidArgument, "-"},
      {"1;2", StatusCode::kInvalidArgument, "1;2"},
      {"+1", StatusCode::kInvalidArgument, "+1"},
      {"0-3:0/0", StatusCode::kInvalidArgument, "0-3:0/0"},
      {"0-3:3/2", StatusCode::kInvalidArgument, "0-3:3/2"},
      {"0-3:1", StatusCode::kInvalidArgument, "0-3:1"},
      {"0:1/2", StatusCode::kInvalidArgument, "0:1/2"},
      {"1.5", StatusCode::kInvalidArgument, "1.5"},
      {"8192", StatusCode::kOutOfRange, "8192"},
      {"0-99999", StatusCode::kOutOfRange, "0-99999"},
      {"4294967296", StatusCode::kOutOfRange, "4294967296"},
      {"N", StatusCode::kInvalidArgument, "N"},
      {"all", StatusCode::kInvalidArgument, "all"},
  };
  for (const Case& c : cases) {
    Result<CpuSet> set = CpuSet::parse(c.input);
    ASSERT_FALSE(set.ok()) << "'" << c.input << "' parsed as " << set->toString();
    EXPECT_EQ(set.status().code(), c.code) << c.input << ": " << set.status();
    EXPECT_NE(set.status().message().find("failed to parse cpuset '" + std::string(c.input) + "'"),
              std::string::npos)
        << set.status();
    EXPECT_NE(set.status().message().find("'" + std::string(c.region) + "'"), std::string::npos)
        << set.status();
  }
}

TEST(CpuSetTest, ParseWithCpuCount) {
  struct Case {
    std::string_view input;
    int num_cpus;
    std::string_view printed;
  };
  for (const Case& c :
       {Case{"N", 8, "7"}, Case{"all", 4, "0-3"}, Case{"ALL", 4, "0-3"}, Case{"2-N", 4, "2-3"},
        Case{"all:1/2", 8, "0,2,4,6"}, Case{"0-3", 4, "0-3"}}) {
    Result<CpuSet> set = CpuSet::parse(c.input, c.num_cpus);
    ASSERT_TRUE(set.ok()) << set.status();
    EXPECT_EQ(set->toString(), c.printed) << c.input;
  }
  EXPECT_EQ(CpuSet::parse("4", 4).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(CpuSet::parse("0", 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CpuSet::parse("0", CpuSet::kMaxCpus + 1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CpuSet::parse("allx", 4).status().code(), StatusCode::kInvalidArgument);
}

TEST(CpuSetTest, Range) {
  EXPECT_EQ(CpuSet::range(0, 3).toString(), "0-3");
  EXPECT_EQ(CpuSet::range(5, 5).toString(), "5");
  EXPECT_TRUE(CpuSet::range(3, 2).empty());
  EXPECT_EQ(CpuSet::range(-2, 1).toString(), "0-1");
}

TEST(CpuSetTest, SetOperations) {
  CpuSet a = *CpuSet::parse("0-5");
  CpuSet b = *CpuSet::parse("4-9");
  struct Case {
    CpuSet got;
    std::string_view expect;
  };
  for (const Case& c :
       {Case{a.unionWith(b), "0-9"}, Case{a.intersection(b), "4-5"}, Case{a.difference(b), "0-3"},
        Case{b.difference(a), "6-9"}, Case{a.intersection(CpuSet()), ""},
        Case{CpuSet().unionWith(b), "4-9"}, Case{a.difference(a), ""}}) {
    EXPECT_EQ(c.got.toString(), c.expect);
  }
  EXPECT_TRUE(CpuSet::range(1, 2).isSubsetOf(a));
  EXPECT_TRUE(CpuSet().isSubsetOf(a));
  EXPECT_TRUE(a.isSubsetOf(a));
  EXPECT_FALSE(b.isSubsetOf(a));
  EXPECT_EQ(a.size(), 6U);
  EXPECT_TRUE(a.contains(5));
  EXPECT_FALSE(a.contains(6));
  EXPECT_EQ(a.toVector(), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(CpuSet(std::set<int>{1, 3, 4}).toString(), "1,3-4");
}

}  // namespace
}  // namespace koord::cpuset
