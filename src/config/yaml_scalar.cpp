#include "yaml_scalar.hpp"

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>

namespace koord::config::detail {
namespace {

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

bool isOneOf(std::string_view text, std::initializer_list<std::string_view> options) {
  for (std::string_view option : options) {
    if (text == option) {
      return true;
    }
  }
  return false;
}

std::optional<bool> parseBool(std::string_view text) {
  if (isOneOf(text, {"true", "True", "TRUE"})) {
    return true;
  }
  if (isOneOf(text, {"false", "False", "FALSE"})) {
    return false;
  }
  return std::nullopt;
}

bool isInfinity(std::string_view text) {
  return isOneOf(text,
                 {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"});
}

bool isNan(std::string_view text) {
  return isOneOf(text, {".nan", ".NaN", ".NAN"});
}

std::string withoutUnderscores(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '_') {
      out.push_back(c);
    }
  }
  return out;
}

int digitValue(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return 99;
}

// Integers as Go's strconv.ParseInt(s, 0, 64) then ParseUint read them (what yaml.v2 does after
// removing underscores): optional sign, then 0x / 0o / 0b / leading-0 octal / decimal digits.
std::optional<nlohmann::json> parseInteger(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 1 && text[0] == '0') {
    const char p = text[1];
    if (p == 'x' || p == 'X') {
      base = 16;
      text.remove_prefix(2);
    } else if (p == 'o' || p == 'O') {
      base = 8;
      text.remove_prefix(2);
    } else if (p == 'b' || p == 'B') {
      base = 2;
      text.remove_prefix(2);
    } else {
      base = 8;
      text.remove_prefix(1);
    }
  }
  if (text.empty()) {
    return std::nullopt;
  }
  uint64_t magnitude = 0;
  for (char c : text) {
    const int d = digitValue(c);
    if (d >= base) {
      return std::nullopt;
    }
    if (magnitude > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(d)) /
                        static_cast<uint64_t>(base)) {
      return std::nullopt;  // out of range: the caller tries a float
    }
    magnitude = magnitude * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  constexpr uint64_t kMaxInt64 = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (magnitude > kMaxInt64 + 1) {
      return std::nullopt;
    }
    if (magnitude == kMaxInt64 + 1) {
      return nlohmann::json(std::numeric_limits<int64_t>::min());
    }
    return nlohmann::json(-static_cast<int64_t>(magnitude));
  }
  if (magnitude <= kMaxInt64) {
    return nlohmann::json(static_cast<int64_t>(magnitude));
  }
  return nlohmann::json(magnitude);
}

// yaml.v2's float syntax: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool looksLikeFloat(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      ++i;
    }
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) {
      return false;
    }
  } else {
    if (digits() == 0) {
      return false;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    if (digits() == 0) {
      return false;
    }
  }
  return i == s.size();
}

std::optional<double> parseFloat(std::string_view s) {
  if (!looksLikeFloat(s)) {
    return std::nullopt;
  }
  if (s[0] == '+') {
    s.remove_prefix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) {
    return std::nullopt;  // e.g. 1e999: Go's ParseFloat fails too and the scalar stays a string
  }
  return value;
}

// Number resolution shared by plain scalars and !!int / !!float.
std::optional<nlohmann::json> parseNumber(std::string_view text) {
  const std::string plain = withoutUnderscores(text);
  if (auto integer = parseInteger(plain)) {
    return integer;
  }
  if (auto real = parseFloat(plain)) {
    return nlohmann::json(*real);
  }
  return std::nullopt;
}

ResolvedScalar plainScalar(const std::string& text) {
  if (isNullText(text)) {
    return {nlohmann::json(nullptr), {}};
  }
  if (auto b = parseBool(text)) {
    return {nlohmann::json(*b), {}};
  }
  const char first = text[0];
  const bool numeric_hint =
      (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.';
  if (!numeric_hint) {
    return {nlohmann::json(text), {}};
  }
  if (isInfinity(text) || isNan(text)) {
    return {nullptr, "unsupported value " + text + ": JSON has no infinity or NaN"};
  }
  if (auto number = parseNumber(text)) {
    return {std::move(*number), {}};
  }
  return {nlohmann::json(text), {}};
}

ResolvedScalar invalidForTag(std::string_view tag, const std::string& text) {
  return {nullptr, "cannot decode \"" + text + "\" as !!" + std::string(tag)};
}

}  // namespace

bool isNullText(const std::string& text) {
  return isOneOf(text, {"", "~", "null", "Null", "NULL"});
}

ResolvedScalar resolveScalar(const std::string& tag, const std::string& text) {
  if (tag == "?") {
    return plainScalar(text);
  }
  if (tag.rfind(kTagPrefix, 0) != 0) {
    return {nlohmann::json(text), {}};  // "!" (quoted, block) or a tag we do not interpret
  }
  const std::string_view type = std::string_view(tag).substr(kTagPrefix.size());
  if (type == "int") {
    const std::string plain = withoutUnderscores(text);
    if (auto integer = parseInteger(plain)) {
      return {std::move(*integer), {}};
    }
    return invalidForTag(type, text);
  }
  if (type == "float") {
    if (isInfinity(text) || isNan(text)) {
      return {nullptr, "unsupported value " + text + ": JSON has no infinity or NaN"};
    }
    if (auto real = parseFloat(withoutUnderscores(text))) {
      return {nlohmann::json(*real), {}};
    }
    if (auto integer = parseInteger(withoutUnderscores(text))) {
      return {nlohmann::json(integer->get<double>()), {}};
    }
    return invalidForTag(type, text);
  }
  if (type == "bool") {
    if (auto b = parseBool(text)) {
      return {nlohmann::json(*b), {}};
    }
    return invalidForTag(type, text);
  }
  if (type == "null") {
    if (isNullText(text)) {
      return {nlohmann::json(nullptr), {}};
    }
    return invalidForTag(type, text);
  }
  return {nlohmann::json(text), {}};  // !!str, !!binary, !!timestamp and the like
}

}  // namespace koord::config::detail
