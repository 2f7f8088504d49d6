// sortDomains: the community's TestSortDomains table, plus the domain order by size.
#include "manager/descheduler/plugins/spreading/topology_balance.hpp"

#include <gtest/gtest.h>

namespace koord::manager::descheduler::plugins::spreading {
namespace {

using framework::PodPtr;

PodPtr pod(const std::string& name, bool evictable, std::optional<int32_t> priority,
           bool node_affinity = false) {
  api::core::Pod p;
  p.metadata.name = name;
  p.metadata.annotations["evictable"] = evictable ? "true" : "false";
  p.spec.priority = priority;
  if (node_affinity) {
    api::core::Affinity affinity;
    affinity.nodeAffinity = api::core::NodeAffinity{};
    p.spec.affinity = affinity;
  }
  return std::make_shared<const api::core::Pod>(p);
}

bool evictable(const api::core::Pod& p) {
  auto it = p.metadata.annotations.find("evictable");
  return it != p.metadata.annotations.end() && it->second == "true";
}

std::vector<std::string> names(const TopologyDomain& d) {
  std::vector<std::string> out;
  for (const auto& p : d.pods) {
    out.push_back(p->metadata.name);
  }
  return out;
}

TEST(TopologyBalanceTest, SortDomainsEmpty) {
  EXPECT_TRUE(sortDomains({}, evictable).empty());
}

TEST(TopologyBalanceTest, SortDomainsSingleDomainWithMixedPods) {
  auto sorted = sortDomains(
      {{"a",
        {pod("non-evictable-pod", false, std::nullopt), pod("evictable-with-affinity", true, 10),
         pod("evictable-high-priority", true, 15)}}},
      evictable);
  ASSERT_EQ(sorted.size(), 1U);
  EXPECT_EQ(names(sorted[0]),
            (std::vector<std::string>{"non-evictable-pod", "evictable-with-affinity",
                                      "evictable-high-priority"}));
}

TEST(TopologyBalanceTest, SortDomainsByPriorityAndEvictability) {
  auto sorted = sortDomains(
      {{"a", {pod("high-priority-affinity", true, 20), pod("low-priority-no-affinity", true, 5)}},
       {"b",
        {pod("medium-priority-affinity", true, 15),
         pod("non-evictable-pod", false, std::nullopt)}}},
      evictable);
  ASSERT_EQ(sorted.size(), 2U);
  EXPECT_EQ(sorted[0].value, "a");
  EXPECT_EQ(names(sorted[0]),
            (std::vector<std::string>{"low-priority-no-affinity", "high-priority-affinity"}));
  EXPECT_EQ(names(sorted[1]),
            (std::vector<std::string>{"non-evictable-pod", "medium-priority-affinity"}));
}

TEST(TopologyBalanceTest, SortDomainsPutsNodeAffinityFirst) {
  auto sorted = sortDomains(
      {{"a", {pod("pod-with-affinity", true, 10, true), pod("pod-no-affinity", true, 15)}}},
      evictable);
  EXPECT_EQ(names(sorted[0]), (std::vector<std::string>{"pod-with-affinity", "pod-no-affinity"}));
}

TEST(TopologyBalanceTest, SortDomainsOrdersDomainsBySize) {
  auto sorted = sortDomains({{"a", {pod("a1", true, 1), pod("a2", true, 1), pod("a3", true, 1)}},
                             {"b", {}},
                             {"c", {pod("c1", true, 1)}}},
                            evictable);
  ASSERT_EQ(sorted.size(), 3U);
  EXPECT_EQ(sorted[0].value, "b");
  EXPECT_EQ(sorted[1].value, "c");
  EXPECT_EQ(sorted[2].value, "a");
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::spreading
