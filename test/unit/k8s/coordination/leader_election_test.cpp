#include "koord/k8s/leader_election.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "koord/k8s/errors.hpp"
#include "mocks/k8s/mock_client.hpp"

namespace koord::k8s {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::_;
using ::testing::NiceMock;

constexpr char kNs[] = "koord-system";
constexpr char kName[] = "koord-manager";
constexpr char kMe[] = "me";

Status apiError(int code, const std::string& reason) {
  return apiErrorStatus(ApiError{code, reason, "injected", 0}, "PUT", "/leases/koord-manager");
}

// An in-memory Lease endpoint behind a MockClient: get/create/update with resourceVersion checks
// (a stale update is a Conflict), and switches to make calls fail.
class FakeLeaseApi {
 public:
  explicit FakeLeaseApi(NiceMock<testing::MockClient>& client) {
    ON_CALL(client, get(_, _, _))
        .WillByDefault([this](const GroupVersionResource& gvr, const std::string& ns,
                              const std::string& name) -> Result<Json> {
          std::lock_guard<std::mutex> lock(mu_);
          EXPECT_EQ(gvr, kLeases);
          EXPECT_EQ(ns, kNs);
          EXPECT_EQ(name, kName);
          ++gets_;
          if (fail_all_) {
            return apiError(503, "ServiceUnavailable");
          }
          if (!object_) {
            return apiError(404, "NotFound");
          }
          return *object_;
        });
    ON_CALL(client, create(_, _, _))
        .WillByDefault([this](const GroupVersionResource& gvr, const std::string& ns,
                              const Json& object) -> Result<Json> {
          std::lock_guard<std::mutex> lock(mu_);
          EXPECT_EQ(gvr, kLeases);
          EXPECT_EQ(ns, kNs);
          ++creates_;
          if (fail_all_) {
            return apiError(503, "ServiceUnavailable");
          }
          if (object_) {
            return apiError(409, "AlreadyExists");
          }
          object_ = object;
          (*object_)["metadata"]["resourceVersion"] = std::to_string(++rv_);
          return *object_;
        });
    ON_CALL(client, update(_, _, _))
        .WillByDefault([this](const GroupVersionResource& gvr, const std::string& ns,
                              const Json& object) -> Result<Json> {
          std::lock_guard<std::mutex> lock(mu_);
          EXPECT_EQ(gvr, kLeases);
          EXPECT_EQ(ns, kNs);
          ++updates_;
          if (fail_all_) {
            return apiError(503, "ServiceUnavailable");
          }
          if (steal_on_next_update_) {
            steal_on_next_update_ = false;
            setSpecLocked({{"holderIdentity", "thief"},
                           {"leaseDurationSeconds", 15},
                           {"renewTime", "2030-01-01T00:00:00.000000Z"},
                           {"leaseTransitions", 7}});
          }
          if (!object_) {
            return apiError(404, "NotFound");
          }
          if (object.at("metadata").value("resourceVersion", "") !=
              (*object_)["metadata"]["resourceVersion"].get<std::string>()) {
            return apiError(409, "Conflict");
          }
          object_ = object;
          (*object_)["metadata"]["resourceVersion"] = std::to_string(++rv_);
          return *object_;
        });
  }

  // Puts a Lease with `spec` in place (as another client would), with a new resourceVersion.
  void setSpec(const Json& spec) {
    std::lock_guard<std::mutex> lock(mu_);
    setSpecLocked(spec);
  }
  std::optional<Json> spec() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (!object_) {
      return std::nullopt;
    }
    return object_->value("spec", Json::object());
  }
  void failAll(bool fail) {
    std::lock_guard<std::mutex> lock(mu_);
    fail_all_ = fail;
  }
  void stealOnNextUpdate() {
    std::lock_guard<std::mutex> lock(mu_);
    steal_on_next_update_ = true;
  }
  int writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return creates_ + updates_;
  }
  int calls() const {
    std::lock_guard<std::mutex> lock(mu_);
    return gets_ + creates_ + updates_;
  }

 private:
  void setSpecLocked(const Json& spec) {
    object_ = Json{{"apiVersion", "coordination.k8s.io/v1"},
                   {"kind", "Lease"},
                   {"metadata",
                    {{"name", kName},
                     {"namespace", kNs},
                     {"resourceVersion", std::to_string(++rv_)},
                     {"uid", "u-1"}}},
                   {"spec", spec}};
  }

  mutable std::mutex mu_;
  std::optional<Json> object_;
  int rv_ = 100;
  int gets_ = 0;
  int creates_ = 0;
  int updates_ = 0;
  bool fail_all_ = false;
  bool steal_on_next_update_ = false;
};

// A Clock over a FakeClock that tells the test when the elector is parked in a wait that the
// next advance() has to end, so each step moves time exactly once per wait.
class SteppedClock final : public Clock {
 public:
  [[nodiscard]] TimePoint now() const override { return fake_.now(); }
  bool waitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                 TimePoint deadline, const std::function<bool()>& pred) const override {
    deadline_ns_ = deadline.time_since_epoch().count();
    ++entered_;
    return fake_.waitUntil(lock, cv, deadline, pred);
  }

  // Spins until the waiting thread is blocked in a wait: a new one since the last advance(), or
  // the same one when its deadline is still ahead; or until `done` turns true.
  void settle(const std::atomic<bool>& done) const {
    while (!done) {
      if (fake_.waiterCount() >= 1 && (entered_ > entered_at_advance_ ||
                                       fake_.now().time_since_epoch().count() < deadline_ns_)) {
        return;
      }
      std::this_thread::yield();
    }
  }
  void advance(Duration d) {
    entered_at_advance_ = entered_.load();
    fake_.advance(d);
  }

 private:
  FakeClock fake_;
  mutable std::atomic<int64_t> deadline_ns_{0};
  mutable std::atomic<int> entered_{0};
  int entered_at_advance_ = 0;
};

// What the callbacks saw, with a way to wait for it on real time (the elector runs on its own
// thread; waiting here is for that thread, not for elapsed time).
struct Observed {
  std::mutex mu;
  std::condition_variable cv;
  int started = 0;
  int stopped = 0;
  bool leading_thread_saw_stop = false;
  std::vector<std::string> new_leaders;

  template <typename Pred>
  bool waitFor(Pred pred) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, seconds(20), pred);
  }
};

class LeaderElectionTest : public ::testing::Test {
 protected:
  LeaderElectionTest() : api_(client_) {}

  ~LeaderElectionTest() override {
    if (elector_) {
      elector_->stop();
    }
    if (runner_.joinable()) {
      runner_.join();
    }
  }

  LeaderElectionConfig config() {
    LeaderElectionConfig c;
    c.lease_namespace = kNs;
    c.lease_name = kName;
    c.identity = kMe;
    c.clock = &clock_;
    const auto start = clock_.now();
    c.wall_clock = [this, start] {
      return std::chrono::system_clock::time_point(seconds(1700000000)) +
             std::chrono::duration_cast<std::chrono::system_clock::duration>(clock_.now() - start);
    };
    c.on_started_leading = [this](std::stop_token token) {
      {
        std::lock_guard<std::mutex> lock(seen_.mu);
        ++seen_.started;
      }
      seen_.cv.notify_all();
      std::mutex mu;
      std::condition_variable_any cv;
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, token, [] { return false; });
      std::lock_guard<std::mutex> seen_lock(seen_.mu);
      seen_.leading_thread_saw_stop = true;
    };
    c.on_stopped_leading = [this] {
      {
        std::lock_guard<std::mutex> lock(seen_.mu);
        ++seen_.stopped;
      }
      seen_.cv.notify_all();
    };
    c.on_new_leader = [this](const std::string& id) {
      {
        std::lock_guard<std::mutex> lock(seen_.mu);
        seen_.new_leaders.push_back(id);
      }
      seen_.cv.notify_all();
    };
    return c;
  }

  void start(LeaderElectionConfig c) {
    auto created = LeaderElector::create(client_, std::move(c));
    ASSERT_TRUE(created.ok()) << created.status();
    elector_ = std::move(created).value();
    runner_ = std::thread([this] {
      elector_->run();
      finished_ = true;
    });
  }

  // Lets the elector reach its next wait (between two tries).
  void settle() { clock_.settle(finished_); }

  // Lets the elector reach its next wait, then moves time by `d`.
  void step(Clock::Duration d) {
    settle();
    clock_.advance(d);
  }

  bool waitStarted() {
    return seen_.waitFor([this] { return seen_.started > 0; });
  }
  void stopAndJoin() {
    elector_->stop();
    runner_.join();
  }

  SteppedClock clock_;
  NiceMock<testing::MockClient> client_;
  FakeLeaseApi api_;
  Observed seen_;
  std::unique_ptr<LeaderElector> elector_;
  std::thread runner_;
  std::atomic<bool> finished_{false};
};

TEST_F(LeaderElectionTest, CreatesMissingLeaseAndReleasesOnStop) {
  start(config());
  ASSERT_TRUE(waitStarted());
  EXPECT_TRUE(elector_->isLeader());
  EXPECT_EQ(elector_->leader(), kMe);
  auto spec = api_.spec();
  ASSERT_TRUE(spec);
  EXPECT_EQ((*spec)["holderIdentity"], kMe);
  EXPECT_EQ((*spec)["leaseDurationSeconds"], 15);
  EXPECT_EQ((*spec)["leaseTransitions"], 0);
  EXPECT_EQ((*spec)["acquireTime"], "2023-11-14T22:13:20.000000Z");
  EXPECT_EQ((*spec)["renewTime"], (*spec)["acquireTime"]);

  stopAndJoin();
  EXPECT_FALSE(elector_->isLeader());
  spec = api_.spec();
  EXPECT_EQ((*spec)["holderIdentity"], "");
  EXPECT_EQ((*spec)["leaseDurationSeconds"], 1);
  EXPECT_EQ((*spec)["leaseTransitions"], 0);
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_EQ(seen_.started, 1);
  EXPECT_EQ(seen_.stopped, 1);
  EXPECT_TRUE(seen_.leading_thread_saw_stop);
  EXPECT_EQ(seen_.new_leaders, std::vector<std::string>{kMe});
}

TEST_F(LeaderElectionTest, StopWithoutReleaseKeepsHolder) {
  auto c = config();
  c.release_on_cancel = false;
  start(std::move(c));
  ASSERT_TRUE(waitStarted());
  settle();
  const int writes = api_.writes();
  stopAndJoin();
  EXPECT_EQ(api_.writes(), writes);
  EXPECT_EQ((*api_.spec())["holderIdentity"], kMe);
}

TEST_F(LeaderElectionTest, StopBeforeRunMakesNoCalls) {
  auto created = LeaderElector::create(client_, config());
  ASSERT_TRUE(created.ok());
  (*created)->stop();
  (*created)->run();
  EXPECT_EQ(api_.calls(), 0);
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_EQ(seen_.stopped, 0);
}

struct ExistingLeaseCase {
  std::string name;
  Json spec;
  // How long after the first observation the elector must still be a follower (0: none).
  Clock::Duration follower_for;
  int want_transitions;
  std::string want_acquire_time;  // "" : the time it took over
};

class ExistingLeaseTest : public LeaderElectionTest,
                          public ::testing::WithParamInterface<ExistingLeaseCase> {};

TEST_P(ExistingLeaseTest, TakesOverOnlyWhenFreeOrExpired) {
  const auto& tc = GetParam();
  api_.setSpec(tc.spec);
  start(config());
  const auto t0 = clock_.now();
  while (clock_.now() - t0 < tc.follower_for) {
    step(milliseconds(500));
    EXPECT_FALSE(elector_->isLeader()) << "at +" << (clock_.now() - t0).count();
    {
      std::lock_guard<std::mutex> lock(seen_.mu);
      ASSERT_EQ(seen_.started, 0);
    }
  }
  // Past the expiry, the next try (at most 2.2 retry periods away) takes it.
  for (int i = 0; i < 20 && !elector_->isLeader(); ++i) {
    step(milliseconds(500));
  }
  ASSERT_TRUE(waitStarted());
  EXPECT_LE(clock_.now() - t0, tc.follower_for + seconds(6));
  auto spec = *api_.spec();
  EXPECT_EQ(spec["holderIdentity"], kMe);
  EXPECT_EQ(spec["leaseDurationSeconds"], 15);
  EXPECT_EQ(spec["leaseTransitions"], tc.want_transitions);
  if (!tc.want_acquire_time.empty()) {
    EXPECT_EQ(spec["acquireTime"], tc.want_acquire_time);
  } else {
    EXPECT_EQ(spec["acquireTime"], spec["renewTime"]);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExistingLeaseTest,
    ::testing::Values(
        // Held by another whose record never changes again: taken after its 15s, counted from
        // when this candidate first saw it (the remote renewTime, long past, is not trusted).
        ExistingLeaseCase{"ExpiredHeldByOther",
                          {{"holderIdentity", "other"},
                           {"leaseDurationSeconds", 15},
                           {"acquireTime", "2020-01-01T00:00:00.000000Z"},
                           {"renewTime", "2020-01-01T00:00:00.000000Z"},
                           {"leaseTransitions", 3}},
                          seconds(14),
                          4,
                          ""},
        // The record's own duration counts, not this candidate's config.
        ExistingLeaseCase{"ShortLeaseOfOther",
                          {{"holderIdentity", "other"},
                           {"leaseDurationSeconds", 5},
                           {"renewTime", "2020-01-01T00:00:00.000000Z"},
                           {"leaseTransitions", 1}},
                          seconds(4),
                          2,
                          ""},
        ExistingLeaseCase{"Released",
                          {{"holderIdentity", ""},
                           {"leaseDurationSeconds", 1},
                           {"renewTime", "2020-01-01T00:00:00.000000Z"},
                           {"leaseTransitions", 5}},
                          seconds(0),
                          6,
                          ""},
        ExistingLeaseCase{"NoSpecFields", Json::object(), seconds(0), 1, ""},
        // Held by this identity (a restart): kept at once, no transition.
        ExistingLeaseCase{"HeldByMe",
                          {{"holderIdentity", kMe},
                           {"leaseDurationSeconds", 15},
                           {"acquireTime", "2020-01-01T00:00:00.000000Z"},
                           {"renewTime", "2020-01-01T00:00:10.000000Z"},
                           {"leaseTransitions", 2}},
                          seconds(0),
                          2,
                          "2020-01-01T00:00:00.000000Z"}),
    [](const ::testing::TestParamInfo<ExistingLeaseCase>& param_info) {
      return param_info.param.name;
    });

TEST_F(LeaderElectionTest, DoesNotTakeLeaseThatKeepsBeingRenewed) {
  Json spec = {{"holderIdentity", "other"}, {"leaseDurationSeconds", 15}, {"leaseTransitions", 0}};
  api_.setSpec(spec);
  start(config());
  for (int i = 0; i < 120; ++i) {  // 60 s, four lease durations
    step(milliseconds(500));
    char renew_time[40];
    std::snprintf(renew_time, sizeof(renew_time), "2020-01-01T00:00:00.%06dZ", i);
    spec["renewTime"] = renew_time;
    api_.setSpec(spec);
  }
  EXPECT_FALSE(elector_->isLeader());
  EXPECT_EQ(elector_->leader(), "other");
  EXPECT_EQ((*api_.spec())["holderIdentity"], "other");
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_EQ(seen_.started, 0);
  EXPECT_EQ(seen_.new_leaders, std::vector<std::string>{"other"});
}

TEST_F(LeaderElectionTest, ConflictOnTakeOverMeansNotLeader) {
  api_.setSpec({{"holderIdentity", ""}, {"leaseDurationSeconds", 1}, {"leaseTransitions", 6}});
  api_.stealOnNextUpdate();
  start(config());
  settle();  // the first try has failed and the elector waits to retry
  EXPECT_FALSE(elector_->isLeader());
  EXPECT_EQ((*api_.spec())["holderIdentity"], "thief");
  // The next try sees the thief's fresh record and stays a follower.
  for (int i = 0; i < 10; ++i) {
    step(seconds(1));
  }
  EXPECT_FALSE(elector_->isLeader());
  EXPECT_EQ(elector_->leader(), "thief");
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_EQ(seen_.started, 0);
  EXPECT_EQ(seen_.new_leaders, std::vector<std::string>{"thief"});
}

TEST_F(LeaderElectionTest, RenewsEveryRetryPeriod) {
  start(config());
  ASSERT_TRUE(waitStarted());
  settle();
  for (int i = 1; i <= 5; ++i) {
    const int writes = api_.writes();
    step(seconds(2));
    settle();
    EXPECT_EQ(api_.writes(), writes + 1) << "renewal " << i;
    auto spec = *api_.spec();
    EXPECT_EQ(spec["holderIdentity"], kMe);
    EXPECT_EQ(spec["acquireTime"], "2023-11-14T22:13:20.000000Z");
    EXPECT_EQ(spec["renewTime"], "2023-11-14T22:13:" + std::to_string(20 + 2 * i) + ".000000Z");
    EXPECT_EQ(spec["leaseTransitions"], 0);
    EXPECT_TRUE(elector_->isLeader());
  }
}

TEST_F(LeaderElectionTest, StepsDownWhenRenewalsFailPastDeadline) {
  start(config());
  ASSERT_TRUE(waitStarted());
  settle();  // past the first renewal, which follows the acquire at once
  api_.failAll(true);
  const auto t0 = clock_.now();
  // The renewal due at +2s fails; it is retried every 2s until +2s + renewDeadline (10s).
  while (clock_.now() - t0 < seconds(11)) {
    step(seconds(1));
    EXPECT_TRUE(elector_->isLeader());
  }
  step(seconds(1));
  ASSERT_TRUE(seen_.waitFor([this] { return seen_.stopped > 0; }));
  runner_.join();
  EXPECT_FALSE(elector_->isLeader());
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_TRUE(seen_.leading_thread_saw_stop);
  EXPECT_EQ(seen_.stopped, 1);
  api_.failAll(false);
  EXPECT_EQ((*api_.spec())["holderIdentity"], kMe);  // lost, not released
}

TEST_F(LeaderElectionTest, RenewalRecoveringBeforeDeadlineKeepsLeading) {
  start(config());
  ASSERT_TRUE(waitStarted());
  settle();  // past the first renewal, which follows the acquire at once
  api_.failAll(true);
  for (int i = 0; i < 8; ++i) {
    step(seconds(1));
  }
  api_.failAll(false);
  for (int i = 0; i < 20; ++i) {
    step(seconds(1));
  }
  EXPECT_TRUE(elector_->isLeader());
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_EQ(seen_.stopped, 0);
}

TEST_F(LeaderElectionTest, NewLeaderReportedOnEachHolderChange) {
  api_.setSpec({{"holderIdentity", "a"}, {"leaseDurationSeconds", 15}, {"leaseTransitions", 0}});
  start(config());
  step(seconds(1));
  api_.setSpec({{"holderIdentity", "b"}, {"leaseDurationSeconds", 15}, {"leaseTransitions", 1}});
  for (int i = 0; i < 6; ++i) {
    step(seconds(1));
  }
  EXPECT_EQ(elector_->leader(), "b");
  // b stops renewing; after its 15s this elector takes over.
  for (int i = 0; i < 30 && !elector_->isLeader(); ++i) {
    step(seconds(1));
  }
  ASSERT_TRUE(waitStarted());
  EXPECT_EQ((*api_.spec())["leaseTransitions"], 2);
  std::lock_guard<std::mutex> lock(seen_.mu);
  EXPECT_EQ(seen_.new_leaders, (std::vector<std::string>{"a", "b", kMe}));
}

struct InvalidConfigCase {
  std::string name;
  std::function<void(LeaderElectionConfig&)> mutate;
  std::vector<std::string> want_in_message;
};

class InvalidConfigTest : public ::testing::TestWithParam<InvalidConfigCase> {};

TEST_P(InvalidConfigTest, RejectedNamingTheField) {
  NiceMock<testing::MockClient> client;
  LeaderElectionConfig c;
  c.lease_namespace = kNs;
  c.lease_name = kName;
  c.identity = kMe;
  GetParam().mutate(c);
  auto created = LeaderElector::create(client, c);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::kInvalidArgument);
  for (const auto& want : GetParam().want_in_message) {
    EXPECT_THAT(created.status().message(), ::testing::HasSubstr(want));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InvalidConfigTest,
    ::testing::Values(
        InvalidConfigCase{"EmptyIdentity",
                          [](LeaderElectionConfig& c) { c.identity.clear(); },
                          {"identity: must not be empty"}},
        InvalidConfigCase{"EmptyNameAndNamespace",
                          [](LeaderElectionConfig& c) {
                            c.lease_name.clear();
                            c.lease_namespace.clear();
                          },
                          {"lease_name: must not be empty", "lease_namespace: must not be empty"}},
        InvalidConfigCase{"LeaseNotLongerThanRenew",
                          [](LeaderElectionConfig& c) { c.renew_deadline = seconds(15); },
                          {"lease_duration: must be greater than renew_deadline"}},
        InvalidConfigCase{"RenewNotLongerThanJitteredRetry",
                          [](LeaderElectionConfig& c) {
                            c.renew_deadline = milliseconds(2400);
                            c.retry_period = seconds(2);
                          },
                          {"renew_deadline: must be greater than retry_period * 1.2"}},
        InvalidConfigCase{"ZeroRetry",
                          [](LeaderElectionConfig& c) { c.retry_period = milliseconds(0); },
                          {"retry_period: must be greater than zero"}},
        InvalidConfigCase{"SubSecondLease",
                          [](LeaderElectionConfig& c) {
                            c.lease_duration = milliseconds(900);
                            c.renew_deadline = milliseconds(800);
                            c.retry_period = milliseconds(100);
                          },
                          {"lease_duration: must be at least 1s"}}),
    [](const ::testing::TestParamInfo<InvalidConfigCase>& param_info) {
      return param_info.param.name;
    });

TEST(FormatMicroTimeTest, MatchesGoLayout) {
  using std::chrono::microseconds;
  const std::chrono::system_clock::time_point epoch;
  EXPECT_EQ(formatMicroTime(epoch), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(formatMicroTime(epoch + seconds(1700000000) + microseconds(42)),
            "2023-11-14T22:13:20.000042Z");
  EXPECT_EQ(formatMicroTime(epoch + seconds(1700000000) + milliseconds(999) + microseconds(999)),
            "2023-11-14T22:13:20.999999Z");
}

}  // namespace
}  // namespace koord::k8s
