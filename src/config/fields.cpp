#include <algorithm>
#include <cctype>
#include <vector>

#include "koord/config/field_reader.hpp"
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

// The Kubernetes field path of a JSON pointer: "/items/3/spec/containers/0" reads
// "items[3].spec.containers[0]" ("~1" and "~0" unescaped; "" for the root).
std::string fieldPathOf(const std::string& json_pointer) {
  std::string path;
  size_t start = 1;
  while (start <= json_pointer.size() && !json_pointer.empty()) {
    size_t end = json_pointer.find('/', start);
    if (end == std::string::npos) {
      end = json_pointer.size();
    }
    std::string token = json_pointer.substr(start, end - start);
    for (size_t at = token.find('~'); at != std::string::npos; at = token.find('~', at + 1)) {
      if (at + 1 < token.size() && (token[at + 1] == '0' || token[at + 1] == '1')) {
        token.replace(at, 2, token[at + 1] == '1' ? "/" : "~");
      }
    }
    const bool index = !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (index) {
      path += "[" + token + "]";
    } else {
      path += (path.empty() ? "" : ".") + token;
    }
    start = end + 1;
  }
  return path;
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
  // FieldReader's rule and words, so that every strict reader of koord reports alike.
  FieldReader reader(doc);
  reader.checkObject(Field{node, fieldPathOf(json_pointer), json_pointer}, known);
  std::string errors;
  for (const std::string& error : reader.errors()) {
    if (!errors.empty()) {
      errors += "; ";
    }
    errors += doc.source + ": " + error;
  }
  return errors.empty() ? Status::ok() : Status::invalidArgument(std::move(errors));
}

}  // namespace koord::config
