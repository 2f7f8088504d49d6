#include "manager/sloconfig/config_source.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "koord/common/clock.hpp"
#include "koord/metrics/registry.hpp"
#include "test/mocks/k8s/mock_client.hpp"

namespace koord::manager::sloconfig {
namespace {

using ::testing::_;
using ::testing::HasSubstr;
using ::testing::Invoke;

api::core::ConfigMap configMap(api::core::StringMap data, std::string ns = "koordinator-system",
                               std::string name = "slo-controller-config") {
  api::core::ConfigMap cm;
  cm.metadata.namespace_ = std::move(ns);
  cm.metadata.name = std::move(name);
  cm.metadata.uid = "uid-1";
  cm.data = std::move(data);
  return cm;
}

SloConfigSourceOptions options(metrics::MetricsRegistry* registry,
                               k8s::EventRecorder* events = nullptr) {
  SloConfigSourceOptions o;
  o.metrics = registry;
  o.events = events;
  return o;
}

double value(metrics::MetricsRegistry& registry, const std::string& series) {
  const std::string text = registry.serialize();
  const size_t at = text.find("\n" + series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
}

TEST(SloConfigSourceTest, StartsAtTheDefaultsAndTakesAConfigThatParses) {
  metrics::MetricsRegistry registry;
  auto source = SloConfigSource::create(options(&registry));
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(*(*source)->current(), SloControllerConfig{});
  int changes = 0;
  (*source)->subscribe([&] { ++changes; });

  (*source)->onConfigMap(configMap({{"colocation-config", R"({"enable": true})"}}));
  EXPECT_EQ((*source)->current()->colocation.cluster.enable, true);
  EXPECT_EQ(changes, 1);
  // The same data again is no change.
  (*source)->onConfigMap(configMap({{"colocation-config", R"({"enable": true})"}}));
  EXPECT_EQ(changes, 1);
  EXPECT_EQ(value(registry, "koord_manager_slo_config_updates_total"), 1);
  EXPECT_EQ(value(registry, "koord_manager_slo_config_valid"), 1);
}

TEST(SloConfigSourceTest, OtherConfigMapsAreIgnored) {
  auto source = SloConfigSource::create({});
  ASSERT_TRUE(source.ok());
  (*source)->onConfigMap(configMap({{"colocation-config", R"({"enable": true})"}}, "default"));
  (*source)->onConfigMap(
      configMap({{"colocation-config", R"({"enable": true})"}}, "koordinator-system", "other"));
  EXPECT_EQ((*source)->current()->colocation.cluster.enable, false);
}

TEST(SloConfigSourceTest, AMalformedConfigKeepsTheLastGoodOneAndSaysWhy) {
  metrics::MetricsRegistry registry;
  k8s::testing::MockClient client;
  api::core::Event written;
  EXPECT_CALL(client, createEvent("koordinator-system", _))
      .WillOnce(Invoke([&](const std::string&, const api::core::Event& event) {
        written = event;
        return Result<k8s::Json>(k8s::Json::object());
      }));
  RealClock clock;
  k8s::EventRecorder recorder(client, "koord-manager", "host", clock);
  auto source = SloConfigSource::create(options(&registry, &recorder));
  ASSERT_TRUE(source.ok());
  (*source)->onConfigMap(configMap({{"colocation-config", R"({"enable": true})"}}));
  int changes = 0;
  (*source)->subscribe([&] { ++changes; });

  (*source)->onConfigMap(configMap({{"colocation-config", "{\n  \"enabel\": false\n}"}}));

  EXPECT_EQ((*source)->current()->colocation.cluster.enable, true);
  EXPECT_EQ(changes, 0);
  EXPECT_THAT((*source)->lastError().message(),
              HasSubstr("colocation-config: line 2: unknown field \"enabel\""));
  EXPECT_EQ(value(registry, "koord_manager_slo_config_valid"), 0);
  EXPECT_EQ(value(registry, "koord_manager_slo_config_errors_total"), 1);
  ASSERT_TRUE(recorder.shutdown(std::chrono::seconds(5)).isOk());
  EXPECT_EQ(written.type, "Warning");
  EXPECT_EQ(written.reason, "InvalidSloControllerConfig");
  EXPECT_EQ(written.involvedObject.kind, "ConfigMap");
  EXPECT_EQ(written.involvedObject.name, "slo-controller-config");
  EXPECT_THAT(written.message, HasSubstr("unknown field \"enabel\""));

  // Fixed: valid again, and the new config is used.
  (*source)->onConfigMap(configMap({{"colocation-config", R"({"enable": false})"}}));
  EXPECT_TRUE((*source)->lastError().isOk());
  EXPECT_EQ((*source)->current()->colocation.cluster.enable, false);
  EXPECT_EQ(changes, 1);
  EXPECT_EQ(value(registry, "koord_manager_slo_config_valid"), 1);
}

TEST(SloConfigSourceTest, SyncedFollowsTheInformerAndIsTrueWithoutOne) {
  auto source = SloConfigSource::create({});
  ASSERT_TRUE(source.ok());
  EXPECT_TRUE((*source)->synced());
  bool informer_synced = false;
  (*source)->setSynced([&] { return informer_synced; });
  EXPECT_FALSE((*source)->synced());
  informer_synced = true;
  EXPECT_TRUE((*source)->synced());
}

TEST(SloConfigSourceTest, DeletingTheConfigMapReturnsToTheDefaults) {
  auto source = SloConfigSource::create({});
  ASSERT_TRUE(source.ok());
  int changes = 0;
  (*source)->subscribe([&] { ++changes; });
  const auto cm = configMap({{"colocation-config", R"({"enable": true})"}});
  (*source)->onConfigMap(cm);
  (*source)->onConfigMapDeleted(cm);
  EXPECT_EQ(*(*source)->current(), SloControllerConfig{});
  EXPECT_EQ(changes, 2);
}

}  // namespace
}  // namespace koord::manager::sloconfig
