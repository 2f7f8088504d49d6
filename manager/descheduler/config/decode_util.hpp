// Field-by-field decoding of a YAML document with line-numbered errors (private to this folder).
//
// A Reader collects every error and warning of one load, each prefixed with the line of the node
// ("line 17: unknown field \"deschedule\" in profiles[0]"), so a user sees all problems at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/config/yaml.hpp"

namespace koord::manager::descheduler::config::detail {

using Json = nlohmann::json;

// One node of the document: its value (nullptr when absent), Kubernetes field path and JSON
// pointer (for the line number).
struct Field {
  const Json* value = nullptr;
  std::string path;
  std::string pointer;

  // Absent or null.
  [[nodiscard]] bool absent() const { return value == nullptr || value->is_null(); }
  [[nodiscard]] Field child(std::string_view key) const;
  [[nodiscard]] Field item(size_t index) const;
};

class Reader {
 public:
  explicit Reader(const koord::config::YamlDocument& doc) : doc_(doc) {}

  [[nodiscard]] Field root() const { return Field{&doc_.value, "", ""}; }

  // Records "line <n>: <path>: <message>" (the path is left out when empty).
  void error(const Field& field, std::string_view message);
  // Records "line <n>: <message>" with no path.
  void errorAt(const Field& field, std::string_view message);
  void warn(const Field& field, std::string_view message);

  // Checks that `field` is a mapping and reports each key outside `known` as
  // `unknown field "<key>" in <path>` on the key's own line: an error when `strict`, a warning
  // otherwise. Returns false (after recording an error) when the node is not a mapping.
  bool checkObject(const Field& field, std::initializer_list<std::string_view> known, bool strict);

  // Typed reads: absent or null leaves `out` unchanged; a wrong type records an error.
  void read(const Field& field, std::string& out);
  void read(const Field& field, bool& out);
  void read(const Field& field, int32_t& out);
  void read(const Field& field, int64_t& out);
  void read(const Field& field, uint32_t& out);
  void read(const Field& field, double& out);
  // A Go duration ("10s", "5m0s", "500ms").
  void read(const Field& field, std::chrono::nanoseconds& out);
  void read(const Field& field, std::vector<std::string>& out);
  void read(const Field& field, std::map<std::string, int64_t>& out);
  // A resource -> percentage map (numbers, or strings holding numbers).
  void read(const Field& field, std::map<std::string, double>& out);
  void read(const Field& field, api::core::LabelSelector& out);
  template <typename T>
  void read(const Field& field, std::optional<T>& out) {
    if (field.absent()) {
      return;
    }
    T value = out.value_or(T{});
    read(field, value);
    out = std::move(value);
  }

  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  [[nodiscard]] std::string where(const Field& field) const;

  const koord::config::YamlDocument& doc_;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
};

}  // namespace koord::manager::descheduler::config::detail
