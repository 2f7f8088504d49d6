// What the controller tests of koord-manager share: polling for an outcome in real time, a
// controller running over real informers (of the in-memory API server in fake_api_client.hpp),
// and the slo-controller-config ConfigMap a test hands to a SloConfigSource.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>

#include "koord/api/core/objects.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "manager/controller/controller.hpp"

namespace koord::manager::testing {

// Polls `pred` in real time for up to 10 s; true as soon as it holds.
template <class Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

// Starts the factory's informers, waits for them to sync and runs `controller` on a thread of its
// own until stop() (or destruction), which also shuts the informers down.
class RunningController {
 public:
  RunningController() = default;
  RunningController(const RunningController&) = delete;
  RunningController& operator=(const RunningController&) = delete;
  ~RunningController() { stop(); }

  void start(k8s::SharedInformerFactory& factory,
             std::shared_ptr<controller::Controller> controller) {
    factory_ = &factory;
    controller_ = std::move(controller);
    factory.start();
    ASSERT_TRUE(factory.waitForCacheSync(std::chrono::seconds(10)));
    runner_ = std::jthread([this](std::stop_token stop) { controller_->run(stop); });
  }

  void stop() {
    if (runner_.joinable()) {
      runner_.request_stop();
      runner_.join();
    }
    if (factory_ != nullptr) {
      factory_->shutdown();
    }
  }

 private:
  k8s::SharedInformerFactory* factory_ = nullptr;
  std::shared_ptr<controller::Controller> controller_;
  std::jthread runner_;
};

// koordinator-system/slo-controller-config with one key.
inline api::core::ConfigMap sloConfigMap(const std::string& key, const std::string& value) {
  api::core::ConfigMap cm;
  cm.metadata.namespace_ = "koordinator-system";
  cm.metadata.name = "slo-controller-config";
  cm.data[key] = value;
  return cm;
}

}  // namespace koord::manager::testing
