// scanExtenderArgsKey reads the pod's UID, resourceVersion and the candidate names of what
// kube-scheduler sends, agrees with the full decoder on them, and gives up on anything else.
#include "extender/server/wire/args_key.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extender/server/wire/args_decoder.hpp"

namespace koord::extender::server::wire {
namespace {

// What kube-scheduler v1.36 sends to prioritize of a nodeCacheCapable extender (shortened).
constexpr const char* kKeyScanArgs = R"({"Pod":{"metadata":{"name":"p","namespace":"ns",)"
                                     R"("uid":"0f6c1d2e-aaaa","resourceVersion":"4711",)"
                                     R"("creationTimestamp":"2026-11-27T10:00:00Z",)"
                                     R"("labels":{"app":"web","note":"caf\u00e9 \u2603 €"},)"
                                     R"("managedFields":[{"manager":"kubectl","fieldsV1":)"
                                     R"({"f:spec":{"k:{\"name\":\"c\"}":{}}}}]},)"
                                     R"("spec":{"containers":[{"name":"c","resources":)"
                                     R"({"requests":{"cpu":"250m"}}}],"priority":-12.5e+3,)"
                                     R"("enableServiceLinks":true,"hostNetwork":false,)"
                                     R"("overhead":null},"status":{"phase":"Pending"}},)"
                                     R"("Nodes":null,"NodeNames":["n1","n2","n3"]})";

TEST(ExtenderArgsKeyTest, ReadsThePodAndNamesOfWhatKubeSchedulerSends) {
  auto key = scanExtenderArgsKey(kKeyScanArgs);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->pod_uid, "0f6c1d2e-aaaa");
  EXPECT_EQ(key->pod_resource_version, "4711");
  EXPECT_EQ(key->node_names, (std::vector<std::string>{"n1", "n2", "n3"}));
  EXPECT_EQ(key->pod_namespace, "ns");
  EXPECT_EQ(key->pod_name, "p");

  auto full = decodeExtenderArgs(kKeyScanArgs);
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(full->pod.metadata.uid, key->pod_uid);
  EXPECT_EQ(full->pod.metadata.resourceVersion, key->pod_resource_version);
  EXPECT_EQ(full->pod.metadata.namespace_, key->pod_namespace);
  EXPECT_EQ(full->pod.metadata.name, key->pod_name);
  ASSERT_TRUE(full->nodeNames.has_value());
  EXPECT_EQ(*full->nodeNames, key->node_names);
}

TEST(ExtenderArgsKeyTest, TakesAnyOrderWhiteSpaceNoNodesAndNoResourceVersion) {
  auto key = scanExtenderArgsKey(
      " {\n \"NodeNames\" : [ ] ,\t\"Extra\": [1, {\"a\": [null]}],\r\n"
      " \"Pod\" : { \"spec\": {}, \"metadata\" : { \"uid\" : \"u\" } } } \n");
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->pod_uid, "u");
  EXPECT_EQ(key->pod_resource_version, "");
  EXPECT_EQ(key->pod_namespace, "");
  EXPECT_EQ(key->pod_name, "");
  EXPECT_TRUE(key->node_names.empty());
}

// Each of these gives up, so that the full decoder takes the body and words the error or decides
// which of two spellings counts.
TEST(ExtenderArgsKeyTest, GivesUpOnAnythingButThePlainShape) {
  const std::vector<std::string> bodies = {
      "",
      "[]",
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":["n1"]} x)",                 // trailing bytes
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":["n1"])",                    // cut short
      R"({"Pod":{"metadata":{"uid":"u"}}})",                                      // no NodeNames
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":null})",                     // NodeNames null
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":[],"Nodes":{"items":[]}})",  // Node objects
      R"({"Pod":{"metadata":{}},"NodeNames":[]})",                                // no uid
      R"({"Pod":{"metadata":{"uid":""}},"NodeNames":[]})",                        // empty uid
      R"({"Pod":{"metadata":{"uid":7}},"NodeNames":[]})",  // uid not a string
      R"({"Pod":{"metadata":{"uid":"u","resourceVersion":1}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u","name":null}},"NodeNames":[]})",  // name not a string
      R"({"Pod":{"metadata":{"uid":"u","namespace":["ns"]}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u","name":"a","name":"b"}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u","Namespace":"ns"}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u","name":"p\u0031"}},"NodeNames":[]})",
      R"({"Pod":null,"NodeNames":[]})",
      R"({"pod":{"metadata":{"uid":"u"}},"NodeNames":[]})",  // other letter case
      R"({"Pod":{"Metadata":{"uid":"u"}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"UID":"u"}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"}},"nodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"a"}},"Pod":{"metadata":{"uid":"b"}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"a","uid":"b"}},"NodeNames":[]})",  // given twice
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":["a"],"NodeNames":["b"]})",
      R"({"Pod":{"metadata":{"uid":"u\u0031"}},"NodeNames":[]})",  // escape in a read string
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":["n\u0031"]})",
      R"({"P\u006fd":{"metadata":{"uid":"a"}},"Pod":{"metadata":{"uid":"b"}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u","x":"\q"}},"NodeNames":[]})",      // bad escape
      R"({"Pod":{"metadata":{"uid":"u","x":"\ud800"}},"NodeNames":[]})",  // lone surrogate
      R"({"Pod":{"metadata":{"uid":"u","x":"\udc00"}},"NodeNames":[]})",
      "{\"Pod\":{\"metadata\":{\"uid\":\"u\",\"x\":\"\xC3\"}},\"NodeNames\":[]}",  // bad UTF-8
      "{\"Pod\":{\"metadata\":{\"uid\":\"u\",\"x\":\"\xED\xA0\x80\"}},\"NodeNames\":[]}",
      "{\"Pod\":{\"metadata\":{\"uid\":\"u\",\"x\":\"a\tb\"}},\"NodeNames\":[]}",  // raw tab
      R"({"Pod":{"metadata":{"uid":"u"},"x":01},"NodeNames":[]})",                 // bad numbers
      R"({"Pod":{"metadata":{"uid":"u"},"x":1.},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":-},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":1e},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":tru},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":1e400},"NodeNames":[]})",  // overflows a double
      R"({"Pod":{"metadata":{"uid":"u"},"x":-1.5e309},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":)" + std::string(400, '9') + R"(},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":[1,]},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"},"x":{"a":1,}},"NodeNames":[]})",
      R"({"Pod":{"metadata":{"uid":"u"}},"NodeNames":[],})",
  };
  for (const auto& body : bodies) {
    EXPECT_FALSE(scanExtenderArgsKey(body).has_value()) << body;
  }
}

TEST(ExtenderArgsKeyTest, TakesNumbersThatJsonTakes) {
  for (const std::string number : {"0", "-0", "12", "-3.25", "1e5", "2E-3", "1.5e+300", "1e-400",
                                   "123456789012345678901234567890"}) {
    const std::string body =
        R"({"Pod":{"metadata":{"uid":"u"},"x":)" + number + R"(},"NodeNames":[]})";
    EXPECT_TRUE(scanExtenderArgsKey(body).has_value()) << number;
  }
}

TEST(ExtenderArgsKeyTest, GivesUpOnNestingDeeperThanItsLimit) {
  auto nested = [](int depth) {
    return R"({"Pod":{"metadata":{"uid":"u"},"x":)" + std::string(depth, '[') +
           std::string(depth, ']') + R"(},"NodeNames":[]})";
  };
  EXPECT_TRUE(scanExtenderArgsKey(nested(200)).has_value());
  EXPECT_FALSE(scanExtenderArgsKey(nested(100000)).has_value());
}

}  // namespace
}  // namespace koord::extender::server::wire
