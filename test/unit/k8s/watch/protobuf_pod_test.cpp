// The Pod decoded straight from protobuf (protobuf_pod.hpp) against the JSON path it replaces
// (decodeProtobufObject, then decodePodForCache / decodePodForNode): on a hand-built Pod that sets
// every field the schema reads, on the events captured from kube-apiserver v1.36.3, and on the
// inputs the direct path leaves to the JSON path, whose errors must come out unchanged.
// integration.protobuf_watch_integration_test does the same against a live apiserver, and the
// fuzz target protobuf_pod_fuzz on arbitrary bytes.
#include "koord/k8s/protobuf_pod.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "koord/k8s/protobuf_object.hpp"
#include "koord/k8s/protobuf_watch_decoder.hpp"
#include "koord/k8s/transforms.hpp"

namespace koord::k8s {
namespace {

using api::core::Pod;
using namespace std::string_literals;

// ---- A minimal protobuf writer ----

std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}

// A length-delimited field: a string or a nested message.
std::string bytes(uint32_t number, std::string_view value) {
  return varint((uint64_t{number} << 3) | 2) + varint(value.size()) + std::string(value);
}

std::string num(uint32_t number, int64_t value) {
  return varint(uint64_t{number} << 3) + varint(static_cast<uint64_t>(value));
}

std::string entry(uint32_t number, std::string_view key, std::string_view value) {
  return bytes(number, bytes(1, key) + bytes(2, value));
}

std::string quantity(uint32_t number, std::string_view key, std::string_view value) {
  return bytes(number, bytes(1, key) + bytes(2, bytes(1, value)));
}

std::string time(uint32_t number, int64_t seconds) {
  return bytes(number, num(1, seconds));
}

std::string envelope(std::string_view raw, std::string_view kind = "Pod",
                     std::string_view api_version = "v1") {
  return "k8s\0"s + bytes(1, bytes(1, api_version) + bytes(2, kind)) + bytes(2, raw);
}

// A Pod that sets every field of the schema, some twice (a repeated occurrence of a message
// merges), with an invalid UTF-8 byte, an empty time, managedFields and fields outside the schema.
std::string richPodRaw() {
  const std::string owner = bytes(1, "ReplicaSet") + bytes(3, "web") + bytes(4, "uid-rs") +
                            bytes(5, "apps/v1") + num(6, 1) + num(7, 0);
  const std::string meta =
      bytes(1, "web-0") + bytes(2, "web-") + bytes(3, "default") + bytes(5, "uid-1") +
      bytes(6, "42") + num(7, 3) + time(8, 1700000000) + time(9, 1700000100) + num(10, 30) +
      entry(11, "app", "web") + entry(11, "bad", "a\xff") + entry(12, "note", "x") +
      entry(12, "kubectl.kubernetes.io/last-applied-configuration", "{}") + bytes(13, owner) +
      bytes(14, "koord.test/keep") + bytes(17, "managed-fields") + bytes(8, "");
  const std::string meta_again = entry(11, "rev", "2") + bytes(6, "43") + bytes(1, "");
  const std::string resources =
      quantity(1, "cpu", "2") + quantity(1, "memory", " 1Gi ") + quantity(2, "cpu", "250m") +
      quantity(2, "kubernetes.io/batch-cpu", "1500") + bytes(3, bytes(1, "gpu") + bytes(2, "r"));
  const std::string requirement = bytes(1, "zone") + bytes(2, "In") + bytes(3, "a") + bytes(3, "");
  const std::string term = bytes(1, requirement) +
                           bytes(2, bytes(1, "metadata.name") + bytes(2, "NotIn") + bytes(3, "n0"));
  const std::string node_affinity = bytes(1, bytes(1, term)) + bytes(2, num(1, 7) + bytes(2, term));
  const std::string selector =
      entry(1, "app", "web") + bytes(2, bytes(1, "tier") + bytes(2, "In") + bytes(3, "x"));
  const std::string pod_term = bytes(1, selector) + bytes(2, "default") +
                               bytes(3, "kubernetes.io/hostname") + bytes(5, "pod-template-hash");
  const std::string affinity = bytes(1, node_affinity) +
                               bytes(2, bytes(2, num(1, 3) + bytes(2, pod_term))) +
                               bytes(3, bytes(1, pod_term));
  const std::string spread = num(1, 2) + bytes(2, "zone") + bytes(3, "ScheduleAnyway") +
                             bytes(4, selector) + num(5, 1) + bytes(6, "Honor") +
                             bytes(7, "Ignore") + bytes(8, "app");
  const std::string spec =
      bytes(1, "a volume") + bytes(2, bytes(1, "main") + bytes(2, "nginx") + bytes(8, resources)) +
      bytes(2, bytes(1, "side") + bytes(7, "an env var")) + entry(7, "pool", "online") +
      bytes(10, "node-1") + num(11, 1) + bytes(18, affinity) + bytes(19, "koord-scheduler") +
      bytes(20, bytes(1, "init") + bytes(8, quantity(2, "cpu", "100m")) + bytes(24, "Always")) +
      bytes(22, bytes(1, "dedicated") + bytes(2, "Equal") + bytes(3, "batch") +
                    bytes(4, "NoSchedule")) +
      bytes(22, bytes(2, "Exists") + bytes(4, "NoExecute") + num(5, 30)) + bytes(24, "koord-prod") +
      num(25, 9000) + bytes(29, "runc") + bytes(31, "Never") + quantity(32, "cpu", "10m") +
      bytes(33, spread) + bytes(33, num(1, 1)) + bytes(40, quantity(2, "memory", "2Gi"));
  const std::string status =
      bytes(1, "Running") +
      bytes(2, bytes(1, "PodScheduled") + bytes(2, "True") + time(4, 1700000050) +
                   bytes(6, "a message outside the schema")) +
      bytes(2, bytes(1, "Ready") + bytes(2, "False") + bytes(5, "NotReady")) + bytes(3, "msg") +
      bytes(4, "why") + bytes(5, "10.0.0.1") + bytes(6, "10.1.0.1") + time(7, 1700000060) +
      bytes(8, bytes(1, "main") + num(4, 1) + num(5, 2) + bytes(8, "containerd://abc") +
                   bytes(6, "nginx")) +
      bytes(9, "Burstable") + bytes(11, "node-2");
  return bytes(1, meta) + bytes(2, spec) + bytes(3, status) + bytes(1, meta_again);
}

Result<Pod> throughJson(std::string_view env, PodFields fields) {
  auto object = decodeProtobufObject(env);
  if (!object.ok()) {
    return object.status();
  }
  return fields == PodFields::kCache ? decodePodForCache(std::move(object).value())
                                     : decodePodForNode(std::move(object).value());
}

std::string readPodTestdata(const std::string& name) {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/k8s/protobuf/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ProtobufPodTest, EveryFieldOfTheSchemaDecodesDirectlyAsThroughJson) {
  const std::string env = envelope(richPodRaw());
  for (PodFields fields : {PodFields::kCache, PodFields::kNode}) {
    auto direct = decodeProtobufPodDirect(env, fields);
    auto expected = throughJson(env, fields);
    ASSERT_TRUE(expected.ok()) << expected.status();
    ASSERT_TRUE(direct.has_value()) << "the direct path left a valid Pod to the JSON path";
    EXPECT_EQ(api::core::toJson(*direct).dump(2), api::core::toJson(*expected).dump(2));
    EXPECT_TRUE(*direct == *expected);
  }
  // The comparison is not between two empty pods.
  const Pod cache = decodeProtobufPodDirect(env, PodFields::kCache).value();
  EXPECT_EQ(cache.metadata.resourceVersion, "43");  // the second metadata merged in
  EXPECT_EQ(cache.metadata.name, "web-0");          // an empty string is no value
  EXPECT_EQ(cache.metadata.labels.at("rev"), "2");
  EXPECT_EQ(cache.metadata.labels.at("bad"), "a\xEF\xBF\xBD");  // as Go's JSON writes it
  EXPECT_EQ(cache.metadata.creationTimestamp, "2023-11-14T22:13:20Z");
  EXPECT_FALSE(
      cache.metadata.annotations.contains("kubectl.kubernetes.io/last-applied-configuration"));
  EXPECT_EQ(cache.spec.priority, 9000);
  EXPECT_EQ(cache.spec.containers.at(0).resources.limits.at("memory").value(), 1LL << 30);
  EXPECT_EQ(cache.spec.initContainers.at(0).restartPolicy, "Always");
  EXPECT_EQ(cache.spec.extra["topologySpreadConstraints"].size(), 2u);
  EXPECT_EQ(cache.spec.affinity->podAntiAffinity["requiredDuringSchedulingIgnoredDuringExecution"]
                                                [0]["topologyKey"],
            "kubernetes.io/hostname");
  EXPECT_TRUE(cache.status.conditions.empty());
  EXPECT_TRUE(cache.status.containerStatuses.is_null());
  const Pod node = decodeProtobufPodDirect(env, PodFields::kNode).value();
  EXPECT_EQ(node.status.conditions.size(), 2u);
  EXPECT_EQ(node.status.containerStatuses[0]["containerID"], "containerd://abc");
}

TEST(ProtobufPodTest, CapturedEventsDecodeDirectlyAsThroughJson) {
  ProtobufWatchDecoder raw(WatchDecoder::kDefaultMaxEventBytes, ProtobufObjects::kRaw);
  ProtobufWatchDecoder json;
  std::vector<WatchEvent> raw_events;
  std::vector<WatchEvent> json_events;
  const std::string stream = readPodTestdata("pod_watch_stream.bin");
  ASSERT_TRUE(raw.feed(stream, [&](WatchEvent&& e) { raw_events.push_back(std::move(e)); }).isOk());
  ASSERT_TRUE(
      json.feed(stream, [&](WatchEvent&& e) { json_events.push_back(std::move(e)); }).isOk());
  ASSERT_EQ(raw_events.size(), 2u);
  ASSERT_EQ(json_events.size(), 2u);
  for (size_t i = 0; i < raw_events.size(); ++i) {
    const WatchEvent& e = raw_events[i];
    EXPECT_EQ(e.type, json_events[i].type);
    EXPECT_EQ(e.resource_version, json_events[i].resource_version);
    EXPECT_TRUE(e.object.is_null());
    for (PodFields fields : {PodFields::kCache, PodFields::kNode}) {
      auto direct = decodeProtobufPodDirect(e.protobuf_object, fields);
      auto expected = fields == PodFields::kCache ? decodePodForCache(Json(json_events[i].object))
                                                  : decodePodForNode(Json(json_events[i].object));
      ASSERT_TRUE(expected.ok()) << expected.status();
      ASSERT_TRUE(direct.has_value()) << "event " << i;
      EXPECT_TRUE(*direct == *expected) << "event " << i;
    }
  }
  auto pod = decodeProtobufPodForNode(raw_events[1].protobuf_object);
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(pod->metadata.deletionTimestamp, "2026-11-27T01:27:44Z");
}

// What the direct path leaves to the JSON path comes out exactly as the JSON path gives it.
TEST(ProtobufPodTest, WhatTheDirectPathLeavesComesOutAsTheJsonPathGivesIt) {
  const std::string spec = bytes(2, bytes(1, "c"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a quantity that does not parse",
       envelope(bytes(2, bytes(2, bytes(1, "c") + bytes(8, quantity(1, "cpu", "2 cores")))))},
      {"a priority beyond int32", envelope(bytes(2, spec + num(25, int64_t{1} << 40)))},
      {"a weight beyond int32",
       envelope(bytes(2, bytes(18, bytes(1, bytes(2, num(1, -(int64_t{1} << 33)))))))},
      {"a truncated field", envelope(bytes(1, bytes(1, "web")).substr(0, 4))},
      {"a string sent as a varint", envelope(bytes(1, num(1, 5)))},
      {"a time out of range", envelope(bytes(1, time(8, int64_t{1} << 62)))},
      {"a group", envelope(bytes(2, varint((5 << 3) | 3)))},
      {"a Status", envelope(bytes(3, "Failure"), "Status")},
      {"a Node", envelope(bytes(1, bytes(1, "n")), "Node")},
      {"a content encoding", "k8s\0"s + bytes(1, bytes(1, "v1") + bytes(2, "Pod")) +
                                 bytes(2, bytes(1, bytes(1, "p"))) + bytes(3, "gzip")},
      {"no prefix", bytes(1, bytes(1, "v1") + bytes(2, "Pod"))},
  };
  for (const auto& [what, env] : cases) {
    for (PodFields fields : {PodFields::kCache, PodFields::kNode}) {
      EXPECT_FALSE(decodeProtobufPodDirect(env, fields).has_value()) << what;
      auto got = fields == PodFields::kCache ? decodeProtobufPodForCache(env)
                                             : decodeProtobufPodForNode(env);
      auto expected = throughJson(env, fields);
      ASSERT_EQ(got.ok(), expected.ok()) << what;
      if (expected.ok()) {
        EXPECT_TRUE(*got == *expected) << what;
      } else {
        EXPECT_EQ(got.status().code(), expected.status().code()) << what;
        EXPECT_EQ(got.status().message(), expected.status().message()) << what;
      }
    }
  }
  // The quantity's error names the field, as for a Pod read from JSON.
  auto bad = decodeProtobufPodForCache(cases[0].second);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("spec.containers[0].resources.limits.cpu"),
            std::string::npos)
      << bad.status();
}

TEST(ProtobufPodTest, ARawWatchKeepsObjectsAndStillReadsVersionsAndErrors) {
  const auto decodeRaw = [](const std::string& stream, std::vector<WatchEvent>& events) {
    ProtobufWatchDecoder decoder(WatchDecoder::kDefaultMaxEventBytes, ProtobufObjects::kRaw);
    Status fed = decoder.feed(stream, [&](WatchEvent&& e) { events.push_back(std::move(e)); });
    return fed.isOk() ? decoder.finish() : fed;
  };
  std::vector<WatchEvent> events;
  ASSERT_TRUE(decodeRaw(readPodTestdata("watch_bookmark.bin"), events).isOk());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, WatchEventType::kBookmark);
  EXPECT_EQ(events[0].resource_version, "200");

  events.clear();
  ASSERT_TRUE(decodeRaw(readPodTestdata("watch_gone.bin"), events).isOk());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, WatchEventType::kError);
  EXPECT_TRUE(events[0].protobuf_object.empty());  // a Status is always decoded
  EXPECT_TRUE(events[0].isGone());

  // An object broken past its metadata reaches the reader, which refuses it; one broken before
  // its version fails the stream as in JSON mode.
  const auto frame = [](const std::string& env) {
    const std::string message = bytes(1, "MODIFIED") + bytes(2, bytes(1, env));
    std::string out(4, '\0');
    for (size_t i = 0; i < 4; ++i) {
      out[i] = static_cast<char>((message.size() >> (8 * (3 - i))) & 0xff);
    }
    return out + message;
  };
  events.clear();
  const std::string late = envelope(bytes(1, bytes(6, "7")) + bytes(2, num(2, 1)));
  ASSERT_TRUE(decodeRaw(frame(late), events).isOk());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].resource_version, "7");
  EXPECT_FALSE(decodeProtobufPodForCache(events[0].protobuf_object).ok());

  events.clear();
  const Status early = decodeRaw(frame(envelope(bytes(1, num(6, 7)) + "\x0a")), events);
  EXPECT_EQ(early.code(), StatusCode::kInvalidArgument) << early;
  EXPECT_TRUE(events.empty());
}

}  // namespace
}  // namespace koord::k8s
