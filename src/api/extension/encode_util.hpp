// Encoding helpers for Go's omitempty rules, shared by the CRD and payload model sources
// (private to src/api).
#pragma once

#include <optional>
#include <string>

#include "koord/api/codec.hpp"

namespace koord::api::extension::internal {

// Go integer with omitempty: written only when non-zero.
template <typename Int>
void nonZero(ObjectEncoder& e, const char* key, Int value) {
  if (value != 0) {
    e.always(key, value);
  }
}

// Go bool with omitempty: written only when true.
inline void trueOnly(ObjectEncoder& e, const char* key, bool value) {
  if (value) {
    e.always(key, value);
  }
}

// A non-pointer metav1.Time: Go writes the zero time as null and never omits it.
inline void timeOrNull(ObjectEncoder& e, const char* key, const std::string& value) {
  if (value.empty()) {
    e.always(key, Json(nullptr));
  } else {
    e.always(key, value);
  }
}

// A Go pointer with omitempty: written whenever present, even when it encodes as {} or [].
template <typename T>
void ifPresent(ObjectEncoder& e, const char* key, const std::optional<T>& value) {
  if (value) {
    e.always(key, *value);
  }
}

}  // namespace koord::api::extension::internal
