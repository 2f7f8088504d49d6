// NodeMemo computes once per Node object, again for a new object, and forgets objects that are
// gone.
#include "extender/framework/node_memo.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace koord::extender::framework {
namespace {

std::shared_ptr<const api::core::Node> node(const std::string& name, const std::string& value) {
  auto n = std::make_shared<api::core::Node>();
  n->metadata.name = name;
  n->metadata.annotations["a"] = value;
  return n;
}

TEST(NodeMemoTest, ComputesOncePerNodeObjectAndAgainForANewOne) {
  NodeMemo<std::string> memo;
  int computed = 0;
  auto read = [&](const api::core::Node& n) {
    ++computed;
    return n.metadata.annotations.at("a");
  };
  auto v1 = node("n1", "one");
  EXPECT_EQ(memo.get(v1, read), "one");
  EXPECT_EQ(memo.get(v1, read), "one");
  EXPECT_EQ(computed, 1);
  // The informer replaced the node: the new object is read afresh.
  auto v2 = node("n1", "two");
  EXPECT_EQ(memo.get(v2, read), "two");
  EXPECT_EQ(computed, 2);
}

TEST(NodeMemoTest, ObjectsThatAreGoneAreSweptSoTheTableStaysBounded) {
  NodeMemo<int> memo;
  auto live = node("live", "x");
  (void)memo.get(live, [](const api::core::Node&) { return 1; });
  for (int i = 0; i < 10000; ++i) {
    auto gone = node("n" + std::to_string(i), "x");  // dropped at the end of each iteration
    EXPECT_EQ(memo.get(gone, [i](const api::core::Node&) { return i; }), i);
  }
  EXPECT_LE(memo.size(), 2049U);
  int computed = 0;
  EXPECT_EQ(memo.get(live,
                     [&](const api::core::Node&) {
                       ++computed;
                       return 2;
                     }),
            1);  // the live object's value survived every sweep
  EXPECT_EQ(computed, 0);
}

TEST(NodeMemoTest, ConcurrentReadersAgree) {
  NodeMemo<std::string> memo;
  std::vector<std::shared_ptr<const api::core::Node>> nodes;
  for (int i = 0; i < 64; ++i) {
    nodes.push_back(node("n" + std::to_string(i), std::to_string(i)));
  }
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        for (int i = 0; i < 64; ++i) {
          const std::string got = memo.get(
              nodes[i], [](const api::core::Node& n) { return n.metadata.annotations.at("a"); });
          wrong[t] += got != std::to_string(i) ? 1 : 0;
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace koord::extender::framework
