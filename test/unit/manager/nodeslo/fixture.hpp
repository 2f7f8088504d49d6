// Shared pieces of the nodeslo tests: Node JSON, a parsed slo-controller-config, and
// NodeSloSources reading a FakeApiClient's objects (what a synced informer cache would hold).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "koord/api/core/node.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/nodeslo/reconciler.hpp"
#include "manager/sloconfig/slo_controller_config.hpp"
#include "test/unit/manager/support/fake_api_client.hpp"

namespace koord::manager::nodeslo::testing {

inline api::Json nodeJson(const std::string& name, const api::core::StringMap& labels = {}) {
  api::Json labels_json = api::Json::object();
  for (const auto& [k, v] : labels) {
    labels_json[k] = v;
  }
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels_json}}},
          {"status", {{"capacity", {{"cpu", "8"}}}}}};
}

inline sloconfig::SloControllerConfig parseConfig(const std::map<std::string, std::string>& data) {
  auto parsed = sloconfig::parseSloControllerConfig(data);
  EXPECT_TRUE(parsed.ok()) << parsed.status().toString();
  return parsed.ok() ? *parsed : sloconfig::SloControllerConfig{};
}

// The configuration the tests swap, as SloConfigSource::current would.
class ConfigBox {
 public:
  void set(sloconfig::SloControllerConfig config) {
    std::lock_guard lock(mu_);
    config_ = std::make_shared<const sloconfig::SloControllerConfig>(std::move(config));
  }
  std::shared_ptr<const sloconfig::SloControllerConfig> get() const {
    std::lock_guard lock(mu_);
    return config_;
  }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const sloconfig::SloControllerConfig> config_ =
      std::make_shared<const sloconfig::SloControllerConfig>();
};

template <class T>
std::shared_ptr<const T> decodeStored(koord::testing::FakeApiClient& api,
                                      const k8s::GroupVersionResource& gvr,
                                      const std::string& name) {
  api::Json j = api.object(gvr, name);
  if (j.is_null()) {
    return nullptr;
  }
  auto decoded = k8s::decodeObject<T>(std::move(j));
  EXPECT_TRUE(decoded.ok()) << decoded.status().toString();
  return decoded.ok() ? std::make_shared<const T>(std::move(*decoded)) : nullptr;
}

inline NodeSloSources sourcesOver(koord::testing::FakeApiClient& api, ConfigBox& config) {
  NodeSloSources s;
  s.node = [&api](const std::string& name) {
    return decodeStored<api::core::Node>(api, k8s::kNodes, name);
  };
  s.node_slo = [&api](const std::string& name) {
    return decodeStored<api::slo::NodeSLO>(api, k8s::kNodeSLOs, name);
  };
  s.node_metric = [&api](const std::string& name) {
    return decodeStored<api::slo::NodeMetric>(api, k8s::kNodeMetrics, name);
  };
  s.config = [&config] { return config.get(); };
  return s;
}

}  // namespace koord::manager::nodeslo::testing
