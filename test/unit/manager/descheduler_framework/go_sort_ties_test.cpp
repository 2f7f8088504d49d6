// goSliceSort must leave elements exactly where Go's sort.Slice does, ties included: the
// expected orders below were produced by Go 1.26's sort.Slice on the same input.
#include <gtest/gtest.h>

#include <vector>

#include "manager/descheduler/framework/go_sort.hpp"

namespace koord::manager::descheduler::framework {
namespace gosort_test {

struct Item {
  int key;
  int id;
};

std::vector<int> sortedIds(int n, bool less_or_equal) {
  std::vector<Item> items;
  for (int i = 0; i < n; ++i)
    items.push_back({(i * 7) % 13, i});
  goSortSlice(items, [less_or_equal](const Item& a, const Item& b) {
    return less_or_equal ? a.key <= b.key : a.key < b.key;
  });
  std::vector<int> ids;
  for (const auto& item : items)
    ids.push_back(item.id);
  return ids;
}

TEST(GoSliceSort, SmallSliceTiesAreReversedByInsertionSortWithATrueBothWaysComparator) {
  std::vector<int> v = {1, 2, 3, 4, 5};
  goSortSlice(v, [](int, int) { return true; });
  EXPECT_EQ(v, (std::vector<int>{5, 4, 3, 2, 1}));
}

TEST(GoSliceSort, MatchesGoOnSixtyElementsWithTies) {
  EXPECT_EQ(sortedIds(60, false),
            (std::vector<int>{0,  26, 39, 13, 52, 15, 28, 54, 41, 2,  30, 4,  56, 17, 43,
                              58, 6,  45, 32, 19, 8,  21, 47, 34, 23, 49, 10, 36, 25, 51,
                              12, 38, 53, 40, 27, 14, 1,  29, 42, 16, 55, 3,  44, 31, 57,
                              5,  18, 7,  46, 20, 33, 59, 9,  48, 22, 35, 37, 11, 50, 24}));
}

TEST(GoSliceSort, MatchesGoWithAComparatorTrueBothWaysOnTies) {
  EXPECT_EQ(sortedIds(60, true),
            (std::vector<int>{52, 13, 39, 26, 0,  2,  54, 28, 15, 41, 17, 43, 4,  56, 30,
                              6,  58, 19, 32, 45, 47, 34, 8,  21, 10, 36, 49, 23, 38, 25,
                              12, 51, 1,  27, 53, 14, 40, 42, 3,  55, 16, 29, 5,  31, 18,
                              44, 57, 59, 20, 46, 7,  33, 35, 9,  48, 22, 24, 50, 37, 11}));
}

TEST(GoSliceSort, MatchesGoOnTwoHundredElementsThroughPatternBreaking) {
  const std::vector<int> expected = {
      117, 0,   104, 65,  52,  13,  195, 143, 78,  26,  169, 39,  156, 182, 130, 91,  93,  2,   171,
      119, 197, 80,  41,  132, 54,  158, 184, 28,  106, 15,  145, 67,  43,  69,  95,  82,  186, 199,
      56,  134, 160, 30,  173, 4,   108, 17,  121, 147, 97,  58,  188, 84,  136, 6,   175, 32,  162,
      110, 71,  123, 149, 19,  45,  73,  60,  8,   151, 47,  164, 177, 138, 86,  99,  125, 190, 112,
      21,  34,  62,  114, 75,  192, 140, 49,  153, 88,  166, 23,  36,  10,  127, 179, 101, 155, 103,
      25,  12,  51,  129, 168, 142, 38,  90,  64,  181, 77,  116, 194, 144, 118, 27,  196, 66,  157,
      14,  105, 131, 40,  183, 1,   53,  79,  92,  170, 3,   185, 133, 42,  81,  198, 16,  172, 120,
      68,  29,  55,  94,  159, 107, 146, 83,  31,  44,  148, 174, 18,  109, 135, 122, 70,  96,  161,
      5,   57,  187, 98,  46,  150, 163, 59,  137, 176, 124, 7,   20,  85,  189, 72,  111, 33,  61,
      87,  100, 178, 126, 48,  22,  165, 191, 113, 139, 152, 9,   35,  74,  154, 128, 63,  193, 37,
      89,  115, 24,  11,  180, 76,  50,  141, 102, 167};
  EXPECT_EQ(sortedIds(200, true), expected);
}

}  // namespace gosort_test
}  // namespace koord::manager::descheduler::framework
