#include "koord/k8s/informer.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "koord/api/core/objects.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "scripted_client.hpp"

namespace koord::k8s {
namespace {

using api::core::ConfigMap;
using testing::ScriptedClient;

Json configMap(const std::string& name, const std::string& rv, const std::string& value = "v") {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata",
               {{"name", name},
                {"namespace", "ns"},
                {"resourceVersion", rv},
                {"managedFields", Json::array({Json{{"manager", "kubectl"}}})}}},
              {"data", {{"key", value}}}};
}

ObjectList page(std::vector<Json> items, const std::string& rv, const std::string& next = "") {
  ObjectList list;
  list.items = std::move(items);
  list.metadata.resourceVersion = rv;
  list.metadata.continue_ = next;
  return list;
}

std::string event(const std::string& type, const Json& object) {
  return Json{{"type", type}, {"object", object}}.dump() + "\n";
}

std::string bookmark(const std::string& rv) {
  return event(
      "BOOKMARK",
      Json{{"kind", "ConfigMap"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", rv}}}});
}

std::string goneEvent() {
  return event("ERROR", Json{{"kind", "Status"},
                             {"apiVersion", "v1"},
                             {"status", "Failure"},
                             {"message", "too old resource version: 1 (5)"},
                             {"reason", "Expired"},
                             {"code", 410}});
}

// Records handler calls as "add name rv", "update name oldrv->newrv", "delete name".
class Recorder {
 public:
  ResourceEventHandlers<ConfigMap> handlers() {
    ResourceEventHandlers<ConfigMap> h;
    h.onAdd = [this](const auto& obj) {
      push("add " + obj->metadata.name + " " + obj->metadata.resourceVersion);
    };
    h.onUpdate = [this](const auto& old_obj, const auto& new_obj) {
      push("update " + new_obj->metadata.name + " " + old_obj->metadata.resourceVersion + "->" +
           new_obj->metadata.resourceVersion);
    };
    h.onDelete = [this](const auto& obj) { push("delete " + obj->metadata.name); };
    return h;
  }
  std::vector<std::string> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  void push(std::string s) {
    std::lock_guard lock(mu_);
    calls_.push_back(std::move(s));
  }
  mutable std::mutex mu_;
  std::vector<std::string> calls_;
};

ReflectorOptions options() {
  ReflectorOptions o;
  o.gvr = GroupVersionResource{"", "v1", "configmaps"};
  o.ns = "ns";
  o.page_size = 2;
  o.backoff.initial = std::chrono::milliseconds(1);
  o.backoff.cap = std::chrono::milliseconds(2);
  o.backoff.jitter = 0;
  return o;
}

using Strings = std::vector<std::string>;

TEST(InformerTest, ListsPageByPageThenAppliesWatchEventsInOrder) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "10"), configMap("b", "11")}, "", "token-1"));
  client.addListPage(page({configMap("c", "12")}, "20"));
  client.addWatch({{event("ADDED", configMap("d", "21")) + event("MODIFIED", configMap("a", "22")),
                    event("DELETED", configMap("b", "23"))},
                   Status::ok()});
  Recorder recorder;
  Informer<ConfigMap> informer(client, options());
  informer.addHandlers(recorder.handlers());
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::seconds(10)));
  ASSERT_TRUE(client.waitIdle(2));
  informer.stop();

  EXPECT_EQ(recorder.calls(), (Strings{"add a 10", "add b 11", "add c 12", "add d 21",
                                       "update a 10->22", "delete b"}));
  EXPECT_EQ(informer.store().listKeys(), (Strings{"ns/a", "ns/c", "ns/d"}));
  EXPECT_EQ(informer.store().get("ns/a")->data.at("key"), "v");
  EXPECT_TRUE(informer.store().get("ns/a")->metadata.extra.is_null() ||
              !informer.store().get("ns/a")->metadata.extra.contains("managedFields"));
  const auto lists = client.listRequests();
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].limit, 2);
  EXPECT_EQ(lists[1].continue_, "token-1");
  const auto watches = client.watchRequests();
  ASSERT_EQ(watches.size(), 2u);
  EXPECT_EQ(watches[0].resourceVersion, "20");  // the list's version
  EXPECT_TRUE(watches[0].allowWatchBookmarks);
  ASSERT_TRUE(watches[0].timeoutSeconds.has_value());
  EXPECT_GE(*watches[0].timeoutSeconds, 300);
  EXPECT_LT(*watches[0].timeoutSeconds, 600);
  EXPECT_EQ(watches[1].resourceVersion, "23");  // resumed after the last event
  EXPECT_EQ(informer.stats().lists, 1u);
}

TEST(InformerTest, BookmarkMovesTheResumeVersionWithoutHandlerCalls) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "10")}, "10"));
  client.addWatch({{bookmark("40")}, Status::ok()});
  Recorder recorder;
  Informer<ConfigMap> informer(client, options());
  informer.addHandlers(recorder.handlers());
  informer.start();
  ASSERT_TRUE(client.waitIdle(2));
  informer.stop();
  EXPECT_EQ(recorder.calls(), (Strings{"add a 10"}));
  EXPECT_EQ(client.watchRequests()[1].resourceVersion, "40");
  EXPECT_EQ(informer.stats().bookmarks, 1u);
}

TEST(InformerTest, GoneRelistsAndDeliversOnlyTheDifferences) {
  for (bool as_event : {true, false}) {
    SCOPED_TRACE(as_event ? "410 as an ERROR event" : "410 as the HTTP reply");
    ScriptedClient client;
    client.addListPage(
        page({configMap("same", "10"), configMap("changed", "11"), configMap("gone", "12")}, "12"));
    if (as_event) {
      client.addWatch({{goneEvent()}, Status::ok()});
    } else {
      client.addWatch({{},
                       apiErrorStatus(410, R"({"kind":"Status","reason":"Expired","code":410})",
                                      "GET", "/api/v1/configmaps")});
    }
    client.addListPage(
        page({configMap("same", "10"), configMap("changed", "30"), configMap("new", "31")}, "31"));
    Recorder recorder;
    Informer<ConfigMap> informer(client, options());
    informer.addHandlers(recorder.handlers());
    informer.start();
    ASSERT_TRUE(client.waitIdle(2));
    informer.stop();
    EXPECT_EQ(recorder.calls(), (Strings{"add changed 11", "add gone 12", "add same 10",
                                         "add new 31", "update changed 11->30", "delete gone"}));
    EXPECT_EQ(informer.stats().gone_relists, 1u);
    EXPECT_EQ(informer.stats().lists, 2u);
    EXPECT_EQ(client.watchRequests().back().resourceVersion, "31");
    // The relist asks for the latest state, not the expired version.
    EXPECT_EQ(client.listRequests().back().resourceVersion, "");
  }
}

TEST(InformerTest, AListThatFailsPartWayIsDiscardedAndRetried) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "1"), configMap("b", "2")}, "", "token"));
  client.addListError(Status::unavailable("connection refused"));
  client.addListPage(page({configMap("c", "3")}, "3"));
  Recorder recorder;
  Informer<ConfigMap> informer(client, options());
  informer.addHandlers(recorder.handlers());
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::seconds(10)));
  ASSERT_TRUE(client.waitIdle(1));
  informer.stop();
  EXPECT_EQ(recorder.calls(), (Strings{"add c 3"}));
  EXPECT_EQ(informer.store().listKeys(), (Strings{"ns/c"}));
  EXPECT_EQ(informer.stats().errors, 1u);
}

TEST(InformerTest, ABrokenStreamResumesFromTheLastEventNotFromTheList) {
  ScriptedClient client;
  client.addListPage(page({}, "5"));
  // The connection breaks in the middle of the second event: the first is applied once, the cut
  // one is asked for again by resuming from the first one's version.
  const std::string second = event("ADDED", configMap("b", "7"));
  client.addWatch({{event("ADDED", configMap("a", "6")) + second.substr(0, 20)},
                   Status::unavailable("connection reset")});
  client.addWatch({{second}, Status::ok()});
  Recorder recorder;
  Informer<ConfigMap> informer(client, options());
  informer.addHandlers(recorder.handlers());
  informer.start();
  ASSERT_TRUE(client.waitIdle(3));
  informer.stop();
  EXPECT_EQ(recorder.calls(), (Strings{"add a 6", "add b 7"}));
  const auto watches = client.watchRequests();
  EXPECT_EQ(watches[0].resourceVersion, "5");
  EXPECT_EQ(watches[1].resourceVersion, "6");
  EXPECT_EQ(watches[2].resourceVersion, "7");
  EXPECT_EQ(informer.stats().lists, 1u);
  EXPECT_GE(informer.stats().errors, 1u);
}

TEST(InformerTest, AnObjectItCannotDecodeIsCountedAndSkipped) {
  ScriptedClient client;
  Json bad = configMap("bad", "2");
  bad["data"] = "not a map";
  client.addListPage(page({configMap("a", "1"), bad}, "2"));
  Recorder recorder;
  Informer<ConfigMap> informer(client, options());
  informer.addHandlers(recorder.handlers());
  informer.start();
  ASSERT_TRUE(client.waitIdle(1));
  informer.stop();
  EXPECT_EQ(recorder.calls(), (Strings{"add a 1"}));
  EXPECT_EQ(informer.stats().handler_errors, 1u);
}

TEST(InformerTest, HandlersAddedAfterSyncFirstSeeTheCache) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "1"), configMap("b", "2")}, "2"));
  Informer<ConfigMap> informer(client, options());
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::seconds(10)));
  ASSERT_TRUE(client.waitIdle(1));
  Recorder late;
  informer.addHandlers(late.handlers());
  client.addWatch({{event("ADDED", configMap("c", "3"))}, Status::ok()});
  ASSERT_TRUE(client.waitIdle(3));
  informer.stop();
  EXPECT_EQ(late.calls(), (Strings{"add a 1", "add b 2", "add c 3"}));
}

TEST(InformerTest, ADecoderTrimsWhatIsCached) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "1", "a-long-value")}, "1"));
  Informer<ConfigMap> informer(client, options(), [](Json&& object) -> Result<ConfigMap> {
    object.erase("data");
    return decodeObject<ConfigMap>(std::move(object));
  });
  informer.start();
  ASSERT_TRUE(informer.waitForSync(std::chrono::seconds(10)));
  informer.stop();
  EXPECT_TRUE(informer.store().get("ns/a")->data.empty());
}

TEST(InformerTest, NotSyncedWhileTheServerIsDown) {
  ScriptedClient client;  // no scripted list: every list fails
  FakeClock clock;
  ReflectorOptions o = options();
  o.clock = &clock;
  Informer<ConfigMap> informer(client, o);
  informer.start();
  EXPECT_FALSE(informer.hasSynced());
  std::thread waiter([&] { EXPECT_FALSE(informer.waitForSync(std::chrono::seconds(5))); });
  while (clock.waiterCount() < 2) {  // the reflector's backoff and the waiter
    std::this_thread::yield();
  }
  clock.advance(std::chrono::seconds(6));
  waiter.join();
  informer.stop();  // returns although the reflector is in a backoff wait
  EXPECT_FALSE(informer.hasSynced());
  EXPECT_GE(client.listRequests().size(), 1u);
}

// A refused watch (RBAC taken away) marks the cache stale from that moment; the next watch that
// delivers anything (here a bookmark) marks it fresh again.
TEST(InformerTest, FailingSinceRunsFromTheFirstFailureToTheNextSuccess) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "1")}, "1"));
  client.addWatch({{}, Status::permissionDenied("configmaps is forbidden")});
  client.addWatch({{bookmark("2")}, Status::ok()});
  FakeClock clock;
  ReflectorOptions o = options();
  o.clock = &clock;
  o.backoff.initial = std::chrono::seconds(60);
  o.backoff.cap = std::chrono::seconds(60);
  Informer<ConfigMap> informer(client, o);
  informer.start();
  while (informer.stats().errors < 1 || clock.waiterCount() < 1) {  // in the backoff wait
    std::this_thread::yield();
  }
  const Clock::TimePoint failed_at = clock.now();
  EXPECT_EQ(informer.stats().failing_since, failed_at);
  clock.advance(std::chrono::seconds(30));
  EXPECT_EQ(informer.stats().failing_since, failed_at);  // still waiting to retry: still stale
  clock.advance(std::chrono::seconds(31));
  ASSERT_TRUE(client.waitIdle(3));
  EXPECT_EQ(informer.stats().failing_since, Clock::TimePoint{});
  informer.stop();
}

TEST(SharedInformerFactoryTest, FailingForIsTheLongestRunOfFailures) {
  ScriptedClient client;  // no scripted list: every list fails
  FakeClock clock;
  SharedInformerFactoryOptions options;
  options.clock = &clock;
  SharedInformerFactory factory(client, options);
  auto informer =
      factory.informerFor<ConfigMap>(GroupVersionResource{"", "v1", "configmaps"}, {"ns", "", ""});
  ASSERT_TRUE(informer.ok());
  EXPECT_EQ(factory.failingFor(), Clock::Duration::zero());
  factory.start();
  while ((*informer)->stats().errors < 1 || clock.waiterCount() < 1) {
    std::this_thread::yield();
  }
  EXPECT_EQ(factory.failingFor(), Clock::Duration::zero());  // failing since this instant
  clock.advance(std::chrono::seconds(45));
  EXPECT_EQ(factory.failingFor(), std::chrono::seconds(45));
  factory.shutdown();
}

TEST(SharedInformerFactoryTest, OneInformerPerResourceAndScope) {
  ScriptedClient client;
  SharedInformerFactory factory(client);
  const GroupVersionResource gvr{"", "v1", "configmaps"};
  auto first = factory.informerFor<ConfigMap>(gvr, {"ns", "", ""});
  auto again = factory.informerFor<ConfigMap>(gvr, {"ns", "", ""});
  auto other_ns = factory.informerFor<ConfigMap>(gvr, {"other", "", ""});
  ASSERT_TRUE(first.ok() && again.ok() && other_ns.ok());
  EXPECT_EQ(first->get(), again->get());
  EXPECT_NE(first->get(), other_ns->get());
  EXPECT_EQ(factory.size(), 2u);
  auto wrong_type = factory.informerFor<api::core::Pod>(gvr, {"ns", "", ""});
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_TRUE(isAlreadyExists(wrong_type.status()));
}

TEST(SharedInformerFactoryTest, WaitsForEveryInformer) {
  ScriptedClient client;
  client.addListPage(page({configMap("a", "1")}, "1"));
  client.addListPage(page({configMap("b", "2")}, "2"));
  SharedInformerFactory factory(client);
  const GroupVersionResource gvr{"", "v1", "configmaps"};
  auto one = factory.informerFor<ConfigMap>(gvr, {"ns", "", ""});
  auto two = factory.informerFor<ConfigMap>(gvr, {"ns", "app=x", ""});
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_FALSE(factory.hasSynced());
  factory.start();
  ASSERT_TRUE(factory.waitForCacheSync(std::chrono::seconds(10)));
  EXPECT_EQ((*one)->store().size() + (*two)->store().size(), 2u);
  factory.shutdown();
}

}  // namespace
}  // namespace koord::k8s
