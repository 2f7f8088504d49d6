#include "extender/plugins/kube/kube_plugins.hpp"

#include <gtest/gtest.h>

#include "../plugin_test_util.hpp"
#include "extender/plugins/kube/node_filters.hpp"
#include "extender/plugins/kube/node_resources_fit.hpp"

namespace koord::extender::plugins::kube {
namespace {

using testing::Quantities;

struct FitCase {
  std::string name;
  Quantities allocatable;
  Quantities existing;
  Quantities request;
  std::vector<std::string> want_reasons = {};  // empty: fits
  api::Json args = nullptr;
};

TEST(NodeResourcesFitTest, Filter) {
  const std::vector<FitCase> cases = {
      {"fits", {{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "10"}}, {}, {{"cpu", "4"}}, {}},
      {"cpu short",
       {{"cpu", "4"}, {"pods", "10"}},
       {{"cpu", "1"}},
       {{"cpu", "3500m"}},
       {"Insufficient cpu"}},
      {"every short resource",
       {{"cpu", "1"}, {"memory", "1Gi"}, {"pods", "10"}},
       {},
       {{"cpu", "2"}, {"memory", "2Gi"}, {"ephemeral-storage", "1Gi"}},
       {"Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage"}},
      {"too many pods", {{"cpu", "4"}, {"pods", "1"}}, {{"cpu", "1"}}, {}, {"Too many pods"}},
      {"extended resource",
       {{"cpu", "4"}, {"pods", "10"}, {"example.com/foo", "1"}},
       {},
       {{"example.com/foo", "2"}},
       {"Insufficient example.com/foo"}},
      {"ignored resource",
       {{"pods", "10"}},
       {},
       {{"kubernetes.io/batch-cpu", "1000"}},
       {},
       api::Json{{"ignoredResources", {"kubernetes.io/batch-cpu"}}}},
      {"ignored resource group",
       {{"pods", "10"}},
       {},
       {{"example.com/foo", "2"}},
       {},
       api::Json{{"ignoredResourceGroups", {"example.com"}}}},
  };
  testing::TestHandle handle;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto plugin = createNodeResourcesFit(c.args, handle);
    ASSERT_TRUE(plugin.ok()) << plugin.status();
    auto* fit = dynamic_cast<NodeResourcesFit*>(plugin->get());
    std::vector<std::shared_ptr<const framework::PodInfo>> pods;
    if (!c.existing.empty()) {
      pods.push_back(testing::podInfo(testing::makePod("old", c.existing)));
    }
    auto node = testing::nodeInfo(testing::makeNode("n1", c.allocatable), pods);
    auto pod = testing::podInfo(testing::makePod("p", c.request));
    framework::CycleState state;
    framework::PluginStatus status = fit->filter(state, *pod, *node);
    EXPECT_EQ(status.reasons(), c.want_reasons);
    EXPECT_EQ(status.code(),
              c.want_reasons.empty() ? framework::Code::kSuccess : framework::Code::kUnschedulable);
  }
}

TEST(NodeResourcesFitTest, ArgsAreStrict) {
  EXPECT_FALSE(decodeNodeResourcesFitArgs(api::Json{{"ignoredResourceGroups", {"a/b"}}}).ok());
  auto bad = decodeNodeResourcesFitArgs(api::Json{{"ignoredResources", 3}, {"scoring", 1}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("args.ignoredResources: expected array"),
            std::string::npos);
  EXPECT_NE(bad.status().message().find("args.scoring: unknown field"), std::string::npos);
}

struct NodeFilterCase {
  std::string name;
  std::function<void(api::core::Pod&)> pod;
  std::function<void(api::core::Node&)> node;
  std::string want_reason;  // "" passes
};

void runNodeFilterCases(const framework::FilterPlugin& plugin,
                        const std::vector<NodeFilterCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto pod = testing::makePod("p", {});
    if (c.pod)
      c.pod(*pod);
    auto node = testing::makeNode("n1", {{"pods", "10"}});
    node->metadata.labels = {{"zone", "a"}, {"disk", "ssd"}};
    if (c.node)
      c.node(*node);
    auto info = testing::podInfo(pod);
    framework::CycleState state;
    framework::PluginStatus status = plugin.filter(state, *info, *testing::nodeInfo(node));
    if (c.want_reason.empty()) {
      EXPECT_TRUE(status.isSuccess()) << status.message();
    } else {
      EXPECT_EQ(status.code(), framework::Code::kUnschedulableAndUnresolvable);
      EXPECT_EQ(status.message().rfind(c.want_reason, 0), 0u) << status.message();
    }
  }
}

api::core::Taint taint(std::string key, std::string value, std::string effect) {
  api::core::Taint t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

TEST(KubeFiltersTest, NodeName) {
  runNodeFilterCases(NodeName(),
                     {
                         {"unset", nullptr, nullptr, ""},
                         {"this node", [](auto& p) { p.spec.nodeName = "n1"; }, nullptr, ""},
                         {"another node", [](auto& p) { p.spec.nodeName = "n2"; }, nullptr,
                          "node(s) didn't match the requested node name"},
                     });
}

TEST(KubeFiltersTest, NodeUnschedulable) {
  auto cordon = [](api::core::Node& n) { n.spec.unschedulable = true; };
  runNodeFilterCases(NodeUnschedulable(),
                     {
                         {"schedulable", nullptr, nullptr, ""},
                         {"cordoned", nullptr, cordon, "node(s) were unschedulable"},
                         {"cordoned, tolerated",
                          [](auto& p) {
                            api::core::Toleration t;
                            t.key = "node.kubernetes.io/unschedulable";
                            t.operator_ = "Exists";
                            t.effect = "NoSchedule";
                            p.spec.tolerations.push_back(t);
                          },
                          cordon, ""},
                     });
}

TEST(KubeFiltersTest, NodeAffinity) {
  auto required = [](std::string key, std::string op, std::vector<std::string> values) {
    return [=](api::core::Pod& p) {
      api::core::NodeSelectorRequirement r;
      r.key = key;
      r.operator_ = op;
      r.values = values;
      api::core::NodeSelectorTerm term;
      term.matchExpressions.push_back(r);
      api::core::NodeSelector selector;
      selector.nodeSelectorTerms.push_back(term);
      api::core::NodeAffinity affinity;
      affinity.required = selector;
      p.spec.affinity = api::core::Affinity{};
      p.spec.affinity->nodeAffinity = affinity;
    };
  };
  const std::string reason = "node(s) didn't match Pod's node affinity/selector";
  runNodeFilterCases(
      NodeAffinity(),
      {
          {"no constraints", nullptr, nullptr, ""},
          {"nodeSelector matches",
           [](auto& p) {
             p.spec.nodeSelector = {{"zone", "a"}};
           },
           nullptr, ""},
          {"nodeSelector differs",
           [](auto& p) {
             p.spec.nodeSelector = {{"zone", "b"}};
           },
           nullptr, reason},
          {"nodeSelector label missing",
           [](auto& p) {
             p.spec.nodeSelector = {{"gpu", "x"}};
           },
           nullptr, reason},
          {"required affinity In", required("disk", "In", {"ssd", "nvme"}), nullptr, ""},
          {"required affinity NotIn", required("disk", "NotIn", {"ssd"}), nullptr, reason},
          {"invalid operator", required("disk", "Near", {"ssd"}), nullptr,
           "invalid node affinity: "},
      });
}

TEST(KubeFiltersTest, TaintToleration) {
  auto tainted = [](std::string effect) {
    return [=](api::core::Node& n) { n.spec.taints.push_back(taint("dedicated", "gpu", effect)); };
  };
  auto tolerate = [](std::string op, std::string value) {
    return [=](api::core::Pod& p) {
      api::core::Toleration t;
      t.key = "dedicated";
      t.operator_ = op;
      t.value = value;
      p.spec.tolerations.push_back(t);
    };
  };
  const std::string reason = "node(s) had untolerated taint {dedicated: gpu}";
  runNodeFilterCases(
      TaintToleration(),
      {
          {"no taints", nullptr, nullptr, ""},
          {"NoSchedule", nullptr, tainted("NoSchedule"), reason},
          {"NoExecute", nullptr, tainted("NoExecute"), reason},
          {"PreferNoSchedule does not filter", nullptr, tainted("PreferNoSchedule"), ""},
          {"tolerated by value", tolerate("Equal", "gpu"), tainted("NoSchedule"), ""},
          {"tolerated by Exists", tolerate("Exists", ""), tainted("NoSchedule"), ""},
          {"wrong value", tolerate("Equal", "cpu"), tainted("NoSchedule"), reason},
      });
}

TEST(KubeFiltersTest, RegistryMakesEveryPluginAndRejectsArgs) {
  framework::Registry registry = kubePlugins();
  testing::TestHandle handle;
  for (const auto& config : filterConfigs()) {
    SCOPED_TRACE(config.name);
    const framework::PluginFactory* factory = registry.find(config.name);
    ASSERT_NE(factory, nullptr);
    auto plugin = (*factory)(config.args, handle);
    ASSERT_TRUE(plugin.ok()) << plugin.status();
    EXPECT_EQ((*plugin)->name(), config.name);
  }
  for (const char* name : {"NodeName", "NodeUnschedulable", "NodeAffinity", "TaintToleration"}) {
    auto bad = (*registry.find(name))(api::Json{{"x", 1}}, handle);
    ASSERT_FALSE(bad.ok()) << name;
    EXPECT_NE(bad.status().message().find("args.x: unknown field"), std::string::npos);
  }
}

}  // namespace
}  // namespace koord::extender::plugins::kube
