#include "protobuf_wire.hpp"

#include <array>
#include <ctime>

namespace koord::k8s::protobuf_wire {
namespace {

// Length of the valid UTF-8 sequence at the start of `s` (1 to 4), or 0 when it is not one.
size_t utf8SequenceLength(std::string_view s) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
  const auto cont = [&](size_t i, uint8_t lo = 0x80, uint8_t hi = 0xbf) {
    return i < s.size() && byte(i) >= lo && byte(i) <= hi;
  };
  const uint8_t b = byte(0);
  if (b < 0x80) {
    return 1;
  }
  if (b >= 0xc2 && b <= 0xdf) {
    return cont(1) ? 2 : 0;
  }
  if (b >= 0xe0 && b <= 0xef) {
    const uint8_t lo = b == 0xe0 ? 0xa0 : 0x80;
    const uint8_t hi = b == 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const uint8_t lo = b == 0xf0 ? 0x90 : 0x80;
    const uint8_t hi = b == 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

bool formatTime(int64_t seconds, std::string& out) {
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (::gmtime_r(&t, &tm) == nullptr) {
    return false;
  }
  std::array<char, 32> buf{};
  const size_t n = std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (n == 0) {
    return false;
  }
  out.assign(buf.data(), n);
  return true;
}

std::string jsonString(std::string_view bytes) {
  size_t ascii = 0;
  while (ascii < bytes.size() && static_cast<uint8_t>(bytes[ascii]) < 0x80) {
    ++ascii;
  }
  if (ascii == bytes.size()) {
    return std::string(bytes);  // the usual case: nothing to check further
  }
  std::string out;
  out.reserve(bytes.size());
  out.append(bytes.substr(0, ascii));
  bytes.remove_prefix(ascii);
  while (!bytes.empty()) {
    const size_t n = utf8SequenceLength(bytes);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      bytes.remove_prefix(1);
    } else {
      out.append(bytes.substr(0, n));
      bytes.remove_prefix(n);
    }
  }
  return out;
}

bool readEnvelope(std::string_view unknown, Envelope& out) {
  return forEachBytesField(unknown, [&](uint32_t number, std::string_view bytes) {
    if (number == 1) {
      return forEachBytesField(bytes, [&](uint32_t n, std::string_view text) {
        if (n == 1) {
          out.api_version = jsonString(text);
        } else if (n == 2) {
          out.kind = jsonString(text);
        }
        return true;
      });
    }
    if (number == 2) {
      out.raw = bytes;
    } else if (number == 3) {
      out.encoding = jsonString(bytes);
    }
    return true;
  });
}

bool readMapEntry(std::string_view entry, bool quantity, std::string& key, std::string& value) {
  return forEachBytesField(entry, [&](uint32_t number, std::string_view bytes) {
    if (number == 1) {
      key = jsonString(bytes);
    } else if (number == 2 && !quantity) {
      value = jsonString(bytes);
    } else if (number == 2) {
      return forEachBytesField(bytes, [&](uint32_t n, std::string_view text) {
        if (n == 1) {
          value = jsonString(text);
        }
        return true;
      });
    }
    return true;
  });
}

}  // namespace koord::k8s::protobuf_wire
