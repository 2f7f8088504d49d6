// The protobuf watch decoder on streams captured from kube-apiserver v1.36.3
// (test/testdata/k8s/protobuf/: a Pod's ADDED and MODIFIED events, a bookmark, a 410 ERROR
// event, a 404 Status body), and on those bytes cut and damaged. That the schema reads every
// field the way the JSON does is proved against a live apiserver by
// integration.protobuf_watch_integration_test.
#include "koord/k8s/protobuf_watch_decoder.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/protobuf_object.hpp"
#include "koord/k8s/transforms.hpp"

namespace koord::k8s {
namespace {

std::string readTestdata(const std::string& name) {
  std::ifstream in(std::string(KOORD_SOURCE_DIR) + "/test/testdata/k8s/protobuf/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Decoded {
  std::vector<WatchEvent> events;
  Status status;
};

// Feeds `stream` in pieces of `step` bytes, then finishes.
Decoded decode(const std::string& stream, size_t step, size_t cap = size_t{16} << 20) {
  ProtobufWatchDecoder decoder(cap);
  Decoded out;
  for (size_t pos = 0; pos < stream.size() && out.status.isOk(); pos += step) {
    out.status = decoder.feed(std::string_view(stream).substr(pos, step),
                              [&](WatchEvent&& e) { out.events.push_back(std::move(e)); });
  }
  if (out.status.isOk()) {
    out.status = decoder.finish();
  }
  return out;
}

TEST(ProtobufWatchDecoderTest, DecodesAPodsEventsAsItsJsonWouldBe) {
  const Decoded d = decode(readTestdata("pod_watch_stream.bin"), 1 << 20);
  ASSERT_TRUE(d.status.isOk()) << d.status;
  ASSERT_EQ(d.events.size(), 2u);
  EXPECT_EQ(d.events[0].type, WatchEventType::kAdded);
  EXPECT_EQ(d.events[1].type, WatchEventType::kModified);  // the deletion, held by a finalizer
  EXPECT_EQ(d.events[1].resource_version, "203");

  // The last event is the pod as kube-apiserver's JSON shows it (pod.json, fetched after it).
  Json from_json = Json::parse(readTestdata("pod.json"));
  auto expected = decodePodForNode(std::move(from_json));
  auto actual = decodePodForNode(Json(d.events[1].object));
  ASSERT_TRUE(expected.ok() && actual.ok());
  EXPECT_EQ(api::core::toJson(*actual).dump(2), api::core::toJson(*expected).dump(2));
  EXPECT_EQ(actual->spec.tolerations.at(0).tolerationSeconds, 30);
  EXPECT_EQ(actual->metadata.deletionTimestamp, "2026-11-27T01:27:44Z");
}

TEST(ProtobufWatchDecoderTest, ChunkBoundariesDoNotMatter) {
  const std::string stream = readTestdata("pod_watch_stream.bin");
  const Decoded whole = decode(stream, stream.size());
  for (size_t step : {1, 3, 4, 5, 7, 1000}) {
    const Decoded cut = decode(stream, step);
    ASSERT_TRUE(cut.status.isOk()) << "step " << step << ": " << cut.status;
    ASSERT_EQ(cut.events.size(), whole.events.size()) << "step " << step;
    for (size_t i = 0; i < cut.events.size(); ++i) {
      EXPECT_EQ(cut.events[i].object, whole.events[i].object) << "step " << step;
    }
  }
}

TEST(ProtobufWatchDecoderTest, AnExpiredVersionIsAGoneErrorEvent) {
  const Decoded d = decode(readTestdata("watch_gone.bin"), 10);
  ASSERT_TRUE(d.status.isOk()) << d.status;
  ASSERT_EQ(d.events.size(), 1u);
  EXPECT_EQ(d.events[0].type, WatchEventType::kError);
  EXPECT_TRUE(d.events[0].isGone());
  const Status error = d.events[0].errorStatus("pods");
  EXPECT_TRUE(isGone(error)) << error;
  EXPECT_NE(error.message().find("too old resource version"), std::string::npos) << error;
}

TEST(ProtobufWatchDecoderTest, ABookmarkCarriesTheVersionToResumeFrom) {
  // The initial-events-end bookmark of a watch with sendInitialEvents=true.
  const Decoded d = decode(readTestdata("watch_bookmark.bin"), 7);
  ASSERT_TRUE(d.status.isOk()) << d.status;
  ASSERT_EQ(d.events.size(), 1u);
  EXPECT_EQ(d.events[0].type, WatchEventType::kBookmark);
  EXPECT_EQ(d.events[0].resource_version, "200");
  EXPECT_EQ(d.events[0].object["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
}

TEST(ProtobufWatchDecoderTest, AProtobufErrorBodyGivesTheStatusMessage) {
  const Status status =
      apiErrorStatus(404, readTestdata("status_not_found.bin"), "GET", "/api/v1/pods/nope");
  EXPECT_TRUE(isNotFound(status)) << status;
  EXPECT_NE(status.message().find(R"(pods "nope" not found)"), std::string::npos) << status;
}

TEST(ProtobufWatchDecoderTest, AStreamCutInsideAFrameFailsAtTheEnd) {
  const std::string stream = readTestdata("pod_watch_stream.bin");
  const Decoded d = decode(stream.substr(0, stream.size() - 10), 100);
  EXPECT_EQ(d.events.size(), 1u);  // the first, complete, event still arrives
  EXPECT_EQ(d.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(d.status.message().find("ended inside an event"), std::string::npos) << d.status;
}

TEST(ProtobufWatchDecoderTest, AFrameOverTheCapFailsBeforeItIsBuffered) {
  ProtobufWatchDecoder decoder(1000);
  const std::string stream = readTestdata("pod_watch_stream.bin");  // frames of about 2 KB
  int emitted = 0;
  const Status s =
      decoder.feed(std::string_view(stream).substr(0, 4), [&](WatchEvent&&) { ++emitted; });
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s;
  EXPECT_EQ(decoder.bufferedBytes(), 0u);
  EXPECT_EQ(decoder.feed(stream, [&](WatchEvent&&) { ++emitted; }).code(),
            StatusCode::kResourceExhausted);  // stays failed
  EXPECT_EQ(emitted, 0);
}

TEST(ProtobufWatchDecoderTest, DamagedObjectsAreClearErrors) {
  std::string stream = readTestdata("pod_watch_stream.bin");
  // The object's envelope starts 4 (frame length) + 7 (type) + 3 (object tag and length) + 3
  // (raw tag and length) bytes in: break its "k8s\0" prefix.
  std::string bad_magic = stream;
  ASSERT_EQ(bad_magic.substr(17, 3), "k8s");
  bad_magic[17] = 'x';
  Decoded d = decode(bad_magic, 64);
  EXPECT_EQ(d.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(d.status.message().find("no \"k8s\\0\" prefix"), std::string::npos) << d.status;
  EXPECT_TRUE(d.events.empty());

  // A frame whose WatchEvent is a lone tag with no length.
  d = decode(std::string("\0\0\0\1\x0a", 5), 5);
  EXPECT_EQ(d.status.code(), StatusCode::kInvalidArgument) << d.status;
}

TEST(ProtobufObjectTest, RefusesKindsWithoutASchema) {
  // "k8s\0" + Unknown {typeMeta {apiVersion "v1", kind "Node"}}.
  const std::string node("k8s\0\x0a\x0a\x0a\x02v1\x12\x04Node", 16);
  auto decoded = decodeProtobufObject(node);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("kind 'Node'"), std::string::npos) << decoded.status();
}

TEST(ProtobufObjectTest, ALengthPastTheEndIsMalformed) {
  // Unknown {raw: length 100 with 2 bytes}.
  const std::string truncated("k8s\0\x12\x64\x01\x02", 8);
  auto decoded = decodeProtobufObject(truncated);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(decoded.status().message().find("malformed protobuf"), std::string::npos)
      << decoded.status();
}

TEST(ProtobufObjectTest, InvalidUtf8BecomesTheReplacementCharacterAsInGoJson) {
  // A Pod whose metadata.name is "a", the byte 0xff, "b".
  const std::string pod(
      "k8s\0\x0a\x09\x0a\x02v1\x12\x03Pod\x12\x07\x0a\x05\x0a\x03"
      "a\xff"
      "b",
      24);
  auto decoded = decodeProtobufObject(pod);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ((*decoded)["metadata"]["name"],
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_NO_THROW((void)decoded->dump());
}

}  // namespace
}  // namespace koord::k8s
