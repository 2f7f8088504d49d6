// Encoding helpers shared by the core model sources (private to src/api/core).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"

namespace koord::api::core::internal {

// Go `int` with omitempty: written only when non-zero.
template <typename Int>
void nonZero(ObjectEncoder& e, const char* key, Int value) {
  if (value != 0) {
    e.always(key, value);
  }
}

// A Go pointer with omitempty: written whenever set, even when the value is empty ("" or {}).
template <typename T>
void ifSet(ObjectEncoder& e, const char* key, const std::optional<T>& value) {
  if (value) {
    e.always(key, *value);
  }
}

template <typename T>
void ifSet(ObjectEncoder& e, const char* key, const Box<T>& value) {
  if (value) {
    e.always(key, *value);
  }
}

// Go `bool` with omitempty: written only when true.
inline void trueOnly(ObjectEncoder& e, const char* key, bool value) {
  if (value) {
    e.always(key, value);
  }
}

// A non-pointer metav1.Time: Go writes a zero time as null, never omits it.
inline void timeOrNull(ObjectEncoder& e, const char* key, const std::string& value) {
  if (value.empty()) {
    e.always(key, Json(nullptr));
  } else {
    e.always(key, value);
  }
}

}  // namespace koord::api::core::internal
