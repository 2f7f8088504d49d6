// JSON codec for the API models: typed decoding with field-path errors, and unknown-field
// preservation so that a read-modify-write never drops what a newer API server sent.
//
// Every model type M provides, in its own namespace (found by ADL):
//   Status fromJson(const Json& j, M& out, const std::string& path);  // never throws
//   Json toJson(const M& m);
// and keeps the keys it does not know in a member `Json extra` (an object or null), which
// ObjectDecoder::rest() fills and ObjectEncoder::finish() writes back.
//
// Conventions: absent and null fields leave the member at its default; optional<T> stays empty.
// Errors read "<path>: expected object" / "<path>: required" with Kubernetes field paths
// ("spec.owners[0].labelSelector"). Encoders omit empty optionals, empty strings, empty vectors and
// empty maps (the Kubernetes omitempty convention), except where a model writes a field explicitly.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/box.hpp"
#include "koord/common/result.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::api {

using Json = nlohmann::json;

// "a" + "b" -> "a.b"; "" + "b" -> "b".
std::string childPath(const std::string& path, std::string_view key);
// "a" + 3 -> "a[3]".
std::string indexPath(const std::string& path, size_t index);
// Type name used in errors: "object", "array", "string", "number", "boolean", "null".
std::string_view jsonTypeName(const Json& j);
// "<path>: expected <what>" as kInvalidArgument (path "" reads "expected <what>").
Status typeError(const std::string& path, std::string_view what, const Json& got);

// The string at obj[key], or `fallback` when obj is not an object or the key is absent or not a
// string. Never throws (nlohmann's value() throws on a type mismatch).
std::string stringOr(const Json& obj, std::string_view key, std::string fallback = "");

// The deepest nesting of objects and arrays any koord JSON decoder accepts. A Kubernetes object
// from kube-apiserver is a few tens of levels deep; a hostile body nesting thousands of levels
// would otherwise overflow a thread's stack in the recursive code that copies, compares, writes or
// destroys a Json value. The same limit holds for YAML (koord::config).
inline constexpr std::size_t kMaxJsonNestingDepth = 256;

// OK when no object or array in `text` opens deeper than kMaxJsonNestingDepth (brackets inside
// strings do not count; the text is not otherwise validated), else kInvalidArgument
// "failed to parse JSON: nesting deeper than 256 levels (at byte N)" with the offset of the first
// container past the limit. For decoders of their own that count depth while they parse and need
// the message once they stop.
Status checkJsonNesting(std::string_view text);

// Parses text into a Json value without throwing. Errors carry the byte offset. Input nested
// deeper than kMaxJsonNestingDepth is refused (nestingTooDeep) before the deep part is built.
Result<Json> parseJson(std::string_view text);

// Primitive decoders.
Status fromJson(const Json& j, bool& out, const std::string& path);
Status fromJson(const Json& j, int32_t& out, const std::string& path);
Status fromJson(const Json& j, int64_t& out, const std::string& path);
Status fromJson(const Json& j, double& out, const std::string& path);
Status fromJson(const Json& j, std::string& out, const std::string& path);
// Raw passthrough: any JSON value.
Status fromJson(const Json& j, Json& out, const std::string& path);
// A quantity written as a string ("100m") or a JSON number (4, 0.5).
Status fromJson(const Json& j, resource::Quantity& out, const std::string& path);

Json toJson(bool v);
Json toJson(int32_t v);
Json toJson(int64_t v);
Json toJson(double v);
Json toJson(const std::string& v);
Json toJson(const Json& v);
Json toJson(const resource::Quantity& q);

// Declared before their definitions so that each container template can hold the others
// (optional<vector<T>>, vector<map<...>>, ...).
template <typename T>
Status fromJson(const Json& j, std::optional<T>& out, const std::string& path);
template <typename T>
Status fromJson(const Json& j, Box<T>& out, const std::string& path);
template <typename T>
Status fromJson(const Json& j, std::vector<T>& out, const std::string& path);
template <typename T, typename C>
Status fromJson(const Json& j, std::map<std::string, T, C>& out, const std::string& path);
template <typename T>
Json toJson(const std::optional<T>& v);
template <typename T>
Json toJson(const Box<T>& v);
template <typename T>
Json toJson(const std::vector<T>& v);
template <typename T, typename C>
Json toJson(const std::map<std::string, T, C>& m);

template <typename T>
Status fromJson(const Json& j, std::optional<T>& out, const std::string& path) {
  if (j.is_null()) {
    out.reset();
    return Status::ok();
  }
  T value{};
  KOORD_RETURN_IF_ERROR(fromJson(j, value, path));
  out = std::move(value);
  return Status::ok();
}

template <typename T>
Status fromJson(const Json& j, Box<T>& out, const std::string& path) {
  if (j.is_null()) {
    out.reset();
    return Status::ok();
  }
  T value{};
  KOORD_RETURN_IF_ERROR(fromJson(j, value, path));
  out = std::move(value);
  return Status::ok();
}

template <typename T>
Status fromJson(const Json& j, std::vector<T>& out, const std::string& path) {
  if (j.is_null()) {
    out.clear();
    return Status::ok();
  }
  if (!j.is_array()) {
    return typeError(path, "array", j);
  }
  out.clear();
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    T item{};
    KOORD_RETURN_IF_ERROR(fromJson(j[i], item, indexPath(path, i)));
    out.push_back(std::move(item));
  }
  return Status::ok();
}

template <typename T, typename C>
Status fromJson(const Json& j, std::map<std::string, T, C>& out, const std::string& path) {
  if (j.is_null()) {
    out.clear();
    return Status::ok();
  }
  if (!j.is_object()) {
    return typeError(path, "object", j);
  }
  out.clear();
  for (auto it = j.begin(); it != j.end(); ++it) {
    T item{};
    KOORD_RETURN_IF_ERROR(fromJson(it.value(), item, childPath(path, it.key())));
    out.emplace(it.key(), std::move(item));
  }
  return Status::ok();
}

template <typename T>
Json toJson(const std::optional<T>& v) {
  return v ? toJson(*v) : Json(nullptr);
}

template <typename T>
Json toJson(const Box<T>& v) {
  return v ? toJson(*v) : Json(nullptr);
}

template <typename T>
Json toJson(const std::vector<T>& v) {
  Json arr = Json::array();
  for (const auto& item : v) {
    arr.push_back(toJson(item));
  }
  return arr;
}

template <typename T, typename C>
Json toJson(const std::map<std::string, T, C>& m) {
  Json obj = Json::object();
  for (const auto& [k, v] : m) {
    obj[k] = toJson(v);
  }
  return obj;
}

// Reads one JSON object field by field. The first error wins and later reads are skipped;
// status() returns it. rest() returns the keys no read asked for (null when there are none).
class ObjectDecoder {
 public:
  // `j` must outlive the decoder. A non-object `j` fails with "<path>: expected object"; a null
  // `j` decodes as an empty object.
  ObjectDecoder(const Json& j, std::string path);

  template <typename T>
  ObjectDecoder& field(std::string_view key, T& out) {
    const Json* v = lookup(key);
    if (v != nullptr && !v->is_null()) {
      status_ = fromJson(*v, out, childPath(path_, key));
    }
    return *this;
  }
  // Like field(), but an absent or null key is "<path>.<key>: required".
  template <typename T>
  ObjectDecoder& required(std::string_view key, T& out) {
    const Json* v = lookup(key);
    if (status_.isOk() && (v == nullptr || v->is_null())) {
      status_ = Status::invalidArgument(childPath(path_, key) + ": required");
      return *this;
    }
    return field(key, out);
  }
  // field() and required() with a decoder of the model's own, `Status decode(const Json& value,
  // T& out, const std::string& path)`, run on a present, non-null value instead of fromJson.
  template <typename T, typename Decode>
  ObjectDecoder& field(std::string_view key, T& out, Decode&& decode) {
    const Json* v = lookup(key);
    if (v != nullptr && !v->is_null()) {
      status_ = decode(*v, out, childPath(path_, key));
    }
    return *this;
  }
  template <typename T, typename Decode>
  ObjectDecoder& required(std::string_view key, T& out, Decode&& decode) {
    const Json* v = lookup(key);
    if (status_.isOk() && (v == nullptr || v->is_null())) {
      status_ = Status::invalidArgument(childPath(path_, key) + ": required");
      return *this;
    }
    return field(key, out, decode);
  }

  [[nodiscard]] Json rest() const;
  [[nodiscard]] Status status() const { return status_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  const Json* lookup(std::string_view key);

  const Json* json_;
  std::string path_;
  std::vector<std::string_view> consumed_;
  Status status_;
};

// Builds one JSON object; omits empty values unless written with always().
class ObjectEncoder {
 public:
  template <typename T>
  ObjectEncoder& field(const char* key, const T& value) {
    Json j = toJson(value);
    if (!isEmpty(j)) {
      obj_[key] = std::move(j);
    }
    return *this;
  }
  // Writes the value even when it is empty, zero or null.
  template <typename T>
  ObjectEncoder& always(const char* key, const T& value) {
    obj_[key] = toJson(value);
    return *this;
  }
  // Merges the unknown fields kept by a decoder (typed fields win on a clash), returns the object.
  [[nodiscard]] Json finish(const Json& extra);
  [[nodiscard]] Json finish() { return finish(Json()); }

 private:
  static bool isEmpty(const Json& j);
  Json obj_ = Json::object();
};

// Decodes text into a model: parse + fromJson, never throws.
template <typename T>
Result<T> decode(std::string_view text, const std::string& root_path = "") {
  KOORD_ASSIGN_OR_RETURN(Json j, parseJson(text));
  T out{};
  KOORD_RETURN_IF_ERROR(fromJson(j, out, root_path));
  return out;
}

}  // namespace koord::api
