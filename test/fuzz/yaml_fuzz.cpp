// Fuzz target for the YAML loader: any input must give documents or an error, never a crash, and
// a parsed document must be consistent with its line map.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "koord/config/yaml.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto docs = koord::config::parseYamlDocuments(text, "fuzz.yaml");
  if (!docs.ok()) {
    if (docs.status().message().rfind("failed to parse YAML 'fuzz.yaml': ", 0) != 0) {
      std::abort();  // errors always name the source
    }
    return 0;
  }
  for (const koord::config::YamlDocument& doc : *docs) {
    if (doc.value.is_null() || doc.lineOf("") <= 0) {
      std::abort();  // empty documents are skipped; the root always has a line
    }
    for (const auto& [pointer, line] : doc.lines) {
      if (line <= 0 || !doc.value.contains(nlohmann::json::json_pointer(pointer))) {
        std::abort();  // every recorded pointer names a node of the document
      }
    }
    (void)doc.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return 0;
}
