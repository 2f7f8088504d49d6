#include "agent/resourceexecutor/cgroup_paths.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord::agent::resourceexecutor {
namespace {

using system::CgroupDriver;
using system::KubeQosClass;
using ::testing::HasSubstr;

constexpr std::string_view kUid = "12ab-34cd-56ef";

struct QosCase {
  CgroupDriver driver;
  std::string root;
  KubeQosClass qos;
  std::string kubepods;
  std::string qos_dir;
  std::string pod;
};

// Every driver x root x QoS class.
const std::vector<QosCase>& qosCases() {
  static const std::vector<QosCase> cases = {
      {CgroupDriver::Cgroupfs, "/", KubeQosClass::Guaranteed, "kubepods", "kubepods",
       "kubepods/pod12ab-34cd-56ef"},
      {CgroupDriver::Cgroupfs, "/", KubeQosClass::Burstable, "kubepods", "kubepods/burstable",
       "kubepods/burstable/pod12ab-34cd-56ef"},
      {CgroupDriver::Cgroupfs, "/", KubeQosClass::BestEffort, "kubepods", "kubepods/besteffort",
       "kubepods/besteffort/pod12ab-34cd-56ef"},
      {CgroupDriver::Cgroupfs, "/custom", KubeQosClass::Guaranteed, "custom/kubepods",
       "custom/kubepods", "custom/kubepods/pod12ab-34cd-56ef"},
      {CgroupDriver::Cgroupfs, "/custom", KubeQosClass::Burstable, "custom/kubepods",
       "custom/kubepods/burstable", "custom/kubepods/burstable/pod12ab-34cd-56ef"},
      {CgroupDriver::Cgroupfs, "/custom", KubeQosClass::BestEffort, "custom/kubepods",
       "custom/kubepods/besteffort", "custom/kubepods/besteffort/pod12ab-34cd-56ef"},
      {CgroupDriver::Systemd, "/", KubeQosClass::Guaranteed, "kubepods.slice", "kubepods.slice",
       "kubepods.slice/kubepods-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::Systemd, "/", KubeQosClass::Burstable, "kubepods.slice",
       "kubepods.slice/kubepods-burstable.slice",
       "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::Systemd, "/", KubeQosClass::BestEffort, "kubepods.slice",
       "kubepods.slice/kubepods-besteffort.slice",
       "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::Systemd, "/custom", KubeQosClass::Guaranteed,
       "custom.slice/custom-kubepods.slice", "custom.slice/custom-kubepods.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::Systemd, "/custom", KubeQosClass::Burstable,
       "custom.slice/custom-kubepods.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-burstable.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-burstable.slice/"
       "custom-kubepods-burstable-pod12ab_34cd_56ef.slice"},
      {CgroupDriver::Systemd, "/custom", KubeQosClass::BestEffort,
       "custom.slice/custom-kubepods.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-besteffort.slice",
       "custom.slice/custom-kubepods.slice/custom-kubepods-besteffort.slice/"
       "custom-kubepods-besteffort-pod12ab_34cd_56ef.slice"},
  };
  return cases;
}

std::string driverName(CgroupDriver driver) {
  return driver == CgroupDriver::Cgroupfs ? "cgroupfs" : "systemd";
}

TEST(CgroupPathsTest, KubepodsQosAndPodDirs) {
  for (const QosCase& c : qosCases()) {
    SCOPED_TRACE(driverName(c.driver) + " root=" + c.root +
                 " qos=" + std::string(kubeQosClassName(c.qos)));
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
      EXPECT_EQ(*dir, std::filesystem::path(c.pod) / (c.driver == CgroupDriver::Cgroupfs
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
      {CgroupDriver::Cgroupfs, "", "kubepods"},
      {CgroupDriver::Cgroupfs, "//", "kubepods"},
      {CgroupDriver::Cgroupfs, "/a/b/", "a/b/kubepods"},
      {CgroupDriver::Cgroupfs, "/./a", "a/kubepods"},
      {CgroupDriver::Cgroupfs, "/my-root", "my-root/kubepods"},
      {CgroupDriver::Systemd, "", "kubepods.slice"},
      {CgroupDriver::Systemd, "/a/b", "a.slice/a-b.slice/a-b-kubepods.slice"},
      {CgroupDriver::Systemd, "/my-root", "my_root.slice/my_root-kubepods.slice"},
      {CgroupDriver::Systemd, "/x.slice", "x.slice.slice/x.slice-kubepods.slice"},
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
  for (const CgroupDriver driver : {CgroupDriver::Cgroupfs, CgroupDriver::Systemd}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(driverName(driver) + " " + c.pod_uid + " " + c.container_id);
      const auto dir =
          containerDir({driver, "/"}, KubeQosClass::Burstable, c.pod_uid, c.container_id);
      ASSERT_FALSE(dir.ok());
      EXPECT_EQ(dir.status().code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(dir.status().message(), HasSubstr(c.error));
    }
  }
  const auto pod = podDir({CgroupDriver::Systemd, "/"}, KubeQosClass::Guaranteed, "..");
  ASSERT_FALSE(pod.ok());
  EXPECT_EQ(pod.status().message(),
            "failed to build cgroup path of pod '..': id may only hold "
            "letters, digits, '-' and '_'");
  const auto container =
      containerDir({CgroupDriver::Cgroupfs, "/"}, KubeQosClass::Guaranteed, "u", "rkt://x");
  ASSERT_FALSE(container.ok());
  EXPECT_EQ(container.status().message(),
            "failed to build cgroup path of container 'rkt://x': unknown runtime 'rkt', expected "
            "containerd, docker or cri-o");
}

TEST(CgroupPathsTest, ParsesQosClass) {
  struct Case {
    std::string text;
    bool ok;
    KubeQosClass qos;
  };
  const std::vector<Case> cases = {
      {"Guaranteed", true, KubeQosClass::Guaranteed},
      {"Burstable", true, KubeQosClass::Burstable},
      {"BestEffort", true, KubeQosClass::BestEffort},
      {"besteffort", false, KubeQosClass::Guaranteed},
      {"", false, KubeQosClass::Guaranteed},
      {"Guaranteed ", false, KubeQosClass::Guaranteed},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("'" + c.text + "'");
    const auto qos = parseKubeQosClass(c.text);
    ASSERT_EQ(qos.ok(), c.ok);
    if (c.ok) {
      EXPECT_EQ(*qos, c.qos);
      EXPECT_EQ(kubeQosClassName(*qos), c.text);
    } else {
      EXPECT_EQ(qos.status().code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(qos.status().message(), "failed to parse QoS class '" + c.text +
                                            "': expected Guaranteed, Burstable or BestEffort");
    }
  }
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
