// Decoder for the apiserver's watch stream: a sequence of JSON objects
// {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}}, usually one per line. The
// decoder relies on neither newlines nor chunk boundaries: it finds each object's end by tracking
// nesting and string escapes itself, so every byte is scanned once, and parses each complete
// object on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "koord/api/codec.hpp"
#include "koord/common/status.hpp"

namespace koord::k8s {

using Json = api::Json;

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

// "ADDED", "MODIFIED", ...
std::string_view watchEventTypeName(WatchEventType type);

struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  // The object (for kError, a metav1.Status). Null when protobuf_object holds it instead.
  Json object;
  // Only from a ProtobufWatchDecoder that keeps objects raw (ProtobufObjects::kRaw), for every
  // type but kError: the object's enveloped protobuf bytes, for a decoder that reads them
  // directly (protobuf_pod.hpp). Empty otherwise.
  std::string protobuf_object;
  // object.metadata.resourceVersion; empty when absent (always for kError).
  std::string resource_version;

  // An ERROR event whose Status has code 410 or reason "Expired" / "Gone": the requested
  // resourceVersion is too old and the caller must list again before it watches.
  [[nodiscard]] bool isGone() const;
  // For an ERROR event, the Status an API reply with the same meta/v1 Status would give (see
  // errors.hpp: "Expired: failed to watch '<path>': <message> (HTTP 410)", kFailedPrecondition,
  // and k8s::isGone() holds); `path` names the watched resource. Ok for every other type.
  [[nodiscard]] Status errorStatus(std::string_view path = "") const;
};

// Not thread-safe: one decoder per stream, fed from one thread.
class WatchDecoder {
 public:
  static constexpr size_t kDefaultMaxEventBytes = size_t{16} << 20;

  explicit WatchDecoder(size_t max_event_bytes = kDefaultMaxEventBytes);

  // Consumes the next bytes of the stream and calls `emit` once for every event completed by
  // them, in stream order. On malformed input (bytes outside an object other than whitespace, an
  // object that is not valid JSON or not a watch event, an event over the size cap) it returns
  // kInvalidArgument (kResourceExhausted for the cap) after emitting the events before the bad
  // one; the decoder then stays failed and every later feed() returns the same error and emits
  // nothing.
  [[nodiscard]] Status feed(std::string_view chunk, const std::function<void(WatchEvent&&)>& emit);

  // Called at the end of the stream: an error when an event was cut off (or the decoder failed).
  [[nodiscard]] Status finish() const;

  // Bytes of the incomplete event held now.
  [[nodiscard]] size_t bufferedBytes() const { return buffer_.size(); }

 private:
  Status fail(Status status);
  Status emitBuffered(const std::function<void(WatchEvent&&)>& emit);

  size_t max_event_bytes_;
  std::string buffer_;  // the bytes of the event being read, from its '{'
  int64_t depth_ = 0;
  bool in_string_ = false;
  bool escape_ = false;
  Status error_;
};

// "ADDED" -> kAdded, ...; false for any other name.
[[nodiscard]] bool parseWatchEventType(std::string_view name, WatchEventType& out);

// Fills `out` from an event's type name and its object (JSON, whatever the wire format was):
// kInvalidArgument for an unknown type; resource_version from object.metadata except for ERROR.
[[nodiscard]] Status makeWatchEvent(std::string_view type_name, Json&& object, WatchEvent& out);

// Decodes one complete watch event object (the decoder's second step, exposed for tests and for
// callers that already have the framed object).
[[nodiscard]] Status decodeWatchEvent(std::string_view text, WatchEvent& out);

}  // namespace koord::k8s
