#include "koord/config/field_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "koord/api/extension/duration.hpp"

namespace koord::config {
namespace {

// The value, for a number ("1.5", "18446744073709551616"), else its type ("string").
std::string describe(const nlohmann::json& value) {
  return value.is_number() ? value.dump() : std::string(api::jsonTypeName(value));
}

}  // namespace

Field Field::child(std::string_view key) const {
  const nlohmann::json* child_value = nullptr;
  if (value != nullptr && value->is_object()) {
    const auto it = value->find(key);
    if (it != value->end()) {
      child_value = &*it;
    }
  }
  return Field{child_value, api::childPath(path, key), jsonPointerChild(pointer, key)};
}

Field Field::item(size_t index) const {
  const nlohmann::json* item_value = nullptr;
  if (value != nullptr && value->is_array() && index < value->size()) {
    item_value = &(*value)[index];
  }
  return Field{item_value, api::indexPath(path, index), pointer + "/" + std::to_string(index)};
}

std::string FieldReader::linePrefix(const Field& field) const {
  // An absent field is reported on the line of its nearest present parent (not the root).
  std::string pointer = field.pointer;
  int line = doc_.lineOf(pointer);
  while (line <= 0 && !pointer.empty()) {
    pointer.erase(pointer.rfind('/'));
    line = pointer.empty() ? 0 : doc_.lineOf(pointer);
  }
  return line > 0 ? "line " + std::to_string(line) + ": " : std::string();
}

std::string FieldReader::format(const Field& field, std::string_view message) const {
  std::string text = linePrefix(field);
  if (!field.path.empty()) {
    text += field.path + ": ";
  }
  text += message;
  return text;
}

void FieldReader::error(const Field& field, std::string_view message) {
  errors_.push_back(format(field, message));
}

void FieldReader::warn(const Field& field, std::string_view message) {
  warnings_.push_back(format(field, message));
}

void FieldReader::typeError(const Field& field, std::string_view expected) {
  error(field, "expected " + std::string(expected) + ", got " + describe(*field.value));
}

bool FieldReader::checkObject(const Field& field, std::initializer_list<std::string_view> known,
                              UnknownFields unknown) {
  if (field.absent()) {
    return true;
  }
  if (!field.value->is_object()) {
    error(field, "expected a mapping, got " + std::string(api::jsonTypeName(*field.value)));
    return false;
  }
  for (const auto& [key, unused] : field.value->items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) {
      continue;
    }
    // Reported on the key's own line, under the path of the mapping.
    Field at_key = field.child(key);
    at_key.path = field.path;
    std::string message = "unknown field \"" + key + "\"";
    if (const std::string_view hint = closestField(key, known); !hint.empty()) {
      message += " (did you mean \"" + std::string(hint) + "\"?)";
    }
    if (unknown == UnknownFields::kError) {
      error(at_key, message);
    } else {
      warn(at_key, message + " (ignored)");
    }
  }
  return true;
}

void FieldReader::read(const Field& field, std::string& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_string()) {
    error(field, "expected a string, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  out = field.value->get<std::string>();
}

void FieldReader::read(const Field& field, bool& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_boolean()) {
    error(field, "expected true or false, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  out = field.value->get<bool>();
}

void FieldReader::read(const Field& field, int64_t& out) {
  if (field.absent()) {
    return;
  }
  const nlohmann::json& value = *field.value;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (value.is_number_unsigned()) {
    if (value.get<uint64_t>() <= static_cast<uint64_t>(kMax)) {
      out = static_cast<int64_t>(value.get<uint64_t>());
      return;
    }
  } else if (value.is_number_integer()) {
    out = value.get<int64_t>();
    return;
  } else if (value.is_number_float()) {
    // 2^63 is exactly representable; every double below it converts without overflow.
    const double number = value.get<double>();
    if (std::trunc(number) == number && number >= -9223372036854775808.0 &&
        number < 9223372036854775808.0) {
      out = static_cast<int64_t>(number);
      return;
    }
  }
  typeError(field, "an integer");
}

void FieldReader::read(const Field& field, int32_t& out) {
  if (field.absent()) {
    return;
  }
  int64_t wide = out;
  const size_t before = errors_.size();
  read(field, wide);
  if (errors_.size() != before) {
    return;
  }
  if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
    error(field, "value " + std::to_string(wide) + " is out of the 32-bit integer range");
    return;
  }
  out = static_cast<int32_t>(wide);
}

void FieldReader::read(const Field& field, uint32_t& out) {
  if (field.absent()) {
    return;
  }
  int64_t wide = out;
  const size_t before = errors_.size();
  read(field, wide);
  if (errors_.size() != before) {
    return;
  }
  if (wide < 0 || wide > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) {
    error(field, "must be between 0 and " + std::to_string(std::numeric_limits<uint32_t>::max()));
    return;
  }
  out = static_cast<uint32_t>(wide);
}

void FieldReader::read(const Field& field, double& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_number()) {
    error(field, "expected a number, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  out = field.value->get<double>();
}

void FieldReader::read(const Field& field, std::chrono::nanoseconds& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_string()) {
    error(field, "expected a duration such as \"15s\", got " +
                     std::string(api::jsonTypeName(*field.value)));
    return;
  }
  Result<std::chrono::nanoseconds> parsed =
      api::extension::parseDuration(field.value->get<std::string>());
  if (!parsed.ok()) {
    error(field, parsed.status().message());
    return;
  }
  out = *parsed;
}

void FieldReader::read(const Field& field, std::vector<std::string>& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_array()) {
    error(field, "expected a list, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  const size_t before = errors_.size();
  std::vector<std::string> values(field.value->size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Field item = field.item(i);
    if (item.absent()) {
      error(item, "expected a string, got null");
      continue;
    }
    read(item, values[i]);
  }
  if (errors_.size() == before) {
    out = std::move(values);
  }
}

template <typename V, typename ReadEntry>
void FieldReader::readMap(const Field& field, std::map<std::string, V>& out, ReadEntry read_entry) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_object()) {
    error(field, "expected a mapping, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  const size_t before = errors_.size();
  std::map<std::string, V> values;
  for (const auto& [key, unused] : field.value->items()) {
    V value{};
    if (read_entry(field.child(key), value))
      values[key] = value;
  }
  if (errors_.size() == before) {
    out = std::move(values);
  }
}

void FieldReader::read(const Field& field, std::map<std::string, int64_t>& out) {
  readMap(field, out, [this](const Field& entry, int64_t& number) {
    if (entry.absent()) {
      error(entry, "expected an integer, got null");
      return false;
    }
    const size_t before = errors_.size();
    read(entry, number);
    return errors_.size() == before;
  });
}

void FieldReader::read(const Field& field, std::map<std::string, double>& out) {
  readMap(field, out, [this](const Field& entry, double& number) {
    const api::Json& value = *entry.value;
    if (value.is_number()) {
      number = value.get<double>();
      return true;
    }
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      char* end = nullptr;
      number = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(number)) {
        error(entry, "expected a number, got \"" + text + "\"");
        return false;
      }
      return true;
    }
    error(entry, "expected a number, got " + std::string(api::jsonTypeName(value)));
    return false;
  });
}

}  // namespace koord::config
