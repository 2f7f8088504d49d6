#include "chunked_decoder.hpp"

#include <algorithm>

#include "text.hpp"

namespace koord::http::detail {
namespace {

constexpr std::size_t kMaxSizeLineBytes = 4096;
constexpr std::size_t kMaxTrailerBytes = std::size_t{64} * 1024;

}  // namespace

ChunkedDecoder::Outcome ChunkedDecoder::fail(std::string reason) {
  error_ = std::move(reason);
  return Outcome::kMalformed;
}

ChunkedDecoder::Outcome ChunkedDecoder::next(std::string_view input, std::size_t& consumed,
                                             std::string_view& data) {
  consumed = 0;
  while (true) {
    const std::string_view rest = input.substr(consumed);
    switch (state_) {
      case State::kSize: {
        const std::size_t lf = rest.find('\n');
        if (lf == std::string_view::npos) {
          if (rest.size() > kMaxSizeLineBytes) {
            return fail("chunk size line too long");
          }
          return Outcome::kNeedMore;
        }
        if (lf > kMaxSizeLineBytes) {
          return fail("chunk size line too long");
        }
        std::string_view line = rest.substr(0, lf);
        if (!line.empty() && line.back() == '\r') {
          line.remove_suffix(1);
        }
        // chunk-size = 1*HEXDIG (RFC 9112 7.1): leading zeros are allowed and do not count
        // towards the 15 significant digits that fit (the size line's own cap bounds them).
        uint64_t size = 0;
        std::size_t digits = 0;
        std::size_t significant = 0;
        for (; digits < line.size() && hexDigitValue(line[digits]) >= 0; ++digits) {
          if (size == 0 && line[digits] == '0') {
            continue;
          }
          if (++significant == 16) {
            return fail("chunk size too large");
          }
          size = size * 16 + static_cast<uint64_t>(hexDigitValue(line[digits]));
        }
        // After the size: optional whitespace, then nothing or ";" and extensions (dropped).
        std::size_t after = digits;
        while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) {
          ++after;
        }
        if (digits == 0 || (after < line.size() && line[after] != ';')) {
          return fail("invalid chunk size line");
        }
        consumed += lf + 1;
        chunk_left_ = size;
        state_ = size == 0 ? State::kTrailer : State::kData;
        break;
      }
      case State::kData: {
        if (rest.empty()) {
          return Outcome::kNeedMore;
        }
        const std::size_t take =
            static_cast<std::size_t>(std::min<uint64_t>(chunk_left_, rest.size()));
        data = rest.substr(0, take);
        consumed += take;
        chunk_left_ -= take;
        if (chunk_left_ == 0) {
          state_ = State::kDataEnd;
        }
        return Outcome::kData;
      }
      case State::kDataEnd: {
        if (rest.empty() || (rest.size() == 1 && rest[0] == '\r')) {
          return Outcome::kNeedMore;
        }
        if (rest[0] == '\n') {
          consumed += 1;
        } else if (rest[0] == '\r' && rest[1] == '\n') {
          consumed += 2;
        } else {
          return fail("chunk data not followed by a line end");
        }
        state_ = State::kSize;
        break;
      }
      case State::kTrailer: {
        const std::size_t lf = rest.find('\n');
        if (lf == std::string_view::npos) {
          if (trailer_bytes_ + rest.size() > kMaxTrailerBytes) {
            return fail("trailer section too large");
          }
          return Outcome::kNeedMore;
        }
        trailer_bytes_ += lf + 1;
        if (trailer_bytes_ > kMaxTrailerBytes) {
          return fail("trailer section too large");
        }
        consumed += lf + 1;
        if (lf == 0 || (lf == 1 && rest[0] == '\r')) {
          state_ = State::kDone;
          return Outcome::kDone;
        }
        break;
      }
      case State::kDone:
        return Outcome::kDone;
    }
  }
}

}  // namespace koord::http::detail
