#include "koord/api/core/pod_helpers.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "koord/api/codec.hpp"

namespace koord::api::core {
namespace {

Pod podFrom(const char* spec_json) {
  auto pod = decode<Pod>(spec_json);
  EXPECT_TRUE(pod.ok()) << pod.status();
  return pod.ok() ? *pod : Pod{};
}

// name -> quantity text; compared numerically.
using Expected = std::map<std::string, std::string>;

void expectList(const resource::ResourceList& got, const Expected& want) {
  EXPECT_EQ(got.size(), want.size()) << "got " << api::toJson(got).dump();
  for (const auto& [name, text] : want) {
    auto q = resource::Quantity::parse(text);
    ASSERT_TRUE(q.ok()) << q.status();
    auto it = got.find(name);
    ASSERT_NE(it, got.end()) << name << " missing from " << api::toJson(got).dump();
    EXPECT_EQ(it->second, *q) << name << ": got " << it->second.toString() << ", want " << text;
  }
}

struct RequestsCase {
  const char* name;
  const char* pod;
  Expected requests;
  Expected limits;
};

TEST(PodRequestsTest, FollowsKubernetesPodRequestsAndLimits) {
  const RequestsCase cases[] = {
      {"containers are summed",
       R"({"spec":{"containers":[
           {"name":"a","resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"1"}}},
           {"name":"b","resources":{"requests":{"cpu":"200m","memory":"128Mi","nvidia.com/gpu":"1"}}}]}})",
       {{"cpu", "300m"}, {"memory", "192Mi"}, {"nvidia.com/gpu", "1"}},
       {{"cpu", "1"}}},
      {"an init container raises each resource to its own request",
       R"({"spec":{"initContainers":[{"name":"i","resources":{"requests":{"cpu":"500m","memory":"16Mi"}}}],
           "containers":[{"name":"a","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}})",
       {{"cpu", "500m"}, {"memory", "64Mi"}},
       {}},
      {"overhead is added",
       R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"200m"}}}],
           "overhead":{"cpu":"50m","memory":"10Mi"}}})",
       {{"cpu", "150m"}, {"memory", "10Mi"}},
       // overhead only goes onto resources that have a non-zero limit
       {{"cpu", "250m"}}},
      {"sidecars add to the sum and to later init containers",
       R"({"spec":{"initContainers":[
             {"name":"sidecar","restartPolicy":"Always","resources":{"requests":{"cpu":"100m"}}},
             {"name":"setup","resources":{"requests":{"cpu":"300m"}}}],
           "containers":[{"name":"a","resources":{"requests":{"cpu":"200m"}}}]}})",
       // containers + sidecar = 300m; while setup runs: 300m + sidecar 100m = 400m
       {{"cpu", "400m"}},
       {}},
      {"an init container before the sidecar does not count it",
       R"({"spec":{"initContainers":[
             {"name":"setup","resources":{"requests":{"cpu":"350m"}}},
             {"name":"sidecar","restartPolicy":"Always","resources":{"requests":{"cpu":"100m"}}}],
           "containers":[{"name":"a","resources":{"requests":{"cpu":"200m"}}}]}})",
       {{"cpu", "350m"}},
       {}},
      {"limits are not used as requests",
       R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}})",
       {},
       {{"cpu", "1"}, {"memory", "1Gi"}}},
      {"pod-level requests replace cpu and memory only",
       R"({"spec":{"resources":{"requests":{"cpu":"2","memory":"1Gi"},"limits":{"memory":"2Gi"}},
           "containers":[{"name":"a","resources":{"requests":{"cpu":"100m","memory":"64Mi","example.com/foo":"3"}}}],
           "overhead":{"cpu":"100m"}}})",
       {{"cpu", "2100m"}, {"memory", "1Gi"}, {"example.com/foo", "3"}},
       {{"memory", "2Gi"}}},
      {"empty pod", R"({"spec":{"containers":[{"name":"a"}]}})", {}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod pod = podFrom(c.pod);
    auto requests = podRequests(pod);
    ASSERT_TRUE(requests.ok()) << requests.status();
    expectList(*requests, c.requests);
    auto limits = podLimits(pod);
    ASSERT_TRUE(limits.ok()) << limits.status();
    expectList(*limits, c.limits);
  }
}

struct QosCase {
  const char* name;
  const char* pod;
  QosClass want;
};

TEST(PodQosTest, ComputesKubernetesQosClass) {
  const QosCase cases[] = {
      {"no resources", R"({"spec":{"containers":[{"name":"a"}]}})", QosClass::kBestEffort},
      {"only extended resources",
       R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"nvidia.com/gpu":"1"},"limits":{"nvidia.com/gpu":"1"}}}]}})",
       QosClass::kBestEffort},
      {"zero quantities count as unset",
       R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"0"},"limits":{"cpu":"0","memory":"0"}}}]}})",
       QosClass::kBestEffort},
      {"requests equal limits everywhere",
       R"({"spec":{"containers":[
           {"name":"a","resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1000m","memory":"1024Mi"}}},
           {"name":"b","resources":{"requests":{"cpu":"2","memory":"1Gi"},"limits":{"cpu":"2","memory":"1Gi"}}}]}})",
       QosClass::kGuaranteed},
      {"requests only",
       R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"1"}}}]}})",
       QosClass::kBurstable},
      {"limits without defaulted requests",
       R"({"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}})",
       QosClass::kBurstable},
      {"cpu guaranteed but memory missing",
       R"({"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"1"},"limits":{"cpu":"1"}}}]}})",
       QosClass::kBurstable},
      {"guaranteed and best-effort containers",
       R"({"spec":{"containers":[
           {"name":"a","resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}},
           {"name":"b"}]}})",
       QosClass::kBurstable},
      {"init containers count",
       R"({"spec":{"initContainers":[{"name":"i","resources":{"requests":{"cpu":"100m"}}}],
           "containers":[{"name":"a","resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}]}})",
       QosClass::kBurstable},
      {"pod-level resources decide",
       R"({"spec":{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}},
           "containers":[{"name":"a","resources":{"requests":{"cpu":"100m"}}}]}})",
       QosClass::kGuaranteed},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod pod = podFrom(c.pod);
    EXPECT_EQ(qosClassName(computePodQosClass(pod)), qosClassName(c.want));
    EXPECT_EQ(qosClassName(podQosClass(pod)), qosClassName(c.want));
  }
}

TEST(PodQosTest, StatusQosClassWins) {
  Pod pod = podFrom(R"({"spec":{"containers":[{"name":"a"}]},"status":{"qosClass":"Guaranteed"}})");
  EXPECT_EQ(podQosClass(pod), QosClass::kGuaranteed);
  EXPECT_EQ(computePodQosClass(pod), QosClass::kBestEffort);
  pod.status.qosClass = "Unknown-Class";
  EXPECT_EQ(podQosClass(pod), QosClass::kBestEffort);
}

TEST(PodPhaseTest, TerminalPhases) {
  const std::pair<const char*, bool> cases[] = {
      {"Pending", false}, {"Running", false},  {"Unknown", false},
      {"", false},        {"Succeeded", true}, {"Failed", true},
  };
  for (const auto& [phase, terminal] : cases) {
    Pod pod;
    pod.status.phase = phase;
    EXPECT_EQ(isPodTerminal(pod), terminal) << phase;
  }
}

}  // namespace
}  // namespace koord::api::core
