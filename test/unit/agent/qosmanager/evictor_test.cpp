#include "agent/qosmanager/framework/evictor.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "koord/k8s/errors.hpp"
#include "test/unit/agent/qosmanager/qos_test_support.hpp"

namespace koord::agent::qosmanager::framework {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::InSequence;
using ::testing::Invoke;
using ::testing::Return;
using ::testing::StrictMock;
using namespace std::chrono_literals;

constexpr char kPdbRefusal[] =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
    R"("message":"Cannot evict pod as it would violate the pod's disruption budget.",)"
    R"("reason":"TooManyRequests","code":429})";

std::shared_ptr<const api::core::Pod> pod(const std::string& name,
                                          std::optional<int32_t> priority) {
  auto out = std::make_shared<api::core::Pod>();
  out->metadata.namespace_ = "batch";
  out->metadata.name = name;
  out->metadata.uid = "uid-" + name;
  out->spec.priority = priority;
  return out;
}

struct RecordedEvent {
  api::core::ObjectReference object;
  k8s::EventType type;
  std::string reason;
  std::string message;
};

class EvictorTest : public ::testing::Test {
 protected:
  std::unique_ptr<Evictor> make(EvictorOptions options = {}) {
    return Evictor::create(
               client_, clock_,
               [this](const api::core::ObjectReference& object, k8s::EventType type,
                      std::string reason, std::string message) {
                 events_.push_back({object, type, std::move(reason), std::move(message)});
               },
               options, log::Logger(), &registry_)
        .value();
  }

  static EvictionRequest request(std::vector<EvictionCandidate> candidates,
                                 std::optional<double> release = std::nullopt) {
    EvictionRequest out;
    out.reason = "EvictPodByNodeMemoryUsage";
    out.message = "node memory usage 92% >= threshold 70%";
    out.candidates = std::move(candidates);
    out.release = release;
    return out;
  }

  static std::vector<std::string> results(const EvictionReport& report) {
    std::vector<std::string> out;
    for (const EvictionOutcome& outcome : report.outcomes) {
      out.push_back(outcome.pod + " " + std::string(evictionResultName(outcome.result)));
    }
    return out;
  }

  FakeClock clock_;
  StrictMock<k8s::testing::MockClient> client_;
  metrics::MetricsRegistry registry_;
  std::vector<RecordedEvent> events_;
};

TEST(EvictorOrder, LowestPriorityFirstThenHighestUsage) {
  struct Case {
    std::string name;
    std::vector<EvictionCandidate> candidates;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"by priority",
       {{pod("prod", 9000), 1, ""}, {pod("batch", 5000), 1, ""}, {pod("free", 3000), 1, ""}},
       {"free", "batch", "prod"}},
      {"by usage within a priority",
       {{pod("small", 5000), 1, ""}, {pod("big", 5000), 4, ""}, {pod("mid", 5000), 2, ""}},
       {"big", "mid", "small"}},
      {"priority before usage",
       {{pod("hungry-prod", 9000), 100, ""}, {pod("idle-batch", 5000), 0.1, ""}},
       {"idle-batch", "hungry-prod"}},
      {"unset priority is 0, below negative-free ones",
       {{pod("zero", std::nullopt), 1, ""}, {pod("negative", -1), 1, ""}, {pod("one", 1), 1, ""}},
       {"negative", "zero", "one"}},
      {"ties by name; null pods dropped",
       {{pod("b", 1), 1, ""}, {nullptr, 9, ""}, {pod("a", 1), 1, ""}},
       {"a", "b"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> got;
    for (const EvictionCandidate& candidate : Evictor::order(c.candidates)) {
      got.push_back(candidate.pod->metadata.name);
    }
    EXPECT_EQ(got, c.want);
  }
}

TEST_F(EvictorTest, EvictsInOrderUntilTheReleaseIsMet) {
  auto evictor = make();
  {
    InSequence in_order;
    EXPECT_CALL(client_, evict("batch", "low", _)).WillOnce(Return(Status::ok()));
    EXPECT_CALL(client_, evict("batch", "big", _)).WillOnce(Return(Status::ok()));
  }
  EvictionReport report = evictor->evict(request(
      {{pod("small", 5000), 1e9, ""}, {pod("big", 5000), 3e9, ""}, {pod("low", 3000), 0.5e9, ""}},
      /*release=*/3.2e9));
  EXPECT_THAT(results(report), ElementsAre("batch/low evicted", "batch/big evicted"));
  EXPECT_EQ(report.evicted, 2u);
  EXPECT_DOUBLE_EQ(report.released, 3.5e9);
}

TEST_F(EvictorTest, PostsAPolicyV1EvictionWithTheUidPrecondition) {
  EvictorOptions options;
  options.grace_period_seconds = 30;
  auto evictor = make(options);
  api::core::DeleteOptions sent;
  EXPECT_CALL(client_, evict("batch", "job", _))
      .WillOnce(Invoke([&](const std::string&, const std::string&,
                           const api::core::DeleteOptions& delete_options) {
        sent = delete_options;
        return Status::ok();
      }));
  evictor->evict(request({{pod("job", 0), 1, ""}}));
  ASSERT_TRUE(sent.preconditions.has_value());
  EXPECT_EQ(sent.preconditions->uid, "uid-job");
  EXPECT_EQ(sent.gracePeriodSeconds, 30);
}

TEST_F(EvictorTest, RateLimitsEvictionsPerWindow) {
  EvictorOptions options;
  options.max_evictions = 2;
  options.window = 60s;
  auto evictor = make(options);
  EXPECT_CALL(client_, evict("batch", "a", _)).WillOnce(Return(Status::ok()));
  EXPECT_CALL(client_, evict("batch", "b", _)).WillOnce(Return(Status::ok()));
  const auto candidates = std::vector<EvictionCandidate>{
      {pod("a", 0), 4, ""}, {pod("b", 0), 3, ""}, {pod("c", 0), 2, ""}, {pod("d", 0), 1, ""}};
  EXPECT_THAT(results(evictor->evict(request(candidates))),
              ElementsAre("batch/a evicted", "batch/b evicted", "batch/c rate_limited"));
  ::testing::Mock::VerifyAndClearExpectations(&client_);

  // Still inside the window: nothing is posted.
  clock_.advance(59s);
  EXPECT_THAT(results(evictor->evict(request({{pod("c", 0), 2, ""}}))),
              ElementsAre("batch/c rate_limited"));

  // The window has moved past both evictions: two more may go.
  clock_.advance(1s);
  EXPECT_CALL(client_, evict("batch", "c", _)).WillOnce(Return(Status::ok()));
  EXPECT_CALL(client_, evict("batch", "d", _)).WillOnce(Return(Status::ok()));
  EXPECT_THAT(results(evictor->evict(request(candidates))),
              ElementsAre("batch/a already_evicted", "batch/b already_evicted", "batch/c evicted",
                          "batch/d evicted"));
  EXPECT_THAT(
      testing::metricLines(registry_, kEvictionsMetric),
      ElementsAre(
          R"(koord_agent_evictions_total{reason="EvictPodByNodeMemoryUsage",result="evicted"} 4)",
          R"(koord_agent_evictions_total{reason="EvictPodByNodeMemoryUsage",result="rate_limited"} 2)"));
}

TEST_F(EvictorTest, NeverEvictsThePodTwiceWhileItIsRemembered) {
  EvictorOptions options;
  options.remember_for = 5min;
  auto evictor = make(options);
  EXPECT_CALL(client_, evict("batch", "a", _)).WillOnce(Return(Status::ok()));
  EXPECT_THAT(results(evictor->evict(request({{pod("a", 0), 1, ""}}))),
              ElementsAre("batch/a evicted"));

  // The pod is still terminating: a strategy that asks again does not post again, and the pod's
  // usage counts toward the release, so no other pod is evicted in its place.
  clock_.advance(4min);
  EvictionReport again =
      evictor->evict(request({{pod("a", 0), 1, ""}, {pod("b", 0), 1, ""}}, /*release=*/1));
  EXPECT_THAT(results(again), ElementsAre("batch/a already_evicted"));
  EXPECT_DOUBLE_EQ(again.released, 1);
  EXPECT_EQ(again.evicted, 0u);

  // Once forgotten, the same UID may be evicted again.
  clock_.advance(1min);
  EXPECT_CALL(client_, evict("batch", "a", _)).WillOnce(Return(Status::ok()));
  EXPECT_THAT(results(evictor->evict(request({{pod("a", 0), 1, ""}}))),
              ElementsAre("batch/a evicted"));
}

TEST_F(EvictorTest, RespectsAPodDisruptionBudgetRefusal) {
  EvictorOptions options;
  options.retry_after = 30s;
  auto evictor = make(options);
  const Status refused = k8s::apiErrorStatus(429, kPdbRefusal, "POST",
                                             "/api/v1/namespaces/batch/pods/guarded/eviction");
  ASSERT_TRUE(k8s::isTooManyRequests(refused));
  EXPECT_CALL(client_, evict("batch", "guarded", _)).WillOnce(Return(refused));
  EXPECT_CALL(client_, evict("batch", "other", _)).WillOnce(Return(Status::ok()));
  EvictionReport report = evictor->evict(
      request({{pod("guarded", 0), 5, ""}, {pod("other", 0), 1, ""}}, /*release=*/1));
  // The refused pod does not count toward the release: the next candidate goes instead.
  EXPECT_THAT(results(report), ElementsAre("batch/guarded refused", "batch/other evicted"));
  EXPECT_THAT(report.outcomes[0].error, HasSubstr("disruption budget"));
  EXPECT_DOUBLE_EQ(report.released, 1);
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].object.name, "guarded");
  EXPECT_EQ(events_[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(events_[0].reason, "EvictionRefused");
  EXPECT_THAT(events_[0].message, HasSubstr("disruption budget"));
  EXPECT_THAT(events_[0].message, HasSubstr("EvictPodByNodeMemoryUsage"));
  ::testing::Mock::VerifyAndClearExpectations(&client_);

  // Not retried at once: backing off until retry_after has passed.
  clock_.advance(29s);
  EXPECT_THAT(results(evictor->evict(request({{pod("guarded", 0), 5, ""}}))),
              ElementsAre("batch/guarded backing_off"));
  clock_.advance(1s);
  EXPECT_CALL(client_, evict("batch", "guarded", _)).WillOnce(Return(Status::ok()));
  EXPECT_THAT(results(evictor->evict(request({{pod("guarded", 0), 5, ""}}))),
              ElementsAre("batch/guarded evicted"));
  EXPECT_THAT(
      testing::metricLines(registry_, kEvictionsMetric),
      ElementsAre(
          R"(koord_agent_evictions_total{reason="EvictPodByNodeMemoryUsage",result="evicted"} 2)",
          R"(koord_agent_evictions_total{reason="EvictPodByNodeMemoryUsage",result="refused"} 1)"));
}

TEST_F(EvictorTest, ClassifiesTheApiServersAnswers) {
  struct Case {
    Status answer;
    EvictionResult want;
    bool releases;
  };
  const std::vector<Case> cases = {
      {Status::ok(), EvictionResult::kEvicted, true},
      {k8s::apiErrorStatus(404, "", "POST", "/e"), EvictionResult::kGone, true},
      {k8s::apiErrorStatus(409, "", "POST", "/e"), EvictionResult::kGone, true},
      {k8s::apiErrorStatus(429, "", "POST", "/e"), EvictionResult::kRefused, false},
      {k8s::apiErrorStatus(500, "", "POST", "/e"), EvictionResult::kFailed, false},
      {Status::unavailable("connection refused"), EvictionResult::kFailed, false},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    auto evictor = make();
    EXPECT_CALL(client_, evict(_, _, _)).WillOnce(Return(cases[i].answer));
    EvictionReport report = evictor->evict(request({{pod("p", 0), 2, ""}}));
    ASSERT_EQ(report.outcomes.size(), 1u);
    EXPECT_EQ(report.outcomes[0].result, cases[i].want);
    EXPECT_DOUBLE_EQ(report.released, cases[i].releases ? 2 : 0);
    ::testing::Mock::VerifyAndClearExpectations(&client_);
  }
}

TEST_F(EvictorTest, RecordsAnEventWithTheFigures) {
  auto evictor = make();
  EXPECT_CALL(client_, evict("batch", "job", _)).WillOnce(Return(Status::ok()));
  evictor->evict(request({{pod("job", 0), 1.5e9, "memory working set 1.5 GiB"}}));
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_EQ(events_[0].object.kind, "Pod");
  EXPECT_EQ(events_[0].object.apiVersion, "v1");
  EXPECT_EQ(events_[0].object.namespace_, "batch");
  EXPECT_EQ(events_[0].object.name, "job");
  EXPECT_EQ(events_[0].object.uid, "uid-job");
  EXPECT_EQ(events_[0].type, k8s::EventType::kWarning);
  EXPECT_EQ(events_[0].reason, "EvictPodByNodeMemoryUsage");
  EXPECT_EQ(events_[0].message,
            "Evicted by koord-agent: node memory usage 92% >= threshold 70%; this pod: memory "
            "working set 1.5 GiB");
  EXPECT_THAT(
      testing::metricLines(registry_, kEvictionsMetric),
      ElementsAre(
          R"(koord_agent_evictions_total{reason="EvictPodByNodeMemoryUsage",result="evicted"} 1)"));
}

// The daemon's wiring: the sink is the project's EventRecorder, which writes the Event through the
// same client.
TEST_F(EvictorTest, EventsReachTheApiServerThroughTheEventRecorder) {
  k8s::EventRecorder recorder(client_, "koord-agent", "node-1", clock_);
  auto evictor = Evictor::create(
                     client_, clock_,
                     [&recorder](const api::core::ObjectReference& object, k8s::EventType type,
                                 std::string reason, std::string message) {
                       recorder.event(object, type, std::move(reason), std::move(message));
                     },
                     {}, log::Logger(), nullptr)
                     .value();
  api::core::Event written;
  EXPECT_CALL(client_, evict("batch", "job", _)).WillOnce(Return(Status::ok()));
  EXPECT_CALL(client_, createEvent("batch", _))
      .WillOnce(Invoke([&](const std::string&, const api::core::Event& event) {
        written = event;
        return Result<api::Json>(api::Json::object());
      }));
  evictor->evict(request({{pod("job", 0), 1, "memory working set 1 GiB"}}));
  ASSERT_TRUE(recorder.shutdown(5s).isOk());
  EXPECT_EQ(written.reason, "EvictPodByNodeMemoryUsage");
  EXPECT_EQ(written.type, "Warning");
  EXPECT_EQ(written.involvedObject.name, "job");
  EXPECT_THAT(written.message, HasSubstr("node memory usage 92% >= threshold 70%"));
  EXPECT_THAT(written.message, HasSubstr("memory working set 1 GiB"));
}

TEST(EvictorCreate, RejectsBadOptions) {
  FakeClock clock;
  ::testing::NiceMock<k8s::testing::MockClient> client;
  EvictorOptions options;
  options.retry_after = -1s;
  auto evictor = Evictor::create(client, clock, nullptr, options, log::Logger(), nullptr);
  ASSERT_FALSE(evictor.ok());
  EXPECT_EQ(evictor.status().message(),
            "failed to create the evictor: an event sink is required; window, remember_for and "
            "retry_after must not be negative");
}

}  // namespace
}  // namespace koord::agent::qosmanager::framework
