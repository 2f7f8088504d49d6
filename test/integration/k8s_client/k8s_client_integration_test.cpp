// k8s::Client against a real kube-apiserver (the `controlplane` fixture; kubeconfig path in
// KOORD_TEST_KUBECONFIG). Each test works in its own namespace or on its own object names.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "koord/api/scheduling/device.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/config/yaml.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/errors.hpp"
#include "test/integration/support/test_cluster.hpp"

namespace koord::k8s {
namespace {

using itest::connectToTestCluster;
using itest::eventually;

using std::chrono::milliseconds;

class K8sClientIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto client = connectToTestCluster();
    if (!client) {
      return;
    }
    // Applies the CRDs of deploy/crds/ and waits until they are Established.
    for (const char* file : {"scheduling.koordinator.sh_reservations.yaml",
                             "scheduling.koordinator.sh_podmigrationjobs.yaml",
                             "scheduling.koordinator.sh_devices.yaml"}) {
      auto docs = config::loadYamlFile(std::string(KOORD_SOURCE_DIR) + "/deploy/crds/" + file);
      ASSERT_TRUE(docs.ok()) << docs.status();
      for (const auto& doc : *docs) {
        auto created = client->create(kCustomResourceDefinitions, "", doc.value);
        ASSERT_TRUE(created.ok() || isAlreadyExists(created.status())) << created.status();
        const std::string name = doc.value["metadata"]["name"];
        ASSERT_TRUE(eventually([&] {
          auto crd = client->get(kCustomResourceDefinitions, "", name);
          if (!crd.ok()) {
            return false;
          }
          for (const auto& c : (*crd)["status"].value("conditions", Json::array())) {
            if (c.value("type", "") == "Established" && c.value("status", "") == "True") {
              return true;
            }
          }
          return false;
        })) << name;
      }
    }
  }

  void SetUp() override {
    client_ = connectToTestCluster();
    if (!client_) {
      GTEST_SKIP() << "KOORD_TEST_KUBECONFIG is not set";
    }
    ns_ =
        "k8sclient-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name());
    for (auto& ch : ns_) {
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    auto created = client_->create(kNamespaces, "", {{"metadata", {{"name", ns_}}}});
    ASSERT_TRUE(created.ok() || isAlreadyExists(created.status())) << created.status();
  }

  void TearDown() override {
    if (client_) {
      (void)client_->remove(kNamespaces, "", ns_, {});
    }
  }

  // Creates Node `name` allocating `pods` pods, after deleting any left from an earlier run.
  [[nodiscard]] bool createFreshNode(const std::string& name, int pods) {
    (void)client_->remove(kNodes, "", name, {});
    auto created =
        client_->create(kNodes, "",
                        {{"metadata", {{"name", name}}},
                         {"status", {{"allocatable", {{"pods", std::to_string(pods)}}}}}});
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok();
  }

  std::unique_ptr<RestApiClient> client_;
  std::string ns_;
};

Json reservation(const std::string& name) {
  return Json::parse(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
    "metadata":{"name":")" +
                     name + R"(","labels":{"suite":"k8sclient"}},
    "spec":{"template":{"spec":{"containers":[{"name":"c","image":"x",
      "resources":{"requests":{"cpu":"1"}}}]}},
      "owners":[{"object":{"name":"owner"}}],"ttl":"1h"}})");
}

TEST_F(K8sClientIntegrationTest, ReservationCrudAndStatus) {
  const std::string name = ns_ + "-r";
  (void)client_->remove(kReservations, "", name, {});
  auto created = client_->create(kReservations, "", reservation(name));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_TRUE(isAlreadyExists(client_->create(kReservations, "", reservation(name)).status()));

  auto typed = getAs<api::scheduling::Reservation>(*client_, kReservations, "", name);
  ASSERT_TRUE(typed.ok()) << typed.status();
  EXPECT_EQ(typed->metadata.name, name);

  Json obj = *created;
  obj["metadata"]["labels"]["updated"] = "yes";
  auto updated = client_->update(kReservations, "", obj);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ((*updated)["metadata"]["labels"]["updated"], "yes");
  // The old resourceVersion now conflicts.
  EXPECT_TRUE(isConflict(client_->update(kReservations, "", obj).status()));

  Json with_status = *updated;
  with_status["status"] = {{"phase", "Available"}, {"nodeName", "node-x"}};
  auto st = client_->updateStatus(kReservations, "", with_status);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ((*st)["status"]["phase"], "Available");

  ASSERT_TRUE(client_->remove(kReservations, "", name, {}).isOk());
  EXPECT_TRUE(
      eventually([&] { return isNotFound(client_->get(kReservations, "", name).status()); }));
}

// The example of deploy/examples/<file> decoded into the model T.
template <typename T>
T exampleAs(const std::string& file) {
  auto docs = config::loadYamlFile(std::string(KOORD_SOURCE_DIR) + "/deploy/examples/" + file);
  EXPECT_TRUE(docs.ok()) << docs.status();
  T out{};
  if (docs.ok() && !docs->empty()) {
    Status decoded = fromJson(docs->front().value, out, "");
    EXPECT_TRUE(decoded.isOk()) << decoded;
  }
  return out;
}

TEST_F(K8sClientIntegrationTest, PodMigrationJobTypedCrudAndStatus) {
  auto job = exampleAs<api::scheduling::PodMigrationJob>("podmigrationjob.yaml");
  job.metadata.name = ns_ + "-pmj";
  job.spec.podRef->namespace_ = ns_;
  (void)client_->remove(kPodMigrationJobs, "", job.metadata.name, {});
  auto created = createAs(*client_, kPodMigrationJobs, "", job);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->spec.mode, job.spec.mode);
  EXPECT_EQ(created->spec.podRef, job.spec.podRef);
  EXPECT_EQ(created->spec.reservationOptions, job.spec.reservationOptions);

  api::scheduling::PodMigrationJob with_status = *created;
  with_status.status.phase = "Running";
  with_status.status.status = "ReservationCreated";
  with_status.status.nodeName = "node-b";
  auto st = client_->updateStatus(kPodMigrationJobs, "", toJson(with_status));
  ASSERT_TRUE(st.ok()) << st.status();
  auto read =
      getAs<api::scheduling::PodMigrationJob>(*client_, kPodMigrationJobs, "", job.metadata.name);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->status.phase, "Running");
  EXPECT_EQ(read->status.status, "ReservationCreated");
  EXPECT_EQ(read->status.nodeName, "node-b");
  EXPECT_EQ(read->spec, created->spec);  // a status write leaves the spec alone

  api::scheduling::PodMigrationJob paused = *read;
  paused.spec.paused = true;
  auto updated = updateAs(*client_, kPodMigrationJobs, "", paused);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_TRUE(updated->spec.paused);
  EXPECT_EQ(updated->status.phase, "Running");  // an update leaves the status alone
  ASSERT_TRUE(client_->remove(kPodMigrationJobs, "", job.metadata.name, {}).isOk());
}

TEST_F(K8sClientIntegrationTest, DeviceTypedCrudAndStatus) {
  auto device = exampleAs<api::scheduling::Device>("device.yaml");
  device.metadata.name = ns_ + "-node";
  (void)client_->remove(kDevices, "", device.metadata.name, {});
  auto created = createAs(*client_, kDevices, "", device);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->spec, device.spec);  // every GPU, its resources and topology kept as sent
  EXPECT_EQ(created->metadata.labels, device.metadata.labels);

  api::scheduling::Device with_status = *created;
  api::scheduling::DeviceAllocation allocation;
  allocation.type = "gpu";
  api::scheduling::DeviceAllocationItem item;
  item.name = "trainer-0";
  item.namespace_ = ns_;
  item.uuid = "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
  item.minors = {0, 1};
  allocation.entries.push_back(item);
  with_status.status.allocations.push_back(allocation);
  // Device has no status subresource (as in Koordinator): status travels with the object.
  EXPECT_TRUE(isNotFound(client_->updateStatus(kDevices, "", toJson(with_status)).status()));
  auto st = client_->update(kDevices, "", toJson(with_status));
  ASSERT_TRUE(st.ok()) << st.status();
  auto read = getAs<api::scheduling::Device>(*client_, kDevices, "", device.metadata.name);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->status, with_status.status);

  api::scheduling::Device unhealthy = *read;
  unhealthy.spec.devices[0].health = false;
  auto updated = updateAs(*client_, kDevices, "", unhealthy);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_FALSE(updated->spec.devices[0].health);
  EXPECT_TRUE(updated->spec.devices[1].health);
  ASSERT_TRUE(client_->remove(kDevices, "", device.metadata.name, {}).isOk());
}

TEST_F(K8sClientIntegrationTest, ListPagesWithLabelSelector) {
  for (int i = 0; i < 5; ++i) {
    Json cm = {
        {"metadata",
         {{"name", "cm-" + std::to_string(i)}, {"labels", {{"pick", i % 2 == 0 ? "yes" : "no"}}}}}};
    ASSERT_TRUE(client_->create(kConfigMaps, ns_, cm).ok());
  }
  ListOptions opts;
  opts.labelSelector = "pick=yes";
  opts.limit = 1;
  auto page = client_->list(kConfigMaps, ns_, opts);
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->items.size(), 1u);
  EXPECT_FALSE(page->metadata.continue_.empty());
  auto all = listAll(*client_, kConfigMaps, ns_, opts);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->items.size(), 3u);
}

TEST_F(K8sClientIntegrationTest, Patches) {
  ASSERT_TRUE(
      client_->create(kConfigMaps, ns_, {{"metadata", {{"name", "p"}}}, {"data", {{"a", "1"}}}})
          .ok());
  auto merged =
      client_->patch(kConfigMaps, ns_, "p", PatchType::kMerge, R"({"data":{"b":"2"}})", {});
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ((*merged)["data"]["a"], "1");
  EXPECT_EQ((*merged)["data"]["b"], "2");
  auto jp = client_->patch(kConfigMaps, ns_, "p", PatchType::kJsonPatch,
                           R"([{"op":"remove","path":"/data/a"}])", {});
  ASSERT_TRUE(jp.ok()) << jp.status();
  EXPECT_FALSE((*jp)["data"].contains("a"));
  PatchOptions apply;
  apply.field_manager = "koord-test";
  apply.force = true;
  auto applied = client_->patch(
      kConfigMaps, ns_, "p", PatchType::kApply,
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":{"c":"3"}})", apply);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_EQ((*applied)["data"]["c"], "3");
}

TEST_F(K8sClientIntegrationTest, BindPodToNode) {
  const std::string node = ns_ + "-node";
  ASSERT_TRUE(createFreshNode(node, 10));
  auto pod = client_->create(kPods, ns_, Json::parse(R"({"metadata":{"name":"p"},
      "spec":{"schedulerName":"none","containers":[{"name":"c","image":"x"}]}})"));
  ASSERT_TRUE(pod.ok()) << pod.status();
  // The binding carries the pod's UID: one that is not the pod's must reach kube-apiserver and be
  // refused there, leaving the pod unbound.
  const Status wrong_uid = client_->bind(ns_, "p", "not-the-pods-uid", node);
  EXPECT_TRUE(isConflict(wrong_uid)) << wrong_uid;
  auto unbound = client_->get(kPods, ns_, "p");
  ASSERT_TRUE(unbound.ok());
  EXPECT_FALSE((*unbound)["spec"].contains("nodeName"));
  ASSERT_TRUE(client_->bind(ns_, "p", (*pod)["metadata"]["uid"], node).isOk());
  auto bound = client_->get(kPods, ns_, "p");
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ((*bound)["spec"]["nodeName"], node);
  EXPECT_FALSE(client_->bind(ns_, "p", "", node).isOk());  // already bound
  api::core::DeleteOptions now;
  now.gracePeriodSeconds = 0;
  EXPECT_TRUE(client_->remove(kPods, ns_, "p", now).isOk());
  EXPECT_TRUE(client_->remove(kNodes, "", node, {}).isOk());
}

// koord-extender binds from many request threads at once. Against kube-apiserver (TLS), a burst
// of binds larger than max_connections shares that many connections, and every pod is bound.
TEST_F(K8sClientIntegrationTest, ABurstOfBindsSharesMaxConnections) {
  constexpr int kBurst = 40;
  constexpr int kMaxConnections = 4;
  auto cfg = loadKubeconfig(itest::testKubeconfig());
  ASSERT_TRUE(cfg.ok()) << cfg.status();
  RestClientOptions options;
  options.max_connections = kMaxConnections;
  auto rest = RestClient::create(*cfg, options);
  ASSERT_TRUE(rest.ok()) << rest.status();
  const std::shared_ptr<RestClient> shared(std::move(rest).value());
  RestApiClient binder(shared);

  const std::string node = ns_ + "-node";
  ASSERT_TRUE(createFreshNode(node, 100));
  std::vector<std::string> uids;
  for (int i = 0; i < kBurst; ++i) {
    auto pod = client_->create(
        kPods, ns_,
        {{"metadata", {{"name", "p" + std::to_string(i)}}},
         {"spec", {{"schedulerName", "none"}, {"containers", {{{"name", "c"}, {"image", "x"}}}}}}});
    ASSERT_TRUE(pod.ok()) << pod.status();
    uids.push_back((*pod)["metadata"]["uid"]);
  }
  std::atomic<int> bound{0};
  std::vector<std::thread> threads;
  threads.reserve(kBurst);
  for (int i = 0; i < kBurst; ++i) {
    threads.emplace_back([&, i] {
      const Status status = binder.bind(ns_, "p" + std::to_string(i), uids[i], node);
      EXPECT_TRUE(status.isOk()) << status;
      if (status.isOk())
        bound.fetch_add(1);
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(bound.load(), kBurst);
  // Without the cap the burst opens a connection per bind in flight (32 here with the default cap).
  EXPECT_LE(shared->connectionsOpened(), static_cast<uint64_t>(kMaxConnections));
  auto pods = client_->list(kPods, ns_, {});
  ASSERT_TRUE(pods.ok()) << pods.status();
  int on_node = 0;
  for (const auto& pod : pods->items) {
    on_node += pod["spec"].value("nodeName", "") == node ? 1 : 0;
  }
  EXPECT_EQ(on_node, kBurst);
  EXPECT_TRUE(client_->remove(kNodes, "", node, {}).isOk());
}

TEST_F(K8sClientIntegrationTest, EvictionRefusedByDisruptionBudget) {
  // A pod that is Running and Ready (set through the status subresource), guarded by a budget
  // that allows no disruption.
  auto pod = client_->create(kPods, ns_, Json::parse(R"({"metadata":{"name":"guarded",
      "labels":{"app":"g"}},"spec":{"nodeName":"nowhere","containers":[{"name":"c","image":"x"}]}})"));
  ASSERT_TRUE(pod.ok()) << pod.status();
  Json status_obj = *pod;
  status_obj["status"] = Json::parse(R"({"phase":"Running","conditions":[{"type":"Ready",
      "status":"True"}]})");
  ASSERT_TRUE(client_->updateStatus(kPods, ns_, status_obj).ok());
  ASSERT_TRUE(client_
                  ->create(kPodDisruptionBudgets, ns_, Json::parse(R"({"metadata":{"name":"pdb"},
      "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"g"}}}})"))
                  .ok());
  // Wait for the disruption controller to observe the pod.
  ASSERT_TRUE(eventually([&] {
    auto pdb = client_->get(kPodDisruptionBudgets, ns_, "pdb");
    return pdb.ok() && (*pdb)["status"].value("observedGeneration", 0) >= 1 &&
           (*pdb)["status"].value("currentHealthy", 0) == 1;
  }));
  const Status s = client_->evict(ns_, "guarded", {});
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s;
  EXPECT_TRUE(isTooManyRequests(s)) << s;
  EXPECT_NE(s.message().find("disruption budget"), std::string::npos) << s;
}

}  // namespace
}  // namespace koord::k8s
