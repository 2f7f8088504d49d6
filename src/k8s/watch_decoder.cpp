#include "koord/k8s/watch_decoder.hpp"

#include <string>
#include <utility>

#include "koord/k8s/errors.hpp"

namespace koord::k8s {

namespace {

// Go's encoding/json refuses deeper nesting, so no apiserver object exceeds it.
constexpr int64_t kMaxDepth = 10000;

bool isJsonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string hexByte(char c) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const auto b = static_cast<unsigned char>(c);
  return std::string{'0', 'x', kDigits[b >> 4], kDigits[b & 0xf]};
}

Status decodeError(const std::string& cause) {
  return Status::invalidArgument("failed to decode watch event: " + cause);
}

}  // namespace

bool parseWatchEventType(std::string_view name, WatchEventType& out) {
  static constexpr WatchEventType kTypes[] = {WatchEventType::kAdded, WatchEventType::kModified,
                                              WatchEventType::kDeleted, WatchEventType::kBookmark,
                                              WatchEventType::kError};
  for (WatchEventType t : kTypes) {
    if (watchEventTypeName(t) == name) {
      out = t;
      return true;
    }
  }
  return false;
}

namespace {

int64_t statusHttpCode(const Json& object) {
  if (!object.is_object()) {
    return 0;
  }
  const auto it = object.find("code");
  if (it == object.end() || !it->is_number_integer()) {
    return 0;
  }
  const int64_t code = it->get<int64_t>();
  return code > 0 && code < 1000 ? code : 0;
}

std::string statusText(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string_view watchEventTypeName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kBookmark:
      return "BOOKMARK";
    case WatchEventType::kError:
      return "ERROR";
  }
  return "UNKNOWN";
}

bool WatchEvent::isGone() const {
  if (type != WatchEventType::kError) {
    return false;
  }
  const std::string reason = statusText(object, "reason");
  return statusHttpCode(object) == 410 || reason == "Expired" || reason == "Gone";
}

Status WatchEvent::errorStatus(std::string_view path) const {
  if (type != WatchEventType::kError) {
    return Status::ok();
  }
  ApiError error;
  error.http_code = static_cast<int>(statusHttpCode(object));
  error.reason = statusText(object, "reason");
  if (error.reason.empty()) {
    error.reason = std::string(reasonForHttpCode(error.http_code));
  }
  if (error.reason.empty()) {
    error.reason = "Unknown";
  }
  error.message = statusText(object, "message");
  if (error.message.empty()) {
    error.message = "the apiserver sent an ERROR event";
  }
  return apiErrorStatus(error, "watch", path);
}

Status decodeWatchEvent(std::string_view text, WatchEvent& out) {
  Result<Json> parsed = api::parseJson(text);
  if (!parsed.ok()) {
    return decodeError(parsed.status().message());
  }
  Json& j = *parsed;
  if (!j.is_object()) {
    return decodeError(std::string("expected object, got ") + std::string(api::jsonTypeName(j)));
  }
  const auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) {
    return decodeError("type: required string");
  }
  const auto object_it = j.find("object");
  if (object_it == j.end() || !object_it->is_object()) {
    return decodeError("object: expected object");
  }
  return makeWatchEvent(type_it->get_ref<const std::string&>(), std::move(*object_it), out);
}

Status makeWatchEvent(std::string_view type_name, Json&& object, WatchEvent& out) {
  WatchEventType type{};
  if (!parseWatchEventType(type_name, type)) {
    return decodeError("type: unknown event type '" + std::string(type_name) + "'");
  }
  out.type = type;
  out.object = std::move(object);
  out.resource_version.clear();
  const auto meta_it = out.object.find("metadata");
  if (type != WatchEventType::kError && meta_it != out.object.end() && meta_it->is_object()) {
    const auto rv_it = meta_it->find("resourceVersion");
    if (rv_it != meta_it->end() && rv_it->is_string()) {
      out.resource_version = rv_it->get<std::string>();
    }
  }
  return Status::ok();
}

WatchDecoder::WatchDecoder(size_t max_event_bytes) : max_event_bytes_(max_event_bytes) {}

Status WatchDecoder::fail(Status status) {
  error_ = std::move(status);
  buffer_.clear();
  buffer_.shrink_to_fit();
  return error_;
}

Status WatchDecoder::emitBuffered(const std::function<void(WatchEvent&&)>& emit) {
  WatchEvent event;
  Status status = decodeWatchEvent(buffer_, event);
  buffer_.clear();
  if (!status.isOk()) {
    return fail(std::move(status));
  }
  emit(std::move(event));
  return Status::ok();
}

Status WatchDecoder::feed(std::string_view chunk, const std::function<void(WatchEvent&&)>& emit) {
  if (!error_.isOk()) {
    return error_;
  }
  size_t i = 0;
  while (i < chunk.size()) {
    if (depth_ == 0) {
      // Between events: whitespace, then the '{' that opens the next one.
      const char c = chunk[i];
      if (isJsonSpace(c)) {
        ++i;
        continue;
      }
      if (c != '{') {
        return fail(decodeError("unexpected byte " + hexByte(c) + " between events"));
      }
    }
    // Inside an event: scan to its closing brace or the end of the chunk.
    const size_t start = i;
    bool complete = false;
    for (; i < chunk.size(); ++i) {
      const char c = chunk[i];
      if (in_string_) {
        if (escape_) {
          escape_ = false;
        } else if (c == '\\') {
          escape_ = true;
        } else if (c == '"') {
          in_string_ = false;
        }
        continue;
      }
      if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        if (++depth_ > kMaxDepth) {
          return fail(decodeError("nesting deeper than " + std::to_string(kMaxDepth)));
        }
      } else if (c == '}' || c == ']') {
        if (--depth_ == 0) {
          ++i;
          complete = true;
          break;
        }
      }
    }
    if (buffer_.size() + (i - start) > max_event_bytes_) {
      return fail(Status::resourceExhausted("failed to decode watch event: event exceeds " +
                                            std::to_string(max_event_bytes_) + " bytes"));
    }
    buffer_.append(chunk.data() + start, i - start);
    if (complete) {
      KOORD_RETURN_IF_ERROR(emitBuffered(emit));
    }
  }
  return Status::ok();
}

Status WatchDecoder::finish() const {
  if (!error_.isOk()) {
    return error_;
  }
  if (!buffer_.empty()) {
    return decodeError("stream ended inside an event after " + std::to_string(buffer_.size()) +
                       " bytes");
  }
  return Status::ok();
}

}  // namespace koord::k8s
