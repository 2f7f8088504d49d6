// EventRecorder against a real kube-apiserver (KOORD_TEST_KUBECONFIG): repeats of one event are
// folded into one Event object whose count the server keeps.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

#include "koord/api/core/objects.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "test/integration/support/test_cluster.hpp"

namespace koord::k8s {
namespace {

using itest::connectToTestCluster;

TEST(EventRecorderIntegrationTest, RepeatedEventIsOneEventWithCount) {
  auto client = connectToTestCluster();
  if (!client) {
    GTEST_SKIP() << "KOORD_TEST_KUBECONFIG is not set";
  }
  const std::string ns = "koord-events-" + std::to_string(getpid());
  auto created_ns = client->create(kNamespaces, "", {{"metadata", {{"name", ns}}}});
  ASSERT_TRUE(created_ns.ok() || isAlreadyExists(created_ns.status())) << created_ns.status();
  auto cm = client->create(kConfigMaps, ns,
                           {{"metadata", {{"name", "settings"}}}, {"data", {{"k", "v"}}}});
  ASSERT_TRUE(cm.ok()) << cm.status();

  api::core::ObjectReference ref;
  ref.kind = "ConfigMap";
  ref.apiVersion = "v1";
  ref.namespace_ = ns;
  ref.name = "settings";
  ref.uid = (*cm)["metadata"]["uid"].get<std::string>();
  ref.resourceVersion = (*cm)["metadata"]["resourceVersion"].get<std::string>();

  RealClock clock;
  EventRecorder recorder(*client, "koord-manager", "it-host", clock);
  for (int i = 0; i < 3; ++i) {
    recorder.event(ref, EventType::kWarning, "InvalidConfig", "key k: unknown setting");
  }
  const Status flushed = recorder.shutdown(std::chrono::seconds(30));
  EXPECT_TRUE(flushed.isOk()) << flushed;
  const auto stats = recorder.stats();
  EXPECT_EQ(stats.created, 1u);
  EXPECT_EQ(stats.patched, 2u);
  EXPECT_EQ(stats.write_failures, 0u);

  ListOptions options;
  options.fieldSelector = "involvedObject.name=settings";
  auto events = listAs<api::core::Event>(*client, kEvents, ns, options);
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->size(), 1u);
  const auto& e = (*events)[0];
  EXPECT_EQ(e.count, 3);
  EXPECT_EQ(e.type, "Warning");
  EXPECT_EQ(e.reason, "InvalidConfig");
  EXPECT_EQ(e.message, "key k: unknown setting");
  EXPECT_EQ(e.source.component, "koord-manager");
  EXPECT_EQ(e.source.host, "it-host");
  EXPECT_EQ(e.involvedObject.uid, ref.uid);
  EXPECT_EQ(e.metadata.name.rfind("settings.", 0), 0u) << e.metadata.name;
  EXPECT_FALSE(e.firstTimestamp.empty());
  EXPECT_GE(e.lastTimestamp, e.firstTimestamp);

  (void)client->remove(kNamespaces, "", ns, {});
}

}  // namespace
}  // namespace koord::k8s
