#include "koord/k8s/protobuf_watch_decoder.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "koord/k8s/protobuf_object.hpp"

namespace koord::k8s {
namespace {

constexpr size_t kPrefixBytes = 4;

Status protobufDecodeError(const std::string& cause) {
  return Status::invalidArgument("failed to decode protobuf watch event: " + cause);
}

uint32_t frameLength(std::string_view prefix) {
  uint32_t n = 0;
  for (size_t i = 0; i < kPrefixBytes; ++i) {
    n = (n << 8) | static_cast<uint8_t>(prefix[i]);
  }
  return n;
}

// A length-delimited field's bytes: reads the varint length at `pos` and checks the bounds.
bool lengthDelimited(std::string_view data, size_t& pos, std::string_view& out) {
  uint64_t n = 0;
  for (int shift = 0;; shift += 7) {
    if (pos == data.size() || shift >= 64) {
      return false;
    }
    const auto byte = static_cast<uint8_t>(data[pos++]);
    n |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      break;
    }
  }
  if (n > data.size() - pos) {
    return false;
  }
  out = data.substr(pos, n);
  pos += n;
  return true;
}

// The fields of `message` with wire type 2 and a one-byte tag (numbers 1..15), as (number,
// bytes); false when the message holds anything else or is malformed. WatchEvent and
// RawExtension have nothing but such fields.
template <class Fn>
bool eachBytesField(std::string_view message, Fn&& fn) {
  size_t pos = 0;
  while (pos < message.size()) {
    const auto tag = static_cast<uint8_t>(message[pos++]);
    if ((tag & 7) != 2 || (tag & 0x80) != 0 || (tag >> 3) == 0) {
      return false;
    }
    std::string_view bytes;
    if (!lengthDelimited(message, pos, bytes)) {
      return false;
    }
    fn(tag >> 3, bytes);
  }
  return true;
}

}  // namespace

Status decodeProtobufWatchEvent(std::string_view message, WatchEvent& out,
                                ProtobufObjects objects) {
  std::string_view type;
  std::string_view raw_extension;
  bool has_object = false;
  if (!eachBytesField(message, [&](uint32_t number, std::string_view bytes) {
        if (number == 1) {
          type = bytes;
        } else if (number == 2) {
          raw_extension = bytes;
          has_object = true;
        }
      })) {
    return protobufDecodeError("malformed WatchEvent");
  }
  if (!has_object) {
    return protobufDecodeError("object: required");
  }
  std::string_view raw;
  if (!eachBytesField(raw_extension, [&](uint32_t number, std::string_view bytes) {
        if (number == 1) {
          raw = bytes;
        }
      })) {
    return protobufDecodeError("malformed object");
  }
  if (objects == ProtobufObjects::kRaw && type != "ERROR") {
    Result<std::string> version = protobufObjectResourceVersion(raw);
    if (!version.ok()) {
      return protobufDecodeError(version.status().message());
    }
    KOORD_RETURN_IF_ERROR(makeWatchEvent(type, Json(), out));
    out.resource_version = std::move(version).value();
    out.protobuf_object.assign(raw);
    return Status::ok();
  }
  Result<Json> object = decodeProtobufObject(raw);
  if (!object.ok()) {
    return protobufDecodeError(object.status().message());
  }
  return makeWatchEvent(type, std::move(object).value(), out);
}

ProtobufWatchDecoder::ProtobufWatchDecoder(size_t max_event_bytes, ProtobufObjects objects)
    : max_event_bytes_(max_event_bytes), objects_(objects) {}

Status ProtobufWatchDecoder::fail(Status status) {
  error_ = std::move(status);
  buffer_.clear();
  buffer_.shrink_to_fit();
  return error_;
}

Status ProtobufWatchDecoder::feed(std::string_view chunk,
                                  const std::function<void(WatchEvent&&)>& emit) {
  if (!error_.isOk()) {
    return error_;
  }
  while (!chunk.empty()) {
    // Complete the length prefix first, then the frame it announces.
    if (buffer_.size() < kPrefixBytes) {
      const size_t take = std::min(kPrefixBytes - buffer_.size(), chunk.size());
      buffer_.append(chunk.substr(0, take));
      chunk.remove_prefix(take);
      if (buffer_.size() < kPrefixBytes) {
        return Status::ok();
      }
      const uint32_t length = frameLength(buffer_);
      if (length > max_event_bytes_) {
        return fail(Status::resourceExhausted(
            "failed to decode protobuf watch event: " + std::to_string(length) +
            " bytes, over the cap of " + std::to_string(max_event_bytes_)));
      }
      buffer_.reserve(kPrefixBytes + length);
    }
    const size_t want = kPrefixBytes + frameLength(buffer_) - buffer_.size();
    const size_t take = std::min(want, chunk.size());
    buffer_.append(chunk.substr(0, take));
    chunk.remove_prefix(take);
    if (take < want) {
      return Status::ok();
    }
    WatchEvent event;
    Status decoded =
        decodeProtobufWatchEvent(std::string_view(buffer_).substr(kPrefixBytes), event, objects_);
    buffer_.clear();
    if (!decoded.isOk()) {
      return fail(std::move(decoded));
    }
    emit(std::move(event));
  }
  return Status::ok();
}

Status ProtobufWatchDecoder::finish() const {
  if (!error_.isOk()) {
    return error_;
  }
  if (!buffer_.empty()) {
    return protobufDecodeError("the stream ended inside an event (" +
                               std::to_string(buffer_.size()) + " bytes buffered)");
  }
  return Status::ok();
}

}  // namespace koord::k8s
