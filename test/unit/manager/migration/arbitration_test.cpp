#include "manager/descheduler/migration/arbitration.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "test/unit/manager/migration/fixture.hpp"

namespace koord::manager::descheduler::migration {
namespace {

using testing::JobOptions;
using testing::makeJob;
using testing::makePod;
using testing::PodSpecOptions;
using testing::t0;
namespace core = api::core;
namespace sched = api::scheduling;

class FakeSnapshot : public ArbitrationSnapshot {
 public:
  std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs() const override { return jobs_; }
  std::shared_ptr<const core::Pod> pod(const std::string& ns,
                                       const std::string& name) const override {
    auto it = pods_.find(ns + "/" + name);
    return it == pods_.end() ? nullptr : it->second;
  }
  std::optional<Workload> workload(const std::string&,
                                   const core::OwnerReference& controller) const override {
    auto it = replicas_.find(controller.uid);
    if (it == replicas_.end()) {
      return std::nullopt;
    }
    Workload w;
    w.expected_replicas = it->second;
    for (const auto& [key, p] : pods_) {
      const core::OwnerReference* c = core::controllerOf(p->metadata);
      if (c != nullptr && c->uid == controller.uid) {
        w.pods.push_back(p);
      }
    }
    return w;
  }

  void addPod(const core::Pod& pod) {
    pods_[pod.metadata.namespace_ + "/" + pod.metadata.name] = std::make_shared<core::Pod>(pod);
  }
  void addJob(const sched::PodMigrationJob& job) {
    jobs_.push_back(std::make_shared<sched::PodMigrationJob>(job));
  }
  void setReplicas(const std::string& controller_uid, int64_t replicas) {
    replicas_[controller_uid] = replicas;
  }
  // A pod on `node` with a job in `phase` ("Running", or "Pending" + passed).
  void addMigrating(const std::string& name, const PodSpecOptions& o, bool running = true,
                    const std::string& ns = "default") {
    addPod(makePod(ns, name, o));
    JobOptions jo;
    jo.phase = running ? "Running" : "Pending";
    jo.passed = !running;
    addJob(makeJob("job-" + name, ns, name, jo));
  }

 private:
  std::vector<std::shared_ptr<const sched::PodMigrationJob>> jobs_;
  std::map<std::string, std::shared_ptr<const core::Pod>> pods_;
  std::map<std::string, int64_t> replicas_;
};

PodSpecOptions onNode(const std::string& node, const std::string& controller = "") {
  PodSpecOptions o;
  o.node = node;
  o.controller_uid = controller;
  return o;
}

// The verdict of the job named `name`.
const Arbitration* find(const std::vector<Arbitration>& out, const std::string& name) {
  for (const Arbitration& a : out) {
    if (a.job->metadata.name == name) {
      return &a;
    }
  }
  return nullptr;
}

Verdict verdictOf(const std::vector<Arbitration>& out, const std::string& name) {
  const Arbitration* a = find(out, name);
  EXPECT_NE(a, nullptr) << name << " was not judged";
  return a == nullptr ? Verdict::kPass : a->verdict;
}

class ArbitrationTest : public ::testing::Test {
 protected:
  // A pending job "job-<pod>" for a new pod.
  void addCandidate(const std::string& pod, const PodSpecOptions& o,
                    const JobOptions& jo = JobOptions(), const std::string& ns = "default") {
    snapshot_.addPod(makePod(ns, pod, o));
    snapshot_.addJob(makeJob("job-" + pod, ns, pod, jo));
  }
  std::vector<Arbitration> run() { return arbitrate(snapshot_, args_); }

  FakeSnapshot snapshot_;
  config::MigrationControllerArgs args_;
};

TEST_F(ArbitrationTest, OldestJobGoesFirstAndAPassCountsForTheJobsAfterIt) {
  args_.max_migrating_globally = 1;
  JobOptions newer;
  newer.created = t0() + std::chrono::minutes(2);
  JobOptions older;
  older.created = t0();
  JobOptions middle;
  middle.created = t0() + std::chrono::minutes(1);
  addCandidate("c", onNode("n1"), newer);
  addCandidate("a", onNode("n2"), older);
  addCandidate("b", onNode("n3"), middle);

  const std::vector<Arbitration> out = run();
  ASSERT_EQ(out.size(), 3U);
  EXPECT_EQ(out[0].job->metadata.name, "job-a");
  EXPECT_EQ(out[1].job->metadata.name, "job-b");
  EXPECT_EQ(out[2].job->metadata.name, "job-c");
  EXPECT_EQ(out[0].verdict, Verdict::kPass);
  EXPECT_EQ(out[1].verdict, Verdict::kRetry);
  EXPECT_NE(out[1].reason.find("maxMigratingGlobally 1"), std::string::npos) << out[1].reason;
  EXPECT_EQ(out[2].verdict, Verdict::kRetry);
}

TEST_F(ArbitrationTest, GlobalLimitOfZeroIsOff) {
  args_.max_migrating_globally = 0;
  snapshot_.addMigrating("x", onNode("n1"));
  addCandidate("p", onNode("n2"));
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);
}

TEST_F(ArbitrationTest, MaxMigratingPerNodeDefaultsToTwo) {
  snapshot_.addMigrating("x", onNode("node-a"));
  snapshot_.addMigrating("y", onNode("node-a"), /*running=*/false);  // Pending, passed
  addCandidate("p", onNode("node-a"));
  addCandidate("q", onNode("node-b"));

  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kRetry);
  EXPECT_NE(find(out, "job-p")->reason.find("node \"node-a\""), std::string::npos);
  EXPECT_EQ(verdictOf(out, "job-q"), Verdict::kPass);
}

TEST_F(ArbitrationTest, PendingJobsThatHaveNotPassedDoNotCount) {
  args_.max_migrating_per_node = 1;
  snapshot_.addPod(makePod("default", "x", onNode("node-a")));
  JobOptions paused;
  paused.paused = true;  // pending, never judged, never counted
  snapshot_.addJob(makeJob("job-x", "default", "x", paused));
  addCandidate("p", onNode("node-a"));
  const auto out = run();
  EXPECT_EQ(find(out, "job-x"), nullptr);
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kPass);
}

TEST_F(ArbitrationTest, SkippedGateLiftsItsLimit) {
  args_.max_migrating_per_node = 1;
  args_.skip_eviction_gates = {std::string(kGateMaxMigratingPerNode)};
  snapshot_.addMigrating("x", onNode("node-a"));
  addCandidate("p", onNode("node-a"));
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);
}

TEST_F(ArbitrationTest, EvictAnnotationBypassesTheRetryableLimits) {
  args_.max_migrating_per_node = 1;
  snapshot_.addMigrating("x", onNode("node-a"));
  core::Pod pod = makePod("default", "p", onNode("node-a"));
  pod.metadata.annotations["descheduler.alpha.kubernetes.io/evict"] = "true";
  snapshot_.addPod(pod);
  snapshot_.addJob(makeJob("job-p", "default", "p"));
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);
}

TEST_F(ArbitrationTest, MaxMigratingPerNamespace) {
  args_.max_migrating_per_namespace = 1;
  snapshot_.addMigrating("x", onNode("n1"), true, "team-a");
  addCandidate("p", onNode("n2"), JobOptions(), "team-a");
  addCandidate("q", onNode("n3"), JobOptions(), "team-b");
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kRetry);
  EXPECT_EQ(verdictOf(out, "job-q"), Verdict::kPass);
}

TEST_F(ArbitrationTest, MaxMigratingPerWorkload) {
  args_.max_migrating_per_workload = config::IntOrPercent{false, 1};
  snapshot_.setReplicas("rs1", 10);
  snapshot_.addMigrating("x", onNode("n1", "rs1"));
  addCandidate("p", onNode("n2", "rs1"));
  addCandidate("q", onNode("n3", "rs-other"));
  snapshot_.setReplicas("rs-other", 10);
  auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kRetry);
  EXPECT_NE(find(out, "job-p")->reason.find("maxMigrating 1"), std::string::npos);
  EXPECT_EQ(verdictOf(out, "job-q"), Verdict::kPass);

  args_.skip_eviction_gates = {std::string(kGateMaxMigratingPerWorkload)};
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);
}

TEST_F(ArbitrationTest, MaxUnavailablePerWorkloadCountsNotReadyAndMigratingPodsOnce) {
  // 10 replicas: maxUnavailable and maxMigrating default to 2.
  snapshot_.setReplicas("rs1", 10);
  PodSpecOptions not_ready = onNode("n1", "rs1");
  not_ready.ready = false;
  snapshot_.addMigrating("x", not_ready);  // migrating and not ready: one pod
  addCandidate("p", onNode("n2", "rs1"));
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);

  snapshot_.addPod(makePod("default", "broken", not_ready));  // a second unavailable pod
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kRetry);
  EXPECT_NE(find(out, "job-p")->reason.find("maxUnavailable 2"), std::string::npos);

  args_.skip_eviction_gates = {std::string(kGateMaxUnavailablePerWorkload)};
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);
}

TEST_F(ArbitrationTest, ExpectedReplicasFailsSingletonsAndWorkloadsThatWouldAllGo) {
  snapshot_.setReplicas("single", 1);
  snapshot_.setReplicas("three", 3);
  snapshot_.setReplicas("pair", 2);
  addCandidate("s", onNode("n1", "single"));
  addCandidate("t", onNode("n2", "three"));
  addCandidate("u", onNode("n3", "pair"));
  args_.max_unavailable_per_workload = config::IntOrPercent{true, 100};  // 3 of 3
  args_.max_migrating_per_node = 0;

  auto out = run();
  EXPECT_EQ(verdictOf(out, "job-s"), Verdict::kFail);
  EXPECT_NE(find(out, "job-s")->reason.find("expects 1 replicas"), std::string::npos);
  EXPECT_EQ(verdictOf(out, "job-t"), Verdict::kFail);
  EXPECT_EQ(verdictOf(out, "job-u"), Verdict::kFail);  // 100% of 2 = 2

  args_.max_unavailable_per_workload.reset();  // pair: maxUnavailable 1, maxMigrating 1
  out = run();
  EXPECT_EQ(verdictOf(out, "job-u"), Verdict::kPass);

  args_.skip_check_expected_replicas = true;
  EXPECT_EQ(verdictOf(run(), "job-s"), Verdict::kPass);
  args_.skip_check_expected_replicas = false;
  args_.skip_eviction_gates = {std::string(kGateExpectedReplicas)};
  EXPECT_EQ(verdictOf(run(), "job-s"), Verdict::kPass);
}

TEST_F(ArbitrationTest, UnknownWorkloadIsRetried) {
  addCandidate("p", onNode("n1", "rs-unknown"));
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kRetry);
  EXPECT_NE(find(out, "job-p")->reason.find("unknown"), std::string::npos);
}

TEST_F(ArbitrationTest, MaxEvictionCostFails) {
  core::Pod pod = makePod("default", "p", onNode("n1"));
  pod.metadata.annotations["scheduling.koordinator.sh/eviction-cost"] = "2147483647";
  snapshot_.addPod(pod);
  snapshot_.addJob(makeJob("job-p", "default", "p"));
  core::Pod cheap = makePod("default", "q", onNode("n2"));
  cheap.metadata.annotations["scheduling.koordinator.sh/eviction-cost"] = "100";
  snapshot_.addPod(cheap);
  snapshot_.addJob(makeJob("job-q", "default", "q"));
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kFail);
  EXPECT_EQ(verdictOf(out, "job-q"), Verdict::kPass);
}

TEST_F(ArbitrationTest, ASecondJobForAMigratingPodFails) {
  snapshot_.addMigrating("x", onNode("n1"));
  snapshot_.addJob(makeJob("job-x-again", "default", "x"));
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-x-again"), Verdict::kFail);
  EXPECT_NE(find(out, "job-x-again")->reason.find("\"job-x\""), std::string::npos);
}

TEST_F(ArbitrationTest, TwoPendingJobsForOnePodTheOlderWins) {
  snapshot_.addPod(makePod("default", "p", onNode("n1")));
  JobOptions later;
  later.created = t0() + std::chrono::seconds(5);
  snapshot_.addJob(makeJob("job-2", "default", "p", later));
  snapshot_.addJob(makeJob("job-1", "default", "p"));
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-1"), Verdict::kPass);
  EXPECT_EQ(verdictOf(out, "job-2"), Verdict::kFail);
}

TEST_F(ArbitrationTest, ReservationFirstNeedsAKnownScheduler) {
  PodSpecOptions other = onNode("n1");
  other.scheduler = "default-scheduler";
  addCandidate("p", other);
  JobOptions direct;
  direct.mode = "EvictDirectly";
  snapshot_.addPod(makePod("default", "q", other));
  snapshot_.addJob(makeJob("job-q", "default", "q", direct));
  const auto out = run();
  EXPECT_EQ(verdictOf(out, "job-p"), Verdict::kFail);
  EXPECT_NE(find(out, "job-p")->reason.find("default-scheduler"), std::string::npos);
  EXPECT_EQ(verdictOf(out, "job-q"), Verdict::kPass);
}

TEST_F(ArbitrationTest, ExcludedNamespaceFails) {
  args_.namespaces = config::Namespaces{{}, {"kube-system"}};
  addCandidate("p", onNode("n1"), JobOptions(), "kube-system");
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kFail);
}

TEST_F(ArbitrationTest, MissingPodPassesForTheReconcilerToFail) {
  snapshot_.addJob(makeJob("job-ghost", "default", "ghost"));
  EXPECT_EQ(verdictOf(run(), "job-ghost"), Verdict::kPass);
}

TEST_F(ArbitrationTest, TerminalRunningAndPassedJobsAreNotJudged) {
  snapshot_.addMigrating("x", onNode("n1"));
  snapshot_.addMigrating("y", onNode("n2"), /*running=*/false);
  JobOptions done;
  done.phase = "Succeeded";
  snapshot_.addPod(makePod("default", "z", onNode("n3")));
  snapshot_.addJob(makeJob("job-z", "default", "z", done));
  EXPECT_TRUE(run().empty());
}

// migrationLimitReached: the retryable limits for one candidate pod, counting every Running or
// Pending job (passed arbitration or not) of other pods, as Koordinator's evictor Filter.
class MigrationLimitTest : public ArbitrationTest {
 protected:
  std::optional<std::string> limitFor(const core::Pod& pod) {
    return migrationLimitReached(snapshot_, pod, args_);
  }
  // A pod `name` with a job "job-<name>" in `phase` that has not passed arbitration.
  void addJobbed(const std::string& name, const PodSpecOptions& o, const std::string& phase,
                 const std::string& ns = "default") {
    snapshot_.addPod(makePod(ns, name, o));
    JobOptions jo;
    jo.phase = phase;
    snapshot_.addJob(makeJob("job-" + name, ns, name, jo));
  }
};

TEST_F(MigrationLimitTest, PerNodeCountsPendingJobsThatHaveNotPassedArbitration) {
  args_.max_migrating_per_node = 1;
  addJobbed("x", onNode("node-a"), "");  // phase "" = Pending, not arbitrated yet
  const auto reason = limitFor(makePod("default", "p", onNode("node-a")));
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("node \"node-a\""), std::string::npos) << *reason;
  EXPECT_NE(reason->find("maxMigratingPerNode 1"), std::string::npos) << *reason;
  EXPECT_EQ(limitFor(makePod("default", "q", onNode("node-b"))), std::nullopt);
}

TEST_F(MigrationLimitTest, PerNodeCountsPodsNotJobsAndIgnoresTheCandidatesOwnJob) {
  args_.max_migrating_per_node = 2;
  addJobbed("x", onNode("node-a"), "Running");
  JobOptions pending;
  pending.phase = "Pending";
  snapshot_.addJob(makeJob("job-x-2", "default", "x", pending));  // same pod: still one pod
  addJobbed("p", onNode("node-a"), "Pending");                    // the candidate's own job
  EXPECT_EQ(limitFor(makePod("default", "p", onNode("node-a"))), std::nullopt);
  addJobbed("y", onNode("node-a"), "Pending");
  EXPECT_TRUE(limitFor(makePod("default", "p", onNode("node-a"))).has_value());
}

TEST_F(MigrationLimitTest, TerminalJobsDoNotCount) {
  args_.max_migrating_per_node = 1;
  addJobbed("x", onNode("node-a"), "Succeeded");
  addJobbed("y", onNode("node-a"), "Failed");
  addJobbed("z", onNode("node-a"), "Aborted");
  EXPECT_EQ(limitFor(makePod("default", "p", onNode("node-a"))), std::nullopt);
}

TEST_F(MigrationLimitTest, PerNamespace) {
  args_.max_migrating_per_node.reset();
  args_.max_migrating_per_namespace = 1;
  addJobbed("x", onNode("n1"), "Pending", "team-a");
  const auto reason = limitFor(makePod("team-a", "p", onNode("n2")));
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("maxMigratingPerNamespace 1"), std::string::npos) << *reason;
  EXPECT_EQ(limitFor(makePod("team-b", "q", onNode("n2"))), std::nullopt);
}

TEST_F(MigrationLimitTest, PerWorkloadMaxMigrating) {
  args_.max_migrating_per_workload = config::IntOrPercent{false, 1};
  snapshot_.setReplicas("rs1", 10);
  snapshot_.setReplicas("rs2", 10);
  addJobbed("x", onNode("n1", "rs1"), "Pending");
  const auto reason = limitFor(makePod("default", "p", onNode("n2", "rs1")));
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("maxMigrating 1"), std::string::npos) << *reason;
  EXPECT_EQ(limitFor(makePod("default", "q", onNode("n2", "rs2"))), std::nullopt);
}

TEST_F(MigrationLimitTest, PerWorkloadMaxUnavailableCountsNotReadyAndMigratingPods) {
  args_.max_migrating_per_workload = config::IntOrPercent{false, 5};
  args_.max_unavailable_per_workload = config::IntOrPercent{false, 2};
  snapshot_.setReplicas("rs1", 10);
  addJobbed("x", onNode("n1", "rs1"), "Running");
  const core::Pod p = makePod("default", "p", onNode("n2", "rs1"));
  snapshot_.addPod(p);
  EXPECT_EQ(limitFor(p), std::nullopt);  // one of two
  PodSpecOptions not_ready = onNode("n3", "rs1");
  not_ready.ready = false;
  snapshot_.addPod(makePod("default", "broken", not_ready));
  const auto reason = limitFor(p);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("maxUnavailable 2"), std::string::npos) << *reason;
}

TEST_F(MigrationLimitTest, UnresolvedWorkloadIsRefused) {
  EXPECT_TRUE(limitFor(makePod("default", "p", onNode("n1", "rs-unknown"))).has_value());
}

TEST_F(MigrationLimitTest, SkippedGatesAndTheEvictAnnotationLiftTheLimits) {
  args_.max_migrating_per_node = 1;
  addJobbed("x", onNode("node-a"), "Pending");
  core::Pod p = makePod("default", "p", onNode("node-a"));
  ASSERT_TRUE(limitFor(p).has_value());
  p.metadata.annotations["descheduler.alpha.kubernetes.io/evict"] = "true";
  EXPECT_EQ(limitFor(p), std::nullopt);
  p.metadata.annotations.clear();
  args_.skip_eviction_gates = {std::string(kGateMaxMigratingPerNode)};
  EXPECT_EQ(limitFor(p), std::nullopt);
}

TEST_F(MigrationLimitTest, APausedPendingJobCountsForTheFilterButNotForArbitrate) {
  args_.max_migrating_per_node = 1;
  snapshot_.addPod(makePod("default", "x", onNode("node-a")));
  JobOptions paused;
  paused.phase = "Pending";
  paused.paused = true;
  snapshot_.addJob(makeJob("job-x", "default", "x", paused));
  EXPECT_TRUE(limitFor(makePod("default", "p", onNode("node-a"))).has_value());
  addCandidate("p", onNode("node-a"));
  EXPECT_EQ(verdictOf(run(), "job-p"), Verdict::kPass);
}

}  // namespace
}  // namespace koord::manager::descheduler::migration
