// Direct JSON writers for the replies the extender sends on every scheduling attempt (the filter
// result and the priority list), which for a few hundred nodes cost several times more through a
// JSON tree than written straight into a string.
//
// Each returns exactly the bytes of `toJson(v).dump(-1, ' ', false, error_handler_t::replace)`:
// the same keys in the same (sorted) order, the same escaping, invalid UTF-8 replaced by U+FFFD.
// Never throws.
#pragma once

#include <string>

#include "koord/api/extender/types.hpp"

namespace koord::extender::server::wire {

[[nodiscard]] std::string writeJson(const api::extender::ExtenderFilterResult& v);
[[nodiscard]] std::string writeJson(const api::extender::HostPriorityList& v);

}  // namespace koord::extender::server::wire
