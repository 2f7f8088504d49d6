#include <algorithm>
#include <cctype>
#include <vector>

#include "koord/config/yaml.hpp"

namespace koord::config {
namespace {

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "in /spec", or "at the top level" for the root.
std::string where(const std::string& json_pointer) {
  return json_pointer.empty() ? "at the top level" : "in " + json_pointer;
}

std::string locate(const YamlDocument& doc, const std::string& json_pointer) {
  const int line = doc.lineOf(json_pointer);
  if (line <= 0) {
    return doc.source + ": ";
  }
  return doc.source + ": line " + std::to_string(line) + ": ";
}

}  // namespace

std::string_view closestField(std::string_view key, std::initializer_list<std::string_view> known) {
  std::string_view best;
  size_t best_distance = 3;
  for (std::string_view candidate : known) {
    const size_t d = editDistance(key, candidate);
    if (d < best_distance && d < std::max<size_t>(candidate.size(), 1)) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

Status errorAt(const YamlDocument& doc, const std::string& json_pointer, std::string_view message) {
  return Status::invalidArgument(locate(doc, json_pointer) + std::string(message));
}

Status checkKnownFields(const YamlDocument& doc, const std::string& json_pointer,
                        std::initializer_list<std::string_view> known) {
  const nlohmann::json* node = nullptr;
  try {
    const nlohmann::json::json_pointer pointer(json_pointer);
    if (!doc.value.contains(pointer)) {
      return Status::ok();
    }
    node = &doc.value.at(pointer);
  } catch (const nlohmann::json::exception& e) {
    return Status::invalidArgument("failed to check fields of '" + json_pointer +
                                   "': invalid JSON pointer: " + e.what());
  }
  if (node->is_null()) {
    return Status::ok();
  }
  if (!node->is_object()) {
    return errorAt(
        doc, json_pointer,
        "expected a mapping " + where(json_pointer) + ", found " + std::string(node->type_name()));
  }
  std::string errors;
  for (const auto& [key, value] : node->items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) {
      continue;
    }
    const std::string child = jsonPointerChild(json_pointer, key);
    std::string message =
        locate(doc, child) + "unknown field \"" + key + "\" " + where(json_pointer);
    if (const std::string_view hint = closestField(key, known); !hint.empty()) {
      message += " (did you mean \"" + std::string(hint) + "\"?)";
    }
    if (!errors.empty()) {
      errors += "; ";
    }
    errors += message;
  }
  if (errors.empty()) {
    return Status::ok();
  }
  return Status::invalidArgument(std::move(errors));
}

}  // namespace koord::config
