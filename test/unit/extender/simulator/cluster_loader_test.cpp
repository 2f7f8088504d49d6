#include "extender/simulator/cluster_loader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "koord/api/sigs/pod_group.hpp"

namespace koord::extender::simulator {
namespace {

TEST(ClusterLoaderTest, ReadsNodesPodsListsAndCrds) {
  const std::string yaml = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: p1}
  spec: {nodeName: n1, containers: [{name: c}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: p2, namespace: jobs}
  spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: NodeList
items:
- metadata: {name: n2}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: PodGroup
metadata: {name: g, namespace: jobs}
spec: {minMember: 2}
)";
  ClusterLoader loader;
  ASSERT_TRUE(loader.addText(yaml, "c.yaml").isOk()) << loader.addText(yaml, "again.yaml");
  const ClusterInput& in = loader.input();
  ASSERT_EQ(in.nodes.size(), 2u);
  EXPECT_EQ(in.nodes[1]->metadata.name, "n2");
  ASSERT_EQ(in.pods.size(), 2u);
  EXPECT_EQ(in.pods[0]->metadata.namespace_, "default");
  EXPECT_EQ(in.pods[1]->metadata.namespace_, "jobs");
  EXPECT_EQ(in.sources.at("Pod/jobs/p2"), "c.yaml:12");
  EXPECT_EQ(in.other_kinds.at("PodGroup"), 1);
  // Kept for the plugins that read PodGroups, not only counted.
  ASSERT_EQ(in.objects.at("PodGroup").size(), 1u);
  const auto* group = static_cast<const api::sigs::PodGroup*>(in.objects.at("PodGroup")[0].get());
  EXPECT_EQ(group->metadata.namespace_, "jobs");
  EXPECT_EQ(group->spec.minMember, 2);
}

struct BadCase {
  std::string name;
  std::string yaml;
  std::string want;  // substring of the error
};

TEST(ClusterLoaderTest, BadInputNamesFileAndLine) {
  const std::vector<BadCase> cases = {
      {"bad YAML", "apiVersion: v1\nkind: [Pod\n", "failed to parse YAML 'in.yaml': line"},
      {"unknown kind",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\napiVersion: x/v1\nkind: Gadget\n",
       "in.yaml: line 5: failed to validate object: unknown kind 'Gadget' in 'x/v1'"},
      {"unknown top-level field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspek: {}\n",
       "in.yaml: line 4: unknown field \"spek\""},
      {"unknown spec field",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelecter: {a: b}\n",
       "in.yaml: line 5: spec: unknown field \"nodeSelecter\" (did you mean \"nodeSelector\"?)"},
      {"unknown container field",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    "
       "resourcez: {}\n",
       "in.yaml: line 7: spec.containers[0]: unknown field \"resourcez\""},
      {"unknown node status field",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n  allocatible: {}\n",
       "in.yaml: line 5: status: unknown field \"allocatible\""},
      {"bad quantity points at its line",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    "
       "resources:\n      requests:\n        cpu: lots\n",
       "in.yaml: line 9: failed to decode Pod 'p': spec.containers[0].resources.requests.cpu"},
      // kube-apiserver refuses negative quantities: cpu 100 and -99 must not sum to 1.
      {"negative request",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n"
       "    resources:\n      requests: {cpu: \"100\"}\n  - name: b\n    resources:\n"
       "      requests:\n        cpu: \"-99\"\n",
       "in.yaml: line 11: failed to decode Pod 'p': spec.containers[1].resources.requests[cpu]: "
       "Invalid value: \"-99\": must be greater than or equal to 0"},
      {"negative limit of an init container",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers:\n  - name: a\n"
       "    resources:\n      limits: {memory: -1Gi}\n",
       "in.yaml: line 8: failed to decode Pod 'p': "
       "spec.initContainers[0].resources.limits[memory]: "
       "Invalid value: \"-1Gi\": must be greater than or equal to 0"},
      {"negative node allocatable",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n  allocatable:\n"
       "    kubernetes.io/batch-cpu: \"-9e18\"\n",
       "in.yaml: line 5: failed to decode Node 'n': status.allocatable[kubernetes.io/batch-cpu]: "
       "Invalid value: \"-9e18\": must be greater than or equal to 0"},
      {"pod without a name", "apiVersion: v1\nkind: Pod\nmetadata: {namespace: x}\n",
       "in.yaml: line 1: Pod has no metadata.name"},
      {"no kind", "apiVersion: v1\nmetadata: {name: x}\n",
       "in.yaml: line 1: object has no apiVersion or kind"},
      {"not an object", "- a\n- b\n", "expected an object, got array"},
      {"defined twice",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\napiVersion: v1\nkind: "
       "Node\nmetadata: {name: n}\n",
       "in.yaml: line 5: Node/n is defined twice (first at in.yaml:1)"},
      {"bad CRD",
       "apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: g}\nspec: "
       "{minMember: many}\n",
       "in.yaml: line 1: failed to decode PodGroup"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterLoader loader;
    Status status = loader.addText(c.yaml, "in.yaml");
    ASSERT_FALSE(status.isOk());
    EXPECT_NE(status.message().find(c.want), std::string::npos) << status.message();
  }
}

TEST(ClusterLoaderTest, MissingFile) {
  ClusterLoader loader;
  Status status = loader.addFile("/nonexistent/koord/cluster.yaml");
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("/nonexistent/koord/cluster.yaml"), std::string::npos);
}

}  // namespace
}  // namespace koord::extender::simulator
