#include <set>
#include <string>
#include <vector>

#include "schema_util.hpp"
#include "test/support/schema/validator.hpp"

namespace koord::testing::schema {

namespace {

using detail::boolField;
using detail::Pattern;
using detail::stringField;

const std::set<std::string, std::less<>>& knownKeywords() {
  static const std::set<std::string, std::less<>> kKeywords = {
      "$schema",
      "additionalProperties",
      "allOf",
      "anyOf",
      "default",
      "description",
      "enum",
      "example",
      "exclusiveMaximum",
      "exclusiveMinimum",
      "externalDocs",
      "format",
      "items",
      "maxItems",
      "maxLength",
      "maxProperties",
      "maximum",
      "minItems",
      "minLength",
      "minProperties",
      "minimum",
      "multipleOf",
      "not",
      "nullable",
      "oneOf",
      "pattern",
      "properties",
      "required",
      "title",
      "type",
      "uniqueItems",
      "x-kubernetes-embedded-resource",
      "x-kubernetes-int-or-string",
      "x-kubernetes-list-map-keys",
      "x-kubernetes-list-type",
      "x-kubernetes-map-type",
      "x-kubernetes-preserve-unknown-fields",
      "x-kubernetes-validations",
  };
  return kKeywords;
}

bool isIntOrStringPair(const Json& junctor) {
  if (!junctor.is_array() || junctor.size() != 2) {
    return false;
  }
  return junctor[0] == Json{{"type", "integer"}} && junctor[1] == Json{{"type", "string"}};
}

bool formatFitsType(const std::string& format, const std::string& type, bool int_or_string) {
  static const std::set<std::string, std::less<>> kStringFormats = {
      "date-time", "date", "duration", "byte", "binary", "password", "uuid",          "uri",
      "hostname",  "ipv4", "ipv6",     "cidr", "mac",    "email",    "int-or-string", "quantity"};
  if (format == "int32" || format == "int64") {
    return type == "integer" || int_or_string;
  }
  if (format == "float" || format == "double") {
    return type == "number";
  }
  return kStringFormats.count(format) != 0 && (type == "string" || int_or_string);
}

// Walks one schema node. `junctor` is true inside anyOf/allOf/oneOf/not.
class StructuralChecker {
 public:
  explicit StructuralChecker(std::vector<std::string>& out) : out_(out) {}

  void root(const Json& schema, const std::string& path) {
    if (!schema.is_object()) {
      add(path, "must be an object");
      return;
    }
    if (stringField(schema, "type") != "object") {
      add(path + ".type", "Unsupported value: " + schema.value("type", Json("")).dump() +
                              ": supported values: \"object\"");
    }
    auto props = schema.find("properties");
    if (props != schema.end() && props->is_object()) {
      auto metadata = props->find("metadata");
      if (metadata != props->end()) {
        checkRootMetadata(*metadata, path + ".properties[metadata]");
      }
    }
    node(schema, path, false, true);
  }

 private:
  void add(const std::string& path, const std::string& problem) {
    out_.push_back(path + ": " + problem);
  }

  void checkRootMetadata(const Json& metadata, const std::string& path) {
    if (!metadata.is_object()) {
      add(path, "must be an object");
      return;
    }
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
      if (it.key() == "type" || it.key() == "description" || it.key() == "properties") {
        continue;
      }
      add(path + "." + it.key(),
          "Forbidden: must not be specified at the root's metadata (only name and generateName)");
    }
    auto props = metadata.find("properties");
    if (props == metadata.end()) {
      return;
    }
    for (auto it = props->begin(); it != props->end(); ++it) {
      const std::string child = path + ".properties[" + it.key() + "]";
      if (it.key() != "name" && it.key() != "generateName") {
        add(child, "Forbidden: only name and generateName may be specified in metadata");
      } else if (!it.value().is_object() || stringField(it.value(), "type") != "string" ||
                 it.value().size() > 2 ||
                 (it.value().size() == 2 && !it.value().contains("description"))) {
        add(child, "Forbidden: metadata." + it.key() + " may only be {type: string}");
      }
    }
  }

  void node(const Json& schema, const std::string& path, bool junctor, bool is_root = false) {
    if (!schema.is_object()) {
      add(path, "must be an object");
      return;
    }
    for (auto it = schema.begin(); it != schema.end(); ++it) {
      if (knownKeywords().count(it.key()) == 0) {
        add(path + "." + it.key(), "Forbidden: unknown schema keyword");
      }
    }
    const std::string type = stringField(schema, "type");
    const bool int_or_string = boolField(schema, "x-kubernetes-int-or-string");
    const bool preserve = boolField(schema, "x-kubernetes-preserve-unknown-fields");
    checkType(schema, path, type, junctor, int_or_string, preserve);
    checkJunctorContents(schema, path, junctor);
    checkExtensions(schema, path, int_or_string);
    checkShape(schema, path, type);
    checkValueKeywords(schema, path, type, int_or_string);
    checkDefault(schema, path, junctor, is_root);
    recurse(schema, path);
  }

  void checkType(const Json& schema, const std::string& path, const std::string& type, bool junctor,
                 bool int_or_string, bool preserve) {
    static const std::set<std::string, std::less<>> kTypes = {"object",  "array",  "string",
                                                              "integer", "number", "boolean"};
    auto type_it = schema.find("type");
    if (type_it != schema.end() && (!type_it->is_string() || kTypes.count(type) == 0)) {
      add(path + ".type", "Unsupported value: " + type_it->dump() +
                              ": supported values: \"array\", \"boolean\", \"integer\", "
                              "\"number\", \"object\", \"string\"");
    }
    if (junctor) {
      return;
    }
    if (int_or_string) {
      if (type_it != schema.end()) {
        add(path + ".type", "Forbidden: must be empty when x-kubernetes-int-or-string is true");
      }
      return;
    }
    if (type.empty() && !preserve) {
      add(path + ".type", "Required value: must not be empty for specified object fields");
    }
  }

  void checkJunctorContents(const Json& schema, const std::string& path, bool junctor) {
    if (!junctor) {
      return;
    }
    const bool int_or_string_branch = schema.size() == 1 && (schema == Json{{"type", "integer"}} ||
                                                             schema == Json{{"type", "string"}});
    if (int_or_string_branch) {
      return;
    }
    for (const char* key : {"type", "description", "default", "nullable", "properties", "items",
                            "additionalProperties", "x-kubernetes-preserve-unknown-fields",
                            "x-kubernetes-int-or-string"}) {
      if (schema.contains(key)) {
        add(path + "." + key, "Forbidden: must not be used inside anyOf, allOf, oneOf or not");
      }
    }
  }

  void checkExtensions(const Json& schema, const std::string& path, bool int_or_string) {
    auto preserve = schema.find("x-kubernetes-preserve-unknown-fields");
    if (preserve != schema.end() && !(preserve->is_boolean() && preserve->get<bool>())) {
      add(path + ".x-kubernetes-preserve-unknown-fields",
          "Invalid value: " + preserve->dump() + ": must be true or undefined");
    }
    auto ios = schema.find("x-kubernetes-int-or-string");
    if (ios != schema.end() && !ios->is_boolean()) {
      add(path + ".x-kubernetes-int-or-string", "Invalid value: must be a boolean");
    }
    if (int_or_string) {
      for (const char* junctor : {"anyOf", "allOf"}) {
        auto it = schema.find(junctor);
        if (it != schema.end() && !isIntOrStringPair(*it)) {
          add(path + "." + junctor,
              "Forbidden: with x-kubernetes-int-or-string only [{type: integer}, {type: string}] "
              "is allowed");
        }
      }
      if (schema.contains("oneOf") || schema.contains("not")) {
        add(path, "Forbidden: x-kubernetes-int-or-string allows no oneOf or not");
      }
    }
    auto map_type = schema.find("x-kubernetes-map-type");
    if (map_type != schema.end() && *map_type != "atomic" && *map_type != "granular") {
      add(path + ".x-kubernetes-map-type", "Unsupported value: " + map_type->dump() +
                                               ": supported values: \"atomic\", \"granular\"");
    }
    auto list_type = schema.find("x-kubernetes-list-type");
    if (list_type != schema.end() && *list_type != "atomic" && *list_type != "set" &&
        *list_type != "map") {
      add(path + ".x-kubernetes-list-type", "Unsupported value: " + list_type->dump() +
                                                ": supported values: \"atomic\", \"map\", \"set\"");
    }
  }

  void checkShape(const Json& schema, const std::string& path, const std::string& type) {
    auto items = schema.find("items");
    if (type == "array" && items == schema.end()) {
      add(path + ".items", "Required value: must be specified for type array");
    }
    if (items != schema.end() && !items->is_object()) {
      add(path + ".items", "Forbidden: items must be a single schema");
    }
    auto props = schema.find("properties");
    auto additional = schema.find("additionalProperties");
    if (props != schema.end() && additional != schema.end()) {
      add(path + ".additionalProperties",
          "Forbidden: additionalProperties and properties are mutually exclusive");
    }
    if (props != schema.end() && !props->is_object()) {
      add(path + ".properties", "Invalid value: must be an object");
    }
    if (additional != schema.end() && !additional->is_object() &&
        !(additional->is_boolean() && additional->get<bool>())) {
      add(path + ".additionalProperties", "Invalid value: must be a schema or true");
    }
    if ((props != schema.end() || additional != schema.end()) && !type.empty() &&
        type != "object") {
      add(path + ".type", "Invalid value: \"" + type + "\": properties need type object");
    }
    auto required = schema.find("required");
    if (required == schema.end()) {
      return;
    }
    if (!required->is_array()) {
      add(path + ".required", "Invalid value: must be a list of property names");
      return;
    }
    for (const Json& name : *required) {
      if (!name.is_string()) {
        add(path + ".required", "Invalid value: " + name.dump() + ": must be a string");
      } else if (props == schema.end() || !props->is_object() || !props->contains(name)) {
        add(path + ".required", "Invalid value: " + name.dump() + ": is not a declared property");
      }
    }
  }

  void checkValueKeywords(const Json& schema, const std::string& path, const std::string& type,
                          bool int_or_string) {
    auto enum_it = schema.find("enum");
    if (enum_it != schema.end()) {
      if (type != "string") {
        add(path + ".enum", "Forbidden: enum is only allowed with type string");
      }
      if (!enum_it->is_array() || enum_it->empty()) {
        add(path + ".enum", "Invalid value: must be a non-empty list");
      } else {
        for (const Json& v : *enum_it) {
          if (!v.is_string()) {
            add(path + ".enum", "Invalid value: " + v.dump() + ": must be a string");
          }
        }
      }
    }
    const std::string format = stringField(schema, "format");
    if (schema.contains("format") && !formatFitsType(format, type, int_or_string)) {
      add(path + ".format", "Unsupported value: " + schema.at("format").dump() +
                                ": not a known format for type \"" + type + "\"");
    }
    auto pattern = schema.find("pattern");
    if (pattern != schema.end()) {
      if (!pattern->is_string() || !Pattern::compile(pattern->get<std::string>())) {
        add(path + ".pattern", "Invalid value: " + pattern->dump() + ": does not compile");
      }
      if (type != "string" && !int_or_string) {
        add(path + ".pattern", "Forbidden: pattern needs type string");
      }
    }
    for (const char* key : {"minimum", "maximum"}) {
      if (schema.contains(key) && type != "integer" && type != "number") {
        add(path + "." + key, "Forbidden: needs type integer or number");
      }
    }
    for (const char* key : {"minItems", "maxItems"}) {
      if (schema.contains(key) && type != "array") {
        add(path + "." + key, "Forbidden: needs type array");
      }
    }
    for (const char* key : {"minLength", "maxLength"}) {
      if (schema.contains(key) && type != "string") {
        add(path + "." + key, "Forbidden: needs type string");
      }
    }
  }

  void checkDefault(const Json& schema, const std::string& path, bool junctor, bool is_root) {
    auto def = schema.find("default");
    if (def == schema.end() || junctor) {
      return;
    }
    if (is_root) {
      add(path + ".default", "Forbidden: the root may not have a default");
      return;
    }
    ValidationResult result = validate(schema, *def, path + ".default");
    for (const FieldError& error : result.errors) {
      add(path + ".default", "Invalid value: " + def->dump() + ": " + error.toString());
    }
    for (const std::string& warning : result.warnings) {
      add(path + ".default", "Invalid value: " + def->dump() + ": must not have " + warning);
    }
  }

  void recurse(const Json& schema, const std::string& path) {
    auto props = schema.find("properties");
    if (props != schema.end() && props->is_object()) {
      for (auto it = props->begin(); it != props->end(); ++it) {
        node(it.value(), path + ".properties[" + it.key() + "]", false);
      }
    }
    auto additional = schema.find("additionalProperties");
    if (additional != schema.end() && additional->is_object()) {
      node(*additional, path + ".additionalProperties", false);
    }
    auto items = schema.find("items");
    if (items != schema.end() && items->is_object()) {
      node(*items, path + ".items", false);
    }
    for (const char* junctor : {"anyOf", "allOf", "oneOf"}) {
      auto it = schema.find(junctor);
      if (it == schema.end()) {
        continue;
      }
      if (!it->is_array()) {
        add(path + "." + junctor, "Invalid value: must be a list of schemas");
        continue;
      }
      for (size_t i = 0; i < it->size(); ++i) {
        node((*it)[i], path + "." + junctor + "[" + std::to_string(i) + "]", true);
      }
    }
    auto not_it = schema.find("not");
    if (not_it != schema.end()) {
      node(*not_it, path + ".not", true);
    }
  }

  std::vector<std::string>& out_;
};

}  // namespace

std::vector<std::string> checkStructural(const Json& schema, const std::string& path) {
  std::vector<std::string> out;
  StructuralChecker(out).root(schema, path);
  return out;
}

}  // namespace koord::testing::schema
