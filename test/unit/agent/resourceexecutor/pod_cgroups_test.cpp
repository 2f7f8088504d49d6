#include "agent/resourceexecutor/pod_cgroups.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace koord::agent::resourceexecutor {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<const api::core::Pod> podWith(const std::string& uid, const std::string& qos,
                                              api::Json statuses,
                                              const std::string& phase = "Running") {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "default";
  pod->metadata.name = "pod-" + uid;
  pod->metadata.uid = uid;
  pod->status.qosClass = qos;
  pod->status.phase = phase;
  pod->status.containerStatuses = std::move(statuses);
  return pod;
}

TEST(PodCgroupsTest, ResolvesPodsAndTheirStartedContainersOnce) {
  const PodCgroups cgroups = PodCgroups::resolve(
      {}, {podWith("a", "Burstable",
                   api::Json::array({{{"name", "app"}, {"containerID", "containerd://c1"}},
                                     {{"name", "pending"}, {"containerID", ""}},
                                     {{"name", "sidecar"}, {"containerID", "docker://c2"}},
                                     "not an object"})),
           podWith("b", "BestEffort", api::Json())});
  ASSERT_EQ(cgroups.pods().size(), 2U);
  const PodCgroup& a = cgroups.pods()[0];
  ASSERT_TRUE(a.dir.ok());
  EXPECT_EQ(a.dir->string(), "kubepods/burstable/poda");
  ASSERT_EQ(a.containers.size(), 2U);
  EXPECT_EQ(a.containers[0].name, "app");
  EXPECT_EQ(a.containers[0].id, "c1");
  ASSERT_TRUE(a.containers[0].dir.ok());
  EXPECT_EQ(a.containers[0].dir->string(), "kubepods/burstable/poda/c1");
  EXPECT_EQ(a.container("sidecar"), &a.containers[1]);
  EXPECT_EQ(a.container("pending"), nullptr);
  EXPECT_FALSE(a.terminal());
  EXPECT_EQ(cgroups.pods()[1].dir->string(), "kubepods/besteffort/podb");
  EXPECT_TRUE(cgroups.pods()[1].containers.empty());
}

TEST(PodCgroupsTest, KeepsWhyAPathCannotBeBuilt) {
  const PodCgroups cgroups = PodCgroups::resolve(
      {}, {podWith("a", "Platinum",
                   api::Json::array({{{"name", "app"}, {"containerID", "containerd://c1"}}})),
           podWith("b", "Burstable",
                   api::Json::array({{{"name", "app"}, {"containerID", "rkt://c1"}}}))});
  ASSERT_EQ(cgroups.pods().size(), 2U);
  ASSERT_FALSE(cgroups.pods()[0].dir.ok());
  EXPECT_THAT(cgroups.pods()[0].dir.status().message(), HasSubstr("'Platinum'"));
  // The pod's error is its containers' too.
  ASSERT_EQ(cgroups.pods()[0].containers.size(), 1U);
  EXPECT_FALSE(cgroups.pods()[0].containers[0].dir.ok());
  ASSERT_TRUE(cgroups.pods()[1].dir.ok());
  ASSERT_EQ(cgroups.pods()[1].containers.size(), 1U);
  EXPECT_THAT(cgroups.pods()[1].containers[0].dir.status().message(),
              HasSubstr("failed to build cgroup path of container 'rkt://c1'"));
}

TEST(PodCgroupsTest, TerminalPodsAreResolvedAndMarked) {
  const PodCgroups cgroups =
      PodCgroups::resolve({}, {podWith("a", "Guaranteed", api::Json(), "Succeeded"),
                               podWith("b", "Guaranteed", api::Json(), "Failed")});
  ASSERT_EQ(cgroups.pods().size(), 2U);
  EXPECT_TRUE(cgroups.pods()[0].terminal());
  EXPECT_TRUE(cgroups.pods()[1].terminal());
  EXPECT_EQ(cgroups.pods()[0].dir->string(), "kubepods/poda");
}

TEST(PodCgroupsTest, ADefaultSnapshotHasNoPodsAndCopiesShareEntries) {
  EXPECT_TRUE(PodCgroups().empty());
  const PodCgroups cgroups = PodCgroups::resolve({}, {podWith("a", "Burstable", api::Json())});
  const PodCgroups copy = cgroups;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(&copy.pods()[0], &cgroups.pods()[0]);
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
