// Decoder for a watch stream in protobuf ("application/vnd.kubernetes.protobuf;stream=watch"):
// frames of a 4-byte big-endian length and a meta/v1 WatchEvent {type = 1, object = 2
// RawExtension {raw = 1}}, whose raw is an enveloped object (protobuf_object.hpp). Each event is
// handed on as the JSON decodeProtobufObject makes of its object, so a Reflector treats it as
// it treats a JSON watch's event; or, with ProtobufObjects::kRaw, with the object's bytes as they
// came (WatchEvent::protobuf_object) for a decoder that reads protobuf itself (protobuf_pod.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "koord/common/status.hpp"
#include "koord/k8s/watch_decoder.hpp"

namespace koord::k8s {

// The Accept header of such a watch.
inline constexpr std::string_view kProtobufWatchContentType =
    "application/vnd.kubernetes.protobuf;stream=watch";

// What an event carries of its object.
enum class ProtobufObjects {
  kJson,  // WatchEvent::object, decoded by decodeProtobufObject
  kRaw,   // WatchEvent::protobuf_object, with resource_version read from it; ERROR events' Status
          // still in WatchEvent::object. A malformed object past its metadata is then the
          // reader's to refuse, not the stream's.
};

// Not thread-safe: one decoder per stream, fed from one thread. The same contract as
// WatchDecoder: events are emitted in stream order whatever the chunk boundaries; a malformed
// frame or object is kInvalidArgument, a frame over the cap kResourceExhausted (before its bytes
// are buffered), and the decoder then stays failed.
class ProtobufWatchDecoder {
 public:
  explicit ProtobufWatchDecoder(size_t max_event_bytes = WatchDecoder::kDefaultMaxEventBytes,
                                ProtobufObjects objects = ProtobufObjects::kJson);

  [[nodiscard]] Status feed(std::string_view chunk, const std::function<void(WatchEvent&&)>& emit);
  // An error when the stream ended inside a frame (or the decoder failed).
  [[nodiscard]] Status finish() const;
  [[nodiscard]] size_t bufferedBytes() const { return buffer_.size(); }

 private:
  Status fail(Status status);

  size_t max_event_bytes_;
  ProtobufObjects objects_;
  std::string buffer_;  // bytes of the frame being read, its length prefix included
  Status error_;
};

// Decodes one frame's WatchEvent message (without the length prefix).
[[nodiscard]] Status decodeProtobufWatchEvent(std::string_view message, WatchEvent& out,
                                              ProtobufObjects objects = ProtobufObjects::kJson);

}  // namespace koord::k8s
