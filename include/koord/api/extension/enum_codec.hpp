// Codec support for the closed string enums of the Koordinator API (policies, modes, scopes).
//
// Each enum E declares, in its own namespace, a constexpr ADL hook
//   constexpr std::array<EnumName<E>, N> enumNames(E);
// listing every value with its exact JSON spelling, then KOORD_API_ENUM_CODEC(E), which declares
// toString(E), toJson(E) and fromJson for E and std::optional<E> next to it (found by ADL).
//
// Decoding an unknown spelling fails with kInvalidArgument:
//   <path>: unsupported value "X": supported values: "A", "B"
// Fields where Koordinator tolerates unknown values are modelled as std::string instead.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "koord/api/codec.hpp"

namespace koord::api::extension {

template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

// The JSON spelling of `value`; "" for a value missing from the table.
template <typename E>
constexpr std::string_view enumToString(E value) {
  for (const auto& entry : enumNames(E{})) {
    if (entry.value == value) {
      return entry.name;
    }
  }
  return {};
}

// The value spelled `text` (exact, case-sensitive), or std::nullopt.
template <typename E>
constexpr std::optional<E> enumFromString(std::string_view text) {
  for (const auto& entry : enumNames(E{})) {
    if (entry.name == text) {
      return entry.value;
    }
  }
  return std::nullopt;
}

// `"A", "B", "C"`: the supported spellings, for error messages.
template <typename E>
std::string enumSupportedValues() {
  std::string out;
  for (const auto& entry : enumNames(E{})) {
    if (!out.empty()) {
      out += ", ";
    }
    out += '"';
    out += entry.name;
    out += '"';
  }
  return out;
}

// "<path>: unsupported value "X": supported values: ..." (path "" reads without the prefix).
template <typename E>
Status enumError(const std::string& path, std::string_view text) {
  std::string msg = path.empty() ? std::string() : path + ": ";
  msg += "unsupported value \"";
  msg += text;
  msg += "\": supported values: ";
  msg += enumSupportedValues<E>();
  return Status::invalidArgument(std::move(msg));
}

// Parses a spelling taken from a label or annotation value.
template <typename E>
Result<E> parseEnum(std::string_view text, const std::string& path) {
  auto value = enumFromString<E>(text);
  if (!value) {
    return enumError<E>(path, text);
  }
  return *value;
}

template <typename E>
Status decodeEnum(const Json& j, E& out, const std::string& path) {
  if (!j.is_string()) {
    return typeError(path, "string", j);
  }
  const auto& text = j.get_ref<const std::string&>();
  auto value = enumFromString<E>(text);
  if (!value) {
    return enumError<E>(path, text);
  }
  out = *value;
  return Status::ok();
}

// For an optional enum field: "" reads as unset (Go's omitempty writes nothing for it) unless ""
// is itself one of the spellings.
template <typename E>
Status decodeOptionalEnum(const Json& j, std::optional<E>& out, const std::string& path) {
  if (j.is_string() && j.get_ref<const std::string&>().empty() && !enumFromString<E>("")) {
    out.reset();
    return Status::ok();
  }
  E value{};
  KOORD_RETURN_IF_ERROR(decodeEnum(j, value, path));
  out = value;
  return Status::ok();
}

template <typename E>
Json encodeEnum(E value) {
  return std::string(enumToString(value));
}

}  // namespace koord::api::extension

// Declares, in the current namespace, toString(E), toJson(E), fromJson for E and for
// std::optional<E>, forwarding to the templates above. E needs its enumNames(E) hook first.
// E names a type, which cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define KOORD_API_ENUM_CODEC(E)                                                                   \
  inline std::string_view toString(E value) {                                                     \
    return ::koord::api::extension::enumToString(value);                                          \
  }                                                                                               \
  inline ::koord::api::Json toJson(E value) {                                                     \
    return ::koord::api::extension::encodeEnum(value);                                            \
  }                                                                                               \
  inline ::koord::Status fromJson(const ::koord::api::Json& j, E& out, const std::string& path) { \
    return ::koord::api::extension::decodeEnum(j, out, path);                                     \
  }                                                                                               \
  inline ::koord::Status fromJson(const ::koord::api::Json& j, std::optional<E>& out,             \
                                  const std::string& path) {                                      \
    return ::koord::api::extension::decodeOptionalEnum(j, out, path);                             \
  }
// NOLINTEND(bugprone-macro-parentheses)
