// Field-by-field reading of a strict configuration file (one YAML document), with line-numbered
// problems. The one reader of koord's config loaders (KoordExtenderConfiguration,
// DeschedulerConfiguration, ...): a FieldReader collects every error and warning of one load, so a
// user sees them all at once.
//
// Every problem reads "line <n>: <path>: <message>", the line of the node (or, for an absent field,
// of its nearest present parent) and its Kubernetes field path; either part is left out when
// unknown or empty (the root has no path). An unknown key is reported on its own line, under the
// path of the mapping that holds it, with a suggestion when one known key is close:
//   line 9: profiles[0]: unknown field "deschedule" (did you mean "descheduler"?)
//   line 10: unknown field "paralelism" (did you mean "parallelism"?)
// and, when unknown keys are only warnings, the same text followed by " (ignored)".
//
// Reads never throw; absent and null fields leave the target unchanged.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/config/yaml.hpp"

namespace koord::config {

// One node of the document: its value (nullptr when absent), its field path ("server.urlPrefix",
// "plugins[1].weight") and its JSON pointer (for the line number).
struct Field {
  const nlohmann::json* value = nullptr;
  std::string path;
  std::string pointer;

  // Absent or null.
  [[nodiscard]] bool absent() const { return value == nullptr || value->is_null(); }
  // The child at `key` (absent when this is not a mapping or has no such key).
  [[nodiscard]] Field child(std::string_view key) const;
  // The item at `index` (absent when this is not a sequence or is shorter).
  [[nodiscard]] Field item(size_t index) const;
};

// What checkObject does with a key it does not know.
enum class UnknownFields {
  kError,  // an error: the load fails
  kWarn,   // a warning ("... (ignored)"); the caller keeps or drops the key
};

class FieldReader {
 public:
  // `doc` must outlive the reader.
  explicit FieldReader(const YamlDocument& doc) : doc_(doc) {}

  [[nodiscard]] Field root() const { return Field{&doc_.value, "", ""}; }

  // Records "line <n>: <path>: <message>" as an error, or as a warning.
  void error(const Field& field, std::string_view message);
  void warn(const Field& field, std::string_view message);

  // False (with an error recorded) when `field` is present but not a mapping; true otherwise,
  // after recording each key outside `known` as `unknown field "<key>"` (see the top of the file).
  bool checkObject(const Field& field, std::initializer_list<std::string_view> known,
                   UnknownFields unknown = UnknownFields::kError);

  // Typed reads: absent or null leaves `out` unchanged; a wrong type or range records an error
  // ("expected a string, got number", "expected true or false, got string") and leaves `out`
  // unchanged too.
  void read(const Field& field, std::string& out);
  void read(const Field& field, bool& out);
  // Integers; a float with no fraction (2.0) is read as the integer, as sigs.k8s.io/yaml reads it.
  void read(const Field& field, int32_t& out);
  void read(const Field& field, int64_t& out);
  void read(const Field& field, uint32_t& out);
  void read(const Field& field, double& out);
  // A Go duration ("15s", "1m30s", "500ms").
  void read(const Field& field, std::chrono::nanoseconds& out);
  // A list of strings; every bad item is an error.
  void read(const Field& field, std::vector<std::string>& out);
  // A mapping of integers; every bad entry is an error.
  void read(const Field& field, std::map<std::string, int64_t>& out);
  // A mapping of numbers, or of strings holding numbers ("90"); every bad entry is an error.
  void read(const Field& field, std::map<std::string, double>& out);
  template <typename T>
  void read(const Field& field, std::optional<T>& out);
  // Any other type is an API model decoded by its api::fromJson (found by ADL), whose message
  // names the path itself: "line 12: nodeSelector.matchLabels: expected object, got array".
  template <typename T>
  void read(const Field& field, T& out);

  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // "line <n>: " for the node or its nearest present parent, or "" when none has a line.
  [[nodiscard]] std::string linePrefix(const Field& field) const;
  [[nodiscard]] std::string format(const Field& field, std::string_view message) const;
  void typeError(const Field& field, std::string_view expected);
  // A mapping whose every entry `read_entry(entry_field, value)` reads (false: it recorded an
  // error); `out` is replaced only when no entry failed.
  template <typename V, typename ReadEntry>
  void readMap(const Field& field, std::map<std::string, V>& out, ReadEntry read_entry);

  const YamlDocument& doc_;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
};

template <typename T>
void FieldReader::read(const Field& field, std::optional<T>& out) {
  if (field.absent()) {
    return;
  }
  T value = out.value_or(T{});
  const size_t before = errors_.size();
  read(field, value);
  if (errors_.size() == before) {
    out = std::move(value);
  }
}

template <typename T>
void FieldReader::read(const Field& field, T& out) {
  if (field.absent()) {
    return;
  }
  using api::fromJson;
  T value{};
  const Status status = fromJson(*field.value, value, field.path);
  if (!status.isOk()) {
    errors_.push_back(linePrefix(field) + status.message());
    return;
  }
  out = std::move(value);
}

}  // namespace koord::config
