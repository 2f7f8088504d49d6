#include "agent/resourceexecutor/cgroup_paths.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord::agent::resourceexecutor {
namespace {

using system::CgroupDriver;
using ::testing::HasSubstr;

constexpr std::string_view kUid = "12ab-34cd-56ef";

struct QosCase {
  CgroupDriver driver;
  std::string root;
  api::core::QosClass qos;
  std::string kubepods;
  std::string qos_dir;
  std::string pod;
};

// Every driver x root x QoS class.
const std::vector<QosCase>& qosCases() {
  static const std::vector<QosCase> cases = {
      {CgroupDriver::kCgroupfs, "/", api::core::QosClass::kGuaranteed, "kubepods", "kubepods",
       "kubepods/pod12ab-34cd-56ef"},
      {CgroupDriver::kCgroupfs, "/", api::core::QosClass::kBurstable, "kubepods",
       "kubepods/burstable", "kubepods/burstable/pod12ab-34cd-56ef"},
      {CgroupDriver::kCgroupfs, "/", api::core::QosClass::kBestEffort, "kubepods",
       "kubepods/besteffort", "kubepods/besteffort/pod12ab-34cd-56ef"},
      {CgroupDriver::kCgroupfs, "/custom", api::core::QosClass::kGuaranteed, "custom/kubepods",
       "custom/kubepods", "custom/kubepods/pod12ab-34cd-56ef"},
      {CgroupDriver::kCgroupfs, "/custom", api::core::QosClass::kBurstable, "custom/kubepods",
       "custom/kubepods/burstable", "custom/kubepods/burstable/pod12ab-34cd-56ef"},
      {CgroupDriver::kCgroupfs, "/custom", api::core::QosClass::kBestEffort, "custom/kubepods",
       "custom/kubepods/besteffort", "custom/kubepods/besteffort/pod12ab-34cd-56ef"},
      {CgroupDriver::kSystemd, "/", api::core::QosClass::kGuaranteed, "kubepods.slice",
       "kubepods.slice", "kubepods.slice/kubepods-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::kSystemd, "/", api::core::QosClass::kBurstable, "kubepods.slice",
       "kubepods.slice/kubepods-burstable.slice",
       "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::kSystemd, "/", api::core::QosClass::kBestEffort, "kubepods.slice",
       "kubepods.slice/kubepods-besteffort.slice",
       "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::kSystemd, "/custom", api::core::QosClass::kGuaranteed,
       "custom.slice/custom-kubepods.slice", "custom.slice/custom-kubepods.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::kSystemd, "/custom", api::core::QosClass::kBurstable,
       "custom.slice/custom-kubepods.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-burstable.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-burstable.slice/"
       "custom-kubepods-burstable-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::kSystemd, "/custom", api::core::QosClass::kBestEffort,
       "custom.slice/custom-kubepods.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-besteffort.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-besteffort.slice/"
       "custom-kubepods-besteffort-pod12ab_34cd_56ef.slice"},
  };
  return cases;
}

std::string driverName(CgroupDriver driver) {
  return driver == CgroupDriver::kCgroupfs ? "cgroupfs" : "systemd";
}

TEST(CgroupPathsTest, KubepodsQosAndPodDirs) {
  for (const QosCase& c : qosCases()) {
    SCOPED_TRACE(driverName(c.driver) + " root=" + c.root +
                 " qos=" + std::string(api::core::qosClassName(c.qos)));
    const KubeletCgroupNaming naming{c.driver, c.root};
    EXPECT_EQ(kubepodsDir(naming), c.kubepods);
    EXPECT_EQ(qosDir(naming, c.qos), c.qos_dir);
    const auto pod = podDir(naming, c.qos, kUid);
    ASSERT_TRUE(pod.ok()) << pod.status();
    EXPECT_EQ(*pod, c.pod);
    EXPECT_TRUE(pod->is_relative());
  }
}

// The container folder is the pod folder plus a per-runtime name, for every QoS class.
TEST(CgroupPathsTest, ContainerDirs) {
  struct Runtime {
    std::string id;
    std::string cgroupfs_name;
    std::string systemd_name;
  };
  const std::vector<Runtime> runtimes = {
      {"containerd://abc123", "abc123", "cri-containerd-abc123.scope"},
      {"docker://abc123", "abc123", "docker-abc123.scope"},
      {"cri-o://abc123", "abc123", "crio-abc123.scope"},
  };
  for (const QosCase& c : qosCases()) {
    for (const Runtime& runtime : runtimes) {
      SCOPED_TRACE(driverName(c.driver) + " root=" + c.root + " " + runtime.id);
      const KubeletCgroupNaming naming{c.driver, c.root};
      const auto dir = containerDir(naming, c.qos, kUid, runtime.id);
      ASSERT_TRUE(dir.ok()) << dir.status();
      EXPECT_EQ(*dir, std::filesystem::path(c.pod) / (c.driver == CgroupDriver::kCgroupfs
                                                          ? runtime.cgroupfs_name
                                                          : runtime.systemd_name));
    }
  }
}

// How --cgroup-root is split into components, and what the kubelet does with '-' and a root
// given in slice form under systemd.
TEST(CgroupPathsTest, CgroupRootForms) {
  struct Case {
    CgroupDriver driver;
    std::string root;
    std::string kubepods;
  };
  const std::vector<Case> cases = {
      {CgroupDriver::kCgroupfs, "", "kubepods"},
      {CgroupDriver::kCgroupfs, "//", "kubepods"},
      {CgroupDriver::kCgroupfs, "/a/b/", "a/b/kubepods"},
      {CgroupDriver::kCgroupfs, "/./a", "a/kubepods"},
      {CgroupDriver::kCgroupfs, "/my-root", "my-root/kubepods"},
      {CgroupDriver::kSystemd, "", "kubepods.slice"},
      {CgroupDriver::kSystemd, "/a/b", "a.slice/a-b.slice/a-b-kubepods.slice"},
      {CgroupDriver::kSystemd, "/my-root", "my_root.slice/my_root-kubepods.slice"},
      {CgroupDriver::kSystemd, "/x.slice", "x.slice.slice/x.slice-kubepods.slice"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(driverName(c.driver) + " root='" + c.root + "'");
    EXPECT_EQ(kubepodsDir({c.driver, c.root}), c.kubepods);
  }
}

TEST(CgroupPathsTest, RejectsBadIds) {
  struct Case {
    std::string pod_uid;
    std::string container_id;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"uid", "pouch://abc", "unknown runtime 'pouch'"},
      {"uid", "abc", "expected '<runtime>://<id>'"},
      {"uid", "containerd:/abc", "expected '<runtime>://<id>'"},
      {"uid", "://abc", "unknown runtime ''"},
      {"uid", "containerd://", "empty id"},
      {"uid", "containerd://../../etc", "only hold letters"},
      {"uid", "docker://a/b", "only hold letters"},
      {"uid", "cri-o://a.scope", "only hold letters"},
      {"uid", "containerd://abc def", "only hold letters"},
      {"", "containerd://abc", "failed to build cgroup path of pod '': empty id"},
      {"../x", "containerd://abc", "failed to build cgroup path of pod '../x'"},
      {"a/b", "containerd://abc", "failed to build cgroup path of pod 'a/b'"},
  };
  for (const CgroupDriver driver : {CgroupDriver::kCgroupfs, CgroupDriver::kSystemd}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(driverName(driver) + " " + c.pod_uid + " " + c.container_id);
      const auto dir =
          containerDir({driver, "/"}, api::core::QosClass::kBurstable, c.pod_uid, c.container_id);
      ASSERT_FALSE(dir.ok());
      EXPECT_EQ(dir.status().code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(dir.status().message(), HasSubstr(c.error));
    }
  }
  const auto pod = podDir({CgroupDriver::kSystemd, "/"}, api::core::QosClass::kGuaranteed, "..");
  ASSERT_FALSE(pod.ok());
  EXPECT_EQ(pod.status().message(),
            "failed to build cgroup path of pod '..': id may only hold "
            "letters, digits, '-' and '_'");
  const auto container = containerDir({CgroupDriver::kCgroupfs, "/"},
                                      api::core::QosClass::kGuaranteed, "u", "rkt://x");
  ASSERT_FALSE(container.ok());
  EXPECT_EQ(container.status().message(),
            "failed to build cgroup path of container 'rkt://x': unknown runtime 'rkt', expected "
            "containerd, docker or cri-o");
}

TEST(CgroupPathsTest, ParsesQosClass) {
  struct Case {
    std::string text;
    bool ok;
    api::core::QosClass qos;
  };
  const std::vector<Case> cases = {
      {"Guaranteed", true, api::core::QosClass::kGuaranteed},
      {"Burstable", true, api::core::QosClass::kBurstable},
      {"BestEffort", true, api::core::QosClass::kBestEffort},
      {"besteffort", false, api::core::QosClass::kGuaranteed},
      {"", false, api::core::QosClass::kGuaranteed},
      {"Guaranteed ", false, api::core::QosClass::kGuaranteed},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("'" + c.text + "'");
    const auto qos = parseKubeQosClass(c.text);
    ASSERT_EQ(qos.ok(), c.ok);
    if (c.ok) {
      EXPECT_EQ(*qos, c.qos);
      EXPECT_EQ(api::core::qosClassName(*qos), c.text);
    } else {
      EXPECT_EQ(qos.status().code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(qos.status().message(), "failed to parse QoS class '" + c.text +
                                            "': expected Guaranteed, Burstable or BestEffort");
    }
  }
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
