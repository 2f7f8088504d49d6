#include "extender/framework/name_index.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace koord::extender::framework {
namespace {

using Map = std::unordered_map<std::string, int>;
using Index = NameIndex<Map::value_type>;

// Every name of `names` through findAll, as (name found, value) per position.
std::vector<int> findAll(const Index& index, const std::vector<std::string>& names) {
  std::vector<int> out(names.size(), -2);
  index.findAll(
      names,
      [&out, &names](size_t i, const Map::value_type* entry) {
        ASSERT_TRUE(entry == nullptr || entry->first == names[i]);
        out[i] = entry == nullptr ? -1 : entry->second;
      },
      // Only ever handed an entry of the index, ahead of its turn.
      [&index](const Map::value_type& entry) { ASSERT_EQ(index.find(entry.first), &entry); });
  return out;
}

TEST(NameIndexTest, FindsWhatWasInsertedAndNothingElse) {
  Map map;
  Index index;
  EXPECT_EQ(index.find("node-1"), nullptr);
  EXPECT_EQ(findAll(index, {"node-1"}), std::vector<int>{-1});
  for (int i = 0; i < 1000; ++i) {
    auto [it, inserted] = map.try_emplace("node-" + std::to_string(i), i);
    index.insert(&*it);
  }
  EXPECT_EQ(index.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    const auto* entry = index.find("node-" + std::to_string(i));
    ASSERT_NE(entry, nullptr) << i;
    EXPECT_EQ(entry->second, i);
  }
  EXPECT_EQ(index.find("node-1000"), nullptr);
  EXPECT_EQ(index.find(""), nullptr);
  std::vector<std::string> names;
  std::vector<int> want;
  for (int i = 0; i < 500; ++i) {
    // Present and absent names interleaved, in kube-scheduler's rotating order.
    const int n = (i * 7 + 300) % 1100;
    names.push_back("node-" + std::to_string(n));
    want.push_back(n < 1000 ? n : -1);
  }
  EXPECT_EQ(findAll(index, names), want);
}

// Inserts and erases at random against std::unordered_map, in a table small enough that runs of
// occupied slots wrap around its end, so that deletion must shift entries back across it.
TEST(NameIndexTest, StaysRightThroughInsertsAndErasesAtRandom) {
  Map map;
  Index index;
  std::mt19937 random(7);
  std::uniform_int_distribution<int> pick(0, 99);
  for (int step = 0; step < 20000; ++step) {
    const std::string name = "n" + std::to_string(pick(random));
    auto it = map.find(name);
    if (it == map.end()) {
      auto [made, inserted] = map.try_emplace(name, step);
      index.insert(&*made);
    } else {
      index.erase(name);
      map.erase(it);
    }
    ASSERT_EQ(index.size(), map.size());
    if (step % 97 == 0) {
      for (int k = 0; k < 100; ++k) {
        const std::string probe = "n" + std::to_string(k);
        const auto* entry = index.find(probe);
        auto want = map.find(probe);
        ASSERT_EQ(entry != nullptr, want != map.end()) << probe << " at step " << step;
        if (entry != nullptr) {
          ASSERT_EQ(&*want, entry) << probe;
        }
      }
    }
  }
  index.erase("not-there");
  EXPECT_EQ(index.size(), map.size());
}

}  // namespace
}  // namespace koord::extender::framework
