#include "koord/config/yaml.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <exception>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "koord/config/file.hpp"
#include "yaml_scalar.hpp"

namespace koord::config {
namespace {

using Json = nlohmann::json;

// A semantic error found while building the document (duplicate key, bad merge, ...).
class BuildError : public std::exception {
 public:
  BuildError(const YAML::Mark& mark, std::string message)
      : line_(mark.line + 1), column_(mark.column + 1), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  int line_;
  int column_;
  std::string message_;
};

// A pointer segment no escaped key can produce ("~2" is not a valid escape): the value of a merge
// key is built under it, then its lines are dropped.
constexpr std::string_view kMergeSegment = "/~2merge";

bool hasPrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Lines under `pointer` (itself included), keyed by their suffix after `pointer`.
std::map<std::string, int> subtreeLines(const std::map<std::string, int>& lines,
                                        const std::string& pointer) {
  std::map<std::string, int> out;
  for (auto it = lines.lower_bound(pointer); it != lines.end() && hasPrefix(it->first, pointer);
       ++it) {
    const std::string_view rest = std::string_view(it->first).substr(pointer.size());
    if (rest.empty() || rest[0] == '/') {
      out.emplace(std::string(rest), it->second);
    }
  }
  return out;
}

void eraseSubtree(std::map<std::string, int>& lines, const std::string& pointer) {
  auto it = lines.lower_bound(pointer);
  while (it != lines.end() && hasPrefix(it->first, pointer)) {
    const std::string_view rest = std::string_view(it->first).substr(pointer.size());
    if (rest.empty() || rest[0] == '/') {
      it = lines.erase(it);
    } else {
      ++it;
    }
  }
}

// Records `line` for every node inside `value` (not `value` itself) below `pointer`.
void markSubtree(std::map<std::string, int>& lines, const std::string& pointer, const Json& value,
                 int line) {
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      const std::string child_pointer = jsonPointerChild(pointer, key);
      lines.emplace(child_pointer, line);
      markSubtree(lines, child_pointer, child, line);
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string child_pointer = pointer + "/" + std::to_string(i);
      lines.emplace(child_pointer, line);
      markSubtree(lines, child_pointer, value[i], line);
    }
  }
}

// Builds one document's JSON value and line map from yaml-cpp's parse events.
class DocumentBuilder : public YAML::EventHandler {
 public:
  explicit DocumentBuilder(std::string_view text) : text_(text) {}

  // Whether the last document held a non-null value; take() hands it over.
  bool hasValue() const { return has_root_ && !root_.is_null(); }
  YamlDocument take(std::string source) {
    YamlDocument doc;
    doc.value = std::move(root_);
    doc.lines = std::move(lines_);
    doc.source = std::move(source);
    return doc;
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    // yaml-cpp 0.7 leaves a stray ',' at the top level unconsumed and reports an empty document
    // again and again (jbeder/yaml-cpp#1040): a document starting where the previous one did means
    // no progress.
    if (mark.pos == last_start_pos_) {
      const auto at = static_cast<size_t>(mark.pos);
      throw BuildError(mark, at < text_.size() ? "unexpected '" + std::string(1, text_[at]) + "'"
                                               : std::string("unexpected end of input"));
    }
    last_start_pos_ = mark.pos;
    stack_.clear();
    anchors_.clear();
    lines_.clear();
    root_ = nullptr;
    has_root_ = false;
    nodes_ = 0;
    // alias_nodes_ is not reset: its limit holds for the whole input, so many small documents
    // cannot add up to what one document may not hold.
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (atKey()) {
      throw BuildError(mark, "a mapping key must not be null");
    }
    countNodes(1);
    placeValue(mark, nullptr, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      throw BuildError(mark, "alias refers to an anchor whose node is not complete");
    }
    const Anchor& target = it->second;
    if (atKey()) {
      setKey(mark, keyText(mark, target.value), false);
      return;
    }
    if (stack_.size() + target.depth > kMaxYamlNestingDepth) {
      throw BuildError(mark, tooDeep());
    }
    countAliasNodes(mark, target.nodes);
    const std::string pointer = nextPointer();
    for (const auto& [suffix, line] : target.lines) {
      if (!suffix.empty()) {
        lines_[pointer + suffix] = line;
      }
    }
    noteChildDepth(target.depth);
    placeValue(mark, target.value, YAML::NullAnchor);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (atKey()) {
      onKey(mark, tag, anchor, value);
      return;
    }
    detail::ResolvedScalar resolved = detail::resolveScalar(tag, value);
    if (!resolved.error.empty()) {
      throw BuildError(mark, resolved.error);
    }
    countNodes(1);
    placeValue(mark, std::move(resolved.value), anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value /*style*/) override {
    startCollection(mark, anchor, Json::array());
  }
  void OnSequenceEnd() override { endCollection(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value /*style*/) override {
    startCollection(mark, anchor, Json::object());
  }
  void OnMapEnd() override {
    applyMerges(stack_.back());
    endCollection();
  }

 private:
  struct Anchor {
    Json value;
    std::map<std::string, int> lines;  // relative pointer -> line
    size_t nodes = 0;
    size_t depth = 0;  // collections nested in value, itself included (0 for a scalar)
  };

  struct Frame {
    Json value;
    std::string pointer;
    YAML::Mark mark;
    int line = 0;  // the line recorded for this node (a mapping entry's key line)
    YAML::anchor_t anchor = YAML::NullAnchor;
    size_t depth = 1;  // collections nested in value so far, itself included
    size_t nodes_at_start = 0;
    // Mapping state: the key waiting for its value.
    bool has_key = false;
    bool key_is_merge = false;
    std::string key;
    int key_line = 0;
    std::unordered_map<std::string, int> key_lines;  // explicit keys -> line, for duplicates
    std::vector<std::pair<Json, int>> merges;        // merge sources, in precedence order
  };

  bool atKey() const {
    return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key;
  }

  void countNodes(size_t count) { nodes_ += count; }
  void countAliasNodes(const YAML::Mark& mark, size_t count) {
    alias_nodes_ += count;
    if (alias_nodes_ > kMaxYamlAliasNodes) {
      throw BuildError(
          mark, "aliases expand to more than " + std::to_string(kMaxYamlAliasNodes) + " nodes");
    }
    nodes_ += count;
  }

  // The pointer of the node about to be placed, and the line to record for it.
  std::string nextPointer() const {
    if (stack_.empty()) {
      return "";
    }
    const Frame& top = stack_.back();
    if (top.value.is_array()) {
      return top.pointer + "/" + std::to_string(top.value.size());
    }
    if (top.key_is_merge) {
      return top.pointer + std::string(kMergeSegment);
    }
    return jsonPointerChild(top.pointer, top.key);
  }
  int nextLine(const YAML::Mark& mark) const {
    if (!stack_.empty() && stack_.back().value.is_object()) {
      return stack_.back().key_line;
    }
    return mark.line + 1;
  }

  static std::string keyText(const YAML::Mark& mark, const Json& key) {
    if (key.is_string()) {
      return key.get<std::string>();
    }
    if (key.is_number() || key.is_boolean()) {
      return key.dump();
    }
    throw BuildError(mark, std::string("a mapping key must be a string, found ") +
                               (key.is_null() ? "null" : key.type_name()));
  }

  void onKey(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
             const std::string& text) {
    if (tag == "?" && text == "<<") {
      setKey(mark, text, true);
    } else {
      const detail::ResolvedScalar resolved = detail::resolveScalar(tag, text);
      if (resolved.value.is_null() && resolved.error.empty()) {
        throw BuildError(mark, "a mapping key must not be null");
      }
      setKey(mark, text, false);  // the key's text, so `1:` is "1" and `true:` is "true"
    }
    if (anchor != YAML::NullAnchor) {
      anchors_[anchor] = Anchor{Json(text), {{"", mark.line + 1}}, 1};
    }
  }

  void setKey(const YAML::Mark& mark, std::string key, bool is_merge) {
    Frame& top = stack_.back();
    const int line = mark.line + 1;
    const auto [it, inserted] = top.key_lines.emplace(key, line);
    if (!inserted) {
      throw BuildError(mark, "duplicate key \"" + key + "\" (first defined on line " +
                                 std::to_string(it->second) + ")");
    }
    top.has_key = true;
    top.key_is_merge = is_merge;
    top.key = std::move(key);
    top.key_line = line;
  }

  void startCollection(const YAML::Mark& mark, YAML::anchor_t anchor, Json empty) {
    if (atKey()) {
      throw BuildError(mark, std::string("a mapping key must be a string, found a ") +
                                 (empty.is_object() ? "mapping" : "sequence"));
    }
    if (stack_.size() >= kMaxYamlNestingDepth) {
      throw BuildError(mark, tooDeep());
    }
    countNodes(1);
    Frame frame;
    frame.value = std::move(empty);
    frame.pointer = nextPointer();
    frame.mark = mark;
    frame.line = nextLine(mark);
    frame.anchor = anchor;
    frame.nodes_at_start = nodes_;
    lines_[frame.pointer] = frame.line;
    stack_.push_back(std::move(frame));
  }

  void endCollection() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.anchor != YAML::NullAnchor) {
      anchors_[frame.anchor] = Anchor{frame.value, subtreeLines(lines_, frame.pointer),
                                      nodes_ - frame.nodes_at_start + 1, frame.depth};
    }
    noteChildDepth(frame.depth);
    attach(frame.mark, std::move(frame.value));
  }

  // A finished child `depth` collections deep deepens its parent to depth + 1.
  void noteChildDepth(size_t depth) {
    if (!stack_.empty()) {
      stack_.back().depth = std::max(stack_.back().depth, depth + 1);
    }
  }

  static std::string tooDeep() {
    return "nesting deeper than " + std::to_string(kMaxYamlNestingDepth) + " levels";
  }

  // Places a scalar (or an alias copy) at the next position.
  void placeValue(const YAML::Mark& mark, Json value, YAML::anchor_t anchor) {
    const std::string pointer = nextPointer();
    lines_[pointer] = nextLine(mark);
    if (anchor != YAML::NullAnchor) {
      anchors_[anchor] = Anchor{value, {{"", mark.line + 1}}, 1};
    }
    attach(mark, std::move(value));
  }

  // Adds a finished node to its parent (or makes it the document root).
  void attach(const YAML::Mark& mark, Json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      has_root_ = true;
      return;
    }
    Frame& top = stack_.back();
    if (top.value.is_array()) {
      top.value.push_back(std::move(value));
      return;
    }
    top.has_key = false;
    if (top.key_is_merge) {
      eraseSubtree(lines_, top.pointer + std::string(kMergeSegment));
      addMergeSource(mark, top, std::move(value));
      return;
    }
    top.value[top.key] = std::move(value);
  }

  static void addMergeSource(const YAML::Mark& mark, Frame& frame, Json value) {
    if (value.is_object()) {
      frame.merges.emplace_back(std::move(value), frame.key_line);
      return;
    }
    if (value.is_array()) {
      for (Json& item : value) {
        if (!item.is_object()) {
          throw BuildError(mark, "a merge key (<<) list must hold only mappings");
        }
        frame.merges.emplace_back(std::move(item), frame.key_line);
      }
      return;
    }
    throw BuildError(mark, "a merge key (<<) must be a mapping or a list of mappings");
  }

  // Keys the mapping sets itself win; among merge sources, the earlier wins.
  void applyMerges(Frame& frame) {
    for (auto& [source, line] : frame.merges) {
      for (auto& [key, value] : source.items()) {
        if (frame.value.contains(key)) {
          continue;
        }
        const std::string pointer = jsonPointerChild(frame.pointer, key);
        lines_[pointer] = line;
        markSubtree(lines_, pointer, value, line);
        frame.value[key] = std::move(value);
      }
    }
    frame.merges.clear();
  }

  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, Anchor> anchors_;
  std::map<std::string, int> lines_;
  Json root_;
  bool has_root_ = false;
  std::string_view text_;
  int last_start_pos_ = -1;
  size_t nodes_ = 0;        // nodes of the document so far (sizes anchors)
  size_t alias_nodes_ = 0;  // of which copied by aliases
};

Status parseError(std::string_view source, int line, int column, std::string_view what) {
  return Status::invalidArgument("failed to parse YAML '" + std::string(source) + "': line " +
                                 std::to_string(line) + ", column " + std::to_string(column) +
                                 ": " + std::string(what));
}

}  // namespace

int YamlDocument::lineOf(const std::string& json_pointer) const {
  const auto it = lines.find(json_pointer);
  return it == lines.end() ? 0 : it->second;
}

std::string jsonPointerChild(const std::string& pointer, std::string_view key) {
  std::string out = pointer;
  out.reserve(pointer.size() + key.size() + 1);
  out.push_back('/');
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<std::vector<YamlDocument>> parseYamlDocuments(std::string_view text,
                                                     std::string_view source_name) {
  std::vector<YamlDocument> docs;
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    DocumentBuilder builder(text);
    while (parser.HandleNextDocument(builder)) {
      if (builder.hasValue()) {
        docs.push_back(builder.take(std::string(source_name)));
      }
    }
  } catch (const BuildError& e) {
    return parseError(source_name, e.line(), e.column(), e.what());
  } catch (const YAML::Exception& e) {
    return parseError(source_name, e.mark.line + 1, e.mark.column + 1, e.msg);
  } catch (const std::exception& e) {
    return Status::invalidArgument("failed to parse YAML '" + std::string(source_name) +
                                   "': " + e.what());
  }
  return docs;
}

Result<std::vector<YamlDocument>> loadYamlFile(const std::string& path) {
  KOORD_ASSIGN_OR_RETURN(std::string text, readFile(path));
  return parseYamlDocuments(text, path);
}

}  // namespace koord::config
