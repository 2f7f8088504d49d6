#include "manager/controller/manager.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/metrics/registry.hpp"
#include "test/mocks/k8s/mock_client.hpp"

namespace koord::manager::controller {
namespace {

using k8s::Json;
using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::_;
using ::testing::NiceMock;

constexpr char kNs[] = "koordinator-system";
constexpr char kName[] = "koord-manager";

template <class Pred>
bool within(Pred pred, std::chrono::milliseconds limit = seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(2));
  }
  return pred();
}

Status apiError(int code, const std::string& reason) {
  return k8s::apiErrorStatus(k8s::ApiError{code, reason, "injected", 0}, "PUT",
                             "/leases/koord-manager");
}

// An in-memory Lease behind a MockClient: get/create/update with resourceVersion checks, and a
// switch that makes every call fail (the API server unreachable).
class FakeLease {
 public:
  explicit FakeLease(NiceMock<k8s::testing::MockClient>& client) {
    ON_CALL(client, get(_, _, _))
        .WillByDefault([this](const k8s::GroupVersionResource&, const std::string&,
                              const std::string&) -> Result<Json> {
          std::lock_guard lock(mu_);
          if (fail_) {
            return apiError(503, "ServiceUnavailable");
          }
          if (!object_) {
            return apiError(404, "NotFound");
          }
          return *object_;
        });
    ON_CALL(client, create(_, _, _))
        .WillByDefault([this](const k8s::GroupVersionResource&, const std::string& ns,
                              const Json& object) -> Result<Json> {
          std::lock_guard lock(mu_);
          EXPECT_EQ(ns, kNs);
          if (fail_) {
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
        .WillByDefault([this](const k8s::GroupVersionResource&, const std::string&,
                              const Json& object) -> Result<Json> {
          std::lock_guard lock(mu_);
          if (fail_) {
            return apiError(503, "ServiceUnavailable");
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

  // Another replica holds the Lease (renewed now).
  void heldBy(const std::string& holder) {
    std::lock_guard lock(mu_);
    object_ =
        Json{{"apiVersion", "coordination.k8s.io/v1"},
             {"kind", "Lease"},
             {"metadata",
              {{"name", kName}, {"namespace", kNs}, {"resourceVersion", std::to_string(++rv_)}}},
             {"spec",
              {{"holderIdentity", holder},
               {"leaseDurationSeconds", 1},
               {"renewTime", "2030-01-01T00:00:00.000000Z"},
               {"leaseTransitions", 0}}}};
  }
  std::string holder() const {
    std::lock_guard lock(mu_);
    if (!object_) {
      return "<none>";
    }
    return object_->value("spec", Json::object()).value("holderIdentity", "");
  }
  void fail(bool on) {
    std::lock_guard lock(mu_);
    fail_ = on;
  }

 private:
  mutable std::mutex mu_;
  std::optional<Json> object_;
  int rv_ = 10;
  bool fail_ = false;
};

// A Runnable that records whether it runs and how often it started.
class Probe final : public Runnable {
 public:
  [[nodiscard]] std::string name() const override { return "probe"; }
  void run(std::stop_token stop) override {
    starts.fetch_add(1);
    running.store(true);
    while (!stop.stop_requested()) {
      std::this_thread::sleep_for(milliseconds(1));
    }
    running.store(false);
  }
  std::atomic<int> starts{0};
  std::atomic<bool> running{false};
};

// Short real durations: lease 1 s, renew deadline 400 ms, retry 100 ms.
ManagerOptions shortOptions(const std::string& identity, metrics::MetricsRegistry* registry) {
  ManagerOptions o;
  o.election.identity = identity;
  o.election.lease_duration = seconds(1);
  o.election.renew_deadline = milliseconds(400);
  o.election.retry_period = milliseconds(100);
  o.metrics = registry;
  return o;
}

double leaderGauge(const metrics::MetricsRegistry& registry) {
  const std::string text = registry.serialize();
  const size_t at = text.find("\nkoord_manager_leader ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + 22));
}

TEST(ManagerTest, CreateRejectsBadDurationsNamingThem) {
  NiceMock<k8s::testing::MockClient> client;
  ManagerOptions o;
  o.election.renew_deadline = seconds(20);  // longer than the lease
  auto m = Manager::create(client, o);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("lease_duration"), std::string::npos) << m.status().message();
}

TEST(ManagerTest, AddRejectsDuplicatesAndLateAdds) {
  NiceMock<k8s::testing::MockClient> client;
  ManagerOptions o;
  o.election.leader_elect = false;
  auto m = Manager::create(client, o);
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE((*m)->add(std::make_shared<Probe>()).isOk());
  EXPECT_FALSE((*m)->add(std::make_shared<Probe>()).isOk());
  (*m)->start();
  auto late = std::make_shared<Probe>();
  EXPECT_FALSE((*m)->add(std::shared_ptr<Runnable>(late)).isOk());
  (*m)->stop();
}

TEST(ManagerTest, WithoutLeaderElectionRunnablesRunAtOnceUntilStop) {
  NiceMock<k8s::testing::MockClient> client;
  EXPECT_CALL(client, get(_, _, _)).Times(0);
  metrics::MetricsRegistry registry;
  ManagerOptions o;
  o.election.leader_elect = false;
  o.metrics = &registry;
  auto m = Manager::create(client, o);
  ASSERT_TRUE(m.ok());
  auto probe = std::make_shared<Probe>();
  ASSERT_TRUE((*m)->add(probe).isOk());
  EXPECT_EQ(leaderGauge(registry), 0);
  (*m)->start();
  ASSERT_TRUE(within([&] { return probe->running.load(); }));
  EXPECT_TRUE((*m)->isLeader());
  EXPECT_EQ(leaderGauge(registry), 1);
  (*m)->stop();
  EXPECT_FALSE(probe->running.load());
  EXPECT_FALSE((*m)->isLeader());
  EXPECT_EQ(leaderGauge(registry), 0);
}

// The controllers run only while the Lease is ours: not while another replica holds it, from the
// takeover on, not after renewals fail past the renew deadline, again once the API server is
// back, and the Lease is released on stop().
TEST(ManagerTest, RunnablesRunOnlyWhileLeading) {
  NiceMock<k8s::testing::MockClient> client;
  FakeLease lease(client);
  lease.heldBy("other");
  metrics::MetricsRegistry registry;
  auto m = Manager::create(client, shortOptions("me", &registry));
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto probe = std::make_shared<Probe>();
  ASSERT_TRUE((*m)->add(probe).isOk());
  (*m)->start();

  // "other" holds a 1 s Lease: for the first 500 ms nothing runs here.
  ASSERT_TRUE(within([&] { return (*m)->leader() == "other"; }));
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_FALSE(probe->running.load());
  EXPECT_FALSE((*m)->isLeader());
  EXPECT_EQ(leaderGauge(registry), 0);

  // "other" stopped renewing: taken over once the lease duration passed.
  ASSERT_TRUE(within([&] { return probe->running.load(); }, seconds(5)));
  EXPECT_TRUE((*m)->isLeader());
  EXPECT_EQ(lease.holder(), "me");
  EXPECT_EQ(leaderGauge(registry), 1);
  EXPECT_EQ(probe->starts.load(), 1);

  // Renewals fail: the controllers stop within the renew deadline (400 ms, and a retry).
  lease.fail(true);
  // (The probe returns first; the manager reports the end of the term once every runnable has.)
  ASSERT_TRUE(within([&] { return !probe->running.load() && !(*m)->isLeader(); }, seconds(3)));
  EXPECT_EQ(leaderGauge(registry), 0);

  // The API server is back: the replica campaigns again and leads a second term.
  lease.fail(false);
  ASSERT_TRUE(within([&] { return probe->running.load(); }, seconds(5)));
  EXPECT_EQ(probe->starts.load(), 2);
  EXPECT_EQ((*m)->leadTerms(), 2);

  // stop(): the controllers stop, then the Lease is released (an empty holder).
  (*m)->stop();
  EXPECT_FALSE(probe->running.load());
  EXPECT_FALSE((*m)->isLeader());
  EXPECT_EQ(lease.holder(), "");
  EXPECT_EQ(leaderGauge(registry), 0);
}

// Two managers over one Lease: exactly one runs its controllers; when it stops (releasing the
// Lease) the other takes over.
TEST(ManagerTest, OfTwoReplicasOneLeadsAndTheOtherTakesOverOnRelease) {
  NiceMock<k8s::testing::MockClient> client;
  FakeLease lease(client);
  auto a = Manager::create(client, shortOptions("a", nullptr));
  auto b = Manager::create(client, shortOptions("b", nullptr));
  ASSERT_TRUE(a.ok() && b.ok());
  auto pa = std::make_shared<Probe>();
  auto pb = std::make_shared<Probe>();
  ASSERT_TRUE((*a)->add(pa).isOk());
  ASSERT_TRUE((*b)->add(pb).isOk());
  (*a)->start();
  ASSERT_TRUE(within([&] { return pa->running.load(); }));
  (*b)->start();
  ASSERT_TRUE(within([&] { return (*b)->leader() == "a"; }));
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_FALSE(pb->running.load());
  (*a)->stop();
  EXPECT_FALSE(pa->running.load());
  ASSERT_TRUE(within([&] { return pb->running.load(); }, seconds(3)));
  EXPECT_EQ(lease.holder(), "b");
  (*b)->stop();
}

TEST(ManagerTest, ControllersAreRunnables) {
  NiceMock<k8s::testing::MockClient> client;
  ManagerOptions o;
  o.election.leader_elect = false;
  auto m = Manager::create(client, o);
  ASSERT_TRUE(m.ok());
  std::atomic<int> calls{0};
  ControllerOptions co;
  co.name = "nodes";
  co.reconcile = [&calls](std::stop_token, const std::string&) -> Result<ReconcileResult> {
    calls.fetch_add(1);
    return ReconcileResult::done();
  };
  auto c = Controller::create(co);
  ASSERT_TRUE(c.ok());
  (*c)->enqueue("node-1");  // before leading: kept for the first run
  ASSERT_TRUE((*m)->add(*c).isOk());
  (*m)->start();
  ASSERT_TRUE(within([&] { return calls.load() == 1; }));
  EXPECT_TRUE((*c)->running());
  (*m)->stop();
  EXPECT_FALSE((*c)->running());
}

}  // namespace
}  // namespace koord::manager::controller
