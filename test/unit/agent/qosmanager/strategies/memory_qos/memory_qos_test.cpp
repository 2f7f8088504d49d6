#include "agent/qosmanager/strategies/memory_qos/memory_qos.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "koord/api/well_known.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::strategies::memory_qos {
namespace {

using ::testing::_;
using ::testing::DoAll;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Return;
using ::testing::SaveArg;
using namespace std::chrono_literals;

struct ContainerSpec {
  std::string name;
  std::optional<std::string> request;  // memory (or batch-memory for BE pods)
  std::optional<std::string> limit;
  bool started = true;
};

struct PodSpec {
  std::string uid;
  std::string name;
  std::optional<std::string> koord_qos;  // the koordinator.sh/qosClass label
  std::string kube_qos;
  std::vector<ContainerSpec> containers;
  std::optional<std::string> annotation = std::nullopt;  // koordinator.sh/memoryQOS
  std::string phase = "Running";
};

std::shared_ptr<const api::core::Pod> makePod(const PodSpec& spec) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "ns";
  pod->metadata.name = spec.name;
  pod->metadata.uid = spec.uid;
  if (spec.koord_qos) {
    pod->metadata.labels[std::string(api::kLabelPodQoS)] = *spec.koord_qos;
  }
  if (spec.annotation) {
    pod->metadata.annotations[std::string(api::kAnnotationMemoryQOS)] = *spec.annotation;
  }
  pod->status.qosClass = spec.kube_qos;
  pod->status.phase = spec.phase;
  const bool batch = spec.koord_qos == "BE";
  const std::string resource(batch ? api::kResourceBatchMemory : api::kResourceMemory);
  api::Json statuses = api::Json::array();
  for (const ContainerSpec& c : spec.containers) {
    api::core::Container container;
    container.name = c.name;
    if (c.request) {
      container.resources.requests[resource] = resource::Quantity::parse(*c.request).value();
    }
    if (c.limit) {
      container.resources.limits[resource] = resource::Quantity::parse(*c.limit).value();
    }
    pod->spec.containers.push_back(container);
    if (c.started) {
      statuses.push_back({{"name", c.name}, {"containerID", "containerd://" + c.name}});
    }
  }
  pod->status.containerStatuses = statuses;
  return pod;
}

std::shared_ptr<const api::slo::NodeSLO> nodeSLO(const std::string& resource_qos_json) {
  auto slo = std::make_shared<api::slo::NodeSLO>();
  api::slo::ResourceQOSStrategy strategy;
  EXPECT_TRUE(api::slo::fromJson(api::parseJson(resource_qos_json).value(), strategy, "").isOk());
  slo->spec.resourceQOSStrategy = strategy;
  return slo;
}

std::shared_ptr<const api::core::Node> nodeWithAllocatable(const std::string& memory) {
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "n1";
  node->status.allocatable["memory"] = resource::Quantity::parse(memory).value();
  return node;
}

// "<resource> <dir> <value>" per update, in order.
std::vector<std::string> lines(const std::vector<resourceexecutor::ResourceUpdate>& updates) {
  std::vector<std::string> out;
  for (const auto& u : updates) {
    out.push_back(std::string(resourceexecutor::cgroupResourceName(u.resource)) + " " +
                  u.dir.string() + " " + u.value);
  }
  return out;
}

// The value of the unlabelled metric `name` in `registry`, or nullopt.
std::optional<std::string> metricValue(const metrics::MetricsRegistry& registry,
                                       const std::string& name) {
  std::istringstream in(registry.serialize());
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + " ", 0) == 0) {
      return line.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

// A v2 node with the given NodeSLO, Node and pods.
struct MemoryQosFixture {
  explicit MemoryQosFixture(const std::string& resource_qos_json,
                            const std::vector<PodSpec>& pods = {},
                            const std::string& allocatable = "8Gi") {
    fixture.facts.cgroup_version = system::CgroupVersion::kV2;
    ON_CALL(fixture.states, nodeSLO()).WillByDefault(Return(nodeSLO(resource_qos_json)));
    if (!allocatable.empty()) {
      ON_CALL(fixture.states, node()).WillByDefault(Return(nodeWithAllocatable(allocatable)));
    }
    std::vector<std::shared_ptr<const api::core::Pod>> list;
    for (const PodSpec& spec : pods) {
      list.push_back(makePod(spec));
    }
    fixture.pods = resourceexecutor::PodCgroups::resolve({}, list);
  }

  // Runs once and returns what was handed to updateBatch (which must be called once).
  std::vector<std::string> runOnce(MemoryQos& strategy, Status executor_result = Status::ok()) {
    std::vector<resourceexecutor::ResourceUpdate> got;
    EXPECT_CALL(fixture.executor, updateBatch(_))
        .WillOnce(DoAll(SaveArg<0>(&got), Return(executor_result)));
    last_status = strategy.run(fixture.context());
    ::testing::Mock::VerifyAndClearExpectations(&fixture.executor);
    return lines(got);
  }

  testing::ContextFixture fixture;
  Status last_status;
};

constexpr const char* kNodeConfig = R"({
    "lsrClass": {"memoryQOS": {"enable": false, "minLimitPercent": 100}},
    "lsClass": {"memoryQOS": {"enable": true, "minLimitPercent": 50, "lowLimitPercent": 80,
                              "throttlingPercent": 80}},
    "beClass": {"memoryQOS": {"enable": true, "minLimitPercent": 20, "lowLimitPercent": 0,
                              "throttlingPercent": 50}}
})";

TEST(MemoryQos, NameIntervalAndEnabled) {
  MemoryQos strategy(1s, log::Logger(), nullptr);
  EXPECT_EQ(strategy.name(), "MemoryQOS");
  EXPECT_EQ(strategy.interval(), Clock::Duration(1s));
  EXPECT_TRUE(strategy.runsOnStateChange());
  EXPECT_FALSE(strategy.enabled(nullptr));
  api::slo::NodeSLO slo;
  EXPECT_FALSE(strategy.enabled(&slo));  // no resourceQOSStrategy
  slo.spec.resourceQOSStrategy = api::slo::ResourceQOSStrategy{};
  EXPECT_TRUE(strategy.enabled(&slo));
}

// Every level, top-down: the kubepods folder holds every pod's sum, burstable and besteffort
// their pods'; pods the sums of their containers; started containers min, low and high. BE pods
// use batch-memory; a container without a limit throttles against the node's allocatable memory;
// a disabled class (LSR here) is reset to 0 / 0 / max; terminal pods are left out.
TEST(MemoryQos, WritesContainerPodAndQosLevelValuesTopDown) {
  MemoryQosFixture f(kNodeConfig,
                     {
                         {"a",
                          "web",
                          std::nullopt,
                          "Burstable",
                          {{"c1", "1Gi", "2Gi"}, {"c2", "512Mi", std::nullopt}}},
                         {"b", "job", "BE", "BestEffort", {{"cb", "1Gi", "2Gi"}}},
                         {"c", "db", "LSR", "Guaranteed", {{"cc", "4Gi", "4Gi"}}},
                         {"d",
                          "done",
                          std::nullopt,
                          "Burstable",
                          {{"cd", "8Gi", "8Gi"}},
                          std::nullopt,
                          "Succeeded"},
                         {"e", "new", "LS", "Burstable", {{"ce", "1Gi", std::nullopt, false}}},
                     });
  metrics::MetricsRegistry registry;
  MemoryQos strategy(1s, log::Logger(), &registry, 4096);
  const std::vector<std::string> got = f.runOnce(strategy);
  ASSERT_TRUE(f.last_status.isOk()) << f.last_status;
  EXPECT_THAT(
      got,
      ElementsAre(
          // kubepods: a + b + c + e; burstable: a + e; besteffort: b
          "memory_min kubepods 1556925644", "memory_low kubepods 2147483647",
          "memory_min kubepods/burstable 1342177280", "memory_low kubepods/burstable 2147483647",
          "memory_min kubepods/besteffort 214748364", "memory_low kubepods/besteffort 0",
          // pods
          "memory_min kubepods/burstable/poda 805306368",
          "memory_low kubepods/burstable/poda 1288490188",
          "memory_min kubepods/besteffort/podb 214748364", "memory_low kubepods/besteffort/podb 0",
          "memory_min kubepods/podc 0", "memory_low kubepods/podc 0",
          "memory_min kubepods/burstable/pode 536870912",
          "memory_low kubepods/burstable/pode 858993459",
          // containers (ce has not started)
          "memory_min kubepods/burstable/poda/c1 536870912",
          "memory_low kubepods/burstable/poda/c1 858993459",
          "memory_high kubepods/burstable/poda/c1 1932734464",
          "memory_min kubepods/burstable/poda/c2 268435456",
          "memory_low kubepods/burstable/poda/c2 429496729",
          "memory_high kubepods/burstable/poda/c2 6979321856",
          "memory_min kubepods/besteffort/podb/cb 214748364",
          "memory_low kubepods/besteffort/podb/cb 0",
          "memory_high kubepods/besteffort/podb/cb 1610612736", "memory_min kubepods/podc/cc 0",
          "memory_low kubepods/podc/cc 0", "memory_high kubepods/podc/cc -1"));
  EXPECT_EQ(metricValue(registry, "koord_agent_memory_qos_supported"), "1");
  EXPECT_EQ(metricValue(registry, "koord_agent_memory_qos_containers"), "4");

  const api::Json state = strategy.debugState();
  EXPECT_EQ(state["supported"], true);
  EXPECT_EQ(state["node_allocatable_memory"], int64_t{8} << 30);
  EXPECT_EQ(state["classes"]["LS"]["minLimitPercent"], 50);
  EXPECT_EQ(state["classes"]["LSR"]["enabled"], false);
  ASSERT_EQ(state["pods"].size(), 4u);
  EXPECT_EQ(state["pods"][0]["pod"], "ns/web");
  EXPECT_EQ(state["pods"][0]["policy"], "node");
  EXPECT_EQ(state["pods"][0]["containers"][1]["high"], 6979321856);
  EXPECT_EQ(state["pods"][2]["containers"][0]["high"], "max");
  EXPECT_EQ(state["pods"][3]["containers"][0]["written"], false);
  EXPECT_EQ(state["containers"], 4);
}

// The systemd driver's folders come from the node's naming.
TEST(MemoryQos, UsesTheKubeletNaming) {
  MemoryQosFixture f(kNodeConfig, {});
  f.fixture.facts.naming.driver = system::CgroupDriver::kSystemd;
  MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
  EXPECT_THAT(f.runOnce(strategy),
              ElementsAre("memory_min kubepods.slice 0", "memory_low kubepods.slice 0",
                          "memory_min kubepods.slice/kubepods-burstable.slice 0",
                          "memory_low kubepods.slice/kubepods-burstable.slice 0",
                          "memory_min kubepods.slice/kubepods-besteffort.slice 0",
                          "memory_low kubepods.slice/kubepods-besteffort.slice 0"));
}

struct PolicyCase {
  std::string name;
  std::optional<std::string> annotation;
  std::vector<std::string> container;  // min, low, high of the container
};

// The annotation overrides the node's LS settings (50 / 80 / 80).
TEST(MemoryQos, PodAnnotationPolicies) {
  const std::vector<PolicyCase> cases = {
      {"no annotation",
       std::nullopt,
       {"memory_min kubepods/burstable/poda/c1 536870912",
        "memory_low kubepods/burstable/poda/c1 858993459",
        "memory_high kubepods/burstable/poda/c1 1932734464"}},
      {"none",
       R"({"policy":"none"})",
       {"memory_min kubepods/burstable/poda/c1 0", "memory_low kubepods/burstable/poda/c1 0",
        "memory_high kubepods/burstable/poda/c1 -1"}},
      {"auto (koordlet's profile: all off)",
       R"({"policy":"auto"})",
       {"memory_min kubepods/burstable/poda/c1 0", "memory_low kubepods/burstable/poda/c1 0",
        "memory_high kubepods/burstable/poda/c1 -1"}},
      {"auto with a field",
       R"({"policy":"auto","minLimitPercent":100})",
       {"memory_min kubepods/burstable/poda/c1 1073741824",
        "memory_low kubepods/burstable/poda/c1 0", "memory_high kubepods/burstable/poda/c1 -1"}},
      {"default with a field",
       R"({"policy":"default","throttlingPercent":0})",
       {"memory_min kubepods/burstable/poda/c1 536870912",
        "memory_low kubepods/burstable/poda/c1 858993459",
        "memory_high kubepods/burstable/poda/c1 -1"}},
      {"malformed: the node's settings",
       R"({"policy":"sometimes"})",
       {"memory_min kubepods/burstable/poda/c1 536870912",
        "memory_low kubepods/burstable/poda/c1 858993459",
        "memory_high kubepods/burstable/poda/c1 1932734464"}},
  };
  for (const PolicyCase& c : cases) {
    SCOPED_TRACE(c.name);
    MemoryQosFixture f(kNodeConfig,
                       {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", "2Gi"}}, c.annotation}});
    MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
    const std::vector<std::string> got = f.runOnce(strategy);
    ASSERT_EQ(got.size(), 11u);
    EXPECT_EQ(std::vector<std::string>(got.end() - 3, got.end()), c.container);
  }
}

TEST(MemoryQos, MalformedAnnotationIsAProblemNotAFailure) {
  MemoryQosFixture f(
      kNodeConfig,
      {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", "2Gi"}}, R"({"minLimitPercent":300})"}});
  MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
  f.runOnce(strategy);
  EXPECT_TRUE(f.last_status.isOk());
  const api::Json state = strategy.debugState();
  ASSERT_EQ(state["problems"].size(), 1u);
  EXPECT_THAT(state["problems"][0].get<std::string>(),
              HasSubstr("ns/web: annotation koordinator.sh/memoryQOS: minLimitPercent is 300"));
  EXPECT_EQ(state["pods"][0]["policy"], "node");
}

// On cgroup v1 nothing is written, the gauge says unsupported, and the warning is logged once.
TEST(MemoryQos, CgroupV1IsUnsupportedWritesNothingAndLogsOnce) {
  MemoryQosFixture f(kNodeConfig, {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", "2Gi"}}}});
  f.fixture.facts.cgroup_version = system::CgroupVersion::kV1;
  std::vector<std::string> warnings;
  log::Logger logger(log::LogSink::toCallback([&](log::LogLevel level, std::string_view line) {
                       if (level >= log::LogLevel::kWarn) {
                         warnings.emplace_back(line);
                       }
                     }),
                     {}, "qos");
  metrics::MetricsRegistry registry;
  MemoryQos strategy(1s, logger, &registry, 4096);
  EXPECT_CALL(f.fixture.executor, updateBatch(_)).Times(0);
  EXPECT_CALL(f.fixture.executor, update(_)).Times(0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(strategy.run(f.fixture.context()).isOk());
    f.fixture.clock.advance(1s);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("memory QoS is not supported"));
  EXPECT_EQ(metricValue(registry, "koord_agent_memory_qos_supported"), "0");
  EXPECT_EQ(strategy.debugState()["supported"], false);
  EXPECT_THAT(strategy.debugState()["reason"].get<std::string>(), HasSubstr("cgroup v1"));
}

TEST(MemoryQos, BadPercentagesAreInvalidAndNothingIsWritten) {
  for (const std::string json :
       {R"({"lsClass": {"memoryQOS": {"enable": true, "minLimitPercent": 101}}})",
        R"({"beClass": {"memoryQOS": {"enable": true, "throttlingPercent": -1}}})"}) {
    SCOPED_TRACE(json);
    MemoryQosFixture f(json, {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", "2Gi"}}}});
    MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
    EXPECT_CALL(f.fixture.executor, updateBatch(_)).Times(0);
    EXPECT_CALL(f.fixture.executor, update(_)).Times(0);
    const Status status = strategy.run(f.fixture.context());
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("resourceQOSStrategy."));
    EXPECT_THAT(strategy.debugState()["status"].get<std::string>(), HasSubstr("must be 0..100"));
  }
}

// A pod that ended between listing and writing: the executor reports kNotFound; not a failure.
TEST(MemoryQos, VanishedCgroupIsASkip) {
  MemoryQosFixture f(kNodeConfig, {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", "2Gi"}}}});
  MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
  f.runOnce(strategy, Status::notFound("failed to apply 3 of 11 updates: no such file"));
  EXPECT_TRUE(f.last_status.isOk());
  EXPECT_THAT(strategy.debugState()["problems"].back().get<std::string>(), HasSubstr("vanished"));
}

TEST(MemoryQos, OtherExecutorErrorsAreReturned) {
  MemoryQosFixture f(kNodeConfig, {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", "2Gi"}}}});
  MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
  f.runOnce(strategy, Status::permissionDenied("refusing"));
  EXPECT_EQ(f.last_status.code(), StatusCode::kPermissionDenied);
}

// Without the Node's allocatable memory, memory.high of an unlimited container is not written.
TEST(MemoryQos, UnknownAllocatableSkipsHighOfUnlimitedContainers) {
  MemoryQosFixture f(kNodeConfig, {{"a", "web", "LS", "Burstable", {{"c1", "1Gi", std::nullopt}}}},
                     "");
  MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
  const std::vector<std::string> got = f.runOnce(strategy);
  EXPECT_THAT(std::vector<std::string>(got.end() - 2, got.end()),
              ElementsAre("memory_min kubepods/burstable/poda/c1 536870912",
                          "memory_low kubepods/burstable/poda/c1 858993459"));
  EXPECT_THAT(strategy.debugState()["problems"][0].get<std::string>(),
              HasSubstr("allocatable memory is not known"));
}

TEST(MemoryQos, NoResourceQosStrategyWritesNothing) {
  testing::ContextFixture fixture;
  fixture.facts.cgroup_version = system::CgroupVersion::kV2;
  ON_CALL(fixture.states, nodeSLO())
      .WillByDefault(Return(std::make_shared<const api::slo::NodeSLO>()));
  MemoryQos strategy(1s, log::Logger(), nullptr, 4096);
  EXPECT_CALL(fixture.executor, updateBatch(_)).Times(0);
  EXPECT_TRUE(strategy.run(fixture.context()).isOk());
  EXPECT_THAT(strategy.debugState()["reason"].get<std::string>(),
              HasSubstr("no resourceQOSStrategy"));
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_qos
