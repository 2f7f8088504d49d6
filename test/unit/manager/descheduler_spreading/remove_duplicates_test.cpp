// RemoveDuplicates: the community's TestFindDuplicatePods and TestRemoveDuplicatesUniformly tables.
#include "manager/descheduler/plugins/spreading/remove_duplicates.hpp"

#include <gtest/gtest.h>

#include "test/unit/manager/descheduler_spreading/fixture.hpp"

namespace koord::manager::descheduler::plugins::spreading {
namespace {

using testing::Cluster;
using testing::makeNode;
using testing::makePod;
using testing::setOwner;
using testing::setRSOwnerRef;

struct DupCase {
  std::string description{};
  std::vector<api::core::Pod> pods{};
  std::vector<api::core::Node> nodes{};
  size_t expected = 0;
  std::vector<std::string> exclude_owner_kinds{};
  bool node_fit = false;
};

size_t runCase(const DupCase& tc, std::vector<std::string>* evicted = nullptr) {
  Cluster c;
  c.nodes = tc.nodes;
  c.pods = tc.pods;
  c.build();
  c.evictor.filter_fn = testing::defaultEvictable;
  if (tc.node_fit) {
    c.enableNodeFit();
  }
  nlohmann::json args = nlohmann::json::object();
  if (!tc.exclude_owner_kinds.empty()) {
    args["excludeOwnerKinds"] = tc.exclude_owner_kinds;
  }
  auto plugin = createRemoveDuplicates(args, c.handle);
  EXPECT_TRUE(plugin.ok()) << plugin.status();
  auto* balance = dynamic_cast<framework::BalancePlugin*>(plugin->get());
  EXPECT_TRUE(balance->balance(c.node_list).isOk());
  for (const auto& opts : c.evictor.options) {
    EXPECT_EQ(opts.plugin, "RemoveDuplicates");
  }
  if (evicted != nullptr) {
    *evicted = c.evictor.evicted;
  }
  return c.evictor.evicted.size();
}

api::core::Pod rsPod(const std::string& name, const std::string& ns,
                     const std::string& node = "n1") {
  auto pod = makePod(name, node);
  pod.metadata.namespace_ = ns;
  setRSOwnerRef(pod);
  return pod;
}

api::core::Pod withImage(api::core::Pod pod, const std::string& image) {
  pod.spec.containers[0].image = image;
  return pod;
}

api::core::Pod withExtraContainer(api::core::Pod pod, const std::string& image) {
  api::core::Container container;
  container.name = image;
  container.image = image;
  pod.spec.containers.push_back(container);
  return pod;
}

api::core::Node tainted(api::core::Node node) {
  node.spec.taints.push_back({"hardware", "gpu", "NoSchedule", "", {}});
  return node;
}

TEST(RemoveDuplicatesTest, FindDuplicatePods) {
  auto n1 = makeNode("n1");
  auto n2 = makeNode("n2");
  auto ds = makePod("p4", "n1");
  setOwner(ds, "DaemonSet", "");
  auto local = makePod("p5", "n1");
  setOwner(local, "Pod", "");
  local.metadata.annotations["test/local-storage"] = "true";
  auto mirror = makePod("p6", "n1");
  mirror.metadata.annotations["kubernetes.io/config.mirror"] = "mirror";
  auto critical = makePod("p7", "n1");
  critical.metadata.namespace_ = "kube-system";
  critical.spec.priority = 2000000000;
  auto n4 = makeNode("n4", 2000, 3000, 10, {{"datacenter", "east"}});
  auto n5 = makeNode("n5");
  n5.spec.unschedulable = true;
  auto n6 = makeNode("n6", 200, 200, 10);
  auto eater = makePod("CPU-eater", "n6", 150, 150);
  eater.metadata.namespace_ = "test";
  auto saver = makePod("CPU-saver", "n6", 100, 150);
  saver.metadata.namespace_ = "test";
  auto west = [](api::core::Pod pod) {
    pod.spec.nodeSelector = {{"datacenter", "west"}};
    return pod;
  };
  const std::vector<api::core::Pod> dev3 = {rsPod("p1", "dev"), rsPod("p2", "dev"),
                                            rsPod("p3", "dev")};
  auto plus = [](std::vector<api::core::Pod> a, const std::vector<api::core::Pod>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::vector<api::core::Pod> test3 = {rsPod("p8", "test"), rsPod("p9", "test"),
                                             rsPod("p10", "test")};

  std::vector<DupCase> cases = {
      {"three dev pods of one ReplicaSet: 1 evicted", dev3, {n1, n2}, 1},
      {"ReplicaSet kind excluded: 0 evicted", dev3, {n1, n2}, 0, {"ReplicaSet"}},
      {"three test pods: 1 evicted", test3, {n1, n2}, 1},
      {"dev and test ReplicaSets of the same name: 2 evicted", plus(dev3, test3), {n1, n2}, 2},
      {"DaemonSet, local storage, mirror, critical: 0 evicted",
       {ds, local, mirror, critical},
       {n1, n2},
       0},
      {"all pods: 2 evicted", plus(plus(dev3, {ds, local, mirror, critical}), test3), {n1, n2}, 2},
      {"same owner, different images: 0 evicted",
       {withImage(rsPod("p11", "different-images"), "foo"),
        withImage(rsPod("p12", "different-images"), "bar")},
       {n1, n2},
       0},
      {"a pod with several containers does not match itself",
       {withExtraContainer(rsPod("p13", "different-images"), "foo")},
       {n1, n2},
       0},
      {"matching owners but not all images: 0 evicted",
       {withImage(rsPod("p11", "different-images"), "foo"),
        withExtraContainer(rsPod("p13", "different-images"), "foo")},
       {n1, n2},
       0},
      {"only other node tainted, nodeFit: 0 evicted",
       dev3,
       {n1, tainted(makeNode("n3"))},
       0,
       {},
       true},
      {"only other node has the wrong label, nodeFit: 0 evicted",
       {west(rsPod("p15", "node-fit")), west(rsPod("NOT1", "node-fit")),
        west(rsPod("NOT2", "node-fit"))},
       {n1, n4},
       0,
       {},
       true},
      {"only other node unschedulable, nodeFit: 0 evicted", dev3, {n1, n5}, 0, {}, true},
      {"only other node lacks cpu, nodeFit: 0 evicted", plus(dev3, {eater}), {n1, n6}, 0, {}, true},
      {"only other node has enough cpu, nodeFit: 1 evicted",
       plus(dev3, {saver}),
       {n1, n6},
       1,
       {},
       true},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(runCase(tc), tc.expected) << tc.description;
  }
}

TEST(RemoveDuplicatesTest, EvictsTheSurplusBeyondTheFirstDuplicates) {
  DupCase tc{"",
             {rsPod("p1", "dev"), rsPod("p2", "dev"), rsPod("p3", "dev")},
             {makeNode("n1"), makeNode("n2")},
             1};
  std::vector<std::string> evicted;
  runCase(tc, &evicted);
  EXPECT_EQ(evicted, std::vector<std::string>{"p3"});
}

api::core::Pod ownedPod(const std::string& name, const std::string& node,
                        const std::function<void(api::core::Pod&)>& apply) {
  auto pod = makePod(name, node);
  apply(pod);
  return pod;
}

TEST(RemoveDuplicatesTest, RemovesDuplicatesUniformly) {
  auto rs1 = [](api::core::Pod& p) { setRSOwnerRef(p); };
  auto rs2 = [](api::core::Pod& p) { setOwner(p, "ReplicaSet", "replicaset-2"); };
  auto two_rs = [](api::core::Pod& p) {
    setRSOwnerRef(p);
    api::core::OwnerReference second;
    second.apiVersion = "v1";
    second.kind = "ReplicaSet";
    second.name = "replicaset-2";
    p.metadata.ownerReferences.push_back(second);
  };
  auto spread = [](const std::string& prefix, const std::vector<std::string>& nodes,
                   const std::function<void(api::core::Pod&)>& apply) {
    std::vector<api::core::Pod> pods;
    for (size_t i = 0; i < nodes.size(); ++i) {
      pods.push_back(ownedPod(prefix + std::to_string(i + 1), nodes[i], apply));
    }
    return pods;
  };
  const std::vector<std::string> layout = {"n1", "n1", "n1", "n1", "n1", "n2", "n2", "n2", "n3"};
  const std::vector<std::string> workers = {"worker1", "worker1", "worker1", "worker1", "worker1",
                                            "worker2", "worker2", "worker2", "worker3"};
  auto n1 = makeNode("n1");
  auto n2 = makeNode("n2");
  auto n3 = makeNode("n3");
  auto both = spread("p1", layout, rs1);
  auto second = spread("p2", {"n1", "n2", "n2", "n2", "n3", "n3", "n3", "n3", "n3"}, rs2);
  both.insert(both.end(), second.begin(), second.end());

  auto toleration = [](const std::string& key, const std::string& value) {
    return [key, value](api::core::Pod& p) {
      setRSOwnerRef(p);
      p.spec.tolerations = {{key, "Equal", value, "NoSchedule", std::nullopt, {}}};
    };
  };
  std::vector<api::core::Pod> tolerating;
  for (size_t i = 0; i < workers.size(); ++i) {
    tolerating.push_back(ownedPod("p" + std::to_string(i + 1), workers[i],
                                  i % 2 == 0 ? toleration("k1", "v1") : toleration("k2", "v2")));
  }
  auto master = [](const std::string& name) {
    auto node = makeNode(name);
    node.spec.taints.push_back({"node-role.kubernetes.io/control-plane", "", "NoSchedule", "", {}});
    return node;
  };
  auto not_master = [](const std::string& key) {
    return [key](api::core::Pod& p) {
      setRSOwnerRef(p);
      api::core::NodeSelectorTerm term;
      term.matchExpressions = {{"node-role.kubernetes.io/control-plane", "DoesNotExist", {}, {}},
                               {key, "DoesNotExist", {}, {}}};
      api::core::NodeAffinity affinity;
      affinity.required = api::core::NodeSelector{{term}, {}};
      api::core::Affinity a;
      a.nodeAffinity = affinity;
      p.spec.affinity = a;
    };
  };
  std::vector<api::core::Pod> affine;
  for (size_t i = 0; i < workers.size(); ++i) {
    affine.push_back(
        ownedPod("p" + std::to_string(i + 1), workers[i], not_master(i % 2 == 0 ? "k1" : "k2")));
  }
  auto labelled = [](const std::string& name, const std::string& key) {
    return makeNode(name, 2000, 3000, 10, {{key, ""}});
  };
  auto selecting = [](const std::string& value) {
    return [value](api::core::Pod& p) {
      setRSOwnerRef(p);
      p.spec.nodeSelector = {{"node-role.kubernetes.io/worker", value}};
    };
  };
  std::vector<api::core::Pod> selected;
  for (size_t i = 0; i < workers.size(); ++i) {
    selected.push_back(
        ownedPod("p" + std::to_string(i + 1), workers[i], selecting(i % 2 == 0 ? "k1" : "k2")));
  }
  auto worker = [](const std::string& name) {
    return makeNode(name, 2000, 3000, 10, {{"node-role.kubernetes.io/worker", "k2"}});
  };
  const std::vector<api::core::Node> plain6 = {makeNode("worker1"), makeNode("worker2"),
                                               makeNode("worker3"), makeNode("master1"),
                                               makeNode("master2"), makeNode("master3")};

  std::vector<DupCase> cases = {
      {"(5,3,1) -> (3,3,3): 2 evicted", spread("p", layout, rs1), {n1, n2, n3}, 2},
      {"one node left out, (5,3,1) -> (4,4,1): 1 evicted", spread("p", layout, rs1), {n1, n2}, 1},
      {"two ReplicaSets on each pod: 4 evicted", spread("p1", layout, two_rs), {n1, n2, n3}, 4},
      {"two owners, each (5,3,1)/(1,3,5): 4 evicted", both, {n1, n2, n3}, 4},
      {"fewer pods than nodes, (2,0,0): 1 evicted",
       spread("p", {"n1", "n1"}, rs1),
       {n1, n2, n3},
       1},
      {"only the same-image pods are duplicates: 1 evicted",
       {withExtraContainer(ownedPod("p1", "n1", rs1), "foo"),
        withExtraContainer(ownedPod("p2", "n1", rs1), "bar"),
        withExtraContainer(ownedPod("p3", "n1", rs1), "baz"),
        withExtraContainer(ownedPod("p4", "n1", rs1), "foo")},
       {n1, n2, n3},
       1},
      {"a single pod: 0 evicted", spread("p", {"n1"}, rs1), {n1, n2, n3}, 0},
      {"tainted masters do not count: 2 evicted",
       tolerating,
       {makeNode("worker1"), makeNode("worker2"), makeNode("worker3"), master("master1"),
        master("master2"), master("master3")},
       2},
      {"required affinity excludes masters: 2 evicted",
       affine,
       {makeNode("worker1"), makeNode("worker2"), makeNode("worker3"),
        labelled("master1", "node-role.kubernetes.io/control-plane"),
        labelled("master2", "node-role.kubernetes.io/control-plane"),
        labelled("master3", "node-role.kubernetes.io/control-plane")},
       2},
      {"node selector picks workers: 2 evicted",
       selected,
       {worker("worker1"), worker("worker2"), worker("worker3"), makeNode("master1"),
        makeNode("master2"), makeNode("master3")},
       2},
      {"node selector matches no node: 0 evicted", selected, plain6, 0},
  };
  for (const auto& tc : cases) {
    EXPECT_EQ(runCase(tc), tc.expected) << tc.description;
  }
}

TEST(RemoveDuplicatesTest, NamespacesArgLimitsThePods) {
  Cluster c;
  c.nodes = {makeNode("n1"), makeNode("n2")};
  c.pods = {rsPod("p1", "dev"),  rsPod("p2", "dev"),  rsPod("p3", "dev"),
            rsPod("p8", "test"), rsPod("p9", "test"), rsPod("p10", "test")};
  c.build();
  auto plugin = createRemoveDuplicates({{"namespaces", {{"exclude", {"dev"}}}}}, c.handle);
  ASSERT_TRUE(plugin.ok()) << plugin.status();
  ASSERT_TRUE(dynamic_cast<framework::BalancePlugin&>(**plugin).balance(c.node_list).isOk());
  EXPECT_EQ(c.evictor.evicted, std::vector<std::string>{"p10"});
}

}  // namespace
}  // namespace koord::manager::descheduler::plugins::spreading
