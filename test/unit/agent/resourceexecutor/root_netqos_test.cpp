// ROOT_ tests: the net-QoS writer against the real kernel's HTB. Each test makes its own network
// namespace koord-test-netqos-<pid> holding device kq0 (a dummy device, or one end of a veth pair
// where the kernel has no dummy driver) with an HTB root qdisc 1: and class 1:2 (rate 10mbit ceil
// 20mbit prio 3), writes from a thread that has joined the namespace (setns(2) moves only the
// calling thread), checks what `tc -s class show` reports, and deletes the namespace at the end,
// pass or fail. Skipped unless running as root with iproute2's `ip` and `tc`.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#include "agent/resourceexecutor/target_executor.hpp"
#include "agent/resourceexecutor/target_writer.hpp"
#include "koord/common/clock.hpp"

namespace koord::agent::resourceexecutor {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Runs `command` through the shell; its exit status, and its stdout and stderr in `output`.
int runShell(const std::string& command, std::string* output = nullptr) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    return -1;
  }
  std::string text;
  std::array<char, 4096> chunk{};
  size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) {
    text.append(chunk.data(), n);
  }
  const int rc = ::pclose(pipe);
  if (output != nullptr) {
    *output = text;
  }
  return rc;
}

// Drops CAP_NET_ADMIN from the calling thread's effective set (capabilities are per thread).
bool dropNetAdmin() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0) {
    return false;
  }
  data[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
  return ::syscall(SYS_capset, &header, data) == 0;
}

class RootNetQosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "needs root to create a network namespace";
    }
    if (runShell("ip -V") != 0 || runShell("tc -V") != 0) {
      GTEST_SKIP() << "needs iproute2's ip and tc";
    }
    ns_ = "koord-test-netqos-" + std::to_string(::getpid());
    std::string out;
    ASSERT_EQ(runShell("ip netns add " + ns_, &out), 0) << out;
    created_ = true;
    if (runShell(ip("link add kq0 type dummy"), &out) != 0) {
      ASSERT_EQ(runShell(ip("link add kq0 type veth peer name kq1"), &out), 0) << out;
    }
    ASSERT_EQ(runShell(ip("link set kq0 up"), &out), 0) << out;
    ASSERT_EQ(runShell(tc("qdisc add dev kq0 root handle 1: htb"), &out), 0) << out;
    ASSERT_EQ(runShell(tc("class add dev kq0 parent 1: classid 1:2 htb rate 10mbit ceil 20mbit "
                          "prio 3"),
                       &out),
              0)
        << out;

    TargetExecutorOptions options;
    options.net_qos = newNetQosWriter();
    options.net_qos_devices = {"kq0"};
    auto executor = TargetExecutor::create(std::move(options), clock_);
    ASSERT_TRUE(executor.ok()) << executor.status();
    executor_ = std::move(executor).value();
  }

  void TearDown() override {
    if (!created_) {
      return;
    }
    std::string out;
    EXPECT_EQ(runShell("ip netns del " + ns_, &out), 0) << out;
    runShell("ip netns list", &out);
    EXPECT_THAT(out, Not(HasSubstr(ns_))) << ns_ << " was not removed";
  }

  std::string ip(const std::string& args) const { return "ip -n " + ns_ + " " + args; }
  std::string tc(const std::string& args) const { return "tc -n " + ns_ + " " + args; }

  // `tc -s class show dev kq0` in the test's namespace.
  std::string tcClasses() const {
    std::string out;
    EXPECT_EQ(runShell(tc("-s class show dev kq0"), &out), 0) << out;
    std::cout << "$ tc -s class show dev kq0\n" << out;
    return out;
  }

  // Runs `fn` on a thread that has joined the test's network namespace; false when it could not.
  bool inNamespace(const std::function<void()>& fn) const {
    bool joined = false;
    std::thread thread([&] {
      const int fd = ::open(("/run/netns/" + ns_).c_str(), O_RDONLY | O_CLOEXEC);
      joined = fd >= 0 && ::setns(fd, CLONE_NEWNET) == 0;
      if (fd >= 0) {
        ::close(fd);
      }
      if (joined) {
        fn();
      }
    });
    thread.join();
    return joined;
  }

  Status update(const std::string& dir, const std::string& value) {
    Status status;
    EXPECT_TRUE(inNamespace([&] {
      status = executor_->update({KernelTarget::kNetQosClass, dir, value, "root test"});
    }));
    return status;
  }

  FakeClock clock_;
  std::string ns_;
  bool created_ = false;
  std::unique_ptr<TargetExecutor> executor_;
};

TEST_F(RootNetQosTest, ROOT_WritesRateAndCeilThatTheKernelEnforces) {
  const Status status = update("kq0/1:2", "ceil=45000000 rate=30000000");
  ASSERT_TRUE(status.isOk()) << status;

  const std::string shown = tcClasses();
  // The kernel's rates, the prio kept (`tc class change` would reset it to 0), and the bursts
  // `tc class change dev kq0 classid 1:2 htb rate 30mbit ceil 45mbit` gives too.
  EXPECT_THAT(shown, HasSubstr("class htb 1:2 root prio 3 rate 30Mbit ceil 45Mbit burst 1593b "
                               "cburst 1591b"));
  const std::vector<TargetAuditRecord> audit = executor_->auditLog();
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].location, "tc class 1:2 dev kq0");
  EXPECT_EQ(audit[0].old_value.value_or(""), "rate=10000000 ceil=20000000");
  EXPECT_EQ(audit[0].new_value, "rate=30000000 ceil=45000000");

  Result<std::string> read = Status::internal("not run");
  const std::unique_ptr<TargetWriter> writer = newNetQosWriter();
  ASSERT_TRUE(inNamespace([&] { read = writer->read(KernelTarget::kNetQosClass, "kq0/1:2"); }));
  EXPECT_EQ(read.valueOr(""), "rate=30000000 ceil=45000000") << read.status();

  // The same value again is the executor's cache; the kernel is not asked.
  ASSERT_TRUE(update("kq0/1:2", "rate=30000000 ceil=45000000").isOk());
  EXPECT_EQ(executor_->skippedWrites(), 1u);
}

TEST_F(RootNetQosTest, ROOT_RatesAbove32BitsOfBytesPerSecondAreExact) {
  const Status status = update("kq0/1:2", "rate=40000000000 ceil=80000000000");
  ASSERT_TRUE(status.isOk()) << status;
  // The bursts are 0b, as `tc class change` gives for these rates (under 1 us per burst).
  EXPECT_THAT(tcClasses(),
              HasSubstr("class htb 1:2 root prio 3 rate 40Gbit ceil 80Gbit burst 0b cburst 0b"));
  Result<std::string> read = Status::internal("not run");
  const std::unique_ptr<TargetWriter> writer = newNetQosWriter();
  ASSERT_TRUE(inNamespace([&] { read = writer->read(KernelTarget::kNetQosClass, "kq0/1:2"); }));
  EXPECT_EQ(read.valueOr(""), "rate=40000000000 ceil=80000000000") << read.status();
}

TEST_F(RootNetQosTest, ROOT_AMissingClassOrDeviceIsNotFoundAndNothingIsCreated) {
  const Status missing_class = update("kq0/1:9", "rate=1000000 ceil=1000000");
  EXPECT_EQ(missing_class.code(), StatusCode::kNotFound) << missing_class;
  EXPECT_THAT(missing_class.message(),
              HasSubstr("failed to write 'tc class 1:9 dev kq0': no class 1:9 on device 'kq0'"));
  std::cout << "missing class: " << missing_class << "\n";
  EXPECT_THAT(tcClasses(), Not(HasSubstr("1:9")));

  Status missing_device;
  const std::unique_ptr<TargetWriter> writer = newNetQosWriter();
  ASSERT_TRUE(inNamespace([&] {
    missing_device = writer->write(KernelTarget::kNetQosClass, "kq9/1:2", "rate=8 ceil=8");
  }));
  EXPECT_EQ(missing_device.code(), StatusCode::kNotFound) << missing_device;
  std::cout << "missing device: " << missing_device << "\n";
}

TEST_F(RootNetQosTest, ROOT_WithoutNetAdminTheKernelRefusesTheChange) {
  Status status;
  bool dropped = false;
  const std::unique_ptr<TargetWriter> writer = newNetQosWriter();
  ASSERT_TRUE(inNamespace([&] {
    dropped = dropNetAdmin();
    status = writer->write(KernelTarget::kNetQosClass, "kq0/1:2", "rate=8000 ceil=8000");
  }));
  ASSERT_TRUE(dropped) << std::strerror(errno);
  EXPECT_EQ(status.code(), StatusCode::kPermissionDenied) << status;
  EXPECT_THAT(status.message(), HasSubstr(std::strerror(EPERM)));
  std::cout << "without CAP_NET_ADMIN: " << status << "\n";
  EXPECT_THAT(tcClasses(), HasSubstr("rate 10Mbit ceil 20Mbit"));
}

}  // namespace
}  // namespace koord::agent::resourceexecutor
