// What every integration test needs from the shared cluster (the `controlplane` fixture of
// test/integration/CMakeLists.txt): a client for it, and a bounded wait for a condition.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <utility>

#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/rest_client.hpp"

namespace koord::k8s::itest {

// The cluster's kubeconfig (KOORD_TEST_KUBECONFIG); nullptr when the test runs without one.
inline const char* testKubeconfig() {
  const char* path = std::getenv("KOORD_TEST_KUBECONFIG");  // NOLINT(concurrency-mt-unsafe)
  return path != nullptr && *path != '\0' ? path : nullptr;
}

// A client for the cluster; nullptr when there is none (the caller skips) or when the kubeconfig
// cannot be used (a test failure is recorded).
inline std::unique_ptr<RestApiClient> connectToTestCluster(RestClientOptions options = {}) {
  const char* path = testKubeconfig();
  if (path == nullptr) {
    return nullptr;
  }
  auto cfg = loadKubeconfig(path);
  EXPECT_TRUE(cfg.ok()) << cfg.status();
  if (!cfg.ok()) {
    return nullptr;
  }
  auto rest = RestClient::create(*cfg, std::move(options));
  EXPECT_TRUE(rest.ok()) << rest.status();
  if (!rest.ok()) {
    return nullptr;
  }
  return std::make_unique<RestApiClient>(std::shared_ptr<RestClient>(std::move(rest).value()));
}

// Polls `check` every 50 ms until it returns true (then true) or `limit` passes (then false).
template <typename F>
bool eventually(F check, std::chrono::seconds limit = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (check()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace koord::k8s::itest
