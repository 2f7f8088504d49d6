// OpenAPI v3 structural-schema validation of custom resources, as kube-apiserver does it for the
// subset of the schema language that koord's CRDs use (deploy/crds/).
//
// Supported keywords: type (object, array, string, integer, number, boolean), properties,
// required, additionalProperties (schema or boolean), items, enum, pattern (ECMAScript regex),
// minimum / maximum, minItems / maxItems, minProperties, maxLength, nullable, default, format
// (int32, int64, date-time), anyOf, x-kubernetes-int-or-string,
// x-kubernetes-preserve-unknown-fields. Unlike the apiserver, which prunes unknown fields silently,
// validate() reports every field it would prune as a warning, so that a misspelt key in a user's
// YAML is visible.
//
// All functions are pure and thread-safe; none throws.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/status.hpp"

namespace koord::testing::schema {

using Json = nlohmann::json;

// The reason of a field error, worded as kube-apiserver words it (field.ErrorType).
enum class FieldErrorType {
  kRequired,     // "Required value"
  kInvalid,      // "Invalid value"
  kUnsupported,  // "Unsupported value" (enum)
  kTypeInvalid,  // "Invalid value" with a type mismatch
};

struct FieldError {
  FieldErrorType type = FieldErrorType::kInvalid;
  // Kubernetes field path: "spec.owners[0].labelSelector", "" for the root.
  std::string path;
  // The detail after the reason, e.g. "supported values: \"Aligned\", \"Restricted\"".
  std::string detail;
  // The offending value, rendered as JSON; empty for kRequired.
  std::string value;

  // "spec.owners: Required value",
  // "spec.allocatePolicy: Unsupported value: \"Foo\": supported values: \"Aligned\", ...".
  [[nodiscard]] std::string toString() const;
};

struct ValidationResult {
  std::vector<FieldError> errors;
  // Fields the apiserver would prune, e.g. "unknown field \"spec.ownres\"".
  std::vector<std::string> warnings;

  [[nodiscard]] bool ok() const { return errors.empty(); }
  // Ok when there are no errors; otherwise kInvalidArgument reading
  // "failed to validate '<object>': <error>; <error>; ...". Warnings never fail.
  [[nodiscard]] Status toStatus(std::string_view object) const;
};

// Validates `value` against `schema` (a CRD version's openAPIV3Schema, or any node of one).
// Defaults in the schema count as present for `required`, as they would after the apiserver's
// defaulting; null is accepted only where nullable is true and otherwise treated as absent, as
// the apiserver drops such nulls. `path` prefixes every reported field path.
[[nodiscard]] ValidationResult validate(const Json& schema, const Json& value,
                                        const std::string& path = "");

// Validates a whole custom resource: validate() plus the apiserver's root checks (an object with
// metadata.name or metadata.generateName, apiVersion and kind).
[[nodiscard]] ValidationResult validateObject(const Json& schema, const Json& object);

// Returns a copy of `value` with the schema's defaults filled in where a field is absent and its
// parent object exists, recursing into properties, items and additionalProperties (the
// apiserver's defaulting). Values that do not match the schema's shape are left alone.
[[nodiscard]] Json applyDefaults(const Json& schema, const Json& value);

// Every violation of the structural-schema rules koord enforces, each as "<path>: <problem>",
// with `path` the schema path (e.g. "openAPIV3Schema.properties[spec].type: Required value").
// Rules: the root is an object; every node has a type unless it sets x-kubernetes-int-or-string
// or x-kubernetes-preserve-unknown-fields; a type is one of the six OpenAPI types; arrays have
// items; properties and additionalProperties are exclusive; x-kubernetes-int-or-string nodes have
// no type and only the anyOf/allOf [integer, string] pair; inside anyOf/allOf/oneOf/not there is
// no type, description, default, nullable, properties, items or additionalProperties (beyond that
// pair); x-kubernetes-preserve-unknown-fields is only ever true; the root's metadata allows only
// name and generateName, as strings; enum only on strings, with string values; formats are known
// for their type; patterns compile; required names are declared properties; and every default
// validates against its own node and holds no field the node would prune.
[[nodiscard]] std::vector<std::string> checkStructural(const Json& schema,
                                                       const std::string& path = "openAPIV3Schema");

}  // namespace koord::testing::schema
