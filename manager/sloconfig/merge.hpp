// Koordinator's MergeCfg (pkg/util/sloconfig): the new object is marshalled and unmarshalled onto a
// copy of the old one, so every field the new object sets overrides the old value and every field
// it leaves unset keeps it. Nested objects merge field by field; lists and scalars are replaced;
// null (unset) never overrides.
#pragma once

#include <string>

#include "koord/api/codec.hpp"
#include "koord/common/status.hpp"

namespace koord::manager::sloconfig {

// `over` merged into `base` as above (in place). Both are JSON values; when either is not an
// object, `over` replaces `base` unless it is null.
void mergeJson(api::Json& base, const api::Json& over);

// mergeJson of the two models' JSON, decoded back into a model. A model that came out of
// fromJson encodes and decodes unchanged, so decoding cannot fail; should it, `base` is returned.
template <typename T>
[[nodiscard]] T mergeModel(const T& base, const T& over) {
  using api::fromJson;
  using api::toJson;
  api::Json merged = toJson(base);
  mergeJson(merged, toJson(over));
  T out{};
  if (!fromJson(merged, out, "").isOk()) {
    return base;
  }
  return out;
}

}  // namespace koord::manager::sloconfig
