// The extender's HTTP server over real loopback HTTP, with a gmock ExtenderService: every verb
// in the exact wire shape kube-scheduler sends and reads, bad input, health, readiness, metrics
// and HTTPS.
#include "extender/server/extender_server.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "http_client.hpp"
#include "koord/api/codec.hpp"
#include "mocks/extender/mock_extender_service.hpp"
#include "test/support/tls/tls_files.hpp"

namespace koord::extender::server {
namespace {

namespace ext = api::extender;
using ::koord::extender::testing::MockExtenderService;
using ::testing::_;
using ::testing::Invoke;
using ::testing::Return;
using ::testing::StrictMock;

class ServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::initClient(); }

  void startServer(ServerOptions options = {}) {
    options.port = 0;
    auto created = ExtenderServer::create(service_, metrics_, options);
    ASSERT_TRUE(created.ok()) << created.status().message();
    server_ = std::move(*created);
    ASSERT_TRUE(server_->start().isOk());
  }

  uint16_t port() const { return server_->port(); }

  StrictMock<MockExtenderService> service_;
  metrics::MetricsRegistry metrics_;
  std::unique_ptr<ExtenderServer> server_;
};

api::Json parse(const std::string& text) {
  auto parsed = api::parseJson(text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? *parsed : api::Json();
}

constexpr char kPod[] =
    R"({"metadata":{"name":"web-0","namespace":"default","uid":"uid-1"},)"
    R"("spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}})";

std::string withPod(const std::string& rest) {
  return std::string("{\"Pod\":") + kPod + rest;
}

struct RoundTripCase {
  std::string name;
  std::string path;
  std::string request;
  // Sets the mock's expectation and checks what it receives.
  std::function<void(MockExtenderService&)> expect;
  std::string reply;  // the exact reply body, as JSON
};

class RoundTripTest : public ServerTest, public ::testing::WithParamInterface<RoundTripCase> {};

TEST_P(RoundTripTest, AnswersInTheWireShape) {
  const RoundTripCase& c = GetParam();
  GetParam().expect(service_);
  startServer();
  const testing::Reply reply = testing::post(port(), c.path, c.request);
  ASSERT_EQ(reply.status, 200) << reply.error << reply.body;
  EXPECT_EQ(reply.content_type, "application/json");
  EXPECT_EQ(parse(reply.body), parse(c.reply)) << reply.body;
}

ext::ExtenderFilterResult filterResult(std::vector<std::string> names, ext::FailedNodesMap failed,
                                       ext::FailedNodesMap unresolvable, std::string error) {
  ext::ExtenderFilterResult result;
  result.nodeNames = std::move(names);
  result.failedNodes = std::move(failed);
  result.failedAndUnresolvableNodes = std::move(unresolvable);
  result.error = std::move(error);
  return result;
}

INSTANTIATE_TEST_SUITE_P(
    Verbs, RoundTripTest,
    ::testing::Values(
        RoundTripCase{
            "FilterNodeNames", "/scheduler/filter",
            withPod(R"(,"Nodes":null,"NodeNames":["n1","n2","n3"]})"),
            [](MockExtenderService& s) {
              // The service does not hold the pod: the body is decoded in full.
              EXPECT_CALL(s, filterKnownPod(_)).WillOnce(Return(std::nullopt));
              EXPECT_CALL(s, filter(_)).WillOnce(Invoke([](const ext::ExtenderArgs& args) {
                EXPECT_EQ(args.pod.metadata.name, "web-0");
                EXPECT_EQ(args.pod.metadata.uid, "uid-1");
                EXPECT_FALSE(args.nodes.has_value());
                EXPECT_EQ(args.nodeNames, (std::vector<std::string>{"n1", "n2", "n3"}));
                return filterResult({"n1"}, {{"n2", "Insufficient cpu"}},
                                    {{"n3", "node(s) not found in koord-extender's cache"}}, "");
              }));
            },
            R"({"Nodes":null,"NodeNames":["n1"],"FailedNodes":{"n2":"Insufficient cpu"},)"
            R"("FailedAndUnresolvableNodes":{"n3":"node(s) not found in koord-extender's cache"},)"
            R"("Error":""})"},
        RoundTripCase{
            "FilterEmptyMapsAreNull", "/scheduler/filter",
            withPod(R"(,"Nodes":null,"NodeNames":["n1"]})"),
            [](MockExtenderService& s) {
              EXPECT_CALL(s, filterKnownPod(_)).WillOnce(Return(std::nullopt));
              EXPECT_CALL(s, filter(_)).WillOnce(Return(filterResult({"n1"}, {}, {}, "")));
            },
            R"({"Nodes":null,"NodeNames":["n1"],"FailedNodes":null,)"
            R"("FailedAndUnresolvableNodes":null,"Error":""})"},
        RoundTripCase{
            "FilterError", "/scheduler/filter", withPod(R"(,"Nodes":null,"NodeNames":["n1"]})"),
            [](MockExtenderService& s) {
              ext::ExtenderFilterResult result;
              result.error = "failed to run pre-filter 'ElasticQuota': quota 'q' not found";
              EXPECT_CALL(s, filterKnownPod(_)).WillOnce(Return(std::nullopt));
              EXPECT_CALL(s, filter(_)).WillOnce(Return(result));
            },
            R"({"Nodes":null,"NodeNames":null,"FailedNodes":null,"FailedAndUnresolvableNodes":null,)"
            R"("Error":"failed to run pre-filter 'ElasticQuota': quota 'q' not found"})"},
        RoundTripCase{"FilterKnownPod", "/scheduler/filter",
                      withPod(R"(,"Nodes":null,"NodeNames":["n1","n2"]})"),
                      [](MockExtenderService& s) {
                        // The service holds this version of the pod: filter (the full decode) is
                        // not called.
                        EXPECT_CALL(s, filterKnownPod(_))
                            .WillOnce(Invoke([](const wire::ExtenderArgsKey& key) {
                              EXPECT_EQ(key.pod_namespace, "default");
                              EXPECT_EQ(key.pod_name, "web-0");
                              EXPECT_EQ(key.pod_uid, "uid-1");
                              EXPECT_EQ(key.node_names, (std::vector<std::string>{"n1", "n2"}));
                              return std::optional(
                                  filterResult({"n2"}, {{"n1", "Insufficient cpu"}}, {}, ""));
                            }));
                      },
                      R"({"Nodes":null,"NodeNames":["n2"],"FailedNodes":{"n1":"Insufficient cpu"},)"
                      R"("FailedAndUnresolvableNodes":null,"Error":""})"},
        RoundTripCase{"FilterCaseInsensitiveKeys", "/scheduler/filter",
                      std::string("{\"pod\":") + kPod + R"(,"nodenames":["n1"]})",
                      [](MockExtenderService& s) {
                        EXPECT_CALL(s, filter(_)).WillOnce(Invoke([](const ext::ExtenderArgs& a) {
                          EXPECT_EQ(a.pod.metadata.name, "web-0");
                          return filterResult(a.nodeNames.value_or(std::vector<std::string>{}), {},
                                              {}, "");
                        }));
                      },
                      R"({"Nodes":null,"NodeNames":["n1"],"FailedNodes":null,)"
                      R"("FailedAndUnresolvableNodes":null,"Error":""})"},
        RoundTripCase{
            "Prioritize", "/scheduler/prioritize",
            withPod(R"(,"Nodes":null,"NodeNames":["n1","n2"]})"),
            [](MockExtenderService& s) {
              // The service cannot tell the pod by its key: the body is decoded in full.
              EXPECT_CALL(s, prioritizeKnownPod(_)).WillOnce(Return(std::nullopt));
              EXPECT_CALL(s, prioritize(_)).WillOnce(Invoke([](const ext::ExtenderArgs& args) {
                EXPECT_EQ(args.nodeNames->size(), 2u);
                return ext::HostPriorityList{{"n1", 7}, {"n2", 0}};
              }));
            },
            R"([{"Host":"n1","Score":7},{"Host":"n2","Score":0}])"},
        RoundTripCase{"PrioritizeKnownPod", "/scheduler/prioritize",
                      withPod(R"(,"Nodes":null,"NodeNames":["n1","n2"]})"),
                      [](MockExtenderService& s) {
                        // The service knows the pod by its UID: prioritize (the full decode) is not
                        // called.
                        EXPECT_CALL(s, prioritizeKnownPod(_))
                            .WillOnce(Invoke([](const wire::ExtenderArgsKey& key) {
                              EXPECT_EQ(key.pod_uid, "uid-1");
                              EXPECT_EQ(key.node_names, (std::vector<std::string>{"n1", "n2"}));
                              return std::optional(ext::HostPriorityList{{"n2", 4}});
                            }));
                      },
                      R"([{"Host":"n2","Score":4}])"},
        RoundTripCase{
            "Bind", "/scheduler/bind",
            R"({"PodName":"web-0","PodNamespace":"default","PodUID":"uid-1","Node":"n1"})",
            [](MockExtenderService& s) {
              EXPECT_CALL(s, bind(_)).WillOnce(Invoke([](const ext::ExtenderBindingArgs& args) {
                EXPECT_EQ(args, (ext::ExtenderBindingArgs{"web-0", "default", "uid-1", "n1"}));
                return ext::ExtenderBindingResult{};
              }));
            },
            R"({"Error":""})"},
        RoundTripCase{
            "BindFailure", "/scheduler/bind",
            R"({"PodName":"web-0","PodNamespace":"default","PodUID":"uid-1","Node":"n1"})",
            [](MockExtenderService& s) {
              EXPECT_CALL(s, bind(_))
                  .WillOnce(Return(
                      ext::ExtenderBindingResult{"node 'n1' no longer fits: Insufficient cpu"}));
            },
            R"({"Error":"node 'n1' no longer fits: Insufficient cpu"})"},
        RoundTripCase{
            "PreemptMetaVictims", "/scheduler/preempt",
            withPod(R"(,"NodeNameToVictims":null,"NodeNameToMetaVictims":)"
                    R"({"n1":{"Pods":[{"UID":"v1"},{"UID":"v2"}],"NumPDBViolations":1},)"
                    R"("n2":{"Pods":[{"UID":"v3"}],"NumPDBViolations":0}}})"),
            [](MockExtenderService& s) {
              EXPECT_CALL(s, preempt(_))
                  .WillOnce(Invoke([](const ext::ExtenderPreemptionArgs& args) {
                    EXPECT_FALSE(args.nodeNameToVictims.has_value());
                    EXPECT_EQ(args.nodeNameToMetaVictims->at("n1").pods.size(), 2u);
                    EXPECT_EQ(args.nodeNameToMetaVictims->at("n1").numPDBViolations, 1);
                    ext::ExtenderPreemptionResult result;
                    result.nodeNameToMetaVictims =
                        std::map<std::string, ext::MetaVictims>{{"n1", {{{"v2"}}, 0}}};
                    return result;
                  }));
            },
            R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":"v2"}],"NumPDBViolations":0}}})"},
        RoundTripCase{"PreemptFullVictimsNoPreemption", "/scheduler/preempt",
                      withPod(std::string(R"(,"NodeNameToVictims":{"n1":{"Pods":[)") + kPod +
                              R"(],"NumPDBViolations":0}},"NodeNameToMetaVictims":null})"),
                      [](MockExtenderService& s) {
                        EXPECT_CALL(s, preempt(_))
                            .WillOnce(Invoke([](const ext::ExtenderPreemptionArgs& args) {
                              EXPECT_EQ(args.nodeNameToVictims->at("n1").pods.at(0).metadata.uid,
                                        "uid-1");
                              return ext::ExtenderPreemptionResult{};
                            }));
                      },
                      R"({"NodeNameToMetaVictims":null})"}),
    [](const ::testing::TestParamInfo<RoundTripCase>& param_info) {
      return param_info.param.name;
    });

TEST_F(ServerTest, FilterWithNodeObjectsReturnsTheGivenNodes) {
  EXPECT_CALL(service_, filter(_)).WillOnce(Invoke([](const ext::ExtenderArgs& args) {
    EXPECT_FALSE(args.nodeNames.has_value());
    ext::ExtenderFilterResult result;
    result.nodes = args.nodes;
    result.nodes->items.resize(1);
    result.failedNodes = {{"n2", "Insufficient cpu"}};
    return result;
  }));
  startServer();
  const testing::Reply reply =
      testing::post(port(), "/scheduler/filter",
                    withPod(R"(,"Nodes":{"metadata":{},"items":[{"metadata":{"name":"n1"}},)"
                            R"({"metadata":{"name":"n2"}}]},"NodeNames":null})"));
  ASSERT_EQ(reply.status, 200) << reply.body;
  const api::Json body = parse(reply.body);
  EXPECT_TRUE(body.at("NodeNames").is_null());
  ASSERT_EQ(body.at("Nodes").at("items").size(), 1u);
  EXPECT_EQ(body.at("Nodes").at("items").at(0).at("metadata").at("name"), "n1");
  EXPECT_EQ(body.at("FailedNodes"), (api::Json{{"n2", "Insufficient cpu"}}));
  EXPECT_TRUE(body.at("FailedAndUnresolvableNodes").is_null());
}

struct BadInputCase {
  std::string name;
  std::string method;
  std::string path;
  std::string body;
  long status;
  // For 400: the exact set of keys of the JSON reply, and a fragment of its Error.
  std::vector<std::string> keys;
  std::string error_fragment;
};

class BadInputTest : public ServerTest, public ::testing::WithParamInterface<BadInputCase> {};

TEST_P(BadInputTest, IsRejectedWithoutCallingTheService) {
  const BadInputCase& c = GetParam();
  startServer();  // StrictMock: any call to the service fails the test
  const testing::Reply reply = testing::send(port(), {c.method, c.path, c.body, false});
  ASSERT_EQ(reply.status, c.status) << reply.error << reply.body;
  if (c.status != 400) {
    return;
  }
  EXPECT_EQ(reply.content_type, "application/json");
  const api::Json body = parse(reply.body);
  ASSERT_TRUE(body.is_object()) << reply.body;
  std::vector<std::string> keys;
  for (const auto& [key, value] : body.items()) {
    keys.push_back(key);
    if (key != "Error") {
      EXPECT_TRUE(value.is_null()) << key;
    }
  }
  EXPECT_THAT(keys, ::testing::UnorderedElementsAreArray(c.keys));
  EXPECT_THAT(body.value("Error", ""), ::testing::HasSubstr(c.error_fragment)) << reply.body;
}

const std::vector<std::string> kFilterKeys = {"Nodes", "NodeNames", "FailedNodes",
                                              "FailedAndUnresolvableNodes", "Error"};

// `depth` objects nested under key "a" (6 bytes a level: 100,000 levels are about 600 KB).
std::string deepObjects(std::size_t depth) {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) {
    out += R"({"a":)";
  }
  return out + "1" + std::string(depth, '}');
}

std::string deepArrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// What once crashed koord-extender (the connection thread's stack overflowed): deep JSON under an
// unknown field of the Pod or of a Node, sent to every verb.
constexpr char kNestingError[] = "nesting deeper than 256 levels";

INSTANTIATE_TEST_SUITE_P(
    Cases, BadInputTest,
    ::testing::Values(
        BadInputCase{"FilterMalformedJson", "POST", "/scheduler/filter", R"({"Pod": {)", 400,
                     kFilterKeys, "failed to decode 'ExtenderArgs'"},
        BadInputCase{"FilterEmptyBody", "POST", "/scheduler/filter", "", 400, kFilterKeys,
                     "empty request body"},
        BadInputCase{"FilterNotAnObject", "POST", "/scheduler/filter", "[1,2]", 400, kFilterKeys,
                     "expected a JSON object, got array"},
        BadInputCase{"FilterPodWrongShape", "POST", "/scheduler/filter",
                     R"({"Pod": 5, "NodeNames": ["n1"]})", 400, kFilterKeys, "Pod"},
        BadInputCase{"FilterQuantityWrong", "POST", "/scheduler/filter",
                     R"({"Pod":{"spec":{"containers":[{"name":"c","resources":{"requests":)"
                     R"({"cpu":"two"}}}]}},"NodeNames":["n1"]})",
                     400, kFilterKeys, "cpu"},
        BadInputCase{"PrioritizeNodeNamesWrongShape",
                     "POST",
                     "/scheduler/prioritize",
                     R"({"Pod": {}, "NodeNames": "n1"})",
                     400,
                     {"Error"},
                     "NodeNames"},
        BadInputCase{"BindPodNameNotString",
                     "POST",
                     "/scheduler/bind",
                     R"({"PodName": 1, "Node": "n1"})",
                     400,
                     {"Error"},
                     "PodName"},
        BadInputCase{"BindTruncated",
                     "POST",
                     "/scheduler/bind",
                     R"({"PodName": "p")",
                     400,
                     {"Error"},
                     "failed to decode 'ExtenderBindingArgs'"},
        BadInputCase{"PreemptVictimUidNotString",
                     "POST",
                     "/scheduler/preempt",
                     R"({"Pod": {}, "NodeNameToMetaVictims": {"n1": {"Pods": [{"UID": 3}]}}})",
                     400,
                     {"Error"},
                     "UID"},
        BadInputCase{"FilterDeepPodMetadata", "POST", "/scheduler/filter",
                     R"({"Pod":{"metadata":{"name":"p","x":)" + deepObjects(100000) +
                         R"(}},"NodeNames":["n1"]})",
                     400, kFilterKeys, kNestingError},
        BadInputCase{"FilterDeepNodeInItems", "POST", "/scheduler/filter",
                     R"({"Pod":{"metadata":{"name":"p"}},"Nodes":{"items":[{"metadata":)"
                     R"({"name":"n1"},"spec":{"x":)" +
                         deepArrays(300000) + "}}]}}",
                     400, kFilterKeys, kNestingError},
        BadInputCase{"PrioritizeDeepPodSpec",
                     "POST",
                     "/scheduler/prioritize",
                     R"({"Pod":{"spec":{"x":)" + deepArrays(300000) + R"(}},"NodeNames":["n1"]})",
                     400,
                     {"Error"},
                     kNestingError},
        BadInputCase{"PreemptDeepPod",
                     "POST",
                     "/scheduler/preempt",
                     R"({"Pod":{"metadata":{"x":)" + deepObjects(100000) + "}}}",
                     400,
                     {"Error"},
                     kNestingError},
        BadInputCase{"BindDeepUnknownField",
                     "POST",
                     "/scheduler/bind",
                     R"({"PodName":"p","x":)" + deepObjects(100000) + "}",
                     400,
                     {"Error"},
                     kNestingError},
        BadInputCase{"UnknownVerb", "POST", "/scheduler/reserve", "{}", 404, {}, ""},
        BadInputCase{"VerbWithoutPrefix", "POST", "/filter", "{}", 404, {}, ""},
        BadInputCase{"FilterWithGet", "GET", "/scheduler/filter", "", 405, {}, ""},
        BadInputCase{"BindWithPut", "PUT", "/scheduler/bind", "{}", 405, {}, ""},
        BadInputCase{"HealthzWithPost", "POST", "/healthz", "{}", 405, {}, ""}),
    [](const ::testing::TestParamInfo<BadInputCase>& param_info) { return param_info.param.name; });

TEST_F(ServerTest, BodyOverTheCapIs413AndUnderTheCapIsServed) {
  ServerOptions options;
  options.max_request_bytes = 4096;
  EXPECT_CALL(service_, bind(_)).WillOnce(Return(ext::ExtenderBindingResult{}));
  startServer(options);
  const std::string padding(5000, ' ');
  const std::string request = R"({"PodName":"p","PodNamespace":"ns","PodUID":"u","Node":"n1"})";
  EXPECT_EQ(testing::post(port(), "/scheduler/bind", request + padding).status, 413);
  EXPECT_EQ(testing::post(port(), "/scheduler/bind", request + padding.substr(0, 3000)).status,
            200);
}

TEST_F(ServerTest, ReadyzFollowsTheServiceAndHealthzIsAlwaysOk) {
  EXPECT_CALL(service_, ready()).WillOnce(Return(false)).WillOnce(Return(true));
  startServer();
  EXPECT_EQ(testing::get(port(), "/healthz").status, 200);
  EXPECT_EQ(testing::get(port(), "/readyz").status, 503);
  EXPECT_EQ(testing::get(port(), "/readyz").status, 200);
}

TEST_F(ServerTest, MetricsCountRequestsByVerbAndCode) {
  EXPECT_CALL(service_, bind(_)).WillRepeatedly(Return(ext::ExtenderBindingResult{}));
  startServer();
  const std::string request = R"({"PodName":"p","PodNamespace":"ns","PodUID":"u","Node":"n1"})";
  ASSERT_EQ(testing::post(port(), "/scheduler/bind", request).status, 200);
  ASSERT_EQ(testing::post(port(), "/scheduler/bind", request).status, 200);
  ASSERT_EQ(testing::post(port(), "/scheduler/bind", "nope").status, 400);
  const testing::Reply metrics = testing::get(port(), "/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_THAT(metrics.body, ::testing::HasSubstr(
                                "koord_extender_http_request_duration_seconds_count{code=\"200\","
                                "verb=\"bind\"} 2"));
  EXPECT_THAT(metrics.body, ::testing::HasSubstr(
                                "koord_extender_http_request_duration_seconds_count{code=\"400\","
                                "verb=\"bind\"} 1"));
}

// Posts `body` to `path` twice (the service answers the first from what it holds, then not) and a
// body that does not decode once, and returns /metrics: each way is counted once, the bad body
// not at all.
std::string metricsAfterTwoAndABadBody(uint16_t port, const std::string& path) {
  const std::string body = withPod(R"(,"Nodes":null,"NodeNames":["n1"]})");
  EXPECT_EQ(testing::post(port, path, body).status, 200);
  EXPECT_EQ(testing::post(port, path, body).status, 200);
  const std::string wrong_type = R"({"Pod":{"metadata":{"uid":"u"},"spec":"x"},"NodeNames":[]})";
  EXPECT_EQ(testing::post(port, path, wrong_type).status, 400);
  const testing::Reply metrics = testing::get(port, "/metrics");
  EXPECT_EQ(metrics.status, 200);
  return metrics.body;
}

// /metrics tells how often prioritize scored the pod filter kept and how often it decoded the body.
TEST_F(ServerTest, MetricsCountWherePrioritizeTookThePodFrom) {
  EXPECT_CALL(service_, prioritizeKnownPod(_))
      .WillOnce(Return(std::optional(ext::HostPriorityList{})))
      .WillOnce(Return(std::nullopt))
      .WillOnce(Return(std::nullopt));
  EXPECT_CALL(service_, prioritize(_)).WillOnce(Return(ext::HostPriorityList{}));
  startServer();
  const std::string metrics = metricsAfterTwoAndABadBody(port(), "/scheduler/prioritize");
  EXPECT_THAT(metrics,
              ::testing::HasSubstr("koord_extender_prioritize_pods_total{source=\"filter\"} 1"));
  EXPECT_THAT(metrics,
              ::testing::HasSubstr("koord_extender_prioritize_pods_total{source=\"decoded\"} 1"));
}

// /metrics tells how often filter took the pod from the informer and how often it decoded the
// body.
TEST_F(ServerTest, MetricsCountWhereFilterTookThePodFrom) {
  EXPECT_CALL(service_, filterKnownPod(_))
      .WillOnce(Return(std::optional(filterResult({"n1"}, {}, {}, ""))))
      .WillOnce(Return(std::nullopt))
      .WillOnce(Return(std::nullopt));
  EXPECT_CALL(service_, filter(_)).WillOnce(Return(filterResult({"n1"}, {}, {}, "")));
  startServer();
  const std::string metrics = metricsAfterTwoAndABadBody(port(), "/scheduler/filter");
  EXPECT_THAT(metrics,
              ::testing::HasSubstr("koord_extender_filter_pods_total{source=\"informer\"} 1"));
  EXPECT_THAT(metrics,
              ::testing::HasSubstr("koord_extender_filter_pods_total{source=\"decoded\"} 1"));
}

TEST_F(ServerTest, UrlPrefixIsConfigurable) {
  ServerOptions options;
  options.url_prefix = "koord/v1/";
  EXPECT_CALL(service_, bind(_)).WillOnce(Return(ext::ExtenderBindingResult{}));
  startServer(options);
  const std::string request = R"({"PodName":"p","PodNamespace":"ns","PodUID":"u","Node":"n1"})";
  EXPECT_EQ(testing::post(port(), "/koord/v1/bind", request).status, 200);
  EXPECT_EQ(testing::post(port(), "/scheduler/bind", request).status, 404);
}

TEST_F(ServerTest, BindsWaitingForTheApiServerNeverHoldUpAFilter) {
  // kube-scheduler keeps one bind in flight per pod of its binding cycle, each waiting on
  // kube-apiserver, while the next pod's filter is on its critical path: more binds than filter
  // slots must not make that filter wait.
  constexpr int kBinds = 6;
  std::mutex mu;
  std::condition_variable cv;
  int binding = 0;
  bool apiserver_answers = false;
  EXPECT_CALL(service_, bind(_))
      .Times(kBinds)
      .WillRepeatedly(Invoke([&](const ext::ExtenderBindingArgs&) {
        std::unique_lock lock(mu);
        ++binding;
        cv.notify_all();
        cv.wait_for(lock, std::chrono::seconds(10), [&] { return apiserver_answers; });
        return ext::ExtenderBindingResult{};
      }));
  EXPECT_CALL(service_, filterKnownPod(_)).WillOnce(Return(std::nullopt));
  EXPECT_CALL(service_, filter(_)).WillOnce(Return(filterResult({"n1"}, {}, {}, "")));
  ServerOptions options;
  options.handler_threads = 2;
  startServer(options);
  std::vector<testing::Reply> bound(kBinds);
  std::vector<std::thread> binds;
  for (auto& reply : bound) {
    binds.emplace_back([this, &reply] {
      reply = testing::post(port(), "/scheduler/bind",
                            R"({"PodName":"web-0","PodNamespace":"default","PodUID":"uid-1",)"
                            R"("Node":"n1"})");
    });
  }
  {
    std::unique_lock lock(mu);
    EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(5), [&] { return binding == kBinds; }))
        << binding << " binds in the service at once";
  }
  const auto start = std::chrono::steady_clock::now();
  const testing::Reply filtered =
      testing::post(port(), "/scheduler/filter", withPod(R"(,"NodeNames":["n1"]})"));
  EXPECT_EQ(filtered.status, 200) << filtered.error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  {
    std::lock_guard lock(mu);
    apiserver_answers = true;
  }
  cv.notify_all();
  for (auto& bind : binds) {
    bind.join();
  }
  for (const testing::Reply& reply : bound) {
    EXPECT_EQ(reply.status, 200) << reply.error;
  }
}

TEST(NormalizeUrlPrefixTest, TrimsAndRoots) {
  const std::vector<std::pair<std::string, std::string>> cases = {{"/scheduler", "/scheduler"},
                                                                  {"/scheduler/", "/scheduler"},
                                                                  {"scheduler", "/scheduler"},
                                                                  {"", ""},
                                                                  {"/", ""},
                                                                  {"/a/b//", "/a/b"}};
  for (const auto& [in, want] : cases) {
    EXPECT_EQ(normalizeUrlPrefix(in), want) << in;
  }
}

TEST(ExtenderServerCreateTest, RejectsBadOptions) {
  StrictMock<MockExtenderService> service;
  struct Case {
    std::string name;
    std::function<void(ServerOptions&)> edit;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {"CertWithoutKey", [](ServerOptions& o) { o.tls_cert_file = "/tmp/c.crt"; }, "tls_key_file"},
      {"KeyWithoutCert", [](ServerOptions& o) { o.tls_key_file = "/tmp/c.key"; }, "tls_cert_file"},
      {"ZeroCap", [](ServerOptions& o) { o.max_request_bytes = 0; }, "max_body_bytes"},
      {"BadPrefix", [](ServerOptions& o) { o.url_prefix = "/a b?x"; }, "is not a URL path"},
      {"EmptyAddress", [](ServerOptions& o) { o.address = ""; }, "address"},
  };
  for (const Case& c : cases) {
    metrics::MetricsRegistry metrics;
    ServerOptions options;
    options.port = 0;
    c.edit(options);
    auto created = ExtenderServer::create(service, metrics, options);
    ASSERT_FALSE(created.ok()) << c.name;
    EXPECT_EQ(created.status().code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(created.status().message(), ::testing::HasSubstr(c.fragment)) << c.name;
  }
}

class TlsTest : public ServerTest {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("koord-extender-tls-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(TlsTest, ServesHttpsFromCertificateAndKeyFiles) {
  const koord::testing::TlsFiles files =
      koord::testing::writeSelfSignedCertificate(dir_.string(), "server");
  ASSERT_FALSE(files.cert_file.empty());
  EXPECT_CALL(service_, bind(_)).WillOnce(Return(ext::ExtenderBindingResult{}));
  EXPECT_CALL(service_, ready()).WillOnce(Return(true));
  ServerOptions options;
  options.tls_cert_file = files.cert_file;
  options.tls_key_file = files.key_file;
  startServer(options);
  EXPECT_TRUE(server_->tls());
  const std::string request = R"({"PodName":"p","PodNamespace":"ns","PodUID":"u","Node":"n1"})";
  const testing::Reply reply = testing::send(port(), {"POST", "/scheduler/bind", request, true});
  ASSERT_EQ(reply.status, 200) << reply.error;
  EXPECT_EQ(parse(reply.body), parse(R"({"Error":""})"));
  EXPECT_EQ(testing::send(port(), {"GET", "/readyz", "", true}).status, 200);
  // Plain HTTP on the TLS port gets no HTTP answer.
  EXPECT_NE(testing::get(port(), "/healthz").status, 200);
}

TEST_F(TlsTest, UnloadableFilesFailStartNamingTheFile) {
  const koord::testing::TlsFiles a = koord::testing::writeSelfSignedCertificate(dir_.string(), "a");
  const koord::testing::TlsFiles b = koord::testing::writeSelfSignedCertificate(dir_.string(), "b");
  ASSERT_FALSE(a.cert_file.empty());
  ASSERT_FALSE(b.cert_file.empty());
  const std::string missing = (dir_ / "missing.crt").string();
  const std::string garbage = (dir_ / "garbage.crt").string();
  {
    std::FILE* f = std::fopen(garbage.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not a certificate\n", f);
    std::fclose(f);
  }
  struct Case {
    std::string cert, key, fragment;
  };
  const std::vector<Case> cases = {
      {missing, a.key_file, missing},
      {garbage, a.key_file, garbage},
      {a.cert_file, garbage, garbage},
      {a.cert_file, b.key_file, "failed to load TLS key '" + b.key_file + "'"},
  };
  for (const Case& c : cases) {
    metrics::MetricsRegistry metrics;
    ServerOptions options;
    options.port = 0;
    options.tls_cert_file = c.cert;
    options.tls_key_file = c.key;
    auto created = ExtenderServer::create(service_, metrics, options);
    ASSERT_TRUE(created.ok()) << created.status().message();
    const Status started = (*created)->start();
    EXPECT_EQ(started.code(), StatusCode::kInvalidArgument) << c.fragment;
    EXPECT_THAT(started.message(), ::testing::HasSubstr(c.fragment));
  }
}

}  // namespace
}  // namespace koord::extender::server
