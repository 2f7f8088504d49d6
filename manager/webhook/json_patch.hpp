// createJsonPatch: the RFC 6902 JSONPatch that turns one JSON document into another, for the
// mutating webhook's answer. Deterministic (object keys in sorted order, array elements by index):
// equal values give no operation; values of different types, and scalars that differ, one
// "replace"; object members missing on one side a "remove" or an "add"; arrays are compared
// element by element, then shortened from the end ("remove" of the last index first) or extended
// ("add" at each new index). Paths are RFC 6901 JSON Pointers ("~" written "~0", "/" "~1").
// Applying the patch to `from` gives `to`. Pure; never throws.
#pragma once

#include "koord/api/codec.hpp"

namespace koord::manager::webhook {

[[nodiscard]] api::Json createJsonPatch(const api::Json& from, const api::Json& to);

}  // namespace koord::manager::webhook
