// The fixture of the Runtime tests: a registry of ScriptedPlugins configured per test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "extender/framework/registry.hpp"
#include "extender/framework/runtime.hpp"
#include "koord/metrics/registry.hpp"
#include "test_util.hpp"

namespace koord::extender::framework::testing {

class RuntimeFixture : public ::testing::Test {
 protected:
  // Registers a ScriptedPlugin `name`, configured by `setup` when the runtime makes it.
  void add(const std::string& name, std::function<void(ScriptedPlugin&)> setup = {}) {
    Status added = registry_.add(
        name,
        [this, name, setup](const api::Json&, const Handle&) -> Result<std::unique_ptr<Plugin>> {
          auto plugin = std::make_unique<ScriptedPlugin>(name, &log_);
          if (setup)
            setup(*plugin);
          return std::unique_ptr<Plugin>(std::move(plugin));
        });
    ASSERT_TRUE(added.isOk()) << added;
  }

  std::unique_ptr<Runtime> make(std::vector<PluginConfig> plugins, int parallelism = 1,
                                int64_t min_parallel_work = 0) {
    RuntimeOptions options;
    options.plugins = std::move(plugins);
    options.parallelism = parallelism;
    options.min_parallel_work = min_parallel_work;
    auto runtime = Runtime::create(registry_, handle_, std::move(options), &metrics_);
    EXPECT_TRUE(runtime.ok()) << runtime.status();
    return runtime.ok() ? std::move(runtime).value() : nullptr;
  }

  static std::vector<std::shared_ptr<const NodeInfo>> nodes(const std::vector<std::string>& names) {
    std::vector<std::shared_ptr<const NodeInfo>> out;
    for (const auto& name : names) {
      out.push_back(std::make_shared<NodeInfo>(makeNode(name),
                                               std::vector<std::shared_ptr<const PodInfo>>{}));
    }
    return out;
  }

  FakeClock clock_;
  ClusterState cluster_{clock_};
  TestHandle handle_{cluster_, clock_};
  Registry registry_;
  std::vector<std::string> log_;
  metrics::MetricsRegistry metrics_;
};

}  // namespace koord::extender::framework::testing
