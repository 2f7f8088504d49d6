// goSortSlice against Go's sort.Slice: the orders below are what Go 1.26 prints for the same
// input and the same (non-strict) comparator, so ties must land exactly where Go puts them.
#include "manager/descheduler/framework/go_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace koord::manager::descheduler::framework {
namespace {

TEST(GoSortTest, MatchesGoSortSliceWithANonStrictComparator) {
  // Go: idx = 0..n-1; key(i) = (i*7919)%5; sort.Slice(idx, key(idx[a]) <= key(idx[b])).
  struct Case {
    int n;
    std::vector<int> want;
  };
  const std::vector<Case> cases = {
      {10, {5, 0, 9, 4, 8, 3, 7, 2, 6, 1}},
      {60, {15, 35, 45, 30, 50, 5, 20, 0,  55, 25, 40, 10, 59, 54, 4,  19, 49, 34, 9,  24,
            14, 39, 44, 29, 48, 8, 18, 38, 3,  13, 28, 23, 58, 43, 53, 33, 7,  22, 27, 52,
            12, 57, 47, 37, 32, 2, 17, 42, 1,  26, 21, 56, 31, 16, 36, 41, 51, 6,  11, 46}},
      {200, {135, 60,  10,  100, 160, 165, 20,  185, 55,  180, 90,  155, 150, 130, 85,  75,  120,
             110, 80,  115, 95,  25,  5,   145, 125, 30,  195, 190, 0,   50,  70,  45,  175, 40,
             35,  140, 65,  15,  105, 170, 84,  59,  29,  54,  14,  79,  19,  154, 64,  159, 129,
             184, 189, 89,  134, 44,  179, 109, 139, 104, 124, 174, 34,  194, 94,  9,   144, 149,
             119, 69,  49,  74,  164, 39,  4,   199, 114, 24,  169, 99,  173, 38,  168, 48,  133,
             93,  18,  88,  63,  138, 128, 108, 53,  13,  83,  153, 73,  188, 198, 103, 143, 43,
             23,  118, 158, 183, 8,   178, 113, 148, 28,  163, 33,  193, 123, 58,  78,  68,  98,
             3,   92,  192, 17,  47,  22,  112, 67,  197, 37,  132, 152, 87,  127, 77,  107, 7,
             102, 97,  177, 182, 162, 72,  57,  147, 187, 117, 2,   122, 12,  62,  32,  82,  137,
             52,  172, 157, 27,  142, 42,  167, 76,  121, 191, 21,  186, 56,  116, 36,  11,  136,
             96,  101, 1,   71,  31,  151, 106, 181, 161, 111, 171, 61,  146, 196, 131, 41,  66,
             156, 166, 46,  6,   91,  176, 26,  86,  81,  126, 16,  51,  141}},
  };
  for (const auto& tc : cases) {
    std::vector<int> idx(static_cast<size_t>(tc.n));
    for (int i = 0; i < tc.n; ++i) {
      idx[static_cast<size_t>(i)] = i;
    }
    goSortSlice(idx, [](int a, int b) { return (a * 7919) % 5 <= (b * 7919) % 5; });
    EXPECT_EQ(idx, tc.want) << "n=" << tc.n;
  }
}

TEST(GoSortTest, SortsWithAStrictComparator) {
  std::vector<int> values;
  values.reserve(1000);
  for (int i = 0; i < 1000; ++i) {
    values.push_back((i * 7907) % 1009);
  }
  std::vector<int> expected = values;
  std::sort(expected.begin(), expected.end());
  goSortSlice(values, [](int a, int b) { return a < b; });
  EXPECT_EQ(values, expected);
  std::vector<int> empty;
  goSortSlice(empty, [](int a, int b) { return a < b; });
  EXPECT_TRUE(empty.empty());
}

}  // namespace
}  // namespace koord::manager::descheduler::framework
