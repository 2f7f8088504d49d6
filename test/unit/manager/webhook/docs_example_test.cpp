// The example of docs/cluster-colocation-profile.md, checked: its three YAML blocks are the
// profile, the pod as created, and the pod as stored after the mutating webhook.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "koord/config/yaml.hpp"
#include "manager/webhook/pod_mutating.hpp"
#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

std::vector<api::Json> yamlBlocks(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<api::Json> blocks;
  std::istringstream lines(text.str());
  std::string line;
  std::string block;
  bool inside = false;
  while (std::getline(lines, line)) {
    if (!inside && line == "```yaml") {
      inside = true;
      block.clear();
    } else if (inside && line == "```") {
      inside = false;
      auto docs = config::parseYamlDocuments(block, path);
      EXPECT_TRUE(docs.ok()) << docs.status();
      if (docs.ok() && !docs->empty()) {
        blocks.push_back(docs->front().value);
      }
    } else if (inside) {
      block += line + "\n";
    }
  }
  return blocks;
}

TEST(DocsExampleTest, ClusterColocationProfile) {
  const auto blocks =
      yamlBlocks(std::string(KOORD_SOURCE_DIR) + "/docs/cluster-colocation-profile.md");
  ASSERT_EQ(blocks.size(), 3U);
  testing::FakeCluster cluster;
  cluster.namespaces = {{"default", {{"koordinator.sh/enable-colocation", "true"}}}};
  cluster.priority_classes = {{"koord-batch", {5000, ""}}};
  cluster.profiles = {testing::profile(blocks[0].dump())};
  PodMutatingHandler handler(cluster.sources(), {});
  auto response = handler.admit(testing::request("CREATE", "pods", blocks[1]));
  ASSERT_TRUE(response.allowed) << response.result->message;
  EXPECT_EQ(testing::patched(blocks[1], response), blocks[2])
      << testing::patched(blocks[1], response).dump(2);
}

}  // namespace
}  // namespace koord::manager::webhook
