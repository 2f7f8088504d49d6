// ASCII case-insensitive comparison of JSON keys, as encoding/json matches a key to a Go field
// name. One rule for every reader of extender/v1 bodies: the typed decoders here (types.cpp) and
// koord-extender's ExtenderArgs decoder and key scan (extender/server/wire/), which must match
// the keys fromJson matches. Public only for those; not a general string helper.
#pragma once

#include <cstddef>
#include <string_view>

namespace koord::api::extender::detail {

// True when `a` and `b` are equal once ASCII letters are folded to lower case.
inline bool equalFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace koord::api::extender::detail
