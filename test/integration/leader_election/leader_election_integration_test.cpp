// Leader election against a real kube-apiserver (KOORD_TEST_KUBECONFIG): two leader_elector_main
// processes contend for one Lease; killing or stopping the leader hands leadership over.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "koord/k8s/client.hpp"
#include "koord/k8s/config.hpp"
#include "koord/k8s/errors.hpp"
#include "test/integration/support/test_cluster.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace koord::k8s {
namespace {

using itest::connectToTestCluster;
using itest::testKubeconfig;

using Time = std::chrono::steady_clock::time_point;
using std::chrono::duration;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A child process whose stdout lines are collected, each with the time it arrived. The destructor
// kills it (SIGKILL) if it still runs and reaps it.
class Child {
 public:
  explicit Child(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
      ADD_FAILURE() << "pipe2 failed";
      return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::vector<char*> argv;
    for (const auto& a : args) {
      argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
      ADD_FAILURE() << "posix_spawn " << args[0] << " failed: " << rc;
      pid_ = -1;
      close(fds[0]);
      return;
    }
    reader_ = std::thread([this, fd = fds[0]] { readLines(fd); });
  }

  ~Child() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      (void)wait();
    }
    if (reader_.joinable()) {
      reader_.join();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  void signal(int sig) const {
    if (pid_ > 0) {
      kill(pid_, sig);
    }
  }

  // The exit status (waitpid's), blocking until the child exits.
  int wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    reaped_ = true;
    return status;
  }

  // When `line` arrived, waiting up to `timeout` for it.
  std::optional<Time> waitForLine(const std::string& line, milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    std::optional<Time> seen;
    cv_.wait_for(lock, timeout, [&] {
      for (const auto& [text, at] : lines_) {
        if (text == line) {
          seen = at;
          return true;
        }
      }
      return eof_;
    });
    return seen;
  }

  std::string output() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string out;
    for (const auto& entry : lines_) {
      out += entry.first + "\n";
    }
    return out;
  }

 private:
  void readLines(int fd) {
    std::string partial;
    char buf[512];
    while (true) {
      const ssize_t n = read(fd, buf, sizeof(buf));
      if (n <= 0) {
        break;
      }
      const Time now = std::chrono::steady_clock::now();
      partial.append(buf, static_cast<size_t>(n));
      size_t pos = 0;
      while ((pos = partial.find('\n')) != std::string::npos) {
        {
          std::lock_guard<std::mutex> lock(mu_);
          lines_.emplace_back(partial.substr(0, pos), now);
        }
        cv_.notify_all();
        partial.erase(0, pos + 1);
      }
    }
    close(fd);
    {
      std::lock_guard<std::mutex> lock(mu_);
      eof_ = true;
    }
    cv_.notify_all();
  }

  pid_t pid_ = -1;
  bool reaped_ = false;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<std::string, Time>> lines_;
  bool eof_ = false;
};

struct Timings {
  double lease_s;
  double renew_s;
  double retry_s;
};

class LeaderElectionIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testKubeconfig() == nullptr) {
      GTEST_SKIP() << "KOORD_TEST_KUBECONFIG is not set";
    }
    client_ = connectToTestCluster();
    ASSERT_TRUE(client_);
    lease_ = "koord-le-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (auto& ch : lease_) {
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
  }

  void TearDown() override {
    candidates_.clear();  // kills whatever still runs
    if (client_) {
      (void)client_->remove(kLeases, kNamespace, lease_, {});
    }
  }

  Child& startCandidate(const std::string& identity, const Timings& t) {
    candidates_.push_back(std::make_unique<Child>(std::vector<std::string>{
        KOORD_LEADER_ELECTOR_MAIN, testKubeconfig(), kNamespace, lease_, identity,
        std::to_string(t.lease_s), std::to_string(t.renew_s), std::to_string(t.retry_s)}));
    return *candidates_.back();
  }

  // Starts candidates "a" and "b" and waits until one leads; returns {leader, follower} indexes.
  std::pair<int, int> startPair(const Timings& t) {
    startCandidate("a", t);
    startCandidate("b", t);
    const auto deadline = std::chrono::steady_clock::now() + seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      for (int i = 0; i < 2; ++i) {
        if (candidates_[static_cast<size_t>(i)]->waitForLine("LEADING " + name(i),
                                                             milliseconds(100))) {
          return {i, 1 - i};
        }
      }
    }
    ADD_FAILURE() << "nobody leads; a:\n"
                  << candidates_[0]->output() << "b:\n"
                  << candidates_[1]->output();
    return {-1, -1};
  }

  static std::string name(int i) { return i == 0 ? "a" : "b"; }

  Result<api::core::Lease> lease() {
    return getAs<api::core::Lease>(*client_, kLeases, kNamespace, lease_);
  }

  static constexpr const char* kNamespace = "default";
  std::unique_ptr<RestApiClient> client_;
  std::string lease_;
  std::vector<std::unique_ptr<Child>> candidates_;
};

double secondsBetween(Time from, Time to) {
  return duration<double>(to - from).count();
}

TEST_F(LeaderElectionIntegrationTest, FollowerTakesOverAfterLeaderIsKilled) {
  const Timings t{4, 3, 1};
  auto [leader, follower] = startPair(t);
  ASSERT_GE(leader, 0);
  Child& l = *candidates_[static_cast<size_t>(leader)];
  Child& f = *candidates_[static_cast<size_t>(follower)];

  // The follower sees the leader and does not lead while the leader renews (two lease durations).
  ASSERT_TRUE(f.waitForLine("NEW_LEADER " + name(leader), seconds(10))) << f.output();
  EXPECT_FALSE(f.waitForLine("LEADING " + name(follower), seconds(8))) << f.output();
  auto before = lease();
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(before->spec.holderIdentity.value_or(""), name(leader));
  EXPECT_EQ(before->spec.leaseDurationSeconds.value_or(0), 4);

  l.signal(SIGKILL);
  const Time killed = std::chrono::steady_clock::now();
  (void)l.wait();

  // The follower last saw the record change at most one jittered retry wait (2.2 s) after the
  // leader's last renewal, waits the lease duration from then, and notices at its next try (up to
  // another 2.2 s): 8.4 s at worst, plus 1 s for the API round trips.
  const auto took = f.waitForLine("LEADING " + name(follower), seconds(20));
  ASSERT_TRUE(took) << f.output();
  const double after = secondsBetween(killed, *took);
  EXPECT_LE(after, t.lease_s + 2 * 2.2 * t.retry_s + 1.0);
  // ...and not before the leader's last renewal (at most one retry period before the kill) had
  // aged a whole lease duration, minus one jittered wait of observation lag.
  EXPECT_GE(after, t.lease_s - 2.2 * t.retry_s - t.retry_s);
  auto now = lease();
  ASSERT_TRUE(now.ok()) << now.status();
  EXPECT_EQ(now->spec.holderIdentity.value_or(""), name(follower));
  EXPECT_EQ(now->spec.leaseTransitions.value_or(0), before->spec.leaseTransitions.value_or(0) + 1);
}

TEST_F(LeaderElectionIntegrationTest, CleanStopReleasesForTheFollower) {
  // A lease duration far above the retry period: a takeover within ~one retry period can only
  // come from the release, not from expiry.
  const Timings t{10, 3, 1};
  auto [leader, follower] = startPair(t);
  ASSERT_GE(leader, 0);
  Child& l = *candidates_[static_cast<size_t>(leader)];
  Child& f = *candidates_[static_cast<size_t>(follower)];
  ASSERT_TRUE(f.waitForLine("NEW_LEADER " + name(leader), seconds(10))) << f.output();

  const Time terminated = std::chrono::steady_clock::now();
  l.signal(SIGTERM);
  const auto stopped = l.waitForLine("STOPPED " + name(leader), seconds(10));
  ASSERT_TRUE(stopped) << l.output();
  EXPECT_TRUE(l.waitForLine("EXIT", seconds(10))) << l.output();
  const int status = l.wait();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;

  const auto took = f.waitForLine("LEADING " + name(follower), seconds(20));
  ASSERT_TRUE(took) << f.output();
  // The release is written before STOPPED is printed; the follower's next try (at most one
  // jittered retry wait, 2.2 s) takes it.
  EXPECT_LE(secondsBetween(*stopped, *took), 2.2 * t.retry_s + 0.8);
  EXPECT_LT(secondsBetween(terminated, *took), t.lease_s - t.retry_s);
  auto now = lease();
  ASSERT_TRUE(now.ok()) << now.status();
  EXPECT_EQ(now->spec.holderIdentity.value_or(""), name(follower));
}

}  // namespace
}  // namespace koord::k8s
