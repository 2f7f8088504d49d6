// The socket server's incremental parsers: a request head or chunked body split anywhere parses
// the same as when it arrives whole, and malformed input is named.
#include "request_parser.hpp"

#include <gtest/gtest.h>

#include <string>

#include "chunked_decoder.hpp"

namespace koord::http::detail {
namespace {

// Feeds `raw` growing by `step` bytes at a time, as a connection's buffer grows.
RequestHeadParser::Outcome parseInSteps(const std::string& raw, std::size_t step, RequestHead& head,
                                        std::size_t& consumed) {
  RequestHeadParser parser(64 * 1024);
  RequestHeadParser::Outcome outcome = RequestHeadParser::Outcome::kNeedMore;
  for (std::size_t size = std::min(step, raw.size());; size = std::min(size + step, raw.size())) {
    outcome = parser.parse(std::string_view(raw).substr(0, size), head);
    if (outcome != RequestHeadParser::Outcome::kNeedMore || size == raw.size()) {
      break;
    }
  }
  consumed = parser.consumed();
  return outcome;
}

TEST(RequestHeadParserTest, ParsesTheSameWhereverTheInputIsSplit) {
  const std::string head_text =
      "\r\npost http://example.com/a%20b?x=1%202#frag HTTP/1.1\r\nHost: example.com\r\n"
      "X-Multi: one\r\nx-multi:  two \r\nContent-Length: 4, 4\nExpect: 100-continue\r\n\r\n";
  const std::string raw = head_text + "bodyGET / HTTP/1.1\r\n\r\n";
  for (std::size_t step = 1; step <= raw.size(); ++step) {
    RequestHead head;
    std::size_t consumed = 0;
    ASSERT_EQ(parseInSteps(raw, step, head, consumed), RequestHeadParser::Outcome::kDone) << step;
    EXPECT_EQ(consumed, head_text.size()) << step;
    EXPECT_EQ(head.request.method, "post");  // as sent: the router refuses it (501)
    EXPECT_EQ(head.request.path, "/a b");
    EXPECT_EQ(head.request.query, "x=1%202");
    EXPECT_EQ(head.request.header("x-multi"), "one, two");
    EXPECT_EQ(head.content_length, 4u);
    EXPECT_TRUE(head.expect_continue);
    EXPECT_TRUE(head.keep_alive);
    EXPECT_FALSE(head.chunked);
  }
}

TEST(RequestHeadParserTest, FramingAndConnectionFields) {
  struct Case {
    std::string raw;
    bool keep_alive;
    bool chunked;
    uint64_t content_length;
  };
  const Case cases[] = {
      {"GET / HTTP/1.0\r\n\r\n", false, false, 0},
      {"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true, false, 0},
      {"GET / HTTP/1.1\r\nConnection: te, close\r\n\r\n", false, false, 0},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n", true, true, 0},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", false, true,
       0},
      {"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", true, false,
       UINT64_MAX},
  };
  for (const Case& c : cases) {
    RequestHead head;
    std::size_t consumed = 0;
    ASSERT_EQ(parseInSteps(c.raw, c.raw.size(), head, consumed), RequestHeadParser::Outcome::kDone)
        << c.raw;
    EXPECT_EQ(head.keep_alive, c.keep_alive) << c.raw;
    EXPECT_EQ(head.chunked, c.chunked) << c.raw;
    EXPECT_EQ(head.content_length, c.content_length) << c.raw;
  }
}

TEST(RequestHeadParserTest, RejectsMalformedHeadsAndLongOnes) {
  const std::pair<std::string, std::string> cases[] = {
      {"GET /x\r\n\r\n", "invalid request line"},
      {"GET  /x HTTP/1.1\r\n\r\n", "invalid request line"},
      {"G(T /x HTTP/1.1\r\n\r\n", "invalid method"},
      {"GET x HTTP/1.1\r\n\r\n", "invalid request target"},
      {"GET /x HTTP/2.0\r\n\r\n", "unsupported HTTP version"},
      {"GET /x HTTP/1.1\r\nA: b\r\n c\r\n\r\n", "obsolete header line folding"},
      {"GET /x HTTP/1.1\r\nA b\r\n\r\n", "header line without ':'"},
      {"GET /x HTTP/1.1\r\nA b: c\r\n\r\n", "invalid header name"},
      {std::string("GET /x HTTP/1.1\r\nA: b") + '\0' + "c\r\n\r\n",
       "control character in header 'A'"},
      {"GET /x HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n", "invalid Content-Length '1, 2'"},
      {"GET /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "invalid Content-Length '-1'"},
      {"GET /x HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "unsupported transfer coding 'gzip'"},
  };
  for (const auto& [raw, error] : cases) {
    RequestHeadParser parser(1024);
    RequestHead head;
    EXPECT_EQ(parser.parse(raw, head), RequestHeadParser::Outcome::kMalformed) << raw;
    EXPECT_EQ(parser.error(), error) << raw;
  }
  RequestHeadParser parser(1024);
  RequestHead head;
  EXPECT_EQ(parser.parse("GET /x HTTP/1.1\r\nA: " + std::string(1100, 'a'), head),
            RequestHeadParser::Outcome::kTooLarge);
  parser.reset();
  EXPECT_EQ(parser.parse("GET /x HTTP/1.1\r\nA: " + std::string(1100, 'a') + "\r\n\r\n", head),
            RequestHeadParser::Outcome::kTooLarge);
}

// Decodes `raw` growing by `step` bytes at a time; returns the body, or "<error>".
std::string decodeInSteps(const std::string& raw, std::size_t step, std::size_t& left_over) {
  ChunkedDecoder decoder;
  std::string body;
  std::string buffer;
  std::size_t fed = 0;
  while (true) {
    std::size_t used = 0;
    std::string_view data;
    const ChunkedDecoder::Outcome outcome = decoder.next(buffer, used, data);
    if (outcome == ChunkedDecoder::Outcome::kData) {
      body.append(data);
    }
    buffer.erase(0, used);
    if (outcome == ChunkedDecoder::Outcome::kDone) {
      left_over = buffer.size() + raw.size() - fed;
      return body;
    }
    if (outcome == ChunkedDecoder::Outcome::kMalformed) {
      return "<" + decoder.error() + ">";
    }
    if (outcome == ChunkedDecoder::Outcome::kNeedMore) {
      if (fed == raw.size()) {
        return "<incomplete>";
      }
      const std::size_t n = std::min(step, raw.size() - fed);
      buffer.append(raw, fed, n);
      fed += n;
    }
  }
}

TEST(ChunkedDecoderTest, DecodesTheSameWhereverTheInputIsSplit) {
  const std::string raw =
      "5;ext=1\r\nhello\r\n1a\r\n, chunked world, 26 bytes!\n0 \r\nTrailer: x\r\n\r\nNEXT";
  for (std::size_t step = 1; step <= raw.size(); ++step) {
    std::size_t left_over = 0;
    EXPECT_EQ(decodeInSteps(raw, step, left_over), "hello, chunked world, 26 bytes!") << step;
    EXPECT_EQ(left_over, 4u) << step;
  }
}

TEST(ChunkedDecoderTest, SizesWithLeadingZerosAreSizes) {
  // chunk-size = 1*HEXDIG (RFC 9112 7.1): leading zeros do not count towards the size's digits.
  const std::string raw = "0005\r\nhello\r\n00000000000000000000001;x\r\n!\r\n0000\r\n\r\n";
  for (std::size_t step = 1; step <= raw.size(); ++step) {
    std::size_t left_over = 0;
    EXPECT_EQ(decodeInSteps(raw, step, left_over), "hello!") << step;
    EXPECT_EQ(left_over, 0u) << step;
  }
  std::size_t left_over = 0;
  EXPECT_EQ(decodeInSteps("0001234567890abcdef0\r\n", 24, left_over), "<chunk size too large>");
}

TEST(ChunkedDecoderTest, RejectsMalformedFraming) {
  const std::pair<std::string, std::string> cases[] = {
      {"x\r\n", "<invalid chunk size line>"},
      {"5 5\r\n", "<invalid chunk size line>"},
      {"1234567890abcdef0\r\n", "<chunk size too large>"},
      {"3\r\nabcX\r\n", "<chunk data not followed by a line end>"},
      {std::string(5000, '1'), "<chunk size line too long>"},
      {"3\r\nabc\r\n", "<incomplete>"},
  };
  for (const auto& [raw, want] : cases) {
    std::size_t left_over = 0;
    EXPECT_EQ(decodeInSteps(raw, raw.size(), left_over), want) << raw;
  }
}

}  // namespace
}  // namespace koord::http::detail
