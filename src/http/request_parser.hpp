// RequestHeadParser: finds and parses an HTTP/1.x request head (request line and header fields) at
// the start of a connection's unread input (private to koord_http).
//
// Incremental: call parse() with the same unread bytes, plus whatever arrived since, until it stops
// answering kNeedMore; it resumes its search for the blank line where the previous call left off,
// so a head trickling in byte by byte costs linear time. Then consume consumed() bytes and reset()
// before the next request. Not thread-safe (one per connection).
//
// Accepted (RFC 9112, leniently): blank lines before the request line are skipped; lines end in
// CRLF or a bare LF. The request line is "<token> SP <target> SP HTTP/1.<digit>" with a target in
// origin-form ("/p?q"), absolute-form ("http://host/p?q", the authority is dropped) or "*"; the
// target is visible ASCII. Standard method names are upper-cased ("get" reads as "GET"). A header
// field is "<token>:<value>" (whitespace around the value dropped, no control characters but tab,
// no obsolete line folding); repeated fields are joined with ", ". Content-Length is a decimal
// number (a list of equal numbers is allowed; one too large to hold reads as UINT64_MAX);
// Transfer-Encoding must be exactly "chunked" and then wins over Content-Length (the connection is
// closed after the answer, RFC 9112 6.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "koord/http/server.hpp"

namespace koord::http::detail {

struct RequestHead {
  HttpRequest request;           // method, path (decoded), query (raw) and headers; no body
  int minor_version = 1;         // HTTP/1.<minor_version>
  bool keep_alive = true;        // the client lets another request follow on the connection
  bool chunked = false;          // Transfer-Encoding: chunked
  uint64_t content_length = 0;   // 0 when absent or chunked
  bool expect_continue = false;  // "Expect: 100-continue" on HTTP/1.1
};

class RequestHeadParser {
 public:
  enum class Outcome {
    kNeedMore,   // no complete head yet, and fewer than max_head_bytes so far
    kDone,       // `head` holds the request; consumed() says how many bytes it took
    kTooLarge,   // the head is longer than max_head_bytes
    kMalformed,  // error() says why
  };

  explicit RequestHeadParser(std::size_t max_head_bytes) : max_head_bytes_(max_head_bytes) {}

  // Looks for a complete head at the start of `input` and, when there is one, parses it into
  // `head` (overwriting it).
  [[nodiscard]] Outcome parse(std::string_view input, RequestHead& head);
  // After kDone: the bytes of input the head took (leading blank lines included).
  [[nodiscard]] std::size_t consumed() const { return consumed_; }
  // After kMalformed: what is wrong, e.g. "invalid request line".
  [[nodiscard]] const std::string& error() const { return error_; }
  // Forgets the previous head; call before parsing the next request's.
  void reset();

 private:
  Outcome fail(std::string reason);

  std::size_t max_head_bytes_;
  std::size_t scanned_ = 0;  // input before this was searched for the blank line already
  std::size_t consumed_ = 0;
  std::string error_;
};

}  // namespace koord::http::detail
