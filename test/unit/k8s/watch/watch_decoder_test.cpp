#include "koord/k8s/watch_decoder.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "koord/k8s/errors.hpp"

namespace koord::k8s {
namespace {

struct Frame {
  WatchEventType type;
  std::string object;  // the object's JSON text
  std::string resource_version;
};

std::string frameText(const Frame& f) {
  return R"({"type":")" + std::string(watchEventTypeName(f.type)) + R"(","object":)" + f.object +
         "}";
}

// Events whose strings hold every character that could fool a boundary scanner.
const std::vector<Frame>& sampleFrames() {
  static const std::vector<Frame> frames = {
      {WatchEventType::kAdded,
       R"({"kind":"Pod","metadata":{"name":"a","namespace":"ns","resourceVersion":"10",)"
       R"("annotations":{"note":"} { ] [ \" \\ \\\" }}"}},"spec":{"nodeName":"n1"}})",
       "10"},
      {WatchEventType::kModified,
       R"({"kind":"Pod","metadata":{"name":"b","resourceVersion":"11","labels":)"
       R"({"x":"caf\u00e9 \ud83d\ude00 \"q\" \/"}},"list":[[1,2],{"a":[]},"]"]})",
       "11"},
      {WatchEventType::kDeleted, R"({"kind":"Pod","metadata":{"name":"c","resourceVersion":"12"}})",
       "12"},
      {WatchEventType::kBookmark, R"({"kind":"Pod","metadata":{"resourceVersion":"13"}})", "13"},
      {WatchEventType::kError,
       R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
       R"j("message":"too old resource version: 1 (13)","reason":"Expired","code":410})j",
       ""},
  };
  return frames;
}

std::string joinFrames(const std::vector<Frame>& frames, const std::string& sep) {
  std::string out;
  for (const Frame& f : frames) {
    out += frameText(f) + sep;
  }
  return out;
}

// Feeds `chunks` in order and returns the events; fails the test on any error.
std::vector<WatchEvent> decodeChunks(const std::vector<std::string_view>& chunks) {
  WatchDecoder decoder;
  std::vector<WatchEvent> events;
  for (std::string_view chunk : chunks) {
    const Status s = decoder.feed(chunk, [&](WatchEvent&& e) { events.push_back(std::move(e)); });
    EXPECT_TRUE(s.isOk()) << s;
  }
  EXPECT_TRUE(decoder.finish().isOk()) << decoder.finish();
  return events;
}

void expectFrames(const std::vector<WatchEvent>& events, const std::vector<Frame>& frames) {
  ASSERT_EQ(events.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE("event " + std::to_string(i));
    EXPECT_EQ(events[i].type, frames[i].type);
    EXPECT_EQ(events[i].object, Json::parse(frames[i].object));
    EXPECT_EQ(events[i].resource_version, frames[i].resource_version);
  }
}

TEST(WatchDecoderTest, DecodesStreamsWithAnySeparator) {
  const struct {
    const char* name;
    std::string sep;
  } cases[] = {{"newline", "\n"}, {"crlf", "\r\n"}, {"none", ""}, {"mixed spaces", " \t\n\n  "}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string stream = c.sep + joinFrames(sampleFrames(), c.sep);
    expectFrames(decodeChunks({stream}), sampleFrames());
  }
}

TEST(WatchDecoderTest, EverySplitPositionGivesTheSameEvents) {
  const std::string stream = joinFrames(sampleFrames(), "\n");
  for (size_t k = 0; k <= stream.size(); ++k) {
    SCOPED_TRACE("split at " + std::to_string(k));
    const std::string_view s(stream);
    expectFrames(decodeChunks({s.substr(0, k), s.substr(k)}), sampleFrames());
  }
}

TEST(WatchDecoderTest, ByteByByte) {
  const std::string stream = joinFrames(sampleFrames(), "\n");
  std::vector<std::string_view> chunks;
  for (size_t i = 0; i < stream.size(); ++i) {
    chunks.push_back(std::string_view(stream).substr(i, 1));
  }
  expectFrames(decodeChunks(chunks), sampleFrames());
}

TEST(WatchDecoderTest, RandomChunkSizes) {
  const std::string stream = joinFrames(sampleFrames(), "\n") + joinFrames(sampleFrames(), "");
  std::vector<Frame> twice = sampleFrames();
  twice.insert(twice.end(), sampleFrames().begin(), sampleFrames().end());
  std::mt19937 rng(20240601);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string_view> chunks;
    for (size_t pos = 0; pos < stream.size();) {
      const size_t n = std::uniform_int_distribution<size_t>(0, 97)(rng);
      chunks.push_back(std::string_view(stream).substr(pos, n));
      pos += n;
    }
    expectFrames(decodeChunks(chunks), twice);
  }
}

TEST(WatchDecoderTest, DecodedStringsKeepEscapes) {
  const auto events = decodeChunks({joinFrames(sampleFrames(), "\n")});
  ASSERT_EQ(events.size(), sampleFrames().size());
  EXPECT_EQ(events[0].object["metadata"]["annotations"]["note"], "} { ] [ \" \\ \\\" }}");
  EXPECT_EQ(events[1].object["metadata"]["labels"]["x"], "caf\xc3\xa9 \xf0\x9f\x98\x80 \"q\" /");
}

TEST(WatchDecoderTest, HoldsOnlyTheIncompleteEvent) {
  const std::string first = frameText(sampleFrames()[0]);
  const std::string second = frameText(sampleFrames()[2]);
  WatchDecoder decoder;
  int emitted = 0;
  ASSERT_TRUE(
      decoder.feed(first + "\n" + second.substr(0, 7), [&](WatchEvent&&) { ++emitted; }).isOk());
  EXPECT_EQ(emitted, 1);
  EXPECT_EQ(decoder.bufferedBytes(), 7u);
  EXPECT_FALSE(decoder.finish().isOk());
  ASSERT_TRUE(decoder.feed(second.substr(7), [&](WatchEvent&&) { ++emitted; }).isOk());
  EXPECT_EQ(emitted, 2);
  EXPECT_EQ(decoder.bufferedBytes(), 0u);
  EXPECT_TRUE(decoder.finish().isOk());
}

TEST(WatchDecoderTest, MalformedInputFailsOnceAndForAll) {
  const std::string good = frameText(sampleFrames()[0]);
  const std::string later = frameText(sampleFrames()[2]);
  const struct {
    const char* name;
    std::string bad;
    const char* message_part;
  } cases[] = {
      {"garbage between events", "x", "unexpected byte 0x78 between events"},
      {"top-level array", "[1]", "unexpected byte 0x5b"},
      {"stray closing brace", "}", "unexpected byte 0x7d"},
      {"invalid json", R"({"type":"ADDED","object":{"a":}})", "failed to parse JSON"},
      {"mismatched bracket", R"({"type":"ADDED","object":{"a":1]})", "failed to parse JSON"},
      {"missing type", R"({"object":{}})", "type: required string"},
      {"type not a string", R"({"type":1,"object":{}})", "type: required string"},
      {"unknown type", R"({"type":"RENAMED","object":{}})", "unknown event type 'RENAMED'"},
      {"object missing", R"({"type":"ADDED"})", "object: expected object"},
      {"object not an object", R"({"type":"ADDED","object":[]})", "object: expected object"},
      {"invalid utf-8", "{\"type\":\"ADDED\",\"object\":{\"a\":\"\xff\"}}", "failed to parse"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    WatchDecoder decoder;
    std::vector<WatchEvent> events;
    auto sink = [&](WatchEvent&& e) { events.push_back(std::move(e)); };
    const Status first = decoder.feed(good + "\n" + c.bad + "\n" + later, sink);
    EXPECT_EQ(first.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(first.message().find("failed to decode watch event: "), std::string::npos) << first;
    EXPECT_NE(first.message().find(c.message_part), std::string::npos) << first;
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].resource_version, "10");
    const Status again = decoder.feed(later + "\n" + good, sink);
    EXPECT_EQ(again, first);
    EXPECT_EQ(decoder.finish(), first);
    EXPECT_EQ(events.size(), 1u);
  }
}

TEST(WatchDecoderTest, EventSizeCap) {
  const std::string event = frameText(sampleFrames()[3]);
  const struct {
    const char* name;
    size_t cap;
    bool ok;
  } cases[] = {{"exactly the cap", event.size(), true},
               {"one byte over", event.size() - 1, false},
               {"far over", 8, false}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    for (size_t split : {size_t{0}, size_t{1}, event.size() / 2, event.size() - 1}) {
      WatchDecoder decoder(c.cap);
      int emitted = 0;
      auto sink = [&](WatchEvent&&) { ++emitted; };
      Status s = decoder.feed(std::string_view(event).substr(0, split), sink);
      if (s.isOk()) {
        s = decoder.feed(std::string_view(event).substr(split), sink);
      }
      EXPECT_EQ(s.isOk(), c.ok) << s;
      EXPECT_EQ(emitted, c.ok ? 1 : 0);
      if (!c.ok) {
        EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
        EXPECT_LE(decoder.bufferedBytes(), c.cap);
      }
    }
  }
}

TEST(WatchDecoderTest, WhitespaceIsNotCountedAgainstTheCap) {
  const std::string event = frameText(sampleFrames()[3]);
  WatchDecoder decoder(event.size());
  int emitted = 0;
  const std::string padding(4 * event.size(), '\n');
  ASSERT_TRUE(
      decoder.feed(padding + event + padding + event, [&](WatchEvent&&) { ++emitted; }).isOk());
  EXPECT_EQ(emitted, 2);
}

TEST(WatchDecoderTest, RejectsExcessiveNesting) {
  WatchDecoder decoder;
  const std::string deep = R"({"type":"ADDED","object":{"a":)" + std::string(20000, '[');
  int emitted = 0;
  const Status s = decoder.feed(deep, [&](WatchEvent&&) { ++emitted; });
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("nesting deeper than"), std::string::npos) << s;
  EXPECT_EQ(emitted, 0);
}

TEST(WatchEventTest, ErrorEvents) {
  const struct {
    const char* name;
    WatchEventType type;
    std::string object;
    bool gone;
    StatusCode code;
    const char* message_part;
  } cases[] = {
      {"expired", WatchEventType::kError,
       R"({"kind":"Status","code":410,"reason":"Expired","message":"too old resource version"})",
       true, StatusCode::kFailedPrecondition,
       "Expired: failed to watch '/api/v1/pods': too old resource version (HTTP 410)"},
      {"gone without message", WatchEventType::kError, R"({"code":410,"reason":"Gone"})", true,
       StatusCode::kFailedPrecondition, "Gone: failed to watch '/api/v1/pods': "},
      {"expired reason without code", WatchEventType::kError, R"({"reason":"Expired"})", true,
       StatusCode::kFailedPrecondition, "Expired: failed to watch"},
      {"internal error", WatchEventType::kError, R"({"code":500,"message":"etcd down"})", false,
       StatusCode::kUnavailable, "failed to watch '/api/v1/pods': etcd down (HTTP 500)"},
      {"forbidden", WatchEventType::kError, R"({"code":403,"reason":"Forbidden","message":"no"})",
       false, StatusCode::kPermissionDenied, "Forbidden: failed to watch '/api/v1/pods': no"},
      {"code of the wrong type", WatchEventType::kError, R"({"code":"410","reason":7})", false,
       StatusCode::kInternal, "failed to watch '/api/v1/pods': "},
      {"code 410 on a non-error event", WatchEventType::kModified, R"({"code":410})", false,
       StatusCode::kOk, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    WatchEvent event;
    ASSERT_TRUE(decodeWatchEvent(frameText({c.type, c.object, ""}), event).isOk());
    EXPECT_EQ(event.isGone(), c.gone);
    const Status status = event.errorStatus("/api/v1/pods");
    EXPECT_EQ(status.code(), c.code) << status;
    EXPECT_NE(status.message().find(c.message_part), std::string::npos) << status;
    EXPECT_EQ(isGone(status), c.gone) << status;
  }
}

TEST(WatchEventTest, ResourceVersionOnlyFromAStringField) {
  WatchEvent event;
  ASSERT_TRUE(
      decodeWatchEvent(R"({"type":"ADDED","object":{"metadata":{"resourceVersion":7}}})", event)
          .isOk());
  EXPECT_EQ(event.resource_version, "");
  ASSERT_TRUE(decodeWatchEvent(R"({"type":"ADDED","object":{"metadata":null}})", event).isOk());
  EXPECT_EQ(event.resource_version, "");
}

}  // namespace
}  // namespace koord::k8s
