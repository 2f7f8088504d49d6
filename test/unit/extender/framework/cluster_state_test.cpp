#include "extender/framework/cluster_state.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace koord::extender::framework {
namespace {

using testing::makeNode;
using testing::makePod;
using testing::makePodInfo;

std::vector<std::string> podKeys(const std::shared_ptr<const NodeInfo>& info) {
  std::vector<std::string> out;
  if (info == nullptr)
    return out;
  for (const auto& p : info->pods())
    out.push_back(p->key);
  return out;
}

class ClusterStateTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  ClusterState state_{clock_, std::chrono::seconds(30)};
};

TEST_F(ClusterStateTest, NodesAddUpdateRemove) {
  state_.upsertNode(makeNode("n2"));
  state_.upsertNode(makeNode("n1", "2"));
  ASSERT_NE(state_.nodeInfo("n1"), nullptr);
  EXPECT_EQ(state_.nodeInfo("n1")->allocatable().milli_cpu, 2000);
  auto before = state_.nodeInfo("n1");
  state_.upsertNode(makeNode("n1", "8"));
  EXPECT_EQ(state_.nodeInfo("n1")->allocatable().milli_cpu, 8000);
  EXPECT_EQ(before->allocatable().milli_cpu, 2000);  // the old snapshot never changes
  EXPECT_GT(state_.nodeInfo("n1")->generation(), before->generation());
  auto all = state_.nodeInfos();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->name(), "n1");
  EXPECT_EQ(all[1]->name(), "n2");
  state_.removeNode("n1");
  EXPECT_EQ(state_.nodeInfo("n1"), nullptr);
  EXPECT_EQ(state_.nodeCount(), 1u);
}

TEST_F(ClusterStateTest, PodsJoinMoveAndLeaveNodes) {
  state_.upsertNode(makeNode("n1"));
  state_.upsertNode(makeNode("n2"));
  struct Step {
    std::string what;
    std::function<void()> act;
    std::vector<std::string> on_n1;
    std::vector<std::string> on_n2;
    int64_t n1_cpu;
  };
  const std::vector<Step> steps = {
      {"pending pod is only remembered",
       [&] { ASSERT_TRUE(state_.upsertPod(makePod("a")).isOk()); },
       {},
       {},
       0},
      {"binding puts it on n1",
       [&] { ASSERT_TRUE(state_.upsertPod(makePod("a", "1", "n1")).isOk()); },
       {"default/a"},
       {},
       1000},
      {"second pod on n1",
       [&] { ASSERT_TRUE(state_.upsertPod(makePod("b", "2", "n1")).isOk()); },
       {"default/a", "default/b"},
       {},
       3000},
      {"update of a's requests",
       [&] { ASSERT_TRUE(state_.upsertPod(makePod("a", "500m", "n1")).isOk()); },
       {"default/a", "default/b"},
       {},
       2500},
      {"b moves to n2",
       [&] { ASSERT_TRUE(state_.upsertPod(makePod("b", "2", "n2")).isOk()); },
       {"default/a"},
       {"default/b"},
       500},
      {"a removed", [&] { state_.removePod("default/a"); }, {}, {"default/b"}, 0},
      {"terminal b leaves n2",
       [&] {
         auto b = makePod("b", "1", "n2");
         b->status.phase = "Succeeded";
         ASSERT_TRUE(state_.upsertPod(b).isOk());
       },
       {},
       {},
       0},
  };
  for (const auto& step : steps) {
    SCOPED_TRACE(step.what);
    step.act();
    EXPECT_EQ(podKeys(state_.nodeInfo("n1")), step.on_n1);
    EXPECT_EQ(podKeys(state_.nodeInfo("n2")), step.on_n2);
    EXPECT_EQ(state_.nodeInfo("n1")->requested().milli_cpu, step.n1_cpu);
    EXPECT_EQ(state_.nodeInfo("n1")->requested().pods, static_cast<int64_t>(step.on_n1.size()));
  }
  EXPECT_EQ(state_.pod("default/a"), nullptr);
}

TEST_F(ClusterStateTest, PodsBeforeTheirNodeAppearWithIt) {
  ASSERT_TRUE(state_.upsertPod(makePod("a", "1", "late")).isOk());
  EXPECT_EQ(state_.nodeInfo("late"), nullptr);
  state_.upsertNode(makeNode("late"));
  EXPECT_EQ(podKeys(state_.nodeInfo("late")), std::vector<std::string>{"default/a"});
  state_.removeNode("late");
  state_.upsertNode(makeNode("late"));
  EXPECT_EQ(podKeys(state_.nodeInfo("late")), std::vector<std::string>{"default/a"});
}

TEST_F(ClusterStateTest, UpsertPodRejectsUndecodablePod) {
  EXPECT_EQ(state_.upsertPod(makePod("")).code(), StatusCode::kInvalidArgument);
}

TEST_F(ClusterStateTest, AssumeThenConfirm) {
  state_.upsertNode(makeNode("n1"));
  ASSERT_TRUE(state_.upsertPod(makePod("a")).isOk());
  ASSERT_TRUE(state_.assume(state_.pod("default/a"), "n1").isOk());
  EXPECT_TRUE(state_.isAssumed("default/a"));
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), std::vector<std::string>{"default/a"});
  // The informer still shows it pending: it stays assumed.
  ASSERT_TRUE(state_.upsertPod(makePod("a")).isOk());
  EXPECT_TRUE(state_.isAssumed("default/a"));
  ASSERT_TRUE(state_.upsertPod(makePod("a", "1", "n1")).isOk());
  EXPECT_FALSE(state_.isAssumed("default/a"));
  clock_.advance(std::chrono::minutes(5));  // confirmed pods never expire
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), std::vector<std::string>{"default/a"});
  EXPECT_EQ(state_.nodeInfo("n1")->requested().milli_cpu, 1000);
}

TEST_F(ClusterStateTest, AssumeThenExpire) {
  state_.upsertNode(makeNode("n1"));
  ASSERT_TRUE(state_.assume(makePodInfo("a"), "n1").isOk());
  clock_.advance(std::chrono::seconds(29));
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), std::vector<std::string>{"default/a"});
  clock_.advance(std::chrono::seconds(1));
  EXPECT_TRUE(podKeys(state_.nodeInfo("n1")).empty());
  EXPECT_FALSE(state_.isAssumed("default/a"));
  EXPECT_EQ(state_.pod("default/a"), nullptr);
}

// Each assumption expires at its own deadline, whatever happened to the others in between: one
// forgotten and assumed again gets a new deadline, one confirmed or deleted never expires.
TEST_F(ClusterStateTest, AssumptionsExpireEachAtItsOwnDeadline) {
  state_.upsertNode(makeNode("n1"));
  for (const char* name : {"a", "b", "c", "d"})
    ASSERT_TRUE(state_.upsertPod(makePod(name)).isOk());
  ASSERT_TRUE(state_.assume(state_.pod("default/a"), "n1").isOk());  // expires at 30 s
  clock_.advance(std::chrono::seconds(10));
  for (const char* key : {"default/b", "default/c", "default/d"})
    ASSERT_TRUE(state_.assume(state_.pod(key), "n1").isOk());  // at 40 s
  state_.forget("default/b");
  clock_.advance(std::chrono::seconds(10));
  ASSERT_TRUE(state_.assume(state_.pod("default/b"), "n1").isOk());  // again: at 50 s
  ASSERT_TRUE(state_.upsertPod(makePod("c", "1", "n1")).isOk());     // confirmed
  state_.removePod("default/d");                                     // deleted
  const std::vector<std::string> all = {"default/a", "default/b", "default/c"};
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), all);
  clock_.advance(std::chrono::seconds(10));  // 30 s
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), (std::vector<std::string>{"default/b", "default/c"}));
  EXPECT_FALSE(state_.isAssumed("default/a"));
  clock_.advance(std::chrono::seconds(19));  // 49 s: b's first deadline (40 s) is long gone
  EXPECT_TRUE(state_.isAssumed("default/b"));
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), (std::vector<std::string>{"default/b", "default/c"}));
  clock_.advance(std::chrono::seconds(1));  // 50 s
  EXPECT_FALSE(state_.isAssumed("default/b"));
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), std::vector<std::string>{"default/c"});
  EXPECT_NE(state_.pod("default/b"), nullptr);  // still known as pending
}

// A node data source's data is built into every NodeInfo (nodes added before and after the source,
// rebuilds for pods), refresh() rebuilds on demand, buildNodeInfo() builds a what-if view, and
// replaced() sees every change.
struct PodCount {
  size_t pods = 0;
  int64_t version = 0;
};
class PodCountSource final : public TypedNodeDataSource<PodCount> {
 public:
  int64_t version = 1;  // bumped by the test, read on the next build
  int64_t live = 0;     // NodeInfos carrying data now, counted through replaced()
  void replaced(const void* before, const void* after) override {
    live += (after != nullptr ? 1 : 0) - (before != nullptr ? 1 : 0);
  }

 protected:
  std::shared_ptr<const PodCount> make(const NodeInfo& node) const override {
    return std::make_shared<PodCount>(PodCount{node.pods().size(), version});
  }
};

TEST_F(ClusterStateTest, NodeDataSourcesKeepTheirDataInEachNodeInfo) {
  state_.upsertNode(makeNode("n1"));
  ASSERT_TRUE(state_.upsertPod(makePod("a", "1", "n1")).isOk());
  EXPECT_EQ(state_.nodeData<PodCountSource>(), nullptr);
  PodCountSource& source = state_.addNodeData(std::make_unique<PodCountSource>());
  EXPECT_EQ(state_.nodeData<PodCountSource>(), &source);
  ASSERT_NE(source.of(*state_.nodeInfo("n1")), nullptr) << "built for the node already there";
  EXPECT_EQ(source.of(*state_.nodeInfo("n1"))->pods, 1u);
  state_.upsertNode(makeNode("n2"));
  ASSERT_TRUE(state_.upsertPod(makePod("b", "1", "n1")).isOk());
  EXPECT_EQ(source.of(*state_.nodeInfo("n1"))->pods, 2u);
  EXPECT_EQ(source.of(*state_.nodeInfo("n2"))->pods, 0u);
  EXPECT_EQ(source.live, 2);

  const auto before = state_.nodeInfo("n1");
  const int64_t generation = state_.generation();
  source.version = 2;
  state_.refresh({"n1", "unknown"});
  EXPECT_EQ(source.of(*state_.nodeInfo("n1"))->version, 2);
  EXPECT_EQ(source.of(*state_.nodeInfo("n2"))->version, 1) << "only the named nodes";
  EXPECT_EQ(source.of(*before)->version, 1) << "a snapshot never changes";
  EXPECT_GT(state_.generation(), generation);

  const auto what_if = state_.buildNodeInfo(state_.nodeInfo("n1")->nodePtr(), {});
  EXPECT_EQ(source.of(*what_if)->pods, 0u);
  EXPECT_EQ(source.of(*state_.nodeInfo("n1"))->pods, 2u) << "not stored";

  state_.removeNode("n2");
  EXPECT_EQ(source.live, 1);
  auto second = std::make_unique<PodCountSource>();
  EXPECT_EQ(&state_.addNodeData(std::move(second)), &source) << "one source per type";
}

TEST_F(ClusterStateTest, ForgetDropsOnlyTheAssumption) {
  state_.upsertNode(makeNode("n1"));
  ASSERT_TRUE(state_.upsertPod(makePod("a")).isOk());
  ASSERT_TRUE(state_.assume(state_.pod("default/a"), "n1").isOk());
  state_.forget("default/a");
  EXPECT_TRUE(podKeys(state_.nodeInfo("n1")).empty());
  EXPECT_NE(state_.pod("default/a"), nullptr);  // still known as pending
  state_.forget("default/a");                   // no-op
  // It can be assumed again (a retried bind).
  EXPECT_TRUE(state_.assume(state_.pod("default/a"), "n1").isOk());
}

TEST_F(ClusterStateTest, AssumeErrors) {
  state_.upsertNode(makeNode("n1"));
  ASSERT_TRUE(state_.upsertPod(makePod("bound", "1", "n1")).isOk());
  EXPECT_EQ(state_.assume(makePodInfo("a"), "nope").code(), StatusCode::kNotFound);
  EXPECT_EQ(state_.assume(makePodInfo("bound"), "n1").code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(state_.assume(makePodInfo("a"), "n1").isOk());
  EXPECT_EQ(state_.assume(makePodInfo("a"), "n1").code(), StatusCode::kAlreadyExists);
}

TEST_F(ClusterStateTest, LookupNodesKeepsOrderAndMarksUnknown) {
  state_.upsertNode(makeNode("n1"));
  state_.upsertNode(makeNode("n2"));
  std::vector<std::shared_ptr<const NodeInfo>> out;
  state_.lookupNodes({"n2", "x", "n1"}, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]->name(), "n2");
  EXPECT_EQ(out[1], nullptr);
  EXPECT_EQ(out[2]->name(), "n1");
}

// lookupNodes reads a flat index kept beside the node table: through nodes coming and going, pods
// arriving before their node and staying after it, it must answer what nodeInfo() answers.
TEST_F(ClusterStateTest, LookupNodesFollowsNodesComingAndGoing) {
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i)
    names.push_back("n" + std::to_string(i));
  auto expectAgrees = [&](const char* when) {
    std::vector<std::shared_ptr<const NodeInfo>> out;
    state_.lookupNodes(names, out);
    ASSERT_EQ(out.size(), names.size()) << when;
    for (size_t i = 0; i < names.size(); ++i)
      ASSERT_EQ(out[i], state_.nodeInfo(names[i])) << names[i] << " " << when;
  };
  for (int i = 0; i < 300; i += 2)
    state_.upsertNode(makeNode(names[i]));
  expectAgrees("even nodes added");
  // A pod waits on n1 before its node exists; n0..n99 go away, n4 with a pod still on it.
  ASSERT_TRUE(state_.upsertPod(makePod("early", "1", "n1")).isOk());
  ASSERT_TRUE(state_.upsertPod(makePod("stays", "1", "n4")).isOk());
  for (int i = 0; i < 100; i += 2)
    state_.removeNode(names[i]);
  expectAgrees("n0..n99 removed");
  for (int i = 0; i < 300; ++i)
    state_.upsertNode(makeNode(names[i]));
  expectAgrees("every node added");
  EXPECT_EQ(podKeys(state_.nodeInfo("n1")), std::vector<std::string>{"default/early"});
  EXPECT_EQ(podKeys(state_.nodeInfo("n4")), std::vector<std::string>{"default/stays"});
  for (int i = 0; i < 300; ++i)
    state_.removeNode(names[i]);
  state_.removePod("default/early");
  state_.removePod("default/stays");
  expectAgrees("every node and pod removed");
  EXPECT_EQ(state_.nodeCount(), 0u);
}

}  // namespace
}  // namespace koord::extender::framework
