#include "koord/api/extension/duration.hpp"

#include <cstdint>
#include <limits>

namespace koord::api::extension {
namespace {

constexpr uint64_t kNanosecond = 1;
constexpr uint64_t kMicrosecond = 1000 * kNanosecond;
constexpr uint64_t kMillisecond = 1000 * kMicrosecond;
constexpr uint64_t kSecond = 1000 * kMillisecond;
constexpr uint64_t kMinute = 60 * kSecond;
constexpr uint64_t kHour = 60 * kMinute;
constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;

Status invalid(std::string_view text, std::string_view why) {
  std::string msg = "invalid duration \"";
  msg += text;
  msg += "\": ";
  msg += why;
  return Status::invalidArgument(std::move(msg));
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

// The unit's length in nanoseconds, or 0 when unknown.
uint64_t unitNanos(std::string_view unit) {
  if (unit == "ns") {
    return kNanosecond;
  }
  // "us", U+00B5 micro sign and U+03BC Greek mu, as Go accepts.
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") {
    return kMicrosecond;
  }
  if (unit == "ms") {
    return kMillisecond;
  }
  if (unit == "s") {
    return kSecond;
  }
  if (unit == "m") {
    return kMinute;
  }
  if (unit == "h") {
    return kHour;
  }
  return 0;
}

}  // namespace

Result<std::chrono::nanoseconds> parseDuration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") {
    return std::chrono::nanoseconds(0);
  }
  if (s.empty()) {
    return invalid(text, "empty");
  }
  uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || isDigit(s[0]))) {
      return invalid(text, "expected a number");
    }
    uint64_t whole = 0;
    size_t i = 0;
    for (; i < s.size() && isDigit(s[i]); ++i) {
      if (whole > (kMaxMagnitude - 1) / 10) {
        return invalid(text, "overflow");
      }
      whole = whole * 10 + static_cast<uint64_t>(s[i] - '0');
      if (whole > kMaxMagnitude) {
        return invalid(text, "overflow");
      }
    }
    bool has_whole = i > 0;
    s.remove_prefix(i);
    uint64_t fraction = 0;
    double scale = 1.0;
    bool has_fraction = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      size_t j = 0;
      bool saturated = false;
      for (; j < s.size() && isDigit(s[j]); ++j) {
        if (saturated || fraction > (std::numeric_limits<uint64_t>::max() - 9) / 10) {
          saturated = true;  // further digits are below the precision we keep
          continue;
        }
        fraction = fraction * 10 + static_cast<uint64_t>(s[j] - '0');
        scale *= 10;
      }
      has_fraction = j > 0;
      s.remove_prefix(j);
    }
    if (!has_whole && !has_fraction) {
      return invalid(text, "expected a number");
    }
    size_t unit_len = 0;
    while (unit_len < s.size() && s[unit_len] != '.' && !isDigit(s[unit_len])) {
      ++unit_len;
    }
    if (unit_len == 0) {
      return invalid(text, "missing unit");
    }
    uint64_t unit = unitNanos(s.substr(0, unit_len));
    if (unit == 0) {
      return invalid(text, "unknown unit \"" + std::string(s.substr(0, unit_len)) + "\"");
    }
    s.remove_prefix(unit_len);
    if (whole > kMaxMagnitude / unit) {
      return invalid(text, "overflow");
    }
    whole *= unit;
    if (fraction > 0) {
      whole += static_cast<uint64_t>(static_cast<double>(fraction) *
                                     (static_cast<double>(unit) / scale));
      if (whole > kMaxMagnitude) {
        return invalid(text, "overflow");
      }
    }
    total += whole;
    if (total > kMaxMagnitude) {
      return invalid(text, "overflow");
    }
  }
  if (negative) {
    return std::chrono::nanoseconds(total == kMaxMagnitude ? std::numeric_limits<int64_t>::min()
                                                           : -static_cast<int64_t>(total));
  }
  if (total > kMaxMagnitude - 1) {
    return invalid(text, "overflow");
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(total));
}

namespace {

// Appends v / 10^precision with trailing zeros (and a bare ".") trimmed, like Go's fmtFrac.
std::string fractionText(uint64_t& v, int precision) {
  std::string digits;
  bool print = false;
  for (int i = 0; i < precision; ++i) {
    uint64_t digit = v % 10;
    print = print || digit != 0;
    if (print) {
      digits.insert(digits.begin(), static_cast<char>('0' + digit));
    }
    v /= 10;
  }
  if (print) {
    digits.insert(digits.begin(), '.');
  }
  return digits;
}

}  // namespace

std::string formatDuration(std::chrono::nanoseconds value) {
  int64_t d = value.count();
  if (d == 0) {
    return "0s";
  }
  bool negative = d < 0;
  uint64_t u = negative ? uint64_t{0} - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
  std::string out;
  if (u < kSecond) {
    int precision = 0;
    std::string unit;
    if (u < kMicrosecond) {
      unit = "ns";
    } else if (u < kMillisecond) {
      precision = 3;
      unit = "\xC2\xB5s";
    } else {
      precision = 6;
      unit = "ms";
    }
    std::string frac = fractionText(u, precision);
    out = std::to_string(u) + frac + unit;
  } else {
    std::string frac = fractionText(u, 9);
    uint64_t seconds = u % 60;
    u /= 60;
    out = std::to_string(seconds) + frac + "s";
    if (u > 0) {
      uint64_t minutes = u % 60;
      u /= 60;
      out = std::to_string(minutes) + "m" + out;
      if (u > 0) {
        out = std::to_string(u) + "h" + out;
      }
    }
  }
  return negative ? "-" + out : out;
}

}  // namespace koord::api::extension
