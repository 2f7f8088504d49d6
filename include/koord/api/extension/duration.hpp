// Go time.Duration text, as metav1.Duration and the duration annotations carry it ("24h",
// "1m30s", "1.5h", "300ms", "0"). Kept in the models as text; parsed where a value is needed.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::api::extension {

// Parses Go's ParseDuration grammar: an optional sign, then one or more decimal numbers (with an
// optional fraction) each followed by a unit (ns, us, µs, μs, ms, s, m, h); "0" alone is valid.
// kInvalidArgument `invalid duration "<text>"` (with the reason) otherwise, including overflow
// of int64 nanoseconds.
[[nodiscard]] Result<std::chrono::nanoseconds> parseDuration(std::string_view text);

// Go's Duration.String(): "0s", "1.5s", "24h0m0s", "300ms", "1µs", "-2m0s".
[[nodiscard]] std::string formatDuration(std::chrono::nanoseconds value);

}  // namespace koord::api::extension
