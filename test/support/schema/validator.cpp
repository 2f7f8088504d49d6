#include "test/support/schema/validator.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "koord/api/codec.hpp"
#include "schema_util.hpp"

namespace koord::testing::schema {

namespace {

using api::childPath;
using api::indexPath;
using detail::boolField;
using detail::intField;
using detail::isDateTime;
using detail::isWholeNumber;
using detail::Pattern;
using detail::stringField;

constexpr size_t kMaxRenderedValue = 120;

// One validate() call: the results plus a cache of compiled patterns.
class Validator {
 public:
  explicit Validator(ValidationResult& result) : result_(result) {}

  void node(const Json& schema, const Json& value, const std::string& path) {
    if (!schema.is_object()) {
      return;
    }
    if (value.is_null()) {
      if (!boolField(schema, "nullable")) {
        addError(FieldErrorType::kTypeInvalid, path, "must not be null", value);
      }
      return;
    }
    if (!checkType(schema, value, path)) {
      return;
    }
    checkEnum(schema, value, path);
    if (value.is_string()) {
      checkString(schema, value, path);
    } else if (value.is_number()) {
      checkNumber(schema, value, path);
    } else if (value.is_array()) {
      checkArray(schema, value, path);
    } else if (value.is_object()) {
      checkObject(schema, value, path);
    }
    checkAnyOf(schema, value, path);
  }

 private:
  void addError(FieldErrorType type, const std::string& path, std::string detail,
                const Json& value) {
    FieldError error;
    error.type = type;
    error.path = path;
    error.detail = std::move(detail);
    if (type != FieldErrorType::kRequired) {
      error.value = renderValue(value);
    }
    result_.errors.push_back(std::move(error));
  }

  static std::string renderValue(const Json& value) {
    std::string text = value.dump();
    if (text.size() > kMaxRenderedValue) {
      text = text.substr(0, kMaxRenderedValue) + "...";
    }
    return text;
  }

  // False when the value's JSON type does not fit the schema (later checks are then skipped).
  bool checkType(const Json& schema, const Json& value, const std::string& path) {
    if (boolField(schema, "x-kubernetes-int-or-string")) {
      if (value.is_string() || isWholeNumber(value)) {
        return true;
      }
      addError(FieldErrorType::kTypeInvalid, path, "must be of type integer or string", value);
      return false;
    }
    const std::string type = stringField(schema, "type");
    if (type.empty()) {
      return true;
    }
    bool fits = false;
    if (type == "object") {
      fits = value.is_object();
    } else if (type == "array") {
      fits = value.is_array();
    } else if (type == "string") {
      fits = value.is_string();
    } else if (type == "integer") {
      fits = isWholeNumber(value);
    } else if (type == "number") {
      fits = value.is_number();
    } else if (type == "boolean") {
      fits = value.is_boolean();
    }
    if (!fits) {
      addError(FieldErrorType::kTypeInvalid, path, "must be of type " + type, value);
    }
    return fits;
  }

  void checkEnum(const Json& schema, const Json& value, const std::string& path) {
    auto it = schema.find("enum");
    if (it == schema.end() || !it->is_array()) {
      return;
    }
    for (const Json& allowed : *it) {
      if (allowed == value) {
        return;
      }
    }
    std::string supported = "supported values: ";
    for (size_t i = 0; i < it->size(); ++i) {
      supported += (i == 0 ? "" : ", ") + (*it)[i].dump();
    }
    addError(FieldErrorType::kUnsupported, path, supported, value);
  }

  void checkString(const Json& schema, const Json& value, const std::string& path) {
    const auto& text = value.get_ref<const std::string&>();
    const std::string pattern = stringField(schema, "pattern");
    if (!pattern.empty()) {
      const Pattern* re = compiled(pattern);
      if (re != nullptr && !re->search(text)) {
        addError(FieldErrorType::kInvalid, path, "should match '" + pattern + "'", value);
      }
    }
    if (auto max = intField(schema, "maxLength"); max && static_cast<int64_t>(text.size()) > *max) {
      addError(FieldErrorType::kInvalid, path,
               "may not be longer than " + std::to_string(*max) + " characters", value);
    }
    if (auto min = intField(schema, "minLength"); min && static_cast<int64_t>(text.size()) < *min) {
      addError(FieldErrorType::kInvalid, path,
               "should be at least " + std::to_string(*min) + " chars long", value);
    }
    if (stringField(schema, "format") == "date-time" && !isDateTime(text)) {
      addError(FieldErrorType::kInvalid, path, "must be of format date-time (RFC 3339)", value);
    }
  }

  void checkNumber(const Json& schema, const Json& value, const std::string& path) {
    const double number = value.get<double>();
    auto min = schema.find("minimum");
    if (min != schema.end() && min->is_number() && number < min->get<double>()) {
      addError(FieldErrorType::kInvalid, path, "should be greater than or equal to " + min->dump(),
               value);
    }
    auto max = schema.find("maximum");
    if (max != schema.end() && max->is_number() && number > max->get<double>()) {
      addError(FieldErrorType::kInvalid, path, "should be less than or equal to " + max->dump(),
               value);
    }
    const std::string format = stringField(schema, "format");
    if (format == "int32" || format == "int64") {
      const bool is_int32 = format == "int32";
      const double lo = is_int32 ? static_cast<double>(std::numeric_limits<int32_t>::min())
                                 : static_cast<double>(std::numeric_limits<int64_t>::min());
      const double hi = is_int32 ? static_cast<double>(std::numeric_limits<int32_t>::max())
                                 : static_cast<double>(std::numeric_limits<int64_t>::max());
      const bool fits = value.is_number_unsigned()
                            ? value.get<uint64_t>() <= static_cast<uint64_t>(hi)
                            : (number >= lo && number <= hi);
      if (!fits) {
        addError(FieldErrorType::kInvalid, path, "must be of format " + format, value);
      }
    }
  }

  void checkArray(const Json& schema, const Json& value, const std::string& path) {
    const auto size = static_cast<int64_t>(value.size());
    if (auto min = intField(schema, "minItems"); min && size < *min) {
      addError(FieldErrorType::kInvalid, path,
               "should have at least " + std::to_string(*min) + " items", Json(size));
    }
    if (auto max = intField(schema, "maxItems"); max && size > *max) {
      addError(FieldErrorType::kInvalid, path,
               "should have at most " + std::to_string(*max) + " items", Json(size));
    }
    auto items = schema.find("items");
    if (items == schema.end() || !items->is_object()) {
      return;
    }
    for (size_t i = 0; i < value.size(); ++i) {
      node(*items, value[i], indexPath(path, i));
    }
  }

  void checkObject(const Json& schema, const Json& value, const std::string& path) {
    static const Json kEmpty = Json::object();
    auto props_it = schema.find("properties");
    const Json& props = props_it != schema.end() && props_it->is_object() ? *props_it : kEmpty;
    auto additional = schema.find("additionalProperties");
    const bool preserve = boolField(schema, "x-kubernetes-preserve-unknown-fields");

    if (auto min = intField(schema, "minProperties");
        min && static_cast<int64_t>(value.size()) < *min) {
      addError(FieldErrorType::kInvalid, path,
               "should have at least " + std::to_string(*min) + " properties", Json(value.size()));
    }
    auto required = schema.find("required");
    if (required != schema.end() && required->is_array()) {
      for (const Json& name_json : *required) {
        if (!name_json.is_string()) {
          continue;
        }
        const auto& name = name_json.get_ref<const std::string&>();
        const Json* prop = props.contains(name) ? &props.at(name) : nullptr;
        auto field = value.find(name);
        const bool present =
            field != value.end() &&
            (!field->is_null() || (prop != nullptr && boolField(*prop, "nullable")));
        const bool defaulted = prop != nullptr && prop->is_object() && prop->contains("default");
        if (!present && !defaulted) {
          addError(FieldErrorType::kRequired, childPath(path, name), "", Json());
        }
      }
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string child = childPath(path, it.key());
      auto prop = props.find(it.key());
      if (prop != props.end()) {
        if (it.value().is_null() && !boolField(*prop, "nullable")) {
          continue;  // the apiserver drops the null (and may default the field)
        }
        node(*prop, it.value(), child);
      } else if (additional != schema.end() && additional->is_object()) {
        node(*additional, it.value(), child);
      } else if ((additional != schema.end() && additional->is_boolean() &&
                  additional->get<bool>()) ||
                 preserve) {
        continue;
      } else {
        result_.warnings.push_back("unknown field \"" + child + "\"");
      }
    }
  }

  void checkAnyOf(const Json& schema, const Json& value, const std::string& path) {
    auto any_of = schema.find("anyOf");
    if (any_of == schema.end() || !any_of->is_array() || any_of->empty()) {
      return;
    }
    for (const Json& branch : *any_of) {
      ValidationResult branch_result;
      Validator(branch_result).node(branch, value, path);
      if (branch_result.ok()) {
        return;
      }
    }
    addError(FieldErrorType::kInvalid, path, "must validate at least one schema (anyOf)", value);
  }

  const Pattern* compiled(const std::string& pattern) {
    auto it = patterns_.find(pattern);
    if (it == patterns_.end()) {
      it = patterns_.emplace(pattern, Pattern::compile(pattern)).first;
    }
    return it->second ? &*it->second : nullptr;
  }

  ValidationResult& result_;
  std::map<std::string, std::optional<Pattern>> patterns_;
};

std::string_view reasonText(FieldErrorType type) {
  switch (type) {
    case FieldErrorType::kRequired:
      return "Required value";
    case FieldErrorType::kUnsupported:
      return "Unsupported value";
    case FieldErrorType::kInvalid:
    case FieldErrorType::kTypeInvalid:
      return "Invalid value";
  }
  return "Invalid value";
}

}  // namespace

std::string FieldError::toString() const {
  std::string out = path.empty() ? std::string("<root>") : path;
  out += ": ";
  out += reasonText(type);
  if (!value.empty()) {
    out += ": " + value;
  }
  if (!detail.empty()) {
    out += ": " + detail;
  }
  return out;
}

Status ValidationResult::toStatus(std::string_view object) const {
  if (ok()) {
    return Status::ok();
  }
  std::string message = "failed to validate '" + std::string(object) + "': ";
  for (size_t i = 0; i < errors.size(); ++i) {
    message += (i == 0 ? "" : "; ") + errors[i].toString();
  }
  return Status::invalidArgument(std::move(message));
}

ValidationResult validate(const Json& schema, const Json& value, const std::string& path) {
  ValidationResult result;
  Validator(result).node(schema, value, path);
  return result;
}

ValidationResult validateObject(const Json& schema, const Json& object) {
  ValidationResult result;
  if (!object.is_object()) {
    result.errors.push_back(FieldError{FieldErrorType::kTypeInvalid, "", "must be of type object",
                                       object.dump().substr(0, kMaxRenderedValue)});
    return result;
  }
  for (const char* key : {"apiVersion", "kind"}) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      result.errors.push_back(FieldError{FieldErrorType::kRequired, key, "", ""});
    }
  }
  auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) {
    result.errors.push_back(FieldError{FieldErrorType::kRequired, "metadata", "", ""});
  } else {
    auto has = [&](const char* key) {
      auto it = metadata->find(key);
      return it != metadata->end() && it->is_string() && !it->get_ref<const std::string&>().empty();
    };
    if (!has("name") && !has("generateName")) {
      result.errors.push_back(FieldError{FieldErrorType::kRequired, "metadata.name",
                                         "name or generateName is required", ""});
    }
    for (const char* map_key : {"labels", "annotations"}) {
      auto map = metadata->find(map_key);
      if (map == metadata->end() || map->is_null()) {
        continue;
      }
      const std::string map_path = std::string("metadata.") + map_key;
      if (!map->is_object()) {
        result.errors.push_back(FieldError{FieldErrorType::kTypeInvalid, map_path,
                                           "must be of type object", map->dump()});
        continue;
      }
      for (auto it = map->begin(); it != map->end(); ++it) {
        if (!it.value().is_string()) {
          result.errors.push_back(FieldError{FieldErrorType::kTypeInvalid,
                                             childPath(map_path, it.key()),
                                             "must be of type string", it.value().dump()});
        }
      }
    }
  }
  // ObjectMeta is validated above, as the apiserver does, not through the CRD schema.
  Json body = object;
  body.erase("metadata");
  ValidationResult schema_result = validate(schema, body);
  result.errors.insert(result.errors.end(), schema_result.errors.begin(),
                       schema_result.errors.end());
  result.warnings = std::move(schema_result.warnings);
  return result;
}

Json applyDefaults(const Json& schema, const Json& value) {
  if (!schema.is_object()) {
    return value;
  }
  Json out = value;
  if (out.is_object()) {
    auto props = schema.find("properties");
    if (props != schema.end() && props->is_object()) {
      for (auto it = props->begin(); it != props->end(); ++it) {
        auto field = out.find(it.key());
        const bool absent =
            field == out.end() || (field->is_null() && !detail::boolField(it.value(), "nullable"));
        if (absent && it.value().is_object() && it.value().contains("default")) {
          out[it.key()] = it.value().at("default");
        }
      }
    }
    auto additional = schema.find("additionalProperties");
    for (auto it = out.begin(); it != out.end(); ++it) {
      if (props != schema.end() && props->is_object() && props->contains(it.key())) {
        it.value() = applyDefaults(props->at(it.key()), it.value());
      } else if (additional != schema.end() && additional->is_object()) {
        it.value() = applyDefaults(*additional, it.value());
      }
    }
  } else if (out.is_array()) {
    auto items = schema.find("items");
    if (items != schema.end() && items->is_object()) {
      for (Json& item : out) {
        item = applyDefaults(*items, item);
      }
    }
  }
  return out;
}

}  // namespace koord::testing::schema
