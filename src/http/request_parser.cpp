#include "request_parser.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>

#include "text.hpp"

namespace koord::http::detail {
namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && isBlank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && isBlank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

// Where the head that starts at `input[0]` ends (just past its blank line), or npos. `scanned`
// carries the search's progress between calls on a growing input.
std::size_t findHeadEnd(std::string_view input, std::size_t& scanned) {
  std::size_t i = scanned;
  while (i < input.size()) {
    const void* found = std::memchr(input.data() + i, '\n', input.size() - i);
    if (found == nullptr) {
      scanned = input.size();
      return std::string_view::npos;
    }
    i = static_cast<std::size_t>(static_cast<const char*>(found) - input.data());
    // A line feed ends the head when the next line is empty: "\n\n" or "\n\r\n".
    if (i + 1 < input.size() && input[i + 1] == '\n') {
      return i + 2;
    }
    if (i + 2 < input.size() && input[i + 1] == '\r' && input[i + 2] == '\n') {
      return i + 3;
    }
    if (i + 2 >= input.size()) {
      scanned = i;  // look at this line feed again once more bytes are here
      return std::string_view::npos;
    }
    ++i;
  }
  scanned = input.size();
  return std::string_view::npos;
}

// Splits off the next line (without its CRLF or LF) from `text`.
std::string_view nextLine(std::string_view& text) {
  const std::size_t lf = text.find('\n');
  std::string_view line = text.substr(0, lf);
  text = lf == std::string_view::npos ? std::string_view() : text.substr(lf + 1);
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  return line;
}

bool isVisible(char c) {
  return c > 0x20 && c < 0x7f;
}

// Control characters other than tab (bytes >= 0x80 are obs-text and allowed).
bool hasControl(std::string_view value) {
  return std::any_of(value.begin(), value.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
  });
}

// Whether the comma-separated list `value` holds `token` (case-insensitively).
bool listHas(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    if (equalsIgnoreCase(trim(value.substr(0, comma)), token)) {
      return true;
    }
    value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
  }
  return false;
}

// A Content-Length value: decimal digits, or a list of equal ones ("5, 5"); UINT64_MAX when too
// large. nullopt when invalid.
std::optional<uint64_t> parseContentLength(std::string_view value) {
  std::optional<uint64_t> result;
  while (true) {
    const std::size_t comma = value.find(',');
    const std::string_view item = trim(value.substr(0, comma));
    if (item.empty()) {
      return std::nullopt;
    }
    uint64_t n = 0;
    for (char c : item) {
      if (c < '0' || c > '9') {
        return std::nullopt;
      }
      const auto digit = static_cast<uint64_t>(c - '0');
      n = n > (std::numeric_limits<uint64_t>::max() - digit) / 10
              ? std::numeric_limits<uint64_t>::max()
              : n * 10 + digit;
    }
    if (result.has_value() && *result != n) {
      return std::nullopt;
    }
    result = n;
    if (comma == std::string_view::npos) {
      return result;
    }
    value = value.substr(comma + 1);
  }
}

// Sets request.path (decoded) and request.query (raw) from the request target; false when the
// target has a form we do not serve.
bool splitTarget(std::string_view target, HttpRequest& request) {
  if (target == "*") {
    request.path = "*";
    request.query.clear();
    return true;
  }
  if (target.front() != '/') {
    // absolute-form: scheme "://" authority [path-abempty] ["?" query]
    const std::size_t scheme_end = target.find("://");
    if (scheme_end == std::string_view::npos ||
        !(equalsIgnoreCase(target.substr(0, scheme_end), "http") ||
          equalsIgnoreCase(target.substr(0, scheme_end), "https"))) {
      return false;
    }
    const std::size_t rest = target.find_first_of("/?#", scheme_end + 3);
    target = rest == std::string_view::npos ? std::string_view() : target.substr(rest);
  }
  target = target.substr(0, target.find('#'));
  const std::size_t question = target.find('?');
  std::string_view path = target.substr(0, question);
  request.path = percentDecode(path.empty() ? std::string_view("/") : path, false);
  request.query =
      question == std::string_view::npos ? std::string() : std::string(target.substr(question + 1));
  return true;
}

}  // namespace

void RequestHeadParser::reset() {
  scanned_ = 0;
  consumed_ = 0;
  error_.clear();
}

RequestHeadParser::Outcome RequestHeadParser::fail(std::string reason) {
  error_ = std::move(reason);
  return Outcome::kMalformed;
}

RequestHeadParser::Outcome RequestHeadParser::parse(std::string_view input, RequestHead& head) {
  // Blank lines before the request line are skipped (they still count toward the size limit).
  const std::size_t start = std::min(input.find_first_not_of("\r\n"), input.size());
  std::size_t scanned = std::max(scanned_, start) - start;
  const std::size_t length = findHeadEnd(input.substr(start), scanned);
  scanned_ = start + scanned;
  if (length == std::string_view::npos) {
    return input.size() > max_head_bytes_ ? Outcome::kTooLarge : Outcome::kNeedMore;
  }
  if (start + length > max_head_bytes_) {
    return Outcome::kTooLarge;
  }
  consumed_ = start + length;
  std::string_view text = input.substr(start, length);
  head = RequestHead{};
  HttpRequest& request = head.request;

  // Request line: method SP target SP version.
  const std::string_view line = nextLine(text);
  const std::size_t sp1 = line.find(' ');
  const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    return fail("invalid request line");
  }
  const std::string_view method = line.substr(0, sp1);
  const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (method.empty() || !std::all_of(method.begin(), method.end(), isTokenChar)) {
    return fail("invalid method");
  }
  if (target.empty() || !std::all_of(target.begin(), target.end(), isVisible)) {
    return fail("invalid request target");
  }
  if (version.size() != 8 || version.substr(0, 7) != "HTTP/1." || version[7] < '0' ||
      version[7] > '9') {
    return fail("unsupported HTTP version");
  }
  head.minor_version = version[7] - '0';
  request.method = std::string(method);  // case-sensitive (RFC 9110 9.1): the router judges it
  if (!splitTarget(target, request)) {
    return fail("invalid request target");
  }

  // Header fields, up to the blank line.
  for (std::string_view field = nextLine(text); !field.empty(); field = nextLine(text)) {
    if (isBlank(field.front())) {
      return fail("obsolete header line folding");
    }
    const std::size_t colon = field.find(':');
    if (colon == std::string_view::npos) {
      return fail("header line without ':'");
    }
    const std::string_view name = field.substr(0, colon);
    const std::string_view value = trim(field.substr(colon + 1));
    if (name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar)) {
      return fail("invalid header name");
    }
    if (hasControl(value)) {
      return fail("control character in header '" + std::string(name) + "'");
    }
    auto [it, inserted] = request.headers.try_emplace(std::string(name), value);
    if (!inserted) {
      it->second.append(", ").append(value);
    }
  }

  // Framing and connection handling.
  const std::string connection = request.header("Connection");
  head.keep_alive =
      head.minor_version >= 1 ? !listHas(connection, "close") : listHas(connection, "keep-alive");
  const auto transfer_encoding = request.headers.find("Transfer-Encoding");
  const auto content_length = request.headers.find("Content-Length");
  if (transfer_encoding != request.headers.end()) {
    if (!equalsIgnoreCase(transfer_encoding->second, "chunked")) {
      return fail("unsupported transfer coding '" + transfer_encoding->second + "'");
    }
    head.chunked = true;
    if (content_length != request.headers.end() || head.minor_version == 0) {
      head.keep_alive = false;
    }
  } else if (content_length != request.headers.end()) {
    const std::optional<uint64_t> parsed = parseContentLength(content_length->second);
    if (!parsed.has_value()) {
      return fail("invalid Content-Length '" + content_length->second + "'");
    }
    head.content_length = *parsed;
  }
  head.expect_continue =
      head.minor_version >= 1 && equalsIgnoreCase(request.header("Expect"), "100-continue");
  return Outcome::kDone;
}

}  // namespace koord::http::detail
