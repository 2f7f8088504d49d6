// The protobuf wire format as the two Pod decoders read it (protobuf_object.cpp builds JSON,
// protobuf_pod.cpp builds api::core::Pod directly): a bounds-checked field reader, Go's JSON text
// for strings and times, and the JSON decoder for the parts of a Pod that koord keeps as raw JSON.
// Internal to koord_k8s. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "koord/api/codec.hpp"
#include "koord/common/status.hpp"

namespace koord::k8s::protobuf_wire {

// https://protobuf.dev/programming-guides/encoding/
enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLength = 2, kFixed32 = 5 };

// Reads one message's fields in order. Every read is bounds-checked; the first failure sticks.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  // The next field's number and wire type; false at the end or on malformed input (see ok()).
  bool next(uint32_t& number, uint32_t& wire) {
    if (pos_ == data_.size() || !ok_) {
      return false;
    }
    uint64_t tag = 0;
    if (!varint(tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX) {
      return fail();
    }
    number = static_cast<uint32_t>(tag >> 3);
    wire = static_cast<uint32_t>(tag & 7);
    return true;
  }
  bool varint(uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ == data_.size()) {
        return fail();
      }
      const auto byte = static_cast<uint8_t>(data_[pos_++]);
      out |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        return true;
      }
    }
    return fail();
  }
  bool bytes(std::string_view& out) {
    uint64_t n = 0;
    if (!varint(n) || n > data_.size() - pos_) {
      return fail();
    }
    out = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool skip(uint32_t wire) {
    uint64_t ignored = 0;
    std::string_view ignored_bytes;
    switch (wire) {
      case kVarint:
        return varint(ignored);
      case kLength:
        return bytes(ignored_bytes);
      case kFixed64:
        return advance(8);
      case kFixed32:
        return advance(4);
      default:
        return fail();  // groups (3, 4) and unused types: nothing Kubernetes sends
    }
  }
  [[nodiscard]] bool ok() const { return ok_; }

 private:
  bool advance(size_t n) {
    if (n > data_.size() - pos_) {
      return fail();
    }
    pos_ += n;
    return true;
  }
  bool fail() {
    ok_ = false;
    return false;
  }

  std::string_view data_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// Calls fn(reader, number, wire) for each field of `data`, in order; fn reads the field's value
// or skips it, and returns false to stop. False when fn did or `data` is malformed.
template <class Fn>
bool eachField(std::string_view data, Fn&& fn) {
  Reader r(data);
  uint32_t number = 0;
  uint32_t wire = 0;
  while (r.next(number, wire)) {
    if (!fn(r, number, wire)) {
      return false;
    }
  }
  return r.ok();
}

// Calls fn(number, bytes) for each length-delimited field of `data`, in order, and skips the
// other fields; false when `data` is malformed or fn returns false (a malformed nested message).
template <class Fn>
bool forEachBytesField(std::string_view data, Fn&& fn) {
  return eachField(data, [&](Reader& r, uint32_t number, uint32_t wire) {
    std::string_view bytes;
    if (wire != kLength) {
      return r.skip(wire);
    }
    return r.bytes(bytes) && fn(number, bytes);
  });
}

// An enveloped object: "k8s\0" and a runtime.Unknown {typeMeta = 1 {apiVersion = 1, kind = 2},
// raw = 2, contentEncoding = 3}.
inline constexpr std::string_view kEnvelopeMagic("k8s\0", 4);

struct Envelope {
  std::string api_version;
  std::string kind;
  std::string_view raw;  // the object's message, a view into the envelope
  std::string encoding;  // "" for none
};

// Reads the runtime.Unknown after kEnvelopeMagic; false when it is malformed. Repeated fields:
// the last occurrence wins, as decodeProtobufObject has always read them.
bool readEnvelope(std::string_view unknown, Envelope& out);

// One map<string, V> entry {key = 1, value = 2}, V a string or (`quantity`) a resource.Quantity
// {string = 1}; false when it is malformed.
bool readMapEntry(std::string_view entry, bool quantity, std::string& key, std::string& value);

// RFC 3339 in UTC, seconds only (what metav1.Time's JSON carries); false when out of range.
bool formatTime(int64_t seconds, std::string& out);

// A protobuf string as JSON text carries it: Go's JSON encoder replaces each byte that is not
// part of valid UTF-8 by U+FFFD, and so does this (nlohmann's dump() would throw on it).
std::string jsonString(std::string_view bytes);

// The messages of a Pod that koord's model keeps as raw JSON.
enum class JsonSchema {
  kResourceClaim,             // ResourceRequirements.claims[]
  kPodAffinity,               // Affinity.podAffinity and podAntiAffinity
  kTopologySpreadConstraint,  // PodSpec.topologySpreadConstraints[] (kept in PodSpec.extra)
  kContainerStatus,           // PodStatus.containerStatuses[] (decodePodForNode)
};

// Decodes `message` into the JSON object `out` (fields merge into what `out` holds, as a
// repeated occurrence of a message merges in protobuf), exactly as decodeProtobufObject writes
// that message inside a Pod. kInvalidArgument when it is malformed.
[[nodiscard]] Status decodeMessageAsJson(std::string_view message, JsonSchema schema,
                                         api::Json& out);

}  // namespace koord::k8s::protobuf_wire
