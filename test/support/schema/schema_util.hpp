// Helpers shared by the schema validator and the structural checks (private to
// test/support/schema).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace koord::testing::schema::detail {

using Json = nlohmann::json;

// schema[key] when it is a boolean, else false.
bool boolField(const Json& schema, std::string_view key);
// schema[key] when it is a string, else "".
std::string stringField(const Json& schema, std::string_view key);
// schema[key] when it is an integer, else nullopt.
std::optional<int64_t> intField(const Json& schema, std::string_view key);
// An integer, or a float with no fractional part (the apiserver decodes 4.0 as an integer).
bool isWholeNumber(const Json& value);
// RFC 3339 date-time, as Kubernetes writes metav1.Time ("2024-05-01T08:00:00Z").
bool isDateTime(std::string_view text);

// An OpenAPI `pattern`, compiled as an ECMAScript regex (std::regex stays inside
// schema_util.cpp). Immutable and cheap to copy; search() is thread-safe.
class Pattern {
 public:
  // nullopt when the pattern does not compile.
  static std::optional<Pattern> compile(const std::string& pattern);
  // True when the pattern matches somewhere in `text` (OpenAPI patterns are not anchored).
  [[nodiscard]] bool search(std::string_view text) const;

 private:
  struct Impl;
  explicit Pattern(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace koord::testing::schema::detail
