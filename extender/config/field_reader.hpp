// Field-by-field reading of a YAML document with line-numbered problems (private to
// extender/config/). A FieldReader collects every problem of one load, so a user sees them all.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/config/yaml.hpp"

namespace koord::extender::config::detail {

// One node of the document: its value (nullptr when absent), its field path
// ("server.urlPrefix", "plugins[1].weight") and JSON pointer (for the line number).
struct Field {
  const api::Json* value = nullptr;
  std::string path;
  std::string pointer;

  // Absent or null.
  [[nodiscard]] bool absent() const { return value == nullptr || value->is_null(); }
  [[nodiscard]] Field child(std::string_view key) const;
  [[nodiscard]] Field item(size_t index) const;
};

class FieldReader {
 public:
  explicit FieldReader(const koord::config::YamlDocument& doc) : doc_(doc) {}

  [[nodiscard]] Field root() const { return Field{&doc_.value, "", ""}; }

  // Records "line <n>: <path>: <message>" (the line or path left out when unknown or empty).
  void problem(const Field& field, std::string_view message);

  // False (with a problem recorded) unless `field` is a mapping; records each key outside
  // `known` as `unknown field "<key>"` on the key's own line, with a suggestion when one known
  // key is close.
  bool checkObject(const Field& field, std::initializer_list<std::string_view> known);

  // Typed reads: absent or null leaves `out` unchanged; a wrong type records a problem.
  void read(const Field& field, std::string& out);
  void read(const Field& field, bool& out);
  void read(const Field& field, int32_t& out);
  void read(const Field& field, int64_t& out);
  void read(const Field& field, double& out);
  // A Go duration ("15s", "1m30s", "500ms").
  void read(const Field& field, std::chrono::nanoseconds& out);

  [[nodiscard]] const std::vector<std::string>& problems() const { return problems_; }

 private:
  const koord::config::YamlDocument& doc_;
  std::vector<std::string> problems_;
};

}  // namespace koord::extender::config::detail
