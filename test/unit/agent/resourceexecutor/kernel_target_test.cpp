#include "agent/resourceexecutor/kernel_target.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace koord::agent::resourceexecutor {
namespace {

using ::testing::HasSubstr;

TEST(KernelTargetTest, Names) {
  EXPECT_EQ(kernelTargetName(KernelTarget::kResctrlSchemata), "resctrl_schemata");
  EXPECT_EQ(kernelTargetName(KernelTarget::kResctrlTasks), "resctrl_tasks");
  EXPECT_EQ(kernelTargetName(KernelTarget::kNetQosClass), "net_qos_class");
  EXPECT_TRUE(isResctrlTarget(KernelTarget::kResctrlTasks));
  EXPECT_FALSE(isResctrlTarget(KernelTarget::kNetQosClass));
}

TEST(KernelTargetTest, CanonicalValues) {
  struct Case {
    KernelTarget target;
    std::string text;
    std::string want;
  };
  for (const Case& c : std::vector<Case>{
           {KernelTarget::kResctrlSchemata, "  L3:0=7ff;1=7ff\n", "L3:0=7ff;1=7ff"},
           {KernelTarget::kResctrlSchemata, "L3:0 = 7ff ; 1=3\n\n    MB:0=100;1=50\n",
            "L3:0=7ff;1=3\nMB:0=100;1=50"},
           {KernelTarget::kResctrlTasks, " 4242\n", "4242"},
           {KernelTarget::kResctrlTasks, "4194304", "4194304"},
           {KernelTarget::kNetQosClass, "ceil=2000 rate=1000", "rate=1000 ceil=2000"},
           {KernelTarget::kNetQosClass, " rate=5\tceil=5 ", "rate=5 ceil=5"},
       }) {
    auto got = canonicalTargetValue(c.target, c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.status();
    EXPECT_EQ(*got, c.want) << c.text;
  }
}

TEST(KernelTargetTest, InvalidValues) {
  struct Case {
    KernelTarget target;
    std::string text;
  };
  for (const Case& c : std::vector<Case>{
           {KernelTarget::kResctrlSchemata, ""},
           {KernelTarget::kResctrlSchemata, "L3"},
           {KernelTarget::kResctrlSchemata, "L3:0=7ff;x=1"},
           {KernelTarget::kResctrlSchemata, "L3:0=zz"},
           {KernelTarget::kResctrlSchemata, "L3:0=7ff\n/x:0=1"},
           {KernelTarget::kResctrlTasks, "0"},
           {KernelTarget::kResctrlTasks, "-1"},
           {KernelTarget::kResctrlTasks, "1 2"},
           {KernelTarget::kResctrlTasks, "4194305"},
           {KernelTarget::kNetQosClass, "rate=0 ceil=1"},
           {KernelTarget::kNetQosClass, "rate=2 ceil=1"},
           {KernelTarget::kNetQosClass, "rate=1"},
           {KernelTarget::kNetQosClass, "rate=1 rate=1 ceil=2"},
           {KernelTarget::kNetQosClass, "rate=1 ceil=2 burst=3"},
           {KernelTarget::kNetQosClass, "rate=1mbit ceil=2mbit"},
       }) {
    auto got = canonicalTargetValue(c.target, c.text);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(got.status().message(),
                HasSubstr("failed to parse " + std::string(kernelTargetName(c.target))));
  }
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
