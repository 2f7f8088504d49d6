// Informers against a real kube-apiserver (the `controlplane` fixture): a watch that survives a
// kube-apiserver restart without losing or repeating an event, a relist after `410 Gone` from an
// etcd compaction, and the shared factory's scopes. These tests restart the shared apiserver; the
// fixture's RESOURCE_LOCK keeps other integration tests from running meanwhile.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "koord/api/core/objects.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/informer.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/k8s/watch_decoder.hpp"
#include "test/integration/support/test_cluster.hpp"

namespace koord::k8s {
namespace {

using itest::connectToTestCluster;
using itest::eventually;

using api::core::ConfigMap;
using std::chrono::seconds;

// Runs test/controlplane/cluster.sh <verb> on the shared cluster; its exit status.
int clusterSh(const std::string& verb) {
  const char* dir = std::getenv("KOORD_TEST_CLUSTER_DIR");  // NOLINT(concurrency-mt-unsafe)
  const std::string cmd = "bash '" KOORD_CLUSTER_SH "' " + verb + " '" + dir + "' >/dev/null";
  return std::system(cmd.c_str());  // NOLINT(concurrency-mt-unsafe,cert-env33-c)
}

// Every handler call, as {"add"|"update"|"delete", name, resourceVersion}.
class Journal {
 public:
  struct Entry {
    std::string op, name, rv;
  };
  ResourceEventHandlers<ConfigMap> handlers() {
    ResourceEventHandlers<ConfigMap> h;
    h.onAdd = [this](const auto& o) {
      push({"add", o->metadata.name, o->metadata.resourceVersion});
    };
    h.onUpdate = [this](const auto&, const auto& o) {
      push({"update", o->metadata.name, o->metadata.resourceVersion});
    };
    h.onDelete = [this](const auto& o) {
      push({"delete", o->metadata.name, o->metadata.resourceVersion});
    };
    return h;
  }
  std::vector<Entry> entries() const {
    std::lock_guard lock(mu_);
    return entries_;
  }
  bool has(const std::string& op, const std::string& name) const {
    for (const Entry& e : entries()) {
      if (e.op == op && e.name == name) {
        return true;
      }
    }
    return false;
  }

 private:
  void push(Entry e) {
    std::lock_guard lock(mu_);
    entries_.push_back(std::move(e));
  }
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
};

class InformerIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RestClientOptions options;
    options.backoff.max_retries = 10;  // rides out an apiserver restart
    client_ = connectToTestCluster(options);
    if (!client_) {
      GTEST_SKIP() << "KOORD_TEST_KUBECONFIG is not set";
    }
    ns_ =
        "informer-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name());
    for (auto& ch : ns_) {
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    ns_.resize(std::min<size_t>(ns_.size(), 40));  // namespace names have at most 63 characters
    auto created = client_->create(kNamespaces, "", {{"metadata", {{"name", ns_}}}});
    ASSERT_TRUE(created.ok() || isAlreadyExists(created.status())) << created.status();
  }
  void TearDown() override {
    if (client_) {
      (void)client_->remove(kNamespaces, "", ns_, {});
    }
  }

  // Creates ConfigMap `name` with data {k: value}; returns its resourceVersion.
  std::string createConfigMap(const std::string& name, const std::string& value = "1",
                              const std::string& app = "a") {
    auto created = client_->create(
        kConfigMaps, ns_,
        {{"metadata", {{"name", name}, {"labels", {{"app", app}}}}}, {"data", {{"k", value}}}});
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok() ? (*created)["metadata"].value("resourceVersion", "") : "";
  }

  ReflectorOptions reflectorOptions() const {
    ReflectorOptions o;
    o.gvr = kConfigMaps;
    o.ns = ns_;
    o.label_selector = "app=a";  // ours only (the namespace also gets kube-root-ca.crt)
    o.page_size = 3;             // several pages even for a handful of objects
    o.backoff.initial = std::chrono::milliseconds(200);
    o.backoff.cap = seconds(2);
    return o;
  }

  // No (op, name, resourceVersion) twice, and the cache equals the server's list.
  void expectExactlyOnceAndConsistent(const Journal& journal, const Informer<ConfigMap>& informer) {
    std::set<std::string> seen;
    for (const auto& e : journal.entries()) {
      EXPECT_TRUE(seen.insert(e.op + " " + e.name + " " + e.rv).second)
          << "delivered twice: " << e.op << " " << e.name << " " << e.rv;
    }
    ListOptions ours;
    ours.labelSelector = "app=a";
    auto listed = listAll(*client_, kConfigMaps, ns_, ours);
    ASSERT_TRUE(listed.ok()) << listed.status();
    std::map<std::string, std::string> server;
    for (const Json& item : listed->items) {
      server[ns_ + "/" + item["metadata"].value("name", "")] =
          item["metadata"].value("resourceVersion", "");
    }
    std::map<std::string, std::string> cached;
    for (const auto& obj : informer.store().list()) {
      cached[ns_ + "/" + obj->metadata.name] = obj->metadata.resourceVersion;
    }
    EXPECT_EQ(cached, server);
  }

  std::unique_ptr<RestApiClient> client_;
  std::string ns_;
};

TEST_F(InformerIntegrationTest, WatchSurvivesAnApiserverRestartWithNoEventLostOrRepeated) {
  for (int i = 0; i < 5; ++i) {
    createConfigMap("before-" + std::to_string(i));
  }
  Journal journal;
  Informer<ConfigMap> informer(*client_, reflectorOptions());
  informer.addHandlers(journal.handlers());
  informer.start();
  ASSERT_TRUE(informer.waitForSync(seconds(30)));
  createConfigMap("live");
  ASSERT_TRUE(eventually([&] { return journal.has("add", "live"); }));

  ASSERT_EQ(clusterSh("restart-apiserver"), 0);

  createConfigMap("after");
  auto patched =
      client_->patch(kConfigMaps, ns_, "before-0", PatchType::kMerge, R"({"data":{"k":"2"}})", {});
  ASSERT_TRUE(patched.ok()) << patched.status();
  ASSERT_TRUE(client_->remove(kConfigMaps, ns_, "before-1", {}).isOk());
  ASSERT_TRUE(eventually([&] {
    return journal.has("add", "after") && journal.has("update", "before-0") &&
           journal.has("delete", "before-1");
  }));
  informer.stop();

  int adds = 0;
  int updates = 0;
  int deletes = 0;
  for (const auto& e : journal.entries()) {
    adds += e.op == "add";
    updates += e.op == "update";
    deletes += e.op == "delete";
  }
  EXPECT_EQ(adds, 7);  // before-0..4, live, after
  EXPECT_EQ(updates, 1);
  EXPECT_EQ(deletes, 1);
  expectExactlyOnceAndConsistent(journal, informer);
  EXPECT_GE(informer.stats().watches, 2u);
}

TEST_F(InformerIntegrationTest, GoneAfterEtcdCompactionLeadsToARelist) {
  createConfigMap("first");
  Journal journal;
  Informer<ConfigMap> informer(*client_, reflectorOptions());
  informer.addHandlers(journal.handlers());
  informer.start();
  ASSERT_TRUE(informer.waitForSync(seconds(30)));

  // Moves etcd past the informer's version (elsewhere, so the informer sees nothing), compacts
  // it away, and restarts the apiserver so that its watch cache forgets the history too.
  auto other = client_->create(kConfigMaps, "default",
                               {{"metadata", {{"generateName", "informer-compaction-"}}}});
  ASSERT_TRUE(other.ok()) << other.status();
  ASSERT_EQ(clusterSh("compact"), 0);
  ASSERT_EQ(clusterSh("restart-apiserver"), 0);

  createConfigMap("second");
  ASSERT_TRUE(eventually([&] { return journal.has("add", "second"); }));
  informer.stop();
  EXPECT_GE(informer.stats().gone_relists, 1u);
  EXPECT_EQ(journal.entries().size(), 2u);  // first and second, once each
  expectExactlyOnceAndConsistent(journal, informer);
  (void)client_->remove(kConfigMaps, "default", (*other)["metadata"].value("name", ""), {});
}

TEST_F(InformerIntegrationTest, FactorySharesInformersAndHonoursScopes) {
  createConfigMap("x1", "1", "x");
  createConfigMap("y1", "1", "y");
  SharedInformerFactory factory(*client_);
  auto all = factory.informerFor<ConfigMap>(kConfigMaps, {ns_, "", ""});
  auto only_x = factory.informerFor<ConfigMap>(kConfigMaps, {ns_, "app=x", ""});
  auto by_name = factory.informerFor<ConfigMap>(kConfigMaps, {ns_, "", "metadata.name=y1"});
  auto again = factory.informerFor<ConfigMap>(kConfigMaps, {ns_, "", ""});
  ASSERT_TRUE(all.ok() && only_x.ok() && by_name.ok() && again.ok());
  EXPECT_EQ(all->get(), again->get());
  factory.start();
  ASSERT_TRUE(factory.waitForCacheSync(seconds(30)));
  createConfigMap("x2", "1", "x");
  ASSERT_TRUE(eventually([&] { return (*only_x)->store().size() == 2; }));
  // The unscoped informer sees all three (and kube-root-ca.crt, once kube-controller-manager
  // publishes it into the namespace).
  ASSERT_TRUE(eventually([&] {
    return (*all)->store().get(ns_ + "/x1") && (*all)->store().get(ns_ + "/x2") &&
           (*all)->store().get(ns_ + "/y1");
  }));
  EXPECT_EQ((*by_name)->store().listKeys(), std::vector<std::string>{ns_ + "/y1"});
  EXPECT_NE((*only_x)->store().get(ns_ + "/x2"), nullptr);
  factory.shutdown();
}

}  // namespace
}  // namespace koord::k8s
