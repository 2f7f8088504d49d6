#include "agent/app/collected_pods.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace koord::agent::app {
namespace {

std::shared_ptr<const api::core::Pod> collectedPod(const std::string& uid, const std::string& qos,
                                                   const std::string& phase = "Running") {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "ns";
  pod->metadata.name = "pod-" + uid;
  pod->metadata.uid = uid;
  pod->status.qosClass = qos;
  pod->status.phase = phase;
  pod->status.containerStatuses =
      api::Json::array({{{"name", "app"}, {"containerID", "containerd://c-" + uid}},
                        {{"name", "odd"}, {"containerID", "rkt://x"}}});
  return pod;
}

TEST(CollectedPodsTest, LiveResolvablePodsWithTheirResolvableContainers) {
  const auto pods = collectedPods(resourceexecutor::PodCgroups::resolve(
      {}, {collectedPod("a", "Burstable"), collectedPod("done", "Burstable", "Succeeded"),
           collectedPod("bad", "Platinum")}));
  ASSERT_EQ(pods->size(), 1U);
  const metricsadvisor::PodCgroup& a = (*pods)[0];
  EXPECT_EQ(a.uid, "a");
  EXPECT_EQ(a.pod_namespace, "ns");
  EXPECT_EQ(a.name, "pod-a");
  EXPECT_EQ(a.cgroup_dir, "kubepods/burstable/poda");
  ASSERT_EQ(a.containers.size(), 1U);
  EXPECT_EQ(a.containers[0].id, "c-a");
  EXPECT_EQ(a.containers[0].name, "app");
  EXPECT_EQ(a.containers[0].cgroup_dir, "kubepods/burstable/poda/c-a");
}

}  // namespace
}  // namespace koord::agent::app
