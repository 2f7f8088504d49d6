#include "koord/api/core/time.hpp"

#include <charconv>
#include <ctime>
#include <string>

namespace koord::api::core {
namespace {

bool readInt(std::string_view text, size_t pos, size_t len, int& out) {
  if (pos + len > text.size())
    return false;
  const char* begin = text.data() + pos;
  auto [end, ec] = std::from_chars(begin, begin + len, out);
  return ec == std::errc() && end == begin + len;
}

}  // namespace

Result<std::chrono::system_clock::time_point> parseTime(std::string_view text) {
  const auto bad = [&] {
    return Status::invalidArgument("invalid time \"" + std::string(text) +
                                   "\": want RFC 3339 such as 2006-01-02T15:04:05Z");
  };
  std::tm tm{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' ||
      !readInt(text, 0, 4, year) || !readInt(text, 5, 2, month) || !readInt(text, 8, 2, day) ||
      !readInt(text, 11, 2, hour) || !readInt(text, 14, 2, minute) ||
      !readInt(text, 17, 2, second)) {
    return bad();
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return bad();
  size_t pos = 19;
  int64_t nanos = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 9) {
        nanos = nanos * 10 + (text[pos] - '0');
        ++digits;
      }
      ++pos;
    }
    if (digits == 0)
      return bad();
    for (; digits < 9; ++digits)
      nanos *= 10;
  }
  int offset_seconds = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int oh = 0, om = 0;
    if (pos + 6 != text.size() || text[pos + 3] != ':' || !readInt(text, pos + 1, 2, oh) ||
        !readInt(text, pos + 4, 2, om))
      return bad();
    offset_seconds = (oh * 3600 + om * 60) * (text[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != text.size())
    return bad();
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const time_t seconds = timegm(&tm) - offset_seconds;
  using TimePoint = std::chrono::system_clock::time_point;
  // system_clock counts nanoseconds in 64 bits: about the years 1678 to 2262. A time outside
  // (which no API object carries) is refused rather than overflowing.
  constexpr int64_t kMaxSeconds =
      std::chrono::duration_cast<std::chrono::seconds>(TimePoint::duration::max()).count() - 1;
  if (seconds > kMaxSeconds || seconds < -kMaxSeconds) {
    return Status::invalidArgument("invalid time \"" + std::string(text) +
                                   "\": outside the years 1678 to 2262");
  }
  return TimePoint(std::chrono::seconds(seconds)) +
         std::chrono::duration_cast<TimePoint::duration>(std::chrono::nanoseconds(nanos));
}

}  // namespace koord::api::core
