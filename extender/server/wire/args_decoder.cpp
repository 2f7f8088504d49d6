#include "extender/server/wire/args_decoder.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/extender/equal_fold.hpp"

namespace koord::extender::server::wire {
namespace {

using api::checkJsonNesting;
using api::Json;
using api::kMaxJsonNestingDepth;
using api::parseJson;
using api::extender::ExtenderArgs;
using api::extender::detail::equalFold;

// nlohmann's SAX interface. Builds the tree of everything except the top-level NodeNames (collected
// into `names`) and Pod.metadata.managedFields (dropped). With `pod_root` the document is the Pod
// itself (its metadata.managedFields dropped, no NodeNames). The first problem stops the parse and
// is kept in `status`.
class ArgsSax {
 public:
  explicit ArgsSax(bool pod_root = false) : pod_root_(pod_root) {}

  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  Json root;
  std::optional<std::vector<std::string>> names;
  Status status;
  // The parse stopped at a container past kMaxJsonNestingDepth (status says so without the offset;
  // checkJsonNesting on the same text gives it).
  bool too_deep = false;

  // The member names are nlohmann's SAX interface.
  // NOLINTBEGIN(readability-identifier-naming)
  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool v) { return scalar(Json(v)); }
  bool number_integer(number_integer_t v) { return scalar(Json(v)); }
  bool number_unsigned(number_unsigned_t v) { return scalar(Json(v)); }
  bool number_float(number_float_t v, const string_t&) { return scalar(Json(v)); }
  bool binary(binary_t& v) { return scalar(Json::binary(std::move(v))); }

  bool string(string_t& v) {
    if (names_state_ == NamesState::kInArray) {
      names->push_back(std::move(v));
      return true;
    }
    return scalar(Json(std::move(v)));
  }

  bool start_object(std::size_t /*size*/) { return enter() && open(Json::object()); }
  bool start_array(std::size_t /*size*/) {
    if (!enter()) {
      return false;
    }
    if (names_state_ == NamesState::kExpected) {
      names_state_ = NamesState::kInArray;
      names.emplace();
      return true;
    }
    return open(Json::array());
  }

  bool end_object() {
    --depth_;
    return close();
  }
  bool end_array() {
    --depth_;
    if (names_state_ == NamesState::kInArray) {
      names_state_ = NamesState::kNone;
      return true;
    }
    return close();
  }

  bool key(string_t& k) {
    if (skip_depth_ > 0) {
      return true;
    }
    if (!pod_root_ && stack_.size() == 1 && equalFold(k, "NodeNames")) {
      // An exact "NodeNames" wins over a case-folded one, as in encoding/json.
      if (k != "NodeNames" && names_exact_) {
        skip_next_ = true;
        return true;
      }
      names_exact_ = names_exact_ || k == "NodeNames";
      names.reset();
      names_state_ = NamesState::kExpected;
      return true;
    }
    const bool pod_metadata =
        pod_root_ ? stack_.size() == 2 && keys_[1] == "metadata"
                  : stack_.size() == 3 && keys_[2] == "metadata" && equalFold(keys_[1], "Pod");
    if (pod_metadata && k == "managedFields") {
      skip_next_ = true;
      return true;
    }
    pending_key_ = std::move(k);
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& e) {
    status = Status::invalidArgument(std::string("failed to parse JSON: ") + e.what());
    return false;
  }
  // NOLINTEND(readability-identifier-naming)

 private:
  enum class NamesState { kNone, kExpected, kInArray };

  bool fail(const std::string& message) {
    status = Status::invalidArgument(message);
    return false;
  }

  // Counts one more open container (dropped ones too: their depth costs nothing here, but the
  // same text given to another decoder would).
  bool enter() {
    if (++depth_ > kMaxJsonNestingDepth) {
      too_deep = true;
      return fail("failed to parse JSON: nesting deeper than " +
                  std::to_string(kMaxJsonNestingDepth) + " levels");
    }
    return true;
  }

  // A non-string inside NodeNames, or NodeNames that is neither null nor an array.
  bool badNames(const Json& got) {
    if (names_state_ == NamesState::kInArray) {
      return fail("NodeNames[" + std::to_string(names->size()) + "]: expected string, got " +
                  std::string(api::jsonTypeName(got)));
    }
    return fail("NodeNames: expected array, got " + std::string(api::jsonTypeName(got)));
  }

  bool scalar(Json value) {
    if (skip_depth_ > 0) {
      return true;
    }
    if (skip_next_) {
      skip_next_ = false;
      return true;
    }
    if (names_state_ == NamesState::kExpected && value.is_null()) {
      names_state_ = NamesState::kNone;  // null NodeNames: left unset
      return true;
    }
    if (names_state_ != NamesState::kNone) {
      return badNames(value);
    }
    place(std::move(value));
    return true;
  }

  bool open(Json container) {
    if (skip_depth_ > 0 || skip_next_) {
      skip_next_ = false;
      ++skip_depth_;
      return true;
    }
    if (names_state_ != NamesState::kNone) {
      return badNames(container);
    }
    Json* placed = place(std::move(container));
    keys_.push_back(std::move(last_key_));
    stack_.push_back(placed);
    return true;
  }

  bool close() {
    if (skip_depth_ > 0) {
      --skip_depth_;
      return true;
    }
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }

  // Puts `value` where the parse is: the root, the next element of an array, or the member named by
  // the last key. Returns where it went.
  Json* place(Json value) {
    if (stack_.empty()) {
      root = std::move(value);
      last_key_.clear();
      return &root;
    }
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      last_key_.clear();
      return &parent.back();
    }
    Json& member = parent[pending_key_];
    member = std::move(value);
    last_key_ = std::move(pending_key_);
    return &member;
  }

  std::vector<Json*> stack_;       // the open containers, outermost first
  std::vector<std::string> keys_;  // the key each open container was opened under ("" for none)
  std::string pending_key_;        // the key of the member whose value comes next
  std::string last_key_;           // the key `place` last used, for open()
  std::size_t skip_depth_ = 0;     // > 0 inside a dropped container
  std::size_t depth_ = 0;          // containers open now, dropped or not
  bool skip_next_ = false;         // the next value is dropped
  NamesState names_state_ = NamesState::kNone;
  bool names_exact_ = false;
  bool pod_root_;
};

// The fast path for what kube-scheduler sends: a hand scan of the top-level object that parses
// NodeNames (plain ASCII strings without escapes) directly and gives only the other members to
// nlohmann. Anything it does not expect (escapes, non-ASCII names, a duplicate NodeNames, any
// syntax error) makes it give up (false) and leaves the work, and the exact error message, to the
// SAX path.
class FastScan {
 public:
  explicit FastScan(std::string_view body) : s_(body) {}

  bool run(Json& root, std::optional<std::vector<std::string>>& names) {
    root = Json::object();
    std::size_t i = skipWs(0);
    if (!at(i, '{')) {
      return false;
    }
    i = skipWs(i + 1);
    bool names_seen = false;
    if (at(i, '}')) {
      return skipWs(i + 1) == s_.size();
    }
    while (true) {
      std::string_view key;
      if (!readPlainString(i, key)) {
        return false;
      }
      i = skipWs(i);
      if (!at(i, ':')) {
        return false;
      }
      i = skipWs(i + 1);
      const std::size_t end = skipValue(i);
      if (end == kFail) {
        return false;
      }
      const std::string_view value = s_.substr(i, end - i);
      if (equalFold(key, "NodeNames")) {
        if (names_seen || !readNames(value, names)) {
          return false;
        }
        names_seen = true;
      } else if (equalFold(key, "Pod")) {
        ArgsSax sax(/*pod_root=*/true);
        if (!Json::sax_parse(value.begin(), value.end(), &sax) || !sax.status.isOk()) {
          return false;
        }
        root[std::string(key)] = std::move(sax.root);
      } else {
        Result<Json> member = parseJson(value);
        if (!member.ok()) {
          return false;
        }
        root[std::string(key)] = std::move(member).value();
      }
      i = skipWs(end);
      if (at(i, ',')) {
        i = skipWs(i + 1);
        continue;
      }
      if (at(i, '}')) {
        return skipWs(i + 1) == s_.size();
      }
      return false;
    }
  }

 private:
  static constexpr std::size_t kFail = std::string_view::npos;

  [[nodiscard]] bool at(std::size_t i, char c) const { return i < s_.size() && s_[i] == c; }

  [[nodiscard]] std::size_t skipWs(std::size_t i) const {
    while (i < s_.size() && (s_[i] == ' ' || s_[i] == '\n' || s_[i] == '\r' || s_[i] == '\t')) {
      ++i;
    }
    return i;
  }

  // A string of printable ASCII without escapes starting at s_[i] == '"'; `i` moves past it.
  bool readPlainString(std::size_t& i, std::string_view& out) const {
    if (!at(i, '"')) {
      return false;
    }
    const std::size_t start = i + 1;
    for (std::size_t j = start; j < s_.size(); ++j) {
      const auto c = static_cast<unsigned char>(s_[j]);
      if (c == '"') {
        out = s_.substr(start, j - start);
        i = j + 1;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) {
        return false;
      }
    }
    return false;
  }

  // The end of the JSON value starting at s_[i] (not validated beyond its brackets and strings).
  [[nodiscard]] std::size_t skipValue(std::size_t i) const {
    if (i >= s_.size()) {
      return kFail;
    }
    if (s_[i] != '{' && s_[i] != '[' && s_[i] != '"') {
      // A scalar ends at a delimiter, white space or any control byte: nlohmann reads a NUL as the
      // end of its input, so "null\0..." must not reach it as one value.
      while (i < s_.size() && s_[i] != ',' && s_[i] != '}' && s_[i] != ']' &&
             static_cast<unsigned char>(s_[i]) > 0x20) {
        ++i;
      }
      return i;
    }
    std::size_t depth = 0;
    bool in_string = false;
    for (; i < s_.size(); ++i) {
      const char c = s_[i];
      if (in_string) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in_string = false;
          if (depth == 0) {
            return i + 1;
          }
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) {
          return kFail;
        }
        if (--depth == 0) {
          return i + 1;
        }
      }
    }
    return kFail;
  }

  // NodeNames: null, or an array of plain strings.
  bool readNames(std::string_view value, std::optional<std::vector<std::string>>& names) const {
    if (value == "null") {
      names.reset();
      return true;
    }
    FastScan inner(value);
    std::size_t i = inner.skipWs(0);
    if (!inner.at(i, '[')) {
      return false;
    }
    names.emplace();
    i = inner.skipWs(i + 1);
    if (inner.at(i, ']')) {
      return inner.skipWs(i + 1) == value.size();
    }
    while (true) {
      std::string_view name;
      if (!inner.readPlainString(i, name)) {
        return false;
      }
      names->emplace_back(name);
      i = inner.skipWs(i);
      if (inner.at(i, ',')) {
        i = inner.skipWs(i + 1);
        continue;
      }
      return inner.at(i, ']') && inner.skipWs(i + 1) == value.size();
    }
  }

  std::string_view s_;
};

}  // namespace

Result<ExtenderArgs> decodeExtenderArgs(std::string_view body) {
  const std::string prefix = "failed to decode 'ExtenderArgs': ";
  if (body.empty()) {
    return Status::invalidArgument(prefix + "empty request body");
  }
  {
    Json root;
    std::optional<std::vector<std::string>> names;
    if (FastScan(body).run(root, names)) {
      ExtenderArgs args;
      if (Status status = fromJson(root, args, ""); !status.isOk()) {
        return Status::invalidArgument(prefix + status.message());
      }
      args.nodeNames = std::move(names);
      return args;
    }
  }
  ArgsSax sax;
  bool parsed = false;
  try {
    parsed = Json::sax_parse(body.begin(), body.end(), &sax);
  } catch (const std::exception& e) {  // sax_parse reports through parse_error; this is a guard
    return Status::invalidArgument(prefix + "failed to parse JSON: " + e.what());
  }
  if (sax.too_deep) {
    return Status::invalidArgument(prefix + checkJsonNesting(body).message());
  }
  if (!parsed || !sax.status.isOk()) {
    return Status::invalidArgument(
        prefix + (sax.status.isOk() ? std::string("failed to parse JSON") : sax.status.message()));
  }
  if (!sax.root.is_object()) {
    return Status::invalidArgument(prefix + "expected a JSON object, got " +
                                   std::string(api::jsonTypeName(sax.root)));
  }
  ExtenderArgs args;
  if (Status status = fromJson(sax.root, args, ""); !status.isOk()) {
    return Status::invalidArgument(prefix + status.message());
  }
  args.nodeNames = std::move(sax.names);
  return args;
}

}  // namespace koord::extender::server::wire
