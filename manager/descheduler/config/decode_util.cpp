#include "decode_util.hpp"

#include <cmath>
#include <cstdlib>

#include "koord/api/codec.hpp"
#include "koord/api/extension/duration.hpp"

namespace koord::manager::descheduler::config::detail {

Field Field::child(std::string_view key) const {
  Field out;
  out.path = api::childPath(path, key);
  out.pointer = koord::config::jsonPointerChild(pointer, key);
  if (value != nullptr && value->is_object()) {
    auto it = value->find(key);
    if (it != value->end()) {
      out.value = &*it;
    }
  }
  return out;
}

Field Field::item(size_t index) const {
  Field out;
  out.path = api::indexPath(path, index);
  out.pointer = pointer + "/" + std::to_string(index);
  if (value != nullptr && value->is_array() && index < value->size()) {
    out.value = &(*value)[index];
  }
  return out;
}

std::string Reader::where(const Field& field) const {
  int line = doc_.lineOf(field.pointer);
  return line > 0 ? "line " + std::to_string(line) + ": " : std::string();
}

void Reader::error(const Field& field, std::string_view message) {
  std::string text = where(field);
  if (!field.path.empty()) {
    text += field.path + ": ";
  }
  text += message;
  errors_.push_back(std::move(text));
}

void Reader::errorAt(const Field& field, std::string_view message) {
  errors_.push_back(where(field) + std::string(message));
}

void Reader::warn(const Field& field, std::string_view message) {
  warnings_.push_back(where(field) + std::string(message));
}

bool Reader::checkObject(const Field& field, std::initializer_list<std::string_view> known,
                         bool strict) {
  if (field.absent()) {
    return true;
  }
  if (!field.value->is_object()) {
    error(field, "expected a mapping, got " + std::string(api::jsonTypeName(*field.value)));
    return false;
  }
  for (auto it = field.value->begin(); it != field.value->end(); ++it) {
    bool is_known = false;
    for (std::string_view key : known) {
      is_known = is_known || key == it.key();
    }
    if (is_known) {
      continue;
    }
    const Field key = field.child(it.key());
    std::string message = "unknown field \"" + it.key() + "\" ";
    message += field.path.empty() ? "at the top level" : "in " + field.path;
    if (strict) {
      errorAt(key, message);
    } else {
      warn(key, message + " (ignored)");
    }
  }
  return true;
}

namespace {

template <typename T>
void readWith(Reader& reader, const Field& field, T& out) {
  if (field.absent()) {
    return;
  }
  using api::fromJson;
  T value{};
  Status status = fromJson(*field.value, value, field.path);
  if (!status.isOk()) {
    reader.errorAt(field, status.message());
    return;
  }
  out = std::move(value);
}

}  // namespace

void Reader::read(const Field& field, std::string& out) {
  readWith(*this, field, out);
}
void Reader::read(const Field& field, bool& out) {
  readWith(*this, field, out);
}
void Reader::read(const Field& field, int32_t& out) {
  readWith(*this, field, out);
}
void Reader::read(const Field& field, int64_t& out) {
  readWith(*this, field, out);
}
void Reader::read(const Field& field, double& out) {
  readWith(*this, field, out);
}

void Reader::read(const Field& field, uint32_t& out) {
  int64_t value = out;
  const size_t before = errors_.size();
  read(field, value);
  if (errors_.size() != before || field.absent()) {
    return;
  }
  if (value < 0 || value > static_cast<int64_t>(UINT32_MAX)) {
    error(field, "must be between 0 and " + std::to_string(UINT32_MAX));
    return;
  }
  out = static_cast<uint32_t>(value);
}

void Reader::read(const Field& field, std::chrono::nanoseconds& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_string()) {
    error(field, "expected a duration such as \"10s\", got " +
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

void Reader::read(const Field& field, std::vector<std::string>& out) {
  readWith(*this, field, out);
}

void Reader::read(const Field& field, std::map<std::string, int64_t>& out) {
  readWith(*this, field, out);
}

void Reader::read(const Field& field, std::map<std::string, double>& out) {
  if (field.absent()) {
    return;
  }
  if (!field.value->is_object()) {
    error(field, "expected a mapping, got " + std::string(api::jsonTypeName(*field.value)));
    return;
  }
  std::map<std::string, double> values;
  for (auto it = field.value->begin(); it != field.value->end(); ++it) {
    const Field entry = field.child(it.key());
    double number = 0;
    if (it.value().is_number()) {
      number = it.value().get<double>();
    } else if (it.value().is_string()) {
      const std::string& text = it.value().get_ref<const std::string&>();
      char* end = nullptr;
      number = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(number)) {
        error(entry, "expected a number, got \"" + text + "\"");
        continue;
      }
    } else {
      error(entry, "expected a number, got " + std::string(api::jsonTypeName(it.value())));
      continue;
    }
    values[it.key()] = number;
  }
  out = std::move(values);
}

void Reader::read(const Field& field, api::core::LabelSelector& out) {
  readWith(*this, field, out);
}

}  // namespace koord::manager::descheduler::config::detail
