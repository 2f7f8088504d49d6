#include "agent/system/kubelet_cgroup_name.hpp"

#include <gtest/gtest.h>

namespace koord::agent::system {
namespace {

TEST(KubeletCgroupNameTest, CgroupfsJoinsTheComponents) {
  EXPECT_EQ(kubeletCgroupDir(CgroupDriver::kCgroupfs, {"custom", "kubepods", "burstable", "pod1-2"})
                .string(),
            "custom/kubepods/burstable/pod1-2");
  EXPECT_EQ(kubeletCgroupDir(CgroupDriver::kCgroupfs, {}).string(), "");
}

TEST(KubeletCgroupNameTest, SystemdExpandsTheSliceAndEscapesDashes) {
  EXPECT_EQ(kubeletCgroupDir(CgroupDriver::kSystemd, {"kubepods", "besteffort", "pod1-2"}).string(),
            "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1_2.slice");
  EXPECT_EQ(kubeletCgroupDir(CgroupDriver::kSystemd, {"my-root", "kubepods"}).string(),
            "my_root.slice/my_root-kubepods.slice");
}

}  // namespace
}  // namespace koord::agent::system
