// Resolution of YAML scalars to JSON values (private to koord_config).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace koord::config::detail {

// The JSON value of a scalar, or an error message when the scalar cannot be represented.
struct ResolvedScalar {
  nlohmann::json value;
  std::string error;  // empty on success
};

// `tag` is yaml-cpp's tag: "?" for a plain scalar, "!" for a quoted or block scalar, or an
// explicit tag such as "tag:yaml.org,2002:int". See yaml.hpp for the rules.
ResolvedScalar resolveScalar(const std::string& tag, const std::string& text);

// Whether a plain scalar reads as null: "", "~", "null", "Null", "NULL".
bool isNullText(const std::string& text);

}  // namespace koord::config::detail
