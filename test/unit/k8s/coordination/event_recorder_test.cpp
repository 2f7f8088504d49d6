#include "koord/k8s/event_recorder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "koord/k8s/errors.hpp"
#include "mocks/k8s/mock_client.hpp"

namespace koord::k8s {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::_;
using ::testing::MatchesRegex;
using ::testing::NiceMock;

api::core::ObjectReference pod(const std::string& name, const std::string& ns = "team-a") {
  api::core::ObjectReference ref;
  ref.kind = "Pod";
  ref.apiVersion = "v1";
  ref.namespace_ = ns;
  ref.name = name;
  ref.uid = "uid-" + name;
  return ref;
}

// Lets a test hold the worker inside a write until it opens the gate.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool entered = false;
  bool open = true;

  void close() {
    std::lock_guard<std::mutex> lock(mu);
    open = false;
  }
  void pass() {
    std::unique_lock<std::mutex> lock(mu);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [this] { return open; });
  }
  void waitEntered() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [this] { return entered; });
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mu);
      open = true;
    }
    cv.notify_all();
  }
};

// An in-memory events endpoint behind a MockClient; records every create and patch.
class FakeEventApi {
 public:
  struct Patch {
    std::string ns;
    std::string name;
    Json body;
  };

  explicit FakeEventApi(NiceMock<testing::MockClient>& client) {
    ON_CALL(client, createEvent(_, _))
        .WillByDefault([this](const std::string& ns, const api::core::Event& e) -> Result<Json> {
          gate.pass();
          std::lock_guard<std::mutex> lock(mu_);
          if (fail_creates_) {
            return apiErrorStatus(ApiError{503, "ServiceUnavailable", "down", 0}, "POST",
                                  "/api/v1/events");
          }
          EXPECT_EQ(ns, e.metadata.namespace_);
          creates_.push_back(e);
          stored_[ns + "/" + e.metadata.name] = e;
          return toJson(e);
        });
    ON_CALL(client, patch(_, _, _, _, _, _))
        .WillByDefault([this](const GroupVersionResource& gvr, const std::string& ns,
                              const std::string& name, PatchType type, const std::string& body,
                              const PatchOptions&) -> Result<Json> {
          gate.pass();
          std::lock_guard<std::mutex> lock(mu_);
          EXPECT_EQ(gvr, kEvents);
          EXPECT_EQ(type, PatchType::kMerge);
          patches_.push_back({ns, name, Json::parse(body)});
          auto it = stored_.find(ns + "/" + name);
          if (patch_not_found_once_ || it == stored_.end()) {
            patch_not_found_once_ = false;
            return apiErrorStatus(ApiError{404, "NotFound", "gone", 0}, "PATCH", "/events");
          }
          it->second.count = patches_.back().body.at("count").get<int32_t>();
          it->second.lastTimestamp = patches_.back().body.at("lastTimestamp").get<std::string>();
          return toJson(it->second);
        });
  }

  std::vector<api::core::Event> creates() {
    std::lock_guard<std::mutex> lock(mu_);
    return creates_;
  }
  std::vector<Patch> patches() {
    std::lock_guard<std::mutex> lock(mu_);
    return patches_;
  }
  std::map<std::string, api::core::Event> stored() {
    std::lock_guard<std::mutex> lock(mu_);
    return stored_;
  }
  void failCreates(bool fail) {
    std::lock_guard<std::mutex> lock(mu_);
    fail_creates_ = fail;
  }
  void patchNotFoundOnce() {
    std::lock_guard<std::mutex> lock(mu_);
    patch_not_found_once_ = true;
  }

  Gate gate;

 private:
  std::mutex mu_;
  std::vector<api::core::Event> creates_;
  std::vector<Patch> patches_;
  std::map<std::string, api::core::Event> stored_;
  bool fail_creates_ = false;
  bool patch_not_found_once_ = false;
};

class EventRecorderTest : public ::testing::Test {
 protected:
  EventRecorderTest() : api_(client_) {}

  std::unique_ptr<EventRecorder> make(EventRecorderOptions options = {}) {
    const auto start = clock_.now();
    options.wall_clock = [this, start] {
      return std::chrono::system_clock::time_point(seconds(1700000000)) +
             std::chrono::duration_cast<std::chrono::system_clock::duration>(clock_.now() - start);
    };
    return std::make_unique<EventRecorder>(client_, "koord-manager", "node-1", clock_,
                                           std::move(options));
  }

  FakeClock clock_;
  NiceMock<testing::MockClient> client_;
  FakeEventApi api_;
};

TEST_F(EventRecorderTest, RepeatsPatchCountAndLastTimestamp) {
  auto recorder = make();
  for (int i = 0; i < 3; ++i) {
    recorder->event(pod("web"), EventType::kWarning, "FailedScheduling", "no fit");
    clock_.advance(seconds(30));
  }
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());

  auto creates = api_.creates();
  ASSERT_EQ(creates.size(), 1u);
  const auto& e = creates[0];
  EXPECT_THAT(e.metadata.name, MatchesRegex("^web\\.[0-9a-f]{16}$"));
  EXPECT_EQ(e.metadata.namespace_, "team-a");
  EXPECT_EQ(e.involvedObject, pod("web"));
  EXPECT_EQ(e.type, "Warning");
  EXPECT_EQ(e.reason, "FailedScheduling");
  EXPECT_EQ(e.message, "no fit");
  EXPECT_EQ(e.source.component, "koord-manager");
  EXPECT_EQ(e.source.host, "node-1");
  EXPECT_EQ(e.count, 1);
  EXPECT_EQ(e.firstTimestamp, "2023-11-14T22:13:20Z");
  EXPECT_EQ(e.lastTimestamp, "2023-11-14T22:13:20Z");

  auto patches = api_.patches();
  ASSERT_EQ(patches.size(), 2u);
  for (size_t i = 0; i < patches.size(); ++i) {
    EXPECT_EQ(patches[i].ns, "team-a");
    EXPECT_EQ(patches[i].name, e.metadata.name);
    EXPECT_EQ(patches[i].body["count"], static_cast<int>(i) + 2);
    EXPECT_EQ(patches[i].body["message"], "no fit");
  }
  EXPECT_EQ(patches[0].body["lastTimestamp"], "2023-11-14T22:13:50Z");
  EXPECT_EQ(patches[1].body["lastTimestamp"], "2023-11-14T22:14:20Z");
  EXPECT_EQ(api_.stored().at("team-a/" + e.metadata.name).count, 3);

  const auto stats = recorder->stats();
  EXPECT_EQ(stats.queued, 3u);
  EXPECT_EQ(stats.created, 1u);
  EXPECT_EQ(stats.patched, 2u);
}

struct SecondEventCase {
  std::string name;
  std::function<void(api::core::ObjectReference&, EventType&, std::string& reason,
                     std::string& message)>
      mutate;
  Clock::Duration after;
  size_t want_creates;
};

class SecondEventTest : public EventRecorderTest,
                        public ::testing::WithParamInterface<SecondEventCase> {};

TEST_P(SecondEventTest, AggregatesOnlyIdenticalEventsWithinWindow) {
  const auto& tc = GetParam();
  auto recorder = make();
  recorder->event(pod("web"), EventType::kNormal, "Scheduled", "bound to node-1");
  auto ref = pod("web");
  EventType type = EventType::kNormal;
  std::string reason = "Scheduled";
  std::string message = "bound to node-1";
  tc.mutate(ref, type, reason, message);
  clock_.advance(tc.after);
  recorder->event(ref, type, reason, message);
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  auto creates = api_.creates();
  EXPECT_EQ(creates.size(), tc.want_creates);
  EXPECT_EQ(api_.patches().size(), 2 - tc.want_creates);
  if (creates.size() == 2) {
    EXPECT_NE(creates[0].metadata.name, creates[1].metadata.name);
    EXPECT_EQ(creates[1].count, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SecondEventTest,
    ::testing::Values(
        SecondEventCase{"Identical", [](auto&, auto&, auto&, auto&) {}, seconds(1), 1},
        SecondEventCase{"IdenticalAtWindowEnd", [](auto&, auto&, auto&, auto&) {}, minutes(10), 1},
        SecondEventCase{"IdenticalAfterWindow", [](auto&, auto&, auto&, auto&) {},
                        minutes(10) + seconds(1), 2},
        SecondEventCase{"OtherMessage",
                        [](auto&, auto&, auto&, std::string& msg) { msg = "bound to node-2"; },
                        seconds(1), 2},
        SecondEventCase{"OtherReason", [](auto&, auto&, std::string& why, auto&) { why = "Bound"; },
                        seconds(1), 2},
        SecondEventCase{
            "OtherType",
            [](auto&, EventType& event_type, auto&, auto&) { event_type = EventType::kWarning; },
            seconds(1), 2},
        SecondEventCase{
            "OtherObject",
            [](api::core::ObjectReference& obj, auto&, auto&, auto&) { obj = pod("db"); },
            seconds(1), 2}),
    [](const ::testing::TestParamInfo<SecondEventCase>& param_info) {
      return param_info.param.name;
    });

TEST_F(EventRecorderTest, RecreatesWhenPatchFindsEventGone) {
  auto recorder = make();
  api_.patchNotFoundOnce();
  for (int i = 0; i < 3; ++i) {
    recorder->event(pod("web"), EventType::kNormal, "Evicted", "memory pressure");
  }
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  auto creates = api_.creates();
  ASSERT_EQ(creates.size(), 2u);
  EXPECT_EQ(creates[1].metadata.name, creates[0].metadata.name);
  EXPECT_EQ(creates[1].count, 2);
  EXPECT_EQ(creates[1].firstTimestamp, creates[0].firstTimestamp);
  auto patches = api_.patches();
  ASSERT_EQ(patches.size(), 2u);
  EXPECT_EQ(patches[1].body["count"], 3);
  EXPECT_EQ(api_.stored().at("team-a/" + creates[0].metadata.name).count, 3);
}

TEST_F(EventRecorderTest, SpamFilterDropsAfterBurstAndRefills) {
  auto recorder = make();
  int n = 0;
  auto emit = [&](const std::string& object) {
    recorder->event(pod(object), EventType::kNormal, "Tick", "tick " + std::to_string(n++));
  };
  for (int i = 0; i < 30; ++i) {
    emit("web");
  }
  EXPECT_EQ(recorder->stats().dropped_spam, 5u);
  emit("db");  // another object has its own bucket
  EXPECT_EQ(recorder->stats().dropped_spam, 5u);

  clock_.advance(minutes(5));  // one token back
  emit("web");
  emit("web");
  EXPECT_EQ(recorder->stats().dropped_spam, 6u);

  clock_.advance(minutes(10));  // two more
  emit("web");
  emit("web");
  emit("web");
  EXPECT_EQ(recorder->stats().dropped_spam, 7u);

  clock_.advance(minutes(24 * 60));  // refilled to the burst, not beyond
  for (int i = 0; i < 26; ++i) {
    emit("web");
  }
  EXPECT_EQ(recorder->stats().dropped_spam, 8u);

  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  const auto stats = recorder->stats();
  EXPECT_EQ(stats.queued, 25u + 1 + 1 + 2 + 25);
  EXPECT_EQ(api_.creates().size(), stats.queued);
}

TEST_F(EventRecorderTest, QueueOverflowIsCounted) {
  EventRecorderOptions options;
  options.queue_capacity = 2;
  auto recorder = make(options);
  api_.gate.close();
  recorder->event(pod("a"), EventType::kNormal, "R", "m");
  api_.gate.waitEntered();  // the worker holds "a"; the queue is empty
  recorder->event(pod("b"), EventType::kNormal, "R", "m");
  recorder->event(pod("c"), EventType::kNormal, "R", "m");
  recorder->event(pod("d"), EventType::kNormal, "R", "m");
  recorder->event(pod("e"), EventType::kNormal, "R", "m");
  auto stats = recorder->stats();
  EXPECT_EQ(stats.queued, 3u);
  EXPECT_EQ(stats.dropped_queue_full, 2u);
  api_.gate.release();
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  std::vector<std::string> objects;
  for (const auto& e : api_.creates()) {
    objects.push_back(e.involvedObject.name);
  }
  EXPECT_EQ(objects, (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(EventRecorderTest, ShutdownFlushesThenRefusesEvents) {
  auto recorder = make();
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    recorder->event(pod(name), EventType::kNormal, "R", "m");
  }
  ASSERT_TRUE(recorder->shutdown(seconds(1)).isOk());
  EXPECT_EQ(api_.creates().size(), 5u);
  recorder->event(pod("f"), EventType::kNormal, "R", "m");
  EXPECT_TRUE(recorder->shutdown(seconds(1)).isOk());
  const auto stats = recorder->stats();
  EXPECT_EQ(stats.created, 5u);
  EXPECT_EQ(stats.dropped_shut_down, 1u);
  EXPECT_EQ(api_.creates().size(), 5u);
}

TEST_F(EventRecorderTest, ShutdownDeadlineDiscardsTheRest) {
  auto recorder = make();
  api_.gate.close();
  recorder->event(pod("a"), EventType::kNormal, "R", "m");
  api_.gate.waitEntered();
  recorder->event(pod("b"), EventType::kNormal, "R", "m");
  recorder->event(pod("c"), EventType::kNormal, "R", "m");
  Status result;
  std::thread closer([&] { result = recorder->shutdown(seconds(3)); });
  while (clock_.waiterCount() < 1) {
    std::this_thread::yield();
  }
  clock_.advance(seconds(3));
  while (recorder->stats().discarded < 2) {
    std::this_thread::yield();
  }
  api_.gate.release();  // the write in flight finishes; shutdown waits for it
  closer.join();
  EXPECT_EQ(result.code(), StatusCode::kDeadlineExceeded);
  EXPECT_THAT(result.message(), ::testing::HasSubstr("2 queued events discarded"));
  EXPECT_EQ(api_.creates().size(), 1u);
}

TEST_F(EventRecorderTest, ClusterScopedObjectGoesToDefaultNamespace) {
  auto recorder = make();
  api::core::ObjectReference node;
  node.kind = "Node";
  node.name = "node-7";
  node.uid = "n7";
  recorder->event(node, EventType::kWarning, "NodeNotReady", "kubelet stopped posting");
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  auto creates = api_.creates();
  ASSERT_EQ(creates.size(), 1u);
  EXPECT_EQ(creates[0].metadata.namespace_, "default");
  EXPECT_THAT(creates[0].metadata.name, MatchesRegex("^node-7\\.[0-9a-f]{16}$"));
}

TEST_F(EventRecorderTest, FailedCreateIsCountedAndNotAggregated) {
  auto recorder = make();
  api_.failCreates(true);
  recorder->event(pod("web"), EventType::kNormal, "R", "m");
  recorder->event(pod("web"), EventType::kNormal, "R", "m");
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  const auto stats = recorder->stats();
  EXPECT_EQ(stats.write_failures, 2u);
  EXPECT_EQ(stats.created, 0u);
  EXPECT_TRUE(api_.patches().empty());  // nothing was written, so nothing to count up
}

TEST_F(EventRecorderTest, NamesAreUniqueForSimultaneousEvents) {
  auto recorder = make();
  recorder->event(pod("web"), EventType::kNormal, "R", "one");
  recorder->event(pod("web"), EventType::kNormal, "R", "two");
  ASSERT_TRUE(recorder->shutdown(seconds(5)).isOk());
  auto creates = api_.creates();
  ASSERT_EQ(creates.size(), 2u);
  EXPECT_NE(creates[0].metadata.name, creates[1].metadata.name);
}

TEST(FormatTimeTest, Rfc3339Seconds) {
  const std::chrono::system_clock::time_point epoch;
  EXPECT_EQ(formatTime(epoch), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatTime(epoch + seconds(1700000000) + std::chrono::milliseconds(999)),
            "2023-11-14T22:13:20Z");
  EXPECT_EQ(eventTypeName(EventType::kNormal), "Normal");
  EXPECT_EQ(eventTypeName(EventType::kWarning), "Warning");
}

}  // namespace
}  // namespace koord::k8s
