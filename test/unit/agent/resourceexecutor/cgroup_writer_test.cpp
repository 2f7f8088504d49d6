#include "agent/resourceexecutor/cgroup_writer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agent/resourceexecutor/cgroup_v1_writer.hpp"
#include "agent/resourceexecutor/cgroup_v2_writer.hpp"
#include "test/unit/agent/resourceexecutor/cgroup_tree.hpp"

namespace koord::agent::resourceexecutor {
namespace {

using system::CgroupVersion;
using system::SysPaths;
using testing::cgroupPath;
using testing::FakeRoot;
using ::testing::HasSubstr;
using testing::readTree;

constexpr std::string_view kPod = "kubepods/burstable/pod1";

// One logical write, and what each version's file holds and reads back afterwards.
struct WriteCase {
  CgroupResource resource;
  std::string value;
  std::string v1_file;  // relative to the cgroup root; empty: unsupported on v1
  std::string v1_content;
  std::string v2_file;
  std::string v2_content;
  std::string v2_read;  // v1 units
};

const std::vector<WriteCase>& writeCases() {
  static const std::vector<WriteCase> cases = {
      {CgroupResource::kCpuShares, "512", "cpu/kubepods/burstable/pod1/cpu.shares", "512",
       "kubepods/burstable/pod1/cpu.weight", "20", "500"},
      {CgroupResource::kCpuCfsQuota, "50000", "cpu/kubepods/burstable/pod1/cpu.cfs_quota_us",
       "50000", "kubepods/burstable/pod1/cpu.max", "50000 100000", "50000"},
      {CgroupResource::kCpuCfsQuota, "-1", "cpu/kubepods/burstable/pod1/cpu.cfs_quota_us", "-1",
       "kubepods/burstable/pod1/cpu.max", "max 100000", "-1"},
      {CgroupResource::kCpuCfsPeriod, "200000", "cpu/kubepods/burstable/pod1/cpu.cfs_period_us",
       "200000", "kubepods/burstable/pod1/cpu.max", "max 200000", "200000"},
      {CgroupResource::kCpuBurst, "20000", "cpu/kubepods/burstable/pod1/cpu.cfs_burst_us", "20000",
       "kubepods/burstable/pod1/cpu.max.burst", "20000", "20000"},
      {CgroupResource::kCpusetCpus, "0,1,2,3", "cpuset/kubepods/burstable/pod1/cpuset.cpus", "0-3",
       "kubepods/burstable/pod1/cpuset.cpus", "0-3", "0-3"},
      {CgroupResource::kCpusetMems, "0", "cpuset/kubepods/burstable/pod1/cpuset.mems", "0",
       "kubepods/burstable/pod1/cpuset.mems", "0", "0"},
      {CgroupResource::kMemoryLimit, "1073741824",
       "memory/kubepods/burstable/pod1/memory.limit_in_bytes", "1073741824",
       "kubepods/burstable/pod1/memory.max", "1073741824", "1073741824"},
      {CgroupResource::kMemoryLimit, "-1", "memory/kubepods/burstable/pod1/memory.limit_in_bytes",
       "-1", "kubepods/burstable/pod1/memory.max", "max", "-1"},
      {CgroupResource::kMemoryMin, "104857600", "", "", "kubepods/burstable/pod1/memory.min",
       "104857600", "104857600"},
      {CgroupResource::kMemoryLow, "209715200", "", "", "kubepods/burstable/pod1/memory.low",
       "209715200", "209715200"},
      {CgroupResource::kMemoryHigh, "1073741824", "", "", "kubepods/burstable/pod1/memory.high",
       "1073741824", "1073741824"},
      {CgroupResource::kMemoryHigh, "-1", "", "", "kubepods/burstable/pod1/memory.high", "max",
       "-1"},
  };
  return cases;
}

TEST(CgroupWriterTest, V1WritesAndReadsBackEveryResource) {
  for (const WriteCase& c : writeCases()) {
    SCOPED_TRACE(std::string(cgroupResourceName(c.resource)) + "=" + c.value);
    FakeRoot root;
    ASSERT_TRUE(testing::makeV1Cgroup(root, std::string(kPod)));
    const auto writer = newCgroupWriter(CgroupVersion::kV1, SysPaths::under(root.path()));
    ASSERT_EQ(writer->version(), CgroupVersion::kV1);
    const Status status = writer->write(c.resource, kPod, c.value);
    if (c.v1_file.empty()) {
      EXPECT_EQ(status.code(), StatusCode::kUnimplemented) << status;
      EXPECT_THAT(status.message(), HasSubstr("not supported on cgroup v1"));
      EXPECT_EQ(writer->read(c.resource, kPod).status().code(), StatusCode::kUnimplemented);
      EXPECT_EQ(writer->fileName(c.resource).status().code(), StatusCode::kUnimplemented);
      continue;
    }
    ASSERT_TRUE(status.isOk()) << status;
    EXPECT_EQ(readTree(root, cgroupPath(c.v1_file)), c.v1_content);
    const auto file = writer->filePath(c.resource, kPod);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(*file, root.path() / cgroupPath(c.v1_file));
    const auto read = writer->read(c.resource, kPod);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(*read, c.v1_content);
  }
}

TEST(CgroupWriterTest, V2WritesAndReadsBackEveryResource) {
  for (const WriteCase& c : writeCases()) {
    SCOPED_TRACE(std::string(cgroupResourceName(c.resource)) + "=" + c.value);
    FakeRoot root;
    ASSERT_TRUE(testing::makeV2Cgroup(root, std::string(kPod)));
    const auto writer = newCgroupWriter(CgroupVersion::kV2, SysPaths::under(root.path()));
    ASSERT_EQ(writer->version(), CgroupVersion::kV2);
    const Status status = writer->write(c.resource, kPod, c.value);
    ASSERT_TRUE(status.isOk()) << status;
    EXPECT_EQ(readTree(root, cgroupPath(c.v2_file)), c.v2_content);
    const auto file = writer->filePath(c.resource, kPod);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(*file, root.path() / cgroupPath(c.v2_file));
    const auto read = writer->read(c.resource, kPod);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(*read, c.v2_read);
  }
}

TEST(CgroupWriterTest, SharesToWeightTable) {
  struct Case {
    int64_t shares;
    int64_t weight;
  };
  const std::vector<Case> cases = {
      {2, 1}, {3, 1}, {1024, 39}, {2048, 79}, {102400, 3906}, {262143, 9999}, {262144, 10000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.shares);
    EXPECT_EQ(cpuWeightFromShares(c.shares), c.weight);
    FakeRoot root;
    ASSERT_TRUE(testing::makeV2Cgroup(root, "kubepods"));
    CgroupV2Writer writer(SysPaths::under(root.path()));
    ASSERT_TRUE(
        writer.write(CgroupResource::kCpuShares, "kubepods", std::to_string(c.shares)).isOk());
    EXPECT_EQ(readTree(root, cgroupPath("kubepods/cpu.weight")), std::to_string(c.weight));
  }
  // Clamped to 1..10000 outside the shares range (the writer rejects such shares).
  EXPECT_EQ(cpuWeightFromShares(0), 1);
  EXPECT_EQ(cpuWeightFromShares(1 << 30), 10000);
  // The kubelet's inverse, used when reading cpu.weight back.
  EXPECT_EQ(sharesFromCpuWeight(1), 2);
  EXPECT_EQ(sharesFromCpuWeight(39), 998);
  EXPECT_EQ(sharesFromCpuWeight(100), 2597);
  EXPECT_EQ(sharesFromCpuWeight(10000), 262144);
}

// Quota and period share cpu.max: each write keeps the other half of what the file holds.
TEST(CgroupWriterTest, V2QuotaAndPeriodMergeIntoCpuMax) {
  FakeRoot root;
  ASSERT_TRUE(testing::makeV2Cgroup(root, "kubepods"));
  CgroupV2Writer writer(SysPaths::under(root.path()));
  const std::string cpu_max = cgroupPath("kubepods/cpu.max");
  EXPECT_EQ(readTree(root, cpu_max), "max 100000");
  struct Step {
    CgroupResource resource;
    std::string value;
    std::string file;
  };
  const std::vector<Step> steps = {
      {CgroupResource::kCpuCfsQuota, "50000", "50000 100000"},
      {CgroupResource::kCpuCfsPeriod, "200000", "50000 200000"},
      {CgroupResource::kCpuCfsQuota, "-1", "max 200000"},
      {CgroupResource::kCpuCfsPeriod, "100000", "max 100000"},
      {CgroupResource::kCpuCfsQuota, "250000", "250000 100000"},
  };
  for (const Step& step : steps) {
    SCOPED_TRACE(std::string(cgroupResourceName(step.resource)) + "=" + step.value);
    ASSERT_TRUE(writer.write(step.resource, "kubepods", step.value).isOk());
    EXPECT_EQ(readTree(root, cpu_max), step.file);
  }
  EXPECT_EQ(writer.read(CgroupResource::kCpuCfsQuota, "kubepods").valueOr(""), "250000");
  EXPECT_EQ(writer.read(CgroupResource::kCpuCfsPeriod, "kubepods").valueOr(""), "100000");

  root.write(cpu_max, "garbage\n");
  const Status status = writer.write(CgroupResource::kCpuCfsQuota, "kubepods", "1000");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("expected '<quota|max> <period>', got 'garbage'"));
  EXPECT_EQ(readTree(root, cpu_max), "garbage");
}

// The writes whose results the real h200 capture shows ("after" lines) leave the same text.
TEST(CgroupWriterTest, V2MatchesTheH200Capture) {
  const testing::V2ChildCapture capture = testing::loadV2ChildCapture();
  FakeRoot root;
  ASSERT_TRUE(testing::makeV2Cgroup(root, "kubepods"));
  CgroupV2Writer writer(SysPaths::under(root.path()));
  EXPECT_EQ(writer.read(CgroupResource::kCpuCfsQuota, "kubepods").valueOr(""), "-1");
  EXPECT_EQ(writer.read(CgroupResource::kMemoryHigh, "kubepods").valueOr(""), "-1");
  EXPECT_EQ(writer.read(CgroupResource::kMemoryMin, "kubepods").valueOr(""), "0");
  EXPECT_EQ(writer.read(CgroupResource::kCpuShares, "kubepods").valueOr(""), "2597");
  struct Step {
    CgroupResource resource;
    std::string value;
    std::string file;
  };
  // cpu.weight 1 is what shares 2 give (the capture got it from cpu.idle=1).
  const std::vector<Step> steps = {
      {CgroupResource::kCpuCfsQuota, "50000", "cpu.max"},
      {CgroupResource::kCpuBurst, "20000", "cpu.max.burst"},
      {CgroupResource::kCpuShares, "2", "cpu.weight"},
      {CgroupResource::kMemoryHigh, "1073741824", "memory.high"},
      {CgroupResource::kCpusetCpus, "0-3", "cpuset.cpus"},
  };
  for (const Step& step : steps) {
    SCOPED_TRACE(step.file);
    ASSERT_EQ(capture.after.count(step.file), 1U);
    ASSERT_TRUE(writer.write(step.resource, "kubepods", step.value).isOk());
    EXPECT_EQ(readTree(root, cgroupPath("kubepods/" + step.file)), capture.after.at(step.file));
  }
}

// cpu and cpuacct co-mounted without the usual `cpu` symlink.
TEST(CgroupWriterTest, V1FindsCoMountedCpuController) {
  for (const std::string mount : {"cpu,cpuacct", "cpuacct,cpu"}) {
    SCOPED_TRACE(mount);
    FakeRoot root;
    ASSERT_TRUE(testing::makeV1Cgroup(root, "kubepods", mount));
    CgroupV1Writer writer(SysPaths::under(root.path()));
    ASSERT_TRUE(writer.write(CgroupResource::kCpuShares, "kubepods", "4096").isOk());
    EXPECT_EQ(readTree(root, cgroupPath(mount + "/kubepods/cpu.shares")), "4096");
    EXPECT_EQ(writer.read(CgroupResource::kCpuShares, "kubepods").valueOr(""), "4096");
  }
}

TEST(CgroupWriterTest, V1ReadsTheKernelsNoLimitAsMinusOne) {
  FakeRoot root;
  ASSERT_TRUE(testing::makeV1Cgroup(root, "kubepods"));
  CgroupV1Writer writer(SysPaths::under(root.path()));
  const std::string file = cgroupPath("memory/kubepods/memory.limit_in_bytes");
  for (const auto& [content, read] : std::vector<std::pair<std::string, std::string>>{
           {"9223372036854771712", "-1"},  // 4 KiB pages
           {"9223372036854710272", "-1"},  // 64 KiB pages
           {"1073741824", "1073741824"}}) {
    root.write(file, content + "\n");
    EXPECT_EQ(writer.read(CgroupResource::kMemoryLimit, "kubepods").valueOr(""), read);
  }
}

TEST(CgroupWriterTest, Errors) {
  struct Case {
    CgroupVersion version;
    CgroupResource resource;
    std::string dir;
    std::string value;
    StatusCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {CgroupVersion::kV1, CgroupResource::kCpuShares, "kubepods/gone", "1024",
       StatusCode::kNotFound, "cpu/kubepods/gone/cpu.shares': No such file or directory"},
      {CgroupVersion::kV2, CgroupResource::kMemoryMin, "kubepods/gone", "0", StatusCode::kNotFound,
       "kubepods/gone/memory.min': No such file or directory (value '0')"},
      {CgroupVersion::kV2, CgroupResource::kCpuCfsQuota, "kubepods/gone", "1000",
       StatusCode::kNotFound, "failed to read '"},
      {CgroupVersion::kV1, CgroupResource::kCpuShares, "kubepods", "1",
       StatusCode::kInvalidArgument,
       "failed to parse cpu_shares value '1': expected an integer in 2..262144"},
      {CgroupVersion::kV2, CgroupResource::kCpuShares, "kubepods", "262145",
       StatusCode::kInvalidArgument, "expected an integer in 2..262144"},
      {CgroupVersion::kV2, CgroupResource::kCpuCfsQuota, "kubepods", "0",
       StatusCode::kInvalidArgument, "expected microseconds > 0, or -1 for unlimited"},
      {CgroupVersion::kV1, CgroupResource::kCpuCfsPeriod, "kubepods", "-1",
       StatusCode::kInvalidArgument, "expected microseconds > 0"},
      {CgroupVersion::kV2, CgroupResource::kCpuBurst, "kubepods", "-5",
       StatusCode::kInvalidArgument, "expected microseconds >= 0"},
      {CgroupVersion::kV1, CgroupResource::kMemoryLimit, "kubepods", "-2",
       StatusCode::kInvalidArgument, "expected bytes >= 0, or -1 for max"},
      {CgroupVersion::kV2, CgroupResource::kMemoryHigh, "kubepods", "1G",
       StatusCode::kInvalidArgument, "expected bytes >= 0, or -1 for max"},
      {CgroupVersion::kV1, CgroupResource::kCpusetCpus, "kubepods", "3-1",
       StatusCode::kInvalidArgument, "failed to parse cpuset_cpus value '3-1'"},
      {CgroupVersion::kV1, CgroupResource::kMemoryLow, "kubepods", "0", StatusCode::kUnimplemented,
       "failed to write 'memory_low': not supported on cgroup v1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(cgroupResourceName(c.resource)) + " " + c.dir + "=" + c.value);
    FakeRoot root;
    ASSERT_TRUE(c.version == CgroupVersion::kV1 ? testing::makeV1Cgroup(root, "kubepods")
                                                : testing::makeV2Cgroup(root, "kubepods"));
    const auto writer = newCgroupWriter(c.version, SysPaths::under(root.path()));
    const Status status = writer->write(c.resource, c.dir, c.value);
    EXPECT_EQ(status.code(), c.code) << status;
    EXPECT_THAT(status.message(), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
