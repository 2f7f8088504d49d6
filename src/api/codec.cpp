#include "koord/api/codec.hpp"

#include <algorithm>
#include <cmath>

namespace koord::api {

std::string childPath(const std::string& path, std::string_view key) {
  if (path.empty()) {
    return std::string(key);
  }
  std::string out = path;
  out += '.';
  out += key;
  return out;
}

std::string indexPath(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string_view jsonTypeName(const Json& j) {
  switch (j.type()) {
    case Json::value_t::object:
      return "object";
    case Json::value_t::array:
      return "array";
    case Json::value_t::string:
      return "string";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::null:
      return "null";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "number";
    default:
      return "value";
  }
}

Status typeError(const std::string& path, std::string_view what, const Json& got) {
  std::string msg;
  if (!path.empty()) {
    msg = path + ": ";
  }
  msg += "expected ";
  msg += what;
  msg += ", got ";
  msg += jsonTypeName(got);
  return Status::invalidArgument(std::move(msg));
}

std::string stringOr(const Json& obj, std::string_view key, std::string fallback) {
  if (!obj.is_object()) {
    return fallback;
  }
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) {
    return fallback;
  }
  return it->get<std::string>();
}

Status checkJsonNesting(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonNestingDepth) {
        return Status::invalidArgument("failed to parse JSON: nesting deeper than " +
                                       std::to_string(kMaxJsonNestingDepth) + " levels (at byte " +
                                       std::to_string(i) + ")");
      }
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return Status::ok();
}

namespace {

// nlohmann's own DOM builder (what Json::parse uses), with a depth count in front of it: the first
// container past kMaxJsonNestingDepth stops the parse. nlohmann's parser itself is iterative; the
// limit protects the recursive code that later copies, writes and destroys the value.
class DepthLimitedDomParser : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

 public:
  DepthLimitedDomParser(Json& result, std::string_view text)
      : Base(result, /*allow_exceptions_=*/false), text_(text) {}

  // The member names are nlohmann's SAX interface; sax_parse calls them on this type, so they
  // hide the base's.
  // NOLINTBEGIN(readability-identifier-naming)
  bool start_object(std::size_t size) { return enter() && Base::start_object(size); }
  bool start_array(std::size_t size) { return enter() && Base::start_array(size); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& e) {
    status = Status::invalidArgument(std::string("failed to parse JSON: ") + e.what());
    return Base::parse_error(position, last_token, e);
  }
  // NOLINTEND(readability-identifier-naming)

  // Set when the parse stopped: the syntax error or the nesting limit.
  Status status;

 private:
  bool enter() {
    if (++depth_ > kMaxJsonNestingDepth) {
      status = checkJsonNesting(text_);
      if (status.isOk()) {  // cannot happen: the scan sees every container the parser does
        status = Status::invalidArgument("failed to parse JSON: nesting too deep");
      }
      return false;
    }
    return true;
  }

  std::string_view text_;
  std::size_t depth_ = 0;
};

}  // namespace

Result<Json> parseJson(std::string_view text) {
  Json j;
  DepthLimitedDomParser sax(j, text);
  bool parsed = false;
  try {
    parsed = Json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const std::exception& e) {  // errors come through parse_error; this is a guard
    return Status::invalidArgument(std::string("failed to parse JSON: ") + e.what());
  }
  if (!parsed || sax.is_errored()) {
    return sax.status.isOk() ? Status::invalidArgument("failed to parse JSON") : sax.status;
  }
  return j;
}

Status fromJson(const Json& j, bool& out, const std::string& path) {
  if (!j.is_boolean()) {
    return typeError(path, "boolean", j);
  }
  out = j.get<bool>();
  return Status::ok();
}

namespace {
template <typename Int>
Status intFromJson(const Json& j, Int& out, const std::string& path) {
  if (j.is_number_integer() || j.is_number_unsigned()) {
    if (j.is_number_unsigned()) {
      auto u = j.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<Int>::max())) {
        return Status::invalidArgument(path + ": integer out of range");
      }
      out = static_cast<Int>(u);
      return Status::ok();
    }
    auto v = j.get<int64_t>();
    if (v < std::numeric_limits<Int>::min() || v > std::numeric_limits<Int>::max()) {
      return Status::invalidArgument(path + ": integer out of range");
    }
    out = static_cast<Int>(v);
    return Status::ok();
  }
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (std::trunc(d) == d && d >= static_cast<double>(std::numeric_limits<Int>::min()) &&
        d <= static_cast<double>(std::numeric_limits<Int>::max())) {
      out = static_cast<Int>(d);
      return Status::ok();
    }
  }
  return typeError(path, "integer", j);
}
}  // namespace

Status fromJson(const Json& j, int32_t& out, const std::string& path) {
  return intFromJson(j, out, path);
}
Status fromJson(const Json& j, int64_t& out, const std::string& path) {
  return intFromJson(j, out, path);
}

Status fromJson(const Json& j, double& out, const std::string& path) {
  if (!j.is_number()) {
    return typeError(path, "number", j);
  }
  out = j.get<double>();
  return Status::ok();
}

Status fromJson(const Json& j, std::string& out, const std::string& path) {
  if (!j.is_string()) {
    return typeError(path, "string", j);
  }
  out = j.get<std::string>();
  return Status::ok();
}

Status fromJson(const Json& j, Json& out, const std::string& /*path*/) {
  out = j;
  return Status::ok();
}

Status fromJson(const Json& j, resource::Quantity& out, const std::string& path) {
  std::string text;
  if (j.is_string()) {
    // Go's Quantity.UnmarshalJSON trims surrounding whitespace before parsing.
    const auto& raw = j.get_ref<const std::string&>();
    auto first = raw.find_first_not_of(" \t\r\n");
    auto last = raw.find_last_not_of(" \t\r\n");
    text = first == std::string::npos ? std::string() : raw.substr(first, last - first + 1);
  } else if (j.is_number()) {
    text = j.dump();
  } else {
    return typeError(path, "quantity (string or number)", j);
  }
  auto q = resource::Quantity::parse(text);
  if (!q.ok()) {
    return q.status().withPrefix(path);
  }
  out = *q;
  return Status::ok();
}

Json toJson(bool v) {
  return v;
}
Json toJson(int32_t v) {
  return v;
}
Json toJson(int64_t v) {
  return v;
}
Json toJson(double v) {
  return v;
}
Json toJson(const std::string& v) {
  return v;
}
Json toJson(const Json& v) {
  return v;
}
Json toJson(const resource::Quantity& q) {
  return q.toString();
}

ObjectDecoder::ObjectDecoder(const Json& j, std::string path) : json_(&j), path_(std::move(path)) {
  if (!j.is_null() && !j.is_object()) {
    status_ = typeError(path_, "object", j);
  }
}

const Json* ObjectDecoder::lookup(std::string_view key) {
  if (!status_.isOk() || !json_->is_object()) {
    return nullptr;
  }
  consumed_.push_back(key);
  auto it = json_->find(key);
  return it == json_->end() ? nullptr : &*it;
}

Json ObjectDecoder::rest() const {
  if (!json_->is_object()) {
    return nullptr;
  }
  Json out;
  for (auto it = json_->begin(); it != json_->end(); ++it) {
    if (std::find(consumed_.begin(), consumed_.end(), it.key()) == consumed_.end()) {
      out[it.key()] = it.value();
    }
  }
  return out;
}

bool ObjectEncoder::isEmpty(const Json& j) {
  return j.is_null() || (j.is_string() && j.get_ref<const std::string&>().empty()) ||
         (j.is_array() && j.empty()) || (j.is_object() && j.empty());
}

Json ObjectEncoder::finish(const Json& extra) {
  if (extra.is_object()) {
    for (auto it = extra.begin(); it != extra.end(); ++it) {
      if (!obj_.contains(it.key())) {
        obj_[it.key()] = it.value();
      }
    }
  }
  return std::move(obj_);
}

}  // namespace koord::api
