// The kinds plugins may read: each decodes from YAML into a lister the simulator hands its plugins,
// serve refuses a kind it cannot watch, and the chart's RBAC lets koord-extender list and watch
// every kind an enabled plugin declares.
#include "extender/objects/kind_sources.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "extender/plugins/builtin.hpp"
#include "koord/config/yaml.hpp"
#include "mocks/k8s/mock_client.hpp"

namespace koord::extender::objects {
namespace {

TEST(KindSourcesTest, EveryKindOfKindsHppHasOneSource) {
  std::set<std::string> kinds;
  for (const KindSource& source : kindSources()) {
    EXPECT_TRUE(kinds.insert(source.kind).second) << source.kind;
    EXPECT_TRUE(findKindSource(source.kind).has_value());
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"Device", "ElasticQuota", "NodeMetric",
                                          "NodeResourceTopology", "PodGroup", "Reservation"}));
  EXPECT_FALSE(findKindSource("Gadget").has_value());
}

TEST(KindSourcesTest, DecodedObjectsReachThePluginsThroughTypedListers) {
  const std::optional<KindSource> devices = findKindSource("Device");
  ASSERT_TRUE(devices.has_value());
  auto a = devices->decode(api::Json::parse(
      R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device",
          "metadata":{"name":"node-a"},"spec":{"devices":[{"type":"gpu","minor":0}]}})"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto b = devices->decode(api::Json::parse(
      R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device",
          "metadata":{"name":"node-b"}})"));
  ASSERT_TRUE(b.ok()) << b.status();
  framework::ObjectStore store;
  EXPECT_EQ(store.lister<api::scheduling::Device>(), nullptr) << "no lister before publish";
  devices->publish({*a, *b}, store);
  const framework::Lister<api::scheduling::Device>* lister =
      store.lister<api::scheduling::Device>();
  ASSERT_NE(lister, nullptr);
  EXPECT_EQ(lister->list().size(), 2u);
  ASSERT_NE(lister->get("node-a"), nullptr);
  ASSERT_EQ(lister->get("node-a")->spec.devices.size(), 1u);
  EXPECT_EQ(lister->get("node-c"), nullptr);
  EXPECT_EQ(store.kinds(), std::vector<std::string>{"Device"});
  EXPECT_EQ(store.lister<api::sigs::PodGroup>(), nullptr);

  auto bad = devices->decode(api::Json::parse(
      R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device",
          "metadata":{"name":"x"},"spec":{"devices":"none"}})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("spec.devices"), std::string::npos) << bad.status();
}

TEST(KindSourcesTest, NamespacedObjectsAreKeyedByNamespaceAndName) {
  const std::optional<KindSource> groups = findKindSource("PodGroup");
  ASSERT_TRUE(groups.has_value());
  auto g = groups->decode(api::Json::parse(
      R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"PodGroup",
          "metadata":{"name":"g","namespace":"jobs"},"spec":{"minMember":3}})"));
  ASSERT_TRUE(g.ok()) << g.status();
  framework::ObjectStore store;
  groups->publish({*g}, store);
  const auto* lister = store.lister<api::sigs::PodGroup>();
  ASSERT_NE(lister, nullptr);
  ASSERT_NE(lister->get("jobs/g"), nullptr);
  EXPECT_EQ(lister->get("jobs/g")->spec.minMember, 3);
  EXPECT_EQ(lister->get("g"), nullptr);
}

// serve: an informer (not started here) and a lister per declared kind; not synced before the
// informers are; a kind nobody can watch is an error naming it.
TEST(KindSourcesTest, WatchKindsSetsAListerPerKindAndWaitsForTheirSync) {
  ::testing::NiceMock<k8s::testing::MockClient> client;
  k8s::SharedInformerFactory factory(client);
  framework::ObjectStore store;
  auto synced = watchKinds({"Device", "NodeMetric"}, factory, store);
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(store.kinds(), (std::vector<std::string>{"Device", "NodeMetric"}));
  ASSERT_NE(store.lister<api::scheduling::Device>(), nullptr);
  EXPECT_TRUE(store.lister<api::scheduling::Device>()->list().empty());
  EXPECT_FALSE((*synced)()) << "not synced before the informers list";

  auto none = watchKinds({}, factory, store);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE((*none)());

  auto unknown = watchKinds({"Gadget"}, factory, store);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "failed to watch kind 'Gadget': koord-extender has no informer for it");
}

// --- The chart's RBAC -------------------------------------------------------------------------

struct Grant {
  std::string group;
  std::string resource;
  std::set<std::string> verbs;
};

// The rules of the ClusterRole `name` in a Helm template (lines with template actions dropped:
// the rules of koord-extender's role carry none).
std::vector<Grant> clusterRoleRules(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  std::ostringstream plain;
  for (std::string line; std::getline(in, line);) {
    if (line.find("{{") == std::string::npos)
      plain << line << '\n';
  }
  auto docs = config::parseYamlDocuments(plain.str(), path);
  EXPECT_TRUE(docs.ok()) << docs.status();
  std::vector<Grant> grants;
  if (!docs.ok())
    return grants;
  for (const auto& doc : *docs) {
    const api::Json& v = doc.value;
    if (!v.is_object() || v.value("kind", "") != "ClusterRole" ||
        v["metadata"].value("name", "") != name)
      continue;
    for (const auto& rule : v["rules"]) {
      for (const auto& group : rule["apiGroups"]) {
        for (const auto& resource : rule["resources"]) {
          Grant grant{group.get<std::string>(), resource.get<std::string>(), {}};
          for (const auto& verb : rule["verbs"])
            grant.verbs.insert(verb.get<std::string>());
          grants.push_back(std::move(grant));
        }
      }
    }
  }
  return grants;
}

// The kinds of `kinds` whose resource `grants` do not let one list and watch.
std::vector<std::string> missingListWatch(const std::vector<Grant>& grants,
                                          const std::vector<std::string>& kinds) {
  std::vector<std::string> missing;
  for (const std::string& kind : kinds) {
    const std::optional<KindSource> source = findKindSource(kind);
    bool list = false;
    bool watch = false;
    for (const Grant& grant : grants) {
      if (source && grant.group == source->gvr.group && grant.resource == source->gvr.resource) {
        list = list || grant.verbs.contains("list");
        watch = watch || grant.verbs.contains("watch");
      }
    }
    if (!source || !list || !watch)
      missing.push_back(kind);
  }
  return missing;
}

// The plugins the chart enables: the names under `plugins:` of koord-extender's configuration in
// the chart's scheduler-config template.
std::vector<std::string> chartPlugins() {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) +
                   "/charts/koordinator/templates/scheduler-config.yaml");
  std::vector<std::string> plugins;
  bool in_plugins = false;
  size_t entry_indent = std::string::npos;  // the column of the entries' "- name: "
  for (std::string line; std::getline(in, line);) {
    if (line.find("plugins:") != std::string::npos) {
      in_plugins = true;
      continue;
    }
    if (!in_plugins || line.empty())
      continue;
    const size_t name = line.find("- name: ");
    const size_t indent = line.find_first_not_of(' ');
    if (name != std::string::npos && (entry_indent == std::string::npos || name == entry_indent)) {
      entry_indent = name;
      plugins.push_back(line.substr(name + 8));
    } else if (entry_indent == std::string::npos || indent <= entry_indent) {
      break;  // past the list
    }         // else: an entry's args
  }
  return plugins;
}

TEST(ChartRbacTest, KoordExtenderMayListAndWatchEveryKindAnEnabledPluginReads) {
  const std::vector<std::string> enabled = chartPlugins();
  EXPECT_EQ(enabled, plugins::defaultPluginNames()) << "the chart enables every built-in plugin";
  const std::vector<Grant> grants = clusterRoleRules(
      std::string(KOORD_SOURCE_DIR) + "/charts/koordinator/templates/rbac.yaml", "koord-extender");
  ASSERT_FALSE(grants.empty());
  EXPECT_EQ(missingListWatch(grants, plugins::kindsRead(enabled)), std::vector<std::string>{});
  // The check has teeth: the role grants Reservations, and nothing no plugin reads yet (Devices,
  // PodGroups, ElasticQuotas): a plugin that starts reading one fails here until the chart grants
  // it.
  EXPECT_EQ(missingListWatch(grants, {"Reservation", "Device", "PodGroup", "ElasticQuota"}),
            (std::vector<std::string>{"Device", "PodGroup", "ElasticQuota"}));
}

}  // namespace
}  // namespace koord::extender::objects
