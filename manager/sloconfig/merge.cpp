#include "manager/sloconfig/merge.hpp"

namespace koord::manager::sloconfig {

void mergeJson(api::Json& base, const api::Json& over) {
  if (over.is_null()) {
    return;
  }
  if (!base.is_object() || !over.is_object()) {
    base = over;
    return;
  }
  for (const auto& [key, value] : over.items()) {
    if (value.is_null()) {
      continue;
    }
    auto it = base.find(key);
    if (it == base.end()) {
      base[key] = value;
    } else {
      mergeJson(*it, value);
    }
  }
}

}  // namespace koord::manager::sloconfig
