// The shared cache of what binds in flight took: added per (pod, plugin), read per node, released
// by the plugin, by the informer's confirmation (through ClusterState) or by the timeout.
#include "extender/framework/allocation_cache.hpp"

#include <gtest/gtest.h>

#include "extender/framework/cluster_state.hpp"
#include "test_util.hpp"

namespace koord::extender::framework {
namespace {

AllocationCache::Allocation allocation(const std::string& pod, const std::string& plugin,
                                       const std::string& node, const std::string& target = "") {
  AllocationCache::Allocation a;
  a.pod_id = "uid-" + pod;
  a.pod_key = "default/" + pod;
  a.plugin = plugin;
  a.node = node;
  a.target = target;
  a.resources.milli_cpu = 1000;
  return a;
}

TEST(AllocationCacheTest, HoldsPerPodAndPluginUntilReleased) {
  FakeClock clock;
  AllocationCache cache(clock);
  EXPECT_TRUE(cache.empty());
  cache.add(allocation("a", "Reservation", "n1", "r-uid"));
  cache.add(allocation("a", "NodeNUMAResource", "n1"));
  cache.add(allocation("b", "Reservation", "n2", "r2-uid"));
  EXPECT_FALSE(cache.empty());
  EXPECT_EQ(cache.size(), 3u);
  ASSERT_EQ(cache.onNode("Reservation", "n1").size(), 1u);
  EXPECT_EQ(cache.onNode("Reservation", "n1")[0].target, "r-uid");
  EXPECT_EQ(cache.of("Reservation").size(), 2u);
  // Adding again for the same pod and plugin replaces.
  auto moved = allocation("a", "Reservation", "n3", "r3-uid");
  cache.add(moved);
  EXPECT_TRUE(cache.onNode("Reservation", "n1").empty());
  EXPECT_EQ(cache.onNode("Reservation", "n3").size(), 1u);
  // A plugin releases only its own.
  cache.release("uid-a", "Reservation");
  EXPECT_TRUE(cache.onNode("Reservation", "n3").empty());
  EXPECT_EQ(cache.onNode("NodeNUMAResource", "n1").size(), 1u);
  // The informer's confirmation releases every plugin's.
  cache.confirm("uid-a");
  EXPECT_TRUE(cache.onNode("NodeNUMAResource", "n1").empty());
  EXPECT_EQ(cache.size(), 1u);
}

TEST(AllocationCacheTest, ExpiresAfterTheTimeout) {
  FakeClock clock;
  AllocationCache cache(clock, std::chrono::seconds(120));
  cache.add(allocation("a", "Reservation", "n1"));
  clock.advance(std::chrono::seconds(119));
  EXPECT_EQ(cache.onNode("Reservation", "n1").size(), 1u);
  clock.advance(std::chrono::seconds(1));
  EXPECT_TRUE(cache.onNode("Reservation", "n1").empty());
  EXPECT_TRUE(cache.empty());
}

TEST(AllocationCacheTest, ClusterStateConfirmsWhenThePodIsSeenBoundOrGone) {
  FakeClock clock;
  AllocationCache cache(clock);
  ClusterState state(clock, std::chrono::seconds(30), &cache);
  state.upsertNode(testing::makeNode("n1", "4"));
  ASSERT_TRUE(state.upsertPod(testing::makePod("a", "1")).isOk());
  cache.add(allocation("a", "Reservation", "n1"));
  // Still pending: held.
  ASSERT_TRUE(state.upsertPod(testing::makePod("a", "1")).isOk());
  EXPECT_EQ(cache.size(), 1u);
  // Bound: what it took is now in the node's accounting; released.
  ASSERT_TRUE(state.upsertPod(testing::makePod("a", "1", "n1")).isOk());
  EXPECT_TRUE(cache.empty());
  // Deleted before it was seen bound: released too.
  cache.add(allocation("b", "Reservation", "n1"));
  ASSERT_TRUE(state.upsertPod(testing::makePod("b", "1")).isOk());
  state.removePod("default/b");
  EXPECT_TRUE(cache.empty());
  // A pod without a UID is keyed by namespace/name.
  auto no_uid = testing::makePod("c", "1");
  no_uid->metadata.uid.clear();
  auto info = PodInfo::create(no_uid);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(AllocationCache::podId(**info), "default/c");
}

}  // namespace
}  // namespace koord::extender::framework
