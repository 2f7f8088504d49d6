// Spec patches: how the NodeSLO / NodeMetric controller turns "the spec the object has" and "the
// spec it should have" into one JSON merge patch (RFC 7386) that touches the spec only.
//
// Both specs are compared as JSON with null members removed (a model's unset optional and an
// absent key are the same thing on the wire). The patch sets every key whose value differs
// (objects recursively, arrays as a whole), sets null for every key the object has and the
// desired spec does not (so fields someone added by hand are removed), and carries
// metadata.resourceVersion: the API server refuses it with a Conflict when the object changed
// since the cache saw it, and the controller retries after its backoff. status is never named.
#pragma once

#include <optional>
#include <string>

#include "koord/api/codec.hpp"

namespace koord::manager::nodeslo {

// `j` with every null member of every object removed (recursively, also inside arrays).
[[nodiscard]] api::Json withoutNulls(api::Json j);

// The merge patch that turns `from` into `to`: for two objects, the keys of `to` whose values
// differ (recursing into objects on both sides) and null for keys only in `from`; an empty object
// when they are equal. Anything else (an array, a scalar, a type change) is `to` itself.
[[nodiscard]] api::Json mergePatchDiff(const api::Json& from, const api::Json& to);

// The merge patch body {"metadata":{"resourceVersion":...},"spec":<diff>} that turns the spec
// `current` into `desired` (both already withoutNulls), or nullopt when they are equal (no
// write). An empty `resource_version` leaves metadata out.
[[nodiscard]] std::optional<std::string> specPatchBody(const api::Json& current,
                                                       const api::Json& desired,
                                                       const std::string& resource_version);

}  // namespace koord::manager::nodeslo
