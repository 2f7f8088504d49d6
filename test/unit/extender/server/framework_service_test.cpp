#include "extender/server/framework_service.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "test/unit/extender/framework/runtime_fixture.hpp"

namespace koord::extender::server {
namespace {

using framework::BindDeadline;
using framework::Binder;
using framework::BindPatch;
using framework::CycleState;
using framework::FilterPlugin;
using framework::Handle;
using framework::NodeInfo;
using framework::Plugin;
using framework::PluginStatus;
using framework::PodInfo;
using framework::Registry;
using framework::Runtime;
using framework::testing::makeNode;
using framework::testing::makePod;
using framework::testing::RuntimeFixture;
using framework::testing::ScriptedPlugin;

class NullBinder final : public Binder {
 public:
  Status patchPod(const PodInfo&, const BindPatch&, BindDeadline) override { return Status::ok(); }
  Status bindPod(const PodInfo& pod, const std::string& node, BindDeadline) override {
    bound.push_back(pod.key + "->" + node);
    return bind_error;
  }
  Result<std::shared_ptr<const api::core::Pod>> getPod(const std::string& ns,
                                                       const std::string& name,
                                                       BindDeadline) override {
    for (const auto& pod : api_server_pods) {
      if (pod->metadata.namespace_ == ns && pod->metadata.name == name)
        return pod;
    }
    return Status::notFound("pods \"" + name + "\" not found");
  }
  Status bind_error;
  std::vector<std::string> bound;
  // What the API server has that the cache may not yet.
  std::vector<std::shared_ptr<const api::core::Pod>> api_server_pods;
};

class FrameworkServiceTest : public RuntimeFixture {
 protected:
  void SetUp() override {
    cluster_.upsertNode(makeNode("n1", "4"));
    cluster_.upsertNode(makeNode("n2", "1"));
    cluster_.upsertNode(makeNode("n3", "4"));
    ASSERT_TRUE(cluster_.upsertPod(makePod("busy", "500m", "n2")).isOk());
    // Fit: the pod's cpu must fit what is left; Zone: n3 can never fit. Both score the same
    // fixed value per node, so the weighted mean is that value.
    auto fixed_score = [](const NodeInfo& node) -> int64_t {
      return node.name() == "n1" ? 100 : node.name() == "n2" ? 45 : 44;
    };
    add("Fit", [fixed_score](ScriptedPlugin& p) {
      p.on_filter = [](const PodInfo& pod, const NodeInfo& node) {
        return pod.requests.milli_cpu + node.requested().milli_cpu <= node.allocatable().milli_cpu
                   ? PluginStatus::success()
                   : PluginStatus::unschedulable("Insufficient cpu");
      };
      p.on_score = fixed_score;
    });
    add("Zone", [fixed_score](ScriptedPlugin& p) {
      p.on_score = fixed_score;
      p.on_filter = [](const PodInfo&, const NodeInfo& node) {
        return node.name() == "n3" ? PluginStatus::unresolvable("node(s) didn't match zone")
                                   : PluginStatus::success();
      };
    });
    runtime_ = make({{"Fit", {}, 1}, {"Zone", {}, 1}});
    ASSERT_NE(runtime_, nullptr);
    service_ = std::make_unique<FrameworkService>(*runtime_, cluster_, binder_, nullptr);
  }

  static api::extender::ExtenderArgs byName(std::vector<std::string> names) {
    api::extender::ExtenderArgs args;
    args.pod = *makePod("p", "1");
    args.nodeNames = std::move(names);
    return args;
  }

  // A runtime whose one plugin (FilterOnly, below) filters and does not score.
  std::unique_ptr<Runtime> filterOnlyRuntime();

  NullBinder binder_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<FrameworkService> service_;
};

TEST_F(FrameworkServiceTest, FilterByNamesWithNodeCache) {
  auto result = service_->filter(byName({"n1", "n2", "n3", "ghost"}));
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_FALSE(result.nodes.has_value());
  ASSERT_TRUE(result.nodeNames.has_value());
  EXPECT_EQ(*result.nodeNames, std::vector<std::string>{"n1"});
  EXPECT_EQ(result.failedNodes, (api::extender::FailedNodesMap{
                                    {"n2", "Insufficient cpu"},
                                    {"ghost", "node(s) not found in koord-extender's cache"}}));
  EXPECT_EQ(result.failedAndUnresolvableNodes,
            (api::extender::FailedNodesMap{{"n3", "node(s) didn't match zone"}}));
}

TEST_F(FrameworkServiceTest, FilterByNodeObjectsWithoutNodeCache) {
  api::extender::ExtenderArgs args;
  args.pod = *makePod("p", "1");
  args.nodes.emplace();
  for (const std::string name : {"n1", "n2", "n3", "ghost"}) {
    auto node = *makeNode(name);
    node.metadata.labels["from"] = "request";
    args.nodes->items.push_back(node);
  }
  auto result = service_->filter(args);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_FALSE(result.nodeNames.has_value());
  ASSERT_TRUE(result.nodes.has_value());
  ASSERT_EQ(result.nodes->items.size(), 1u);
  EXPECT_EQ(result.nodes->items[0].metadata.name, "n1");
  EXPECT_EQ(result.nodes->items[0].metadata.labels.at("from"), "request");  // the given object
  EXPECT_EQ(result.failedNodes.count("ghost"), 1u);
  EXPECT_EQ(result.failedAndUnresolvableNodes.count("n3"), 1u);
}

TEST_F(FrameworkServiceTest, FilterOfUndecodablePodIsAnError) {
  auto args = byName({"n1"});
  args.pod.metadata.name.clear();
  auto result = service_->filter(args);
  EXPECT_FALSE(result.error.empty());
  ASSERT_TRUE(result.nodeNames.has_value());
  EXPECT_TRUE(result.nodeNames->empty());
}

TEST_F(FrameworkServiceTest, FilterRefusesNegativeRequestsNamingTheField) {
  // cpu 100 and -99 sum to 1, and batch-cpu 9e18 and -9e18 to 0: either would fit anywhere if
  // added up. kube-apiserver refuses negative quantities, and so does the extender.
  struct Case {
    std::string resource;
    std::string first;
    std::string second;
    std::string error;
  };
  const Case cases[] = {
      {"cpu", "100", "-99",
       "failed to sum the requests of pod 'default/p': spec.containers[1].resources.requests[cpu]: "
       "Invalid value: \"-99\": must be greater than or equal to 0"},
      {"kubernetes.io/batch-cpu", "9e18", "-9e18",
       "failed to sum the requests of pod 'default/p': spec.containers[1].resources.requests"
       "[kubernetes.io/batch-cpu]: Invalid value: \"-9e18\": must be greater than or equal to 0"},
  };
  for (const Case& c : cases) {
    auto args = byName({"n1", "n2"});
    args.pod.spec.containers.resize(2);
    args.pod.spec.containers[0].resources.requests[c.resource] =
        resource::Quantity::parse(c.first).value();
    args.pod.spec.containers[1].resources.requests[c.resource] =
        resource::Quantity::parse(c.second).value();
    auto result = service_->filter(args);
    EXPECT_EQ(result.error, c.error);
    ASSERT_TRUE(result.nodeNames.has_value());
    EXPECT_TRUE(result.nodeNames->empty());
  }
  // A negative limit is refused as well.
  auto args = byName({"n1"});
  args.pod.spec.containers[0].resources.limits["memory"] = resource::Quantity::parse("-1").value();
  EXPECT_NE(service_->filter(args).error.find("resources.limits[memory]: Invalid value: \"-1\""),
            std::string::npos);
}

TEST_F(FrameworkServiceTest, PrioritizeScalesToZeroToTenAndLeavesOutZeros) {
  // "ghost" is unknown and scores 0: kube-scheduler reads a missing host as 0, so it is not listed.
  auto scores = service_->prioritize(byName({"n3", "ghost", "n1", "n2"}));
  const api::extender::HostPriorityList want = {{"n3", 4}, {"n1", 10}, {"n2", 5}};
  EXPECT_EQ(scores, want);
}

// A filter-only plugin: with no score plugin configured prioritize answers [] at once.
class FilterOnly final : public FilterPlugin {
 public:
  std::string_view name() const override { return "FilterOnly"; }
  PluginStatus filter(const CycleState&, const PodInfo&, const NodeInfo&) const override {
    return PluginStatus::success();
  }
};

std::unique_ptr<Runtime> FrameworkServiceTest::filterOnlyRuntime() {
  const Status added = registry_.add("FilterOnly", [](const api::Json&, const Handle&) {
    return Result<std::unique_ptr<Plugin>>(std::make_unique<FilterOnly>());
  });
  EXPECT_TRUE(added.isOk()) << added.message();
  return make({{"FilterOnly", {}, 1}});
}

TEST_F(FrameworkServiceTest, PrioritizeWithoutScorePluginsListsNoHost) {
  auto runtime = filterOnlyRuntime();
  ASSERT_NE(runtime, nullptr);
  EXPECT_FALSE(runtime->scores());
  EXPECT_TRUE(runtime_->scores());
  FrameworkService service(*runtime, cluster_, binder_, nullptr);
  EXPECT_TRUE(service.prioritize(byName({"n1", "n2"})).empty());
  EXPECT_EQ(service.filter(byName({"n1", "n2"})).nodeNames, (std::vector<std::string>{"n1", "n2"}));
}

// A service whose one plugin keeps every node and scores an empty node 100, a node with pods 20
// (10 and 2 on the wire), over nodes e1..e3 with 8 cpus each.
class SnapshotTest : public FrameworkServiceTest {
 protected:
  void SetUp() override {
    FrameworkServiceTest::SetUp();
    for (const std::string name : {"e1", "e2", "e3"})
      cluster_.upsertNode(makeNode(name, "8"));
    add("Load", [](ScriptedPlugin& p) {
      p.on_filter = [](const PodInfo&, const NodeInfo&) { return PluginStatus::success(); };
      p.on_score = [](const NodeInfo& node) -> int64_t { return node.pods().empty() ? 100 : 20; };
    });
    load_runtime_ = make({{"Load", {}, 1}});
    ASSERT_NE(load_runtime_, nullptr);
    load_ = std::make_unique<FrameworkService>(*load_runtime_, cluster_, binder_, nullptr);
  }

  static api::extender::ExtenderArgs podArgs(const std::string& resource_version,
                                             std::vector<std::string> names) {
    auto args = byName(std::move(names));
    args.pod.metadata.resourceVersion = resource_version;
    return args;
  }

  std::unique_ptr<Runtime> load_runtime_;
  std::unique_ptr<FrameworkService> load_;
};

TEST_F(SnapshotTest, PrioritizeScoresTheNodesAsItsFilterSawThem) {
  ASSERT_EQ(load_->filter(podArgs("7", {"e1", "e2", "e3"})).nodeNames,
            (std::vector<std::string>{"e1", "e2", "e3"}));
  // A pod lands on e1 between the cycle's filter and its prioritize.
  ASSERT_TRUE(cluster_.upsertPod(makePod("late", "1", "e1")).isOk());
  const api::extender::HostPriorityList as_filtered = {{"e1", 10}, {"e2", 10}, {"e3", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("7", {"e1", "e2", "e3"})), as_filtered);
  // The view serves one prioritize: the next call reads the cluster as it is now.
  const api::extender::HostPriorityList now = {{"e1", 2}, {"e2", 10}, {"e3", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("7", {"e1", "e2", "e3"})), now);
}

TEST_F(SnapshotTest, PrioritizeOfAnotherPodVersionReadsTheCluster) {
  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2"})).error.empty());
  ASSERT_TRUE(cluster_.upsertPod(makePod("late", "1", "e1")).isOk());
  const api::extender::HostPriorityList now = {{"e1", 2}, {"e2", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("8", {"e1", "e2"})), now);
}

TEST_F(SnapshotTest, PrioritizeOfFewerOrReorderedNamesScoresEachNameItsOwnNode) {
  ASSERT_TRUE(cluster_.upsertPod(makePod("resident", "1", "e2")).isOk());
  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2", "e3"})).error.empty());
  // Another extender's filter dropped e1: the kept view still lines up with the names.
  const api::extender::HostPriorityList subset = {{"e2", 2}, {"e3", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("7", {"e2", "e3"})), subset);
  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2", "e3"})).error.empty());
  const api::extender::HostPriorityList reordered = {{"e3", 10}, {"e2", 2}, {"e1", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("7", {"e3", "e2", "e1"})), reordered);
  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2"})).error.empty());
  const api::extender::HostPriorityList unfiltered = {{"e3", 10}, {"e1", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("7", {"e3", "e1"})), unfiltered);
}

TEST_F(SnapshotTest, AFilterThatKeepsNoViewDropsTheOlderOne) {
  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2"})).error.empty());
  ASSERT_TRUE(cluster_.upsertPod(makePod("late", "1", "e1")).isOk());
  // The same pod filtered again with node objects (no node cache): nothing is kept this time, and
  // the first filter's view, from before "late" landed, must not serve the next prioritize.
  auto objects = podArgs("7", {});
  objects.nodeNames.reset();
  objects.nodes.emplace();
  for (const std::string name : {"e1", "e2"})
    objects.nodes->items.push_back(*makeNode(name, "8"));
  ASSERT_TRUE(load_->filter(objects).error.empty());
  const api::extender::HostPriorityList now = {{"e1", 2}, {"e2", 10}};
  EXPECT_EQ(load_->prioritize(podArgs("7", {"e1", "e2"})), now);
}

// prioritizeKnownPod, given only the pod's UID, resourceVersion and the names, answers exactly what
// prioritize answers right after the pod's filter, and nothing when the kept view is not this
// pod's.
TEST_F(SnapshotTest, PrioritizeByTheKeyOfTheFilteredPodAnswersAsPrioritize) {
  auto keyOf = [](const api::extender::ExtenderArgs& args) {
    return wire::ExtenderArgsKey{args.pod.metadata.uid, args.pod.metadata.resourceVersion,
                                 *args.nodeNames, args.pod.metadata.namespace_,
                                 args.pod.metadata.name};
  };
  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2", "e3"})).error.empty());
  ASSERT_TRUE(cluster_.upsertPod(makePod("late", "1", "e1")).isOk());
  // e1 scores as filter saw it (empty), not as it is now.
  const api::extender::HostPriorityList as_filtered = {{"e1", 10}, {"e3", 10}};
  EXPECT_EQ(load_->prioritizeKnownPod(keyOf(podArgs("7", {"e1", "e3"}))), as_filtered);
  // The view served that call; the next one must decode the pod.
  EXPECT_EQ(load_->prioritizeKnownPod(keyOf(podArgs("7", {"e1", "e3"}))), std::nullopt);

  ASSERT_TRUE(load_->filter(podArgs("7", {"e1", "e2"})).error.empty());
  EXPECT_EQ(load_->prioritizeKnownPod(keyOf(podArgs("8", {"e1", "e2"}))), std::nullopt);
  auto other = podArgs("7", {"e1", "e2"});
  other.pod.metadata.uid = "another-uid";
  EXPECT_EQ(load_->prioritizeKnownPod(keyOf(other)), std::nullopt);
  // A name the filter did not keep: the names are looked up after a full decode instead.
  EXPECT_EQ(load_->prioritizeKnownPod(keyOf(podArgs("7", {"e1", "e3"}))), std::nullopt);
}

// filterKnownPod answers for the informer's pod of exactly the key's version what filter answers
// for the decoded body, and keeps the view for the prioritize after it; any other version, a pod
// the informer does not hold, or one already bound is left to the full decode.
TEST_F(SnapshotTest, FilterByTheKeyOfAnInformerPodAnswersAsFilter) {
  auto keyOf = [](const api::extender::ExtenderArgs& args) {
    return wire::ExtenderArgsKey{args.pod.metadata.uid, args.pod.metadata.resourceVersion,
                                 *args.nodeNames, args.pod.metadata.namespace_,
                                 args.pod.metadata.name};
  };
  ASSERT_TRUE(cluster_.upsertPod(makePod("resident", "1", "e2")).isOk());
  auto args = podArgs("7", {"e1", "e2", "e3", "ghost"});
  EXPECT_EQ(load_->filterKnownPod(keyOf(args)), std::nullopt);  // not delivered yet
  ASSERT_TRUE(cluster_.upsertPod(std::make_shared<api::core::Pod>(args.pod)).isOk());

  const auto decoded = service_->filter(args);
  const auto known = service_->filterKnownPod(keyOf(args));
  ASSERT_TRUE(known.has_value());
  EXPECT_EQ(*known, decoded);
  EXPECT_EQ(known->nodeNames, (std::vector<std::string>{"e1", "e2", "e3"}));
  EXPECT_EQ(known->failedNodes.count("ghost"), 1u);

  // The view filter kept serves the cycle's prioritize, as after a decoded filter.
  ASSERT_TRUE(load_->filterKnownPod(keyOf(args)).has_value());
  ASSERT_TRUE(cluster_.upsertPod(makePod("late", "1", "e1")).isOk());
  const api::extender::HostPriorityList as_filtered = {{"e1", 10}, {"e2", 2}, {"e3", 10}};
  EXPECT_EQ(load_->prioritizeKnownPod(keyOf(podArgs("7", {"e1", "e2", "e3"}))), as_filtered);

  for (auto [what, edit] :
       std::vector<std::pair<std::string, std::function<void(wire::ExtenderArgsKey&)>>>{
           {"newer version", [](auto& k) { k.pod_resource_version = "8"; }},
           {"no version", [](auto& k) { k.pod_resource_version.clear(); }},
           {"another uid", [](auto& k) { k.pod_uid = "uid-other"; }},
           {"another name", [](auto& k) { k.pod_name = "q"; }},
           {"another namespace", [](auto& k) { k.pod_namespace = "kube-system"; }},
           {"no namespace", [](auto& k) { k.pod_namespace.clear(); }}}) {
    auto key = keyOf(args);
    edit(key);
    EXPECT_EQ(load_->filterKnownPod(key), std::nullopt) << what;
  }
  auto bound = args.pod;
  bound.spec.nodeName = "e1";
  ASSERT_TRUE(cluster_.upsertPod(std::make_shared<api::core::Pod>(bound)).isOk());
  EXPECT_EQ(load_->filterKnownPod(keyOf(args)), std::nullopt) << "bound";
}

// Only what the informer delivered counts: a pod the cache holds only as assumed (its bind in
// flight, its informer event not yet in) is left to the full decode.
TEST_F(SnapshotTest, FilterByKeyTakesOnlyWhatTheInformerDelivered) {
  auto args = podArgs("7", {"e1"});
  auto info = PodInfo::create(std::make_shared<api::core::Pod>(args.pod));
  ASSERT_TRUE(info.ok());
  ASSERT_TRUE(cluster_.assume(*info, "e1").isOk());
  ASSERT_NE(cluster_.pod("default/p"), nullptr);
  const wire::ExtenderArgsKey key{"uid-p", "7", {"e1"}, "default", "p"};
  EXPECT_EQ(load_->filterKnownPod(key), std::nullopt);
  ASSERT_TRUE(cluster_.upsertPod(std::make_shared<api::core::Pod>(args.pod)).isOk());
  EXPECT_TRUE(load_->filterKnownPod(key).has_value());
}

// With no score plugin, filter keeps no view: prioritize by key leaves the body to the full decode
// (which checks it), and prioritize then answers [].
TEST_F(FrameworkServiceTest, PrioritizeByKeyWithoutScorePluginsLeavesTheBodyToTheFullDecode) {
  auto runtime = filterOnlyRuntime();
  ASSERT_NE(runtime, nullptr);
  FrameworkService service(*runtime, cluster_, binder_, nullptr);
  auto args = byName({"n1"});
  args.pod.metadata.resourceVersion = "1";
  ASSERT_TRUE(service.filter(args).error.empty());
  EXPECT_EQ(service.prioritizeKnownPod({args.pod.metadata.uid, "1", {"n1"}, "", ""}), std::nullopt);
  EXPECT_TRUE(service.prioritize(args).empty());
}

TEST_F(FrameworkServiceTest, BindAssumesThePod) {
  ASSERT_TRUE(cluster_.upsertPod(makePod("p", "1")).isOk());
  api::extender::ExtenderBindingArgs args{"p", "default", "uid-p", "n1"};
  auto result = service_->bind(args);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_EQ(binder_.bound, std::vector<std::string>{"default/p->n1"});
  EXPECT_TRUE(cluster_.isAssumed("default/p"));
  EXPECT_EQ(cluster_.nodeInfo("n1")->requested().milli_cpu, 1000);
}

TEST_F(FrameworkServiceTest, BindFailuresForgetThePod) {
  ASSERT_TRUE(cluster_.upsertPod(makePod("p", "1")).isOk());
  ASSERT_TRUE(cluster_.upsertPod(makePod("big", "8")).isOk());
  struct Case {
    std::string name;
    api::extender::ExtenderBindingArgs args;
    Status bind_error;
    std::string want_error;
  };
  const std::vector<Case> cases = {
      {"binder fails",
       {"p", "default", "uid-p", "n1"},
       Status::conflict("pod is already bound"),
       "pod is already bound"},
      {"re-check fails", {"big", "default", "uid-big", "n1"}, {}, "Fit: Insufficient cpu"},
      {"unknown pod",
       {"nope", "default", "", "n1"},
       {},
       "failed to bind pod 'default/nope': the pod is not in koord-extender's cache, and reading "
       "it failed: pods \"nope\" not found"},
      {"unknown node", {"p", "default", "", "ghost"}, {}, "node 'ghost'"},
      {"uid mismatch", {"p", "default", "other-uid", "n1"}, {}, "other-uid"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    binder_.bind_error = c.bind_error;
    auto result = service_->bind(c.args);
    EXPECT_NE(result.error.find(c.want_error), std::string::npos) << result.error;
    EXPECT_FALSE(cluster_.isAssumed("default/" + c.args.podName));
    EXPECT_EQ(cluster_.nodeInfo("n1")->requested().milli_cpu, 0);
  }
}

// kube-scheduler may bind a pod before koord-extender's pod informer has delivered it: the bind
// reads the pod from the API server and goes on.
TEST_F(FrameworkServiceTest, BindReadsAPodTheInformerHasNotDeliveredYet) {
  binder_.api_server_pods.push_back(makePod("fresh", "1"));
  ASSERT_EQ(cluster_.pod("default/fresh"), nullptr);
  auto result = service_->bind({"fresh", "default", "uid-fresh", "n1"});
  EXPECT_EQ(result.error, "");
  EXPECT_EQ(binder_.bound.back(), "default/fresh->n1");
  EXPECT_TRUE(cluster_.isAssumed("default/fresh"));
  EXPECT_EQ(cluster_.nodeInfo("n1")->requested().milli_cpu, 1000);
  // The UID check still holds for a pod read this way.
  binder_.api_server_pods.push_back(makePod("other", "1"));
  result = service_->bind({"other", "default", "uid-stale", "n1"});
  EXPECT_NE(result.error.find("uid-stale"), std::string::npos) << result.error;
}

TEST_F(FrameworkServiceTest, PreemptAnswersMetaVictims) {
  ASSERT_TRUE(cluster_.upsertPod(makePod("v1", "1", "n1")).isOk());
  ASSERT_TRUE(cluster_.upsertPod(makePod("v2", "1", "n1")).isOk());
  registry_ = Registry();
  add("Protect", [](ScriptedPlugin& p) {
    p.on_select = [](std::vector<std::shared_ptr<const PodInfo>>& victims) {
      std::erase_if(victims, [](const auto& v) { return v->key == "default/v2"; });
      for (const auto& v : victims) {
        if (v->key == "default/busy")
          return PluginStatus::unschedulable("protected");
      }
      return PluginStatus::success();
    };
  });
  auto runtime = make({{"Protect", {}, 1}});
  FrameworkService service(*runtime, cluster_, binder_, nullptr);
  api::extender::ExtenderPreemptionArgs args;
  args.pod = *makePod("preemptor");
  args.nodeNameToMetaVictims = std::map<std::string, api::extender::MetaVictims>{
      {"n1", {{{"uid-v1"}, {"uid-v2"}}, 1}},
      {"n2", {{{"uid-busy"}}, 0}},
  };
  auto result = service.preempt(args);
  ASSERT_TRUE(result.nodeNameToMetaVictims.has_value());
  ASSERT_EQ(result.nodeNameToMetaVictims->size(), 1u);
  const auto& n1 = result.nodeNameToMetaVictims->at("n1");
  ASSERT_EQ(n1.pods.size(), 1u);
  EXPECT_EQ(n1.pods[0].uid, "uid-v1");
  EXPECT_EQ(n1.numPDBViolations, 1);
}

TEST_F(FrameworkServiceTest, ReadyFollowsTheCallback) {
  bool synced = false;
  FrameworkService service(*runtime_, cluster_, binder_, [&] { return synced; });
  EXPECT_FALSE(service.ready());
  synced = true;
  EXPECT_TRUE(service.ready());
  EXPECT_TRUE(service_->ready());  // no callback: always ready
}

}  // namespace
}  // namespace koord::extender::server
