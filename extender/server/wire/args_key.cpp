#include "extender/server/wire/args_key.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "koord/api/extender/equal_fold.hpp"

namespace koord::extender::server::wire {
namespace {

constexpr std::size_t kMaxDepth = 256;

using api::extender::detail::equalFold;

// Which of `wanted` the key is: its index when spelled exactly; -1 when it is none of them; -2
// when it matches one only in another letter case (which encoding/json would also take for it).
template <std::size_t N>
int classify(std::string_view key, const std::array<std::string_view, N>& wanted) {
  for (std::size_t k = 0; k < N; ++k) {
    if (key == wanted[k]) {
      return static_cast<int>(k);
    }
    if (equalFold(key, wanted[k])) {
      return -2;
    }
  }
  return -1;
}

// A cursor over the body. Every method returns false on anything it does not accept, and then the
// scan as a whole gives up.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  void skipWs() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) {
      ++i_;
    }
  }

  bool eat(char c) {
    skipWs();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  [[nodiscard]] bool atEnd() {
    skipWs();
    return i_ == s_.size();
  }

  [[nodiscard]] bool peek(char c) {
    skipWs();
    return i_ < s_.size() && s_[i_] == c;
  }

  // A string of printable ASCII without escapes.
  bool plainString(std::string_view& out) {
    if (!eat('"')) {
      return false;
    }
    const std::size_t start = i_;
    for (; i_ < s_.size(); ++i_) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        out = s_.substr(start, i_ - start);
        ++i_;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) {
        return false;
      }
    }
    return false;
  }

  // Any JSON value, checked and passed over.
  bool skipValue(std::size_t depth) {
    skipWs();
    if (i_ >= s_.size()) {
      return false;
    }
    switch (s_[i_]) {
      case '{':
        return skipObject(depth + 1);
      case '[':
        return skipArray(depth + 1);
      case '"':
        return skipString();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }

  // The members of an object whose '{' is next, each handed to `member(key)`, which must consume
  // the value. With `plain_keys` every key must be a plain string (an escape could spell a key
  // that is read), else keys are any JSON string and are handed over as "\x01".
  template <class Member>
  bool object(std::size_t depth, Member&& member, bool plain_keys = true) {
    if (depth > kMaxDepth || !eat('{')) {
      return false;
    }
    if (eat('}')) {
      return true;
    }
    while (true) {
      std::string_view key;
      if (!(plain_keys ? plainString(key) : anyKey(key)) || !eat(':') || !member(key)) {
        return false;
      }
      if (eat(',')) {
        continue;
      }
      return eat('}');
    }
  }

  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) {
      return false;
    }
    i_ += word.size();
    return true;
  }

 private:
  bool anyKey(std::string_view& out) {
    out = "\x01";
    skipWs();
    return skipString();
  }

  bool skipObject(std::size_t depth) {
    return object(
        depth, [&](std::string_view) { return skipValue(depth); }, false);
  }

  bool skipArray(std::size_t depth) {
    if (depth > kMaxDepth || !eat('[')) {
      return false;
    }
    if (eat(']')) {
      return true;
    }
    while (true) {
      if (!skipValue(depth)) {
        return false;
      }
      if (eat(',')) {
        continue;
      }
      return eat(']');
    }
  }

  [[nodiscard]] int hex4(std::size_t at) const {
    if (at + 4 > s_.size()) {
      return -1;
    }
    int v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      const char c = s_[k];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= c - '0';
      } else if (c >= 'a' && c <= 'f') {
        v |= c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        v |= c - 'A' + 10;
      } else {
        return -1;
      }
    }
    return v;
  }

  // One UTF-8 sequence starting with the byte at i_ (>= 0x80); i_ moves past it.
  bool utf8() {
    const auto b0 = static_cast<unsigned char>(s_[i_]);
    std::size_t len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;  // the allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3;
      lo = b0 == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
      hi = b0 == 0xED ? 0x9F : 0xBF;  // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4;
      lo = b0 == 0xF0 ? 0x90 : 0x80;
      hi = b0 == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
    } else {
      return false;
    }
    if (i_ + len > s_.size()) {
      return false;
    }
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s_[i_ + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) {
        return false;
      }
    }
    i_ += len;
    return true;
  }

  bool skipString() {
    if (!eat('"')) {
      return false;
    }
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c < 0x20) {
        return false;
      }
      if (c >= 0x80) {
        if (!utf8()) {
          return false;
        }
        continue;
      }
      if (c != '\\') {
        ++i_;
        continue;
      }
      if (i_ + 1 >= s_.size()) {
        return false;
      }
      const char e = s_[i_ + 1];
      if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
          e == 't') {
        i_ += 2;
        continue;
      }
      if (e != 'u') {
        return false;
      }
      const int unit = hex4(i_ + 2);
      if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) {
        return false;  // not hex, or a low surrogate alone
      }
      i_ += 6;
      if (unit >= 0xD800 && unit <= 0xDBFF) {  // a high surrogate: its low half must follow
        if (i_ + 1 >= s_.size() || s_[i_] != '\\' || s_[i_ + 1] != 'u') {
          return false;
        }
        const int low = hex4(i_ + 2);
        if (low < 0xDC00 || low > 0xDFFF) {
          return false;
        }
        i_ += 6;
      }
    }
    return false;
  }

  bool digits() {
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      ++i_;
    }
    return i_ > start;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and finite as a double: nlohmann refuses a
  // number that overflows one (1e400, or an integer of 400 digits).
  bool number() {
    const std::size_t start = i_;
    if (!numberSyntax()) {
      return false;
    }
    const std::string_view text = s_.substr(start, i_ - start);
    if (text.size() <= 18 && text.find_first_of(".eE") == std::string_view::npos) {
      return true;  // an integer that fits in 64 bits
    }
    const std::string copy(text);
    return std::isfinite(std::strtod(copy.c_str(), nullptr));
  }

  bool numberSyntax() {
    if (i_ < s_.size() && s_[i_] == '-') {
      ++i_;
    }
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      return false;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) {
        return false;
      }
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) {
        ++i_;
      }
      if (!digits()) {
        return false;
      }
    }
    return true;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

constexpr std::array<std::string_view, 3> kTopKeys = {"Pod", "NodeNames", "Nodes"};
constexpr std::array<std::string_view, 1> kPodKeys = {"metadata"};
constexpr std::array<std::string_view, 4> kMetaKeys = {"uid", "resourceVersion", "namespace",
                                                       "name"};

// Runs `read` for a key's value the first time the key comes; the second time gives up (a key given
// twice is left to the full decoder, which words what it makes of it).
template <class Read>
bool once(bool& seen, Read&& read) {
  if (seen) {
    return false;
  }
  seen = true;
  return std::forward<Read>(read)();
}

bool readNames(Scanner& in, std::vector<std::string>& names) {
  if (!in.eat('[')) {
    return false;
  }
  if (in.eat(']')) {
    return true;
  }
  while (true) {
    std::string_view name;
    if (!in.plainString(name)) {
      return false;
    }
    names.emplace_back(name);
    if (in.eat(',')) {
      continue;
    }
    return in.eat(']');
  }
}

bool readMetadata(Scanner& in, ExtenderArgsKey& key, bool& uid_seen) {
  bool rv_seen = false;
  bool namespace_seen = false;
  bool name_seen = false;
  // A plain string; a value of another kind gives up.
  const auto readString = [&in](std::string& out) {
    std::string_view value;
    if (!in.plainString(value)) {
      return false;
    }
    out = value;
    return true;
  };
  return in.object(3, [&](std::string_view name) {
    switch (classify(name, kMetaKeys)) {
      case 0:
        return once(uid_seen, [&] { return readString(key.pod_uid); });
      case 1:
        return once(rv_seen, [&] { return readString(key.pod_resource_version); });
      case 2:
        return once(namespace_seen, [&] { return readString(key.pod_namespace); });
      case 3:
        return once(name_seen, [&] { return readString(key.pod_name); });
      case -1:
        return in.skipValue(3);
      default:
        return false;
    }
  });
}

bool readPod(Scanner& in, ExtenderArgsKey& key, bool& uid_seen) {
  bool metadata_seen = false;
  return in.object(2, [&](std::string_view name) {
    switch (classify(name, kPodKeys)) {
      case 0:
        return once(metadata_seen, [&] { return readMetadata(in, key, uid_seen); });
      case -1:
        return in.skipValue(2);
      default:
        return false;
    }
  });
}

}  // namespace

std::optional<ExtenderArgsKey> scanExtenderArgsKey(std::string_view body) {
  Scanner in(body);
  ExtenderArgsKey key;
  bool pod_seen = false;
  bool names_seen = false;
  bool nodes_seen = false;
  bool uid_seen = false;
  const bool parsed = in.object(1, [&](std::string_view name) {
    switch (classify(name, kTopKeys)) {
      case 0:
        return once(pod_seen, [&] { return readPod(in, key, uid_seen); });
      case 1:
        return once(names_seen, [&] { return readNames(in, key.node_names); });
      case 2:
        // Only null: Node objects are not what a nodeCacheCapable call sends.
        return once(nodes_seen, [&] { return in.peek('n') && in.literal("null"); });
      case -1:
        return in.skipValue(1);
      default:
        return false;
    }
  });
  if (!parsed || !in.atEnd() || !names_seen || !uid_seen || key.pod_uid.empty()) {
    return std::nullopt;
  }
  return key;
}

}  // namespace koord::extender::server::wire
