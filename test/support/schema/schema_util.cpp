#include "schema_util.hpp"

#include <cmath>

// GCC 12 reports a false -Wmaybe-uninitialized inside <regex> at -O1 with the sanitizers
// (std::function in _NFA::_M_insert_*); the header is the only place std::regex is used.
// (clang, which builds the libFuzzer targets, has no such warning.)
#if defined(__clang__)
#include <regex>
#else
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#endif

namespace koord::testing::schema::detail {

namespace {

bool digits(std::string_view text, size_t pos, size_t count) {
  if (pos + count > text.size()) {
    return false;
  }
  for (size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return false;
    }
  }
  return true;
}

}  // namespace

struct Pattern::Impl {
  std::regex regex;
};

bool boolField(const Json& schema, std::string_view key) {
  if (!schema.is_object()) {
    return false;
  }
  auto it = schema.find(key);
  return it != schema.end() && it->is_boolean() && it->get<bool>();
}

std::string stringField(const Json& schema, std::string_view key) {
  if (!schema.is_object()) {
    return "";
  }
  auto it = schema.find(key);
  return it != schema.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int64_t> intField(const Json& schema, std::string_view key) {
  if (!schema.is_object()) {
    return std::nullopt;
  }
  auto it = schema.find(key);
  if (it == schema.end() || !it->is_number_integer()) {
    return std::nullopt;
  }
  return it->get<int64_t>();
}

bool isWholeNumber(const Json& value) {
  if (value.is_number_integer()) {
    return true;
  }
  if (!value.is_number_float()) {
    return false;
  }
  const double number = value.get<double>();
  return std::isfinite(number) && std::floor(number) == number;
}

// YYYY-MM-DD(T|t| )hh:mm:ss[.frac](Z|z|±hh:mm)
bool isDateTime(std::string_view text) {
  if (!digits(text, 0, 4) || text.size() < 20 || text[4] != '-' || !digits(text, 5, 2) ||
      text[7] != '-' || !digits(text, 8, 2) ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !digits(text, 11, 2) ||
      text[13] != ':' || !digits(text, 14, 2) || text[16] != ':' || !digits(text, 17, 2)) {
    return false;
  }
  size_t pos = 19;
  if (text[pos] == '.') {
    const size_t start = ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      ++pos;
    }
    if (pos == start) {
      return false;
    }
  }
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    return pos + 1 == text.size();
  }
  return pos + 6 == text.size() && (text[pos] == '+' || text[pos] == '-') &&
         digits(text, pos + 1, 2) && text[pos + 3] == ':' && digits(text, pos + 4, 2);
}

std::optional<Pattern> Pattern::compile(const std::string& pattern) {
  try {
    return Pattern(std::make_shared<const Impl>(Impl{std::regex(pattern, std::regex::ECMAScript)}));
  } catch (const std::regex_error&) {
    return std::nullopt;
  }
}

bool Pattern::search(std::string_view text) const {
  return std::regex_search(text.begin(), text.end(), impl_->regex);
}

}  // namespace koord::testing::schema::detail
