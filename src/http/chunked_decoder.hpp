// ChunkedDecoder: decodes a "Transfer-Encoding: chunked" request body as it arrives (private to
// koord_http; RFC 9112 7.1).
//
// Feed it the connection's unread bytes; each call to next() makes one step and says how many of
// them it used. Chunk extensions and trailer fields are read and dropped. A chunk-size line is at
// most 4 KiB and the trailer section at most 64 KiB. Lines end in CRLF or a bare LF. Not
// thread-safe (one per request body).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace koord::http::detail {

class ChunkedDecoder {
 public:
  enum class Outcome {
    kData,       // `data` is the next piece of the body (it points into `input`)
    kNeedMore,   // the bytes used (possibly none) were framing; more input is needed
    kDone,       // the body and its trailer section are complete
    kMalformed,  // error() says why
  };

  // Makes one step over `input` and sets `consumed` to the bytes of it used (kData: the data and
  // any framing before it; kDone: up to the end of the trailer section).
  [[nodiscard]] Outcome next(std::string_view input, std::size_t& consumed, std::string_view& data);
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  enum class State { kSize, kData, kDataEnd, kTrailer, kDone };

  Outcome fail(std::string reason);

  State state_ = State::kSize;
  uint64_t chunk_left_ = 0;
  std::size_t trailer_bytes_ = 0;
  std::string error_;
};

}  // namespace koord::http::detail
