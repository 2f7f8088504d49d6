// metav1.Time text: RFC 3339 as the API server writes it ("2006-01-02T15:04:05Z"), with optional
// fractional seconds and a "+07:00"/"-07:00" offset instead of Z. Pure; thread-safe.
#pragma once

#include <chrono>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::api::core {

// kInvalidArgument `invalid time "<text>": want RFC 3339 such as 2006-01-02T15:04:05Z` otherwise.
[[nodiscard]] Result<std::chrono::system_clock::time_point> parseTime(std::string_view text);

}  // namespace koord::api::core
