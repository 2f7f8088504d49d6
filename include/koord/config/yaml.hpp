// YAML configuration loading: YAML text -> nlohmann JSON, with the source line of every node.
//
// Conversion follows what a Kubernetes user expects from sigs.k8s.io/yaml:
//  - quoted and block (| >) scalars are always strings, so `cpu: "4"` is a string, `cpu: 4` a
//  number;
//  - plain `true`/`True`/`TRUE`/`false`/`False`/`FALSE` are booleans; `yes`/`no`/`on`/`off` stay
//    strings (YAML 1.2; this avoids the "Norway problem" that YAML 1.1 booleans cause);
//  - plain integers as Go's yaml.v2 reads them: decimal, 0x hex, 0o or leading-0 octal (`0644` is
//    420), 0b binary, `_` separators; int64 range, then uint64, then a float;
//  - plain floats (`1.5`, `1e3`, `.5`); `.inf` and `.nan` are errors (JSON cannot hold them);
//  - `~`, `null`, `Null`, `NULL` and empty values are null;
//  - every other plain scalar is a string; explicit tags !!str !!int !!float !!bool !!null are
//    honoured, other tags are ignored and the value is kept as a string;
//  - anchors and aliases are resolved (an alias is a copy of its anchor's value), and merge keys
//    (`<<: *base`, `<<: [*a, *b]`) add the keys the mapping does not set itself;
//  - mapping keys must be scalars; a plain key such as `1` or `true` becomes the string of its
//    text (as sigs.k8s.io/yaml turns it into "1" or "true"); null and collection keys are errors;
//  - a key given twice in one mapping is an error naming both lines.
// Aliases that would copy more than kMaxYamlAliasNodes nodes into the input, all its documents
// together (a "billion laughs" document, or many small ones), and collections nested deeper than
// kMaxYamlNestingDepth (aliases included) are errors. Nothing here throws.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::config {

// Upper bound on the nodes that alias expansion may add to one input (all its documents).
inline constexpr std::size_t kMaxYamlAliasNodes = 100000;
// The deepest nesting of mappings and sequences accepted: the same as koord::api's JSON limit
// (kMaxJsonNestingDepth), since every document becomes JSON.
inline constexpr std::size_t kMaxYamlNestingDepth = 256;

struct YamlDocument {
  nlohmann::json value;  // the document as JSON
  // 1-based line of the node at a JSON pointer ("/spec/owners/0"); 0 when unknown.
  [[nodiscard]] int lineOf(const std::string& json_pointer) const;
  // JSON pointer (RFC 6901: "~" is "~0", "/" is "~1") -> 1-based line of the node: for a mapping
  // entry the line of its key, for a sequence item the line where the item starts, for "" the
  // line of the document's first node. Keys added by a merge (<<) map to the line of the `<<` key.
  std::map<std::string, int> lines;
  // The source_name the document was parsed from (a path, or a label such as "<stdin>").
  std::string source;
};

// Parses a (multi-document, `---` separated) YAML text; empty documents are skipped. Errors read
// "failed to parse YAML '<source_name>': line <n>, column <c>: <what>" (kInvalidArgument).
[[nodiscard]] Result<std::vector<YamlDocument>> parseYamlDocuments(std::string_view text,
                                                                   std::string_view source_name);

// Reads the file (readFile(), with its size cap) then parses it, with the path as source name.
[[nodiscard]] Result<std::vector<YamlDocument>> loadYamlFile(const std::string& path);

// Appends an escaped key to a JSON pointer: jsonPointerChild("/a", "b/c") == "/a/b~1c".
[[nodiscard]] std::string jsonPointerChild(const std::string& pointer, std::string_view key);

// kInvalidArgument "<source>: line <n>: <message>" for the node at `json_pointer` (the line part
// is left out when the line is unknown). For config loaders that validate decoded values.
[[nodiscard]] Status errorAt(const YamlDocument& doc, const std::string& json_pointer,
                             std::string_view message);

// The entry of `known` closest to `key` (ASCII case-insensitive edit distance of at most 2, and
// less than the entry's length), or "" when none is that close: the "did you mean" of strict
// config loaders.
[[nodiscard]] std::string_view closestField(std::string_view key,
                                            std::initializer_list<std::string_view> known);

// Strict fields: fails when the mapping at `json_pointer` has a key outside `known`, in
// FieldReader::checkObject's words with the source in front, e.g.
// `<source>: line 7: items[0].spec: unknown field "nodeSelecter" (did you mean "nodeSelector"?)`,
// one such line per unknown key (joined by "; "). OK when the node is absent or null; an error
// when it exists but is not a mapping. For loaders that check a few mappings of a document they
// otherwise decode as API objects (the simulator's cluster files).
[[nodiscard]] Status checkKnownFields(const YamlDocument& doc, const std::string& json_pointer,
                                      std::initializer_list<std::string_view> known);

}  // namespace koord::config
