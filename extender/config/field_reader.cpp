#include "extender/config/field_reader.hpp"

#include <algorithm>
#include <limits>

#include "koord/api/extension/duration.hpp"

namespace koord::extender::config::detail {
namespace {

std::string suggestion(std::string_view key, std::initializer_list<std::string_view> known) {
  const std::string_view best = koord::config::closestField(key, known);
  return best.empty() ? "" : " (did you mean \"" + std::string(best) + "\"?)";
}

}  // namespace

Field Field::child(std::string_view key) const {
  const api::Json* child_value = nullptr;
  if (value != nullptr && value->is_object()) {
    const auto it = value->find(std::string(key));
    if (it != value->end()) {
      child_value = &*it;
    }
  }
  return Field{child_value, api::childPath(path, key),
               koord::config::jsonPointerChild(pointer, key)};
}

Field Field::item(size_t index) const {
  const api::Json* item_value = nullptr;
  if (value != nullptr && value->is_array() && index < value->size()) {
    item_value = &(*value)[index];
  }
  return Field{item_value, api::indexPath(path, index), pointer + "/" + std::to_string(index)};
}

void FieldReader::problem(const Field& field, std::string_view message) {
  std::string text;
  // An absent field is reported on the line of its nearest present parent (not the root).
  std::string pointer = field.pointer;
  int line = doc_.lineOf(pointer);
  while (line <= 0 && !pointer.empty()) {
    pointer.erase(pointer.rfind('/'));
    line = pointer.empty() ? 0 : doc_.lineOf(pointer);
  }
  if (line > 0) {
    text = "line " + std::to_string(line) + ": ";
  }
  if (!field.path.empty()) {
    text += field.path + ": ";
  }
  text += message;
  problems_.push_back(std::move(text));
}

bool FieldReader::checkObject(const Field& field, std::initializer_list<std::string_view> known) {
  if (field.absent()) {
    return true;
  }
  if (!field.value->is_object()) {
    problem(field, "expected a mapping, got " + std::string(api::jsonTypeName(*field.value)));
    return false;
  }
  for (const auto& [key, unused] : field.value->items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) {
      continue;
    }
    // Reported on the key's own line, under the parent's path.
    Field at_key = field.child(key);
    at_key.path = field.path;
    problem(at_key, "unknown field \"" + key + "\"" + suggestion(key, known));
  }
  return true;
}

void FieldReader::read(const Field& field, std::string& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_string()) {
    problem(field, "expected a string, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  out = field.value->get<std::string>();
}

void FieldReader::read(const Field& field, bool& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_boolean()) {
    problem(field, "expected true or false, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  out = field.value->get<bool>();
}

void FieldReader::read(const Field& field, int64_t& out) {
  if (field.absent()) {
    return;
  }
  if (field.value->is_number_integer() && !field.value->is_number_unsigned()) {
    out = field.value->get<int64_t>();
    return;
  }
  if (field.value->is_number_unsigned() &&
      field.value->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    out = static_cast<int64_t>(field.value->get<uint64_t>());
    return;
  }
  problem(field, "expected an integer, got " +
                     (field.value->is_number() ? field.value->dump()
                                               : std::string(api::jsonTypeName(*field.value))));
}

void FieldReader::read(const Field& field, int32_t& out) {
  if (field.absent()) {
    return;
  }
  int64_t wide = out;
  const size_t before = problems_.size();
  read(field, wide);
  if (problems_.size() != before) {
    return;
  }
  if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
    problem(field, "value " + std::to_string(wide) + " is out of the 32-bit integer range");
    return;
  }
  out = static_cast<int32_t>(wide);
}

void FieldReader::read(const Field& field, double& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_number()) {
    problem(field, "expected a number, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  out = field.value->get<double>();
}

void FieldReader::read(const Field& field, std::chrono::nanoseconds& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_string()) {
    problem(field, "expected a duration such as \"15s\", got " +
                       std::string(api::jsonTypeName(*field.value)));
    return;
  }
  Result<std::chrono::nanoseconds> parsed =
      api::extension::parseDuration(field.value->get<std::string>());
  if (!parsed.ok()) {
    problem(field, parsed.status().message());
    return;
  }
  out = *parsed;
}

}  // namespace koord::extender::config::detail
