// ROOT_ test: BEMemoryEvict against the real kernel. Two BE pods get real cgroup v1 memory
// folders under a test-only kubelet cgroup root (/sys/fs/cgroup/memory/koord-evict-<pid>/...),
// each with a real process; the MetricCache is filled from the kernel (node: /proc/meminfo
// MemTotal - MemAvailable; pods: their working set through metricsadvisor's CgroupReader). The
// NodeSLO threshold is set just above the measured baseline, so that only the hog's allocation
// pushes the node over it; the strategy must then post an Eviction for the hog alone.
// Skipped when not root or when the cgroup v1 memory hierarchy is not writable.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "agent/metricsadvisor/cgroup_reader.hpp"
#include "agent/qosmanager/strategies/memory_evict/memory_evict.hpp"
#include "agent/qosmanager/strategies/memory_evict/memory_evict_formula.hpp"
#include "agent/resourceexecutor/cgroup_paths.hpp"
#include "test/unit/agent/qosmanager/strategies/memory_evict/evict_test_support.hpp"

namespace koord::agent::qosmanager::strategies::memory_evict {
namespace {

namespace fs = std::filesystem;
using metriccache::MetricKind;
using qosmanager::testing::EvictFixture;
using qosmanager::testing::kGiB;
using qosmanager::testing::kMiB;
using qosmanager::testing::makeNodeSLO;
using qosmanager::testing::makePod;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::Return;

const fs::path kMemoryRoot = "/sys/fs/cgroup/memory";
constexpr int64_t kHogBytes = 1536 * kMiB;

// MemTotal and MemTotal - MemAvailable, in bytes.
std::pair<int64_t, int64_t> readMeminfo() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t value = 0;
  std::string unit;
  int64_t total = 0;
  int64_t available = 0;
  while (in >> key >> value >> unit) {
    if (key == "MemTotal:") {
      total = value * 1024;
    } else if (key == "MemAvailable:") {
      available = value * 1024;
    }
  }
  return {total, total - available};
}

// A child process that waits for one byte on `command`, then allocates and touches `bytes`,
// answers one byte on `done`, and sleeps until killed.
struct Child {
  pid_t pid = -1;
  int command = -1;  // write end
  int done = -1;     // read end
};

Child forkChild(int64_t bytes) {
  int command[2];
  int done[2];
  if (pipe(command) != 0 || pipe(done) != 0) {
    return {};
  }
  const pid_t pid = fork();
  if (pid == 0) {
    char byte = 0;
    if (read(command[0], &byte, 1) == 1 && bytes > 0) {
      auto* memory = static_cast<char*>(malloc(static_cast<size_t>(bytes)));
      if (memory != nullptr) {
        std::memset(memory, 0x5a, static_cast<size_t>(bytes));
      }
    }
    byte = 'd';
    (void)!write(done[1], &byte, 1);
    while (true) {
      pause();
    }
  }
  close(command[0]);
  close(done[1]);
  return {pid, command[1], done[0]};
}

class RootMemoryEvictTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) {
      GTEST_SKIP() << "not root";
    }
    if (!fs::exists(kMemoryRoot / "cgroup.procs")) {
      GTEST_SKIP() << "no cgroup v1 memory hierarchy at " << kMemoryRoot;
    }
    naming_.driver = system::CgroupDriver::kCgroupfs;
    naming_.cgroup_root = "/koord-evict-" + std::to_string(getpid());
    for (const char* name : {"hog", "idle"}) {
      auto pod = makePod({.name = name, .priority = 5500});
      auto dir =
          resourceexecutor::podDir(naming_, api::core::QosClass::kBestEffort, pod->metadata.uid);
      ASSERT_TRUE(dir.ok()) << dir.status().toString();
      std::error_code ec;
      fs::create_directories(kMemoryRoot / *dir, ec);
      if (ec) {
        GTEST_SKIP() << "cannot create " << (kMemoryRoot / *dir) << ": " << ec.message();
      }
      created_.push_back(*dir);
      Child child = forkChild(std::string(name) == "hog" ? kHogBytes : 0);
      ASSERT_GT(child.pid, 0);
      children_.push_back(child);
      std::ofstream procs(kMemoryRoot / *dir / "cgroup.procs");
      procs << child.pid;
      procs.flush();
      ASSERT_TRUE(procs) << "cannot move " << child.pid << " into " << *dir;
      pods_.push_back(pod);
    }
    reader_ = metricsadvisor::newCgroupReader(system::SysPaths{}, system::CgroupVersion::kV1, 0,
                                              /*inactive_file_period=*/1);
  }

  void TearDown() override {
    for (const Child& child : children_) {
      kill(child.pid, SIGKILL);
      waitpid(child.pid, nullptr, 0);
      close(child.command);
      close(child.done);
    }
    for (const fs::path& dir : created_) {
      // rmdir bottom-up, up to and including koord-evict-<pid>.
      for (fs::path at = dir; !at.empty() && at != at.root_path(); at = at.parent_path()) {
        ::rmdir((kMemoryRoot / at).c_str());
      }
    }
  }

  // Samples the node and both pods from the kernel into `f`, at its metric time of now.
  void sample(EvictFixture& f, int64_t& node_used, std::vector<uint64_t>& working_sets) {
    node_used = readMeminfo().second;
    f.sample(MetricKind::kNodeMemory, "", static_cast<double>(node_used));
    working_sets.clear();
    for (size_t i = 0; i < pods_.size(); ++i) {
      Result<uint64_t> bytes = reader_->memoryWorkingSetBytes(created_[i].string());
      ASSERT_TRUE(bytes.ok()) << bytes.status().toString();
      working_sets.push_back(*bytes);
      f.sample(MetricKind::kPodMemory, pods_[i]->metadata.uid, static_cast<double>(*bytes));
    }
  }

  resourceexecutor::KubeletCgroupNaming naming_;
  std::vector<std::shared_ptr<const api::core::Pod>> pods_;  // hog, idle
  std::vector<fs::path> created_;                            // their pod folders
  std::vector<Child> children_;
  std::unique_ptr<metricsadvisor::CgroupReader> reader_;
};

TEST_F(RootMemoryEvictTest, ROOT_EvictsTheBEPodWhoseAllocationCrossesTheThreshold) {
  const auto [total, baseline_used] = readMeminfo();
  ASSERT_GT(total, 4 * kGiB) << "too little memory for a 1.5 GiB allocation";
  // The threshold sits half the hog's allocation above the baseline: the allocation crosses it,
  // the machine's own drift in the few seconds of the test does not.
  const int64_t baseline_percent = baseline_used * 100 / total;
  const int64_t margin = (kHogBytes * 100 / total + 1) / 2 + 1;
  const int64_t threshold = baseline_percent + margin;
  ASSERT_LE(threshold + 5, 100) << "the node is too full for this test";
  // lower = threshold - 1: the release (about usage - threshold + 1 percent of capacity) is less
  // than the hog's working set, so the hog alone meets it.
  api::slo::ResourceThresholdStrategy section;
  section.enable = true;
  section.memoryEvictThresholdPercent = threshold;
  section.memoryEvictLowerPercent = threshold - 1;

  EvictFixture f;
  auto node = std::make_shared<api::core::Node>();
  node->metadata.name = "node-1";
  node->status.capacity["memory"] =
      resource::Quantity::fromInt(total, resource::QuantityFormat::kBinarySI);
  f.node = node;
  f.node_slo = makeNodeSLO(section);
  f.setPods(pods_);
  MemoryEvict strategy({}, log::Logger(), &f.registry);

  // Before the allocation: under the threshold, nothing is posted.
  int64_t used = 0;
  std::vector<uint64_t> working_sets;
  sample(f, used, working_sets);
  EXPECT_CALL(f.client, evict(_, _, _)).Times(0);
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  const api::Json before = strategy.debugState();
  std::cout << "baseline: node " << used / kMiB << " MiB of " << total / kMiB << " MiB ("
            << before["usage"]["usage_percent"] << "%), threshold " << threshold
            << "%, hog working set " << working_sets[0] / kMiB << " MiB, idle "
            << working_sets[1] / 1024 << " KiB\n";
  ASSERT_EQ(before["usage"]["decision"], "below the threshold") << before.dump();
  ::testing::Mock::VerifyAndClearExpectations(&f.client);

  // The hog allocates and touches 1.5 GiB inside its cgroup.
  char go = 'a';
  ASSERT_EQ(write(children_[0].command, &go, 1), 1);
  pollfd ready{children_[0].done, POLLIN, 0};
  ASSERT_EQ(poll(&ready, 1, 15000), 1) << "the hog did not finish its allocation";
  char ack = 0;
  ASSERT_EQ(read(children_[0].done, &ack, 1), 1);

  f.clock.advance(std::chrono::seconds(1));
  sample(f, used, working_sets);
  std::string posted;
  EXPECT_CALL(f.client, evict("batch", _, _))
      .WillOnce([&](const std::string&, const std::string& name, const api::core::DeleteOptions&) {
        posted = "pods/" + name + "/eviction";
        return Status::ok();
      });
  ASSERT_TRUE(strategy.run(f.context()).isOk());
  const api::Json after = strategy.debugState();
  std::cout << "after: node " << used / kMiB << " MiB (" << after["usage"]["usage_percent"]
            << "%), release " << after["usage"]["release_bytes"].get<int64_t>() / kMiB
            << " MiB, hog working set " << working_sets[0] / kMiB << " MiB, idle "
            << working_sets[1] / 1024 << " KiB\n";
  EXPECT_GE(working_sets[0], static_cast<uint64_t>(kHogBytes * 9 / 10));
  EXPECT_EQ(posted, "pods/hog/eviction") << after.dump();
  ASSERT_EQ(f.events.size(), 1u) << after.dump();
  EXPECT_EQ(f.events[0].pod, "batch/hog");
  EXPECT_EQ(f.events[0].reason, "EvictPodByNodeMemoryUsage");
  const int64_t percent = after["usage"]["usage_percent"];
  EXPECT_GE(percent, threshold);
  EXPECT_THAT(f.events[0].message, HasSubstr("node memory usage " + std::to_string(percent) +
                                             "% >= threshold " + std::to_string(threshold) + "%"));
  EXPECT_THAT(f.events[0].message, HasSubstr("this pod: memory working set " +
                                             formatBytes(static_cast<double>(working_sets[0]))));
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::memory_evict
